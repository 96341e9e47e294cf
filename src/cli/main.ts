import { COMMAND_NAMES, describeSettings, PATTERN_SETTINGS, SETTINGS, type CommandName } from '../config/settings.ts'
import { BaseError, ConfigError, InputError } from '../errors.ts'
import { commandHelp, COMMANDS, type CommandSpec } from './commands.ts'
import { processIo, type Io } from './io.ts'
import { tokenriskVersion } from './project.ts'

/**
 * A reader that stops early (`tokenrisk … | head -1`) closes the pipe: what is left to print goes
 * nowhere, and the command ends quietly, successfully, as other tools do — never with a stack.
 */
function quietBrokenPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount('error') > 0) continue
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0)
      throw error
    })
  }
}

function usage(): string {
  const width = Math.max(...COMMAND_NAMES.map((name) => name.length))
  const patterns = PATTERN_SETTINGS.map((p) => `  ${p.env}  ${p.help.replace(/`/g, '')} [${p.commands.join(', ')}]`)
  return [
    'tokenrisk — token risk reports and Solidity audit history',
    '',
    'Commands:',
    ...COMMAND_NAMES.map((name) => `  ${name.padEnd(width)}  ${COMMANDS[name].summary}`),
    '',
    'Usage:',
    ...COMMAND_NAMES.flatMap((name) => COMMANDS[name].usage.map((u) => `  ${u}`)),
    "  tokenrisk help <command>        a command's options and settings (or tokenrisk <command> --help)",
    '  tokenrisk --version             the version (also -v)',
    '',
    'Settings: environment variables, each also a flag of the commands in brackets (flags win):',
    ...describeSettings(Object.entries(SETTINGS), { commands: true }),
    ...patterns,
    '',
  ].join('\n')
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help'
const isVersion = (arg: string | undefined) => arg === '--version' || arg === '-V' || arg === '-v' || arg === 'version'
const commandOf = (name: string): CommandSpec | undefined => ((COMMAND_NAMES as readonly string[]).includes(name) ? COMMANDS[name as CommandName] : undefined)

/**
 * Entry point of the `tokenrisk` command; returns the exit code. Only the command that runs is
 * imported, so that the help and light commands start fast. Expected failures (bad input, bad
 * configuration, an unreachable dependency) print one clear line, never a stack.
 */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  if (io === processIo) quietBrokenPipe()
  const [command, ...rest] = argv
  if (isVersion(command)) {
    io.out(`tokenrisk ${tokenriskVersion()}`)
    return 0
  }
  if (command === undefined || isHelp(command)) {
    // `tokenrisk help scan`: that command's help.
    const about = rest[0]
    if (about === undefined) {
      io.out(usage())
      return 0
    }
    const spec = commandOf(about)
    if (!spec) {
      io.err(`unknown command '${about}': the commands are ${COMMAND_NAMES.join(', ')}`)
      return 2
    }
    io.out(commandHelp(spec))
    return 0
  }
  const spec = commandOf(command)
  if (!spec) {
    io.err(`unknown command '${command}'\n\n${usage()}`)
    return 2
  }
  if (rest.some((arg) => arg === '--help' || arg === '-h')) {
    io.out(commandHelp(spec))
    return 0
  }
  try {
    const run = await spec.load()
    return await run(rest, io)
  } catch (error) {
    if (error instanceof ConfigError || error instanceof InputError) {
      io.err(error.message)
      return 2
    }
    if (error instanceof BaseError) {
      io.err(`${error.message}${error.details ? ` (${error.details})` : ''}`)
      return 1
    }
    io.err(`unexpected error: ${(error as Error).stack ?? String(error)}`)
    return 1
  }
}
