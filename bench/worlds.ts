// The local worlds of the HTTP benchmarks, in a process of their own (as a remote node would be):
// the local chain and the local Solana, until the benchmark ends. `startWorldsHost` spawns this
// file, which answers with what the benchmarks ask for as one JSON line.
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import type { ChainsFileEntry } from '../src/config/chains.ts'
import type { SolanaPricing } from '../src/engines/solana/collect/context.ts'

/** What the worlds offer a benchmark. */
export interface Worlds {
  chain: ChainsFileEntry
  /** Addresses a report can be asked of: the zoo's tokens, its Uniswap V2 pairs, the world's contracts. */
  tokens: string[]
  solanaUrl: string
  mints: string[]
  pricing: SolanaPricing
}

/** Starts the worlds in a child process; `stop` ends them. */
export async function startWorldsHost(): Promise<{ worlds: Worlds; stop: () => void; host: ChildProcess }> {
  const host = spawn(process.execPath, ['--conditions=tokenrisk-source', '--import', 'tsx', import.meta.filename, '--worlds'], { stdio: ['pipe', 'pipe', 'inherit'] })
  const worlds = JSON.parse(
    await new Promise<string>((resolve, reject) => {
      createInterface({ input: host.stdout! }).once('line', resolve)
      host.once('exit', (code) => reject(new Error(`the worlds' host exited (${code})`)))
    }),
  ) as Worlds
  return { worlds, host, stop: () => host.stdin!.end() }
}

/** The worlds' host: the local chain and the local Solana, until its input ends. */
async function worldsChild(): Promise<void> {
  const { startWorld } = await import('@tokenrisk/devworld/world')
  const { startSolanaWorld } = await import('@tokenrisk/devworld/solana/world')
  const { localChains } = await import('@tokenrisk/devworld/local-chain')
  const { TEST_DEVNET_DIR: dataDir } = await import('../test/helpers/paths.ts')
  const [world, solana] = await Promise.all([startWorld({ dataDir }), startSolanaWorld({ dataDir })])
  const m = world.manifest
  const pairs = m.tokens.flatMap((t) => t.pools.filter((p) => p.type === 'uniswap-v2').map((p) => p.pairAddress))
  const worlds: Worlds = {
    chain: localChains(m).entries[0],
    tokens: [...new Set([...m.tokens.map((t) => t.address), ...pairs, ...Object.values(m.contracts)])],
    solanaUrl: solana.rpcUrl,
    mints: solana.manifest.mints.map((x) => x.address),
    pricing: solana.manifest.pricing,
  }
  process.stdout.write(`${JSON.stringify(worlds)}\n`)
  process.stdin.resume()
  process.stdin.once('end', () => void Promise.all([world.stop(), solana.stop()]).then(() => process.exit(0)))
}

if (process.argv[1] === import.meta.filename && process.argv[2] === '--worlds') await worldsChild()
