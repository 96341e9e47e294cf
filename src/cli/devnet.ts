import { parseArgs } from 'node:util'
import { InputError } from '../errors.ts'
import { processIo, type Io } from './io.ts'
import { loadLocalWorlds, type LocalChain } from './local-worlds.ts'

export const DEVNET_USAGE = `tokenrisk devnet [--data-dir D] [--port P] [--rebuild]   run the local chain world alone`

const HELP = `${DEVNET_USAGE}

Starts anvil on 127.0.0.1 with the local world (Uniswap V2 and V3, USD, WETH, the token zoo),
prints its RPC URL and addresses, writes <data-dir>/devnet/manifest.json, and runs until
Ctrl-C (SIGINT) or SIGTERM.

  --data-dir D   where the world is saved and the manifest written (env DATA_DIR, default ./data)
  --port P       anvil's port (default: a free one)
  --rebuild      build the world anew instead of loading the saved one`

const DEFAULT_DATA_DIR = './data'
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
  let values
  try {
    values = parseArgs({
      args: argv,
      options: {
        'data-dir': { type: 'string' },
        port: { type: 'string' },
        rebuild: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${DEVNET_USAGE}`)
    return 2
  }
  if (values.help) {
    io.out(HELP)
    return 0
  }
  let port: number | undefined
  try {
    if (values.port !== undefined) {
      if (!/^\d+$/.test(values.port) || Number(values.port) < 1 || Number(values.port) > MAX_PORT) {
        throw new InputError(`--port must be a whole number from 1 to ${MAX_PORT}`)
      }
      port = Number(values.port)
    }
  } catch (error) {
    io.err((error as Error).message)
    return 2
  }
  const dataDir = values['data-dir'] ?? io.env.DATA_DIR ?? DEFAULT_DATA_DIR

  // Until the world is up, a signal ends the process the default way (anvil goes with it).
  const worlds = await loadLocalWorlds('tokenrisk devnet runs the local chain world')
  let world: LocalChain
  try {
    io.err(`devnet: starting the local chain world (data in ${dataDir})`)
    world = await worlds.startLocalChain({ dataDir, port, log: (line) => io.err(line), rebuild: values.rebuild === true })
  } catch (error) {
    const details = (error as { details?: string }).details
    io.err(`devnet could not start: ${(error as Error).message}${details ? `\n${details}` : ''}`)
    return 1
  }
  const stopRequested = waitForStop(options.until)
  for (const line of world.describe()) io.out(line)
  io.out('\nPress Ctrl-C to stop.')
  const outcome = await Promise.race([stopRequested, world.exited.then(() => 'exited' as const)])
  if (outcome === 'exited') {
    io.err('devnet: anvil exited on its own')
    return 1
  }
  io.err(`devnet: ${outcome} received, stopping anvil`)
  await world.stop()
  return 0
}
