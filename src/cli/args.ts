import { parseArgs } from 'node:util'
import { CONFIG_FLAGS, loadConfig, type Config } from '../config/env.ts'
import { InputError } from '../errors.ts'

export interface ParsedCommand {
  config: Config
  values: Record<string, string | boolean | string[] | undefined>
  positionals: string[]
}

export interface OptionSpec {
  type: 'string' | 'boolean'
  short?: string
  multiple?: boolean
}

/**
 * Parses a command's arguments: its own options plus every configuration flag
 * (`--data-dir`, `--database-url`, ...), then loads the configuration from env and flags.
 */
export function parseCommand(
  argv: string[],
  options: Record<string, OptionSpec> = {},
  env: NodeJS.ProcessEnv = process.env,
): ParsedCommand {
  const all: Record<string, OptionSpec> = { ...options }
  for (const flag of CONFIG_FLAGS) all[flag] ??= { type: 'string' }
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: all, allowPositionals: true, strict: true })
  } catch (error) {
    throw new InputError((error as Error).message)
  }
  const flags: Record<string, string> = {}
  for (const flag of CONFIG_FLAGS) {
    const v = parsed.values[flag]
    if (typeof v === 'string') flags[flag] = v
  }
  return { config: loadConfig(env, flags), values: parsed.values as ParsedCommand['values'], positionals: parsed.positionals }
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
