import { parseArgs } from 'node:util'
import { loadConfig, settingsOf, type Config } from '../config/settings.ts'
import { InputError } from '../errors.ts'
import type { CommandSpec } from './commands.ts'
import { resolveDataDir } from './data-dir.ts'

export interface ParsedCommand {
  config: Config
  values: Record<string, string | boolean | string[] | undefined>
  positionals: string[]
}

/**
 * Parses a command's arguments: its own options and the flags of the settings it takes (from
 * the settings table), nothing else; then loads the configuration from `env` and those flags.
 *
 * @example
 * const { config, values, positionals } = parseCommand(COMMANDS.scan, ['0x…', '--chain', '1'], process.env)
 */
export function parseCommand(spec: CommandSpec, argv: string[], env: NodeJS.ProcessEnv = process.env): ParsedCommand {
  const settings = settingsOf(spec.name)
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {}
  for (const [name, o] of Object.entries(spec.options)) options[name] = { type: o.type, ...(o.multiple ? { multiple: true } : {}) }
  for (const [, s] of settings) options[s.flag] ??= { type: 'string' }
  let parsed
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new InputError(`${argumentProblem(error as NodeJS.ErrnoException)}; tokenrisk ${spec.name} --help lists its options`)
  }
  const flags: Record<string, string> = {}
  for (const [, s] of settings) {
    const v = parsed.values[s.flag]
    if (typeof v === 'string') flags[s.flag] = v
  }
  const config = loadConfig(env, flags)
  // The data directory is found, not relative to wherever the command happens to run (data-dir.ts).
  config.dataDir = resolveDataDir(config.dataDir, Boolean(flags['data-dir'] ?? env.DATA_DIR?.trim()))
  return { config, values: parsed.values as ParsedCommand['values'], positionals: parsed.positionals }
}

/** What is wrong with a command's arguments, in tokenrisk's words (the parser's name the option between quotes). */
function argumentProblem(error: NodeJS.ErrnoException): string {
  const option = /'(-{1,2}[^' ]+)/.exec(error.message)?.[1] ?? ''
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option} (a value starting with - goes after --)`
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /argument missing/.test(error.message) ? `option ${option} needs a value` : `option ${option} takes no value`
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return 'unexpected argument'
    default:
      return 'the arguments could not be read'
  }
}

/** An optional string option. */
export function optional(values: ParsedCommand['values'], name: string): string | undefined {
  const v = values[name]
  return typeof v === 'string' && v !== '' ? v : undefined
}

/** A required string option, or an `InputError` naming it. */
export function required(values: ParsedCommand['values'], name: string): string {
  const v = values[name]
  if (typeof v !== 'string' || v === '') throw new InputError(`--${name} is required`)
  return v
}
