import { BaseError, ConfigError, InputError } from '../errors.ts'
import { optional, parseCommand, type ParsedCommand } from './args.ts'
import { commandHelp, COMMANDS } from './commands.ts'
import { lockDataDir, type DataDirLock } from './data-dir.ts'
import { processIo, type Io } from './io.ts'
import { loadLocalWorlds, type LocalChain } from './local-worlds.ts'

const MAX_PORT = 65_535

/** Resolves on the first SIGINT or SIGTERM (or when `until` settles), then stops listening. */
function waitForStop(until?: Promise<unknown>): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      resolve(signal)
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
    until?.then(
      () => onSignal('SIGTERM'),
      () => onSignal('SIGTERM'),
    )
  })
}

/**
 * `tokenrisk devnet`: runs the local chain world alone until SIGINT/SIGTERM; returns the exit
 * code (0 after a clean stop, 1 when the world could not start, 2 on bad arguments).
 *
 * @example
 * process.exitCode = await devnetCommand(['--port', '8545'])
 */
export async function devnetCommand(argv: string[], io: Io = processIo, options: { until?: Promise<unknown> } = {}): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(commandHelp(COMMANDS.devnet))
    return 0
  }
  let parsed: ParsedCommand
  let port: number | undefined
  try {
    parsed = parseCommand(COMMANDS.devnet, argv, io.env)
    if (parsed.positionals.length > 0) throw new InputError(`tokenrisk devnet takes no arguments: ${parsed.positionals.join(' ')}`)
    const portArg = optional(parsed.values, 'port')
    if (portArg !== undefined) {
      if (!/^\d+$/.test(portArg) || Number(portArg) < 1 || Number(portArg) > MAX_PORT) {
        throw new InputError(`--port must be a whole number from 1 to ${MAX_PORT}`)
      }
      port = Number(portArg)
    }
  } catch (error) {
    if (!(error instanceof BaseError)) throw error
    io.err(`${error.message}\n\nUsage: ${COMMANDS.devnet.usage.join('\n')}`)
    return 2
  }
  const { dataDir } = parsed.config

  // Until the world is up, a signal ends the process the default way (anvil goes with it).
  const worlds = await loadLocalWorlds('tokenrisk devnet runs the local chain world')
  // The world's files are written by the one process that owns the data directory.
  let lock: DataDirLock
  try {
    lock = lockDataDir(dataDir, 'devnet')
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    io.err(error.message)
    return 2
  }
  let world: LocalChain
  try {
    io.err(`devnet: starting the local chain world (data in ${dataDir})`)
    world = await worlds.startLocalChain({ dataDir, port, log: (line) => io.err(line), rebuild: parsed.values.rebuild === true })
  } catch (error) {
    lock.release()
    const details = (error as { details?: string }).details
    io.err(`devnet could not start: ${(error as Error).message}${details ? `\n${details}` : ''}`)
    return 1
  }
  lock.setUrl(world.rpcUrl)
  const stopRequested = waitForStop(options.until)
  for (const line of world.describe()) io.out(line)
  io.out('\nPress Ctrl-C to stop.')
  const outcome = await Promise.race([stopRequested, world.exited.then(() => 'exited' as const)])
  if (outcome === 'exited') {
    lock.release()
    io.err('devnet: anvil exited on its own')
    return 1
  }
  io.err(`devnet: ${outcome} received, stopping anvil`)
  await world.stop()
  lock.release()
  return 0
}
