import { describeSettings } from '../config/env.ts'
import { BaseError, ConfigError, InputError } from '../errors.ts'
import { AUDIT_USAGE, auditCommand, workerCommand } from './audit.ts'
import { AUDITS_USAGE, auditsCommand } from './audits.ts'
import { DEVNET_USAGE, devnetCommand } from './devnet.ts'
import { processIo, type Io } from './io.ts'
import { KEYS_USAGE, keysCommand } from './keys.ts'
import { SCAN_USAGE, scanCommand } from './scan.ts'
import { serveCommand } from './serve.ts'

const USAGE = `tokenrisk — token risk reports and Solidity audit history

Usage:
  tokenrisk serve [--only tokens|audits] [flags]   run the HTTP service (what npm start runs)
  ${KEYS_USAGE.split('\n').join('\n  ')}
  ${SCAN_USAGE}
  ${DEVNET_USAGE}
  ${AUDIT_USAGE}
  ${AUDITS_USAGE}
  tokenrisk --help

Configuration (environment variable / flag; flags win):
${describeSettings().join('\n')}
  RPC_URL_<chainId>                     EVM JSON-RPC URLs of a chain, comma-separated (e.g. RPC_URL_1)
`

type Command = (argv: string[], io: Io) => Promise<number>

const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  keys: keysCommand,
  audits: auditsCommand,
  audit: auditCommand,
  worker: workerCommand,
  scan: scanCommand,
  devnet: devnetCommand,
}

/**
 * Entry point of the `tokenrisk` command; returns the exit code. Expected failures (bad input,
 * bad configuration, an unreachable dependency) print one clear line, never a stack.
 */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE)
    return 0
  }
  const run = COMMANDS[command]
  if (!run) {
    io.err(`unknown command '${command}'\n\n${USAGE}`)
    return 2
  }
  try {
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
