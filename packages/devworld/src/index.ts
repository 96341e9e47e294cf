/**
 * The local worlds of tokenrisk, as the service starts them (`tokenrisk serve` with no chain
 * configured, `tokenrisk devnet`): a local EVM chain — anvil from npm with WETH, Uniswap V2 and V3,
 * a USD stablecoin, our LP locker and the token zoo — and a local Solana served by LiteSVM. This
 * entry implements the service's `LocalWorlds` interface; it loads the worlds, and so their tools,
 * only when one starts, so that it can say which tools are missing first.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { LocalChain, LocalSolana, LocalWorlds, StartLocalChainOptions } from 'tokenrisk/cli/local-worlds'
import { localChainEntry } from './local-chain.ts'
import { PACKAGE_ROOT } from './paths.ts'
import type { World } from './world.ts'

/** Zoo tokens the service's start banner shows a ready curl command for, in this order. */
const SHOWCASE_KEYS = ['clean', 'tax-3-7-1', 'honeypot', 'mintable', 'proxy-transparent']
/** How many tokens are shown when none of the showcase keys exists. */
const SHOWCASE_FALLBACK = 5

/**
 * The worlds' tools (this package's development dependencies) that cannot be found: all of them
 * in a production install, none in a development one.
 */
export function missingTools(): string[] {
  const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> }
  const require = createRequire(join(PACKAGE_ROOT, 'package.json'))
  return Object.keys(manifest.devDependencies ?? {}).filter((name) => {
    try {
      require.resolve(`${name}/package.json`)
      return false
    } catch (error) {
      // A package whose exports hide its package.json is installed all the same.
      return (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND'
    }
  })
}

/** Lines that describe a running world: RPC URL, contracts, every token with its behaviours. */
export function describeWorld(world: World): string[] {
  const m = world.manifest
  const lines = [
    `devnet ready in ${world.readyMs} ms (${world.loaded ? 'loaded the saved world' : 'built the world'})`,
    `RPC URL   ${world.rpcUrl}`,
    `chain id  ${world.chainId}   ready block ${m.readyBlock} (${new Date(m.readyTimestamp * 1000).toISOString()})`,
    `manifest  ${world.manifestPath}`,
    '',
    'contracts:',
  ]
  const width = Math.max(...Object.keys(m.contracts).map((k) => k.length))
  for (const [name, address] of Object.entries(m.contracts)) lines.push(`  ${name.padEnd(width)}  ${address}`)
  lines.push('', 'tokens (key, symbol, address, behaviours):')
  const keyWidth = Math.max(...m.tokens.map((t) => t.key.length))
  const symbolWidth = Math.max(...m.tokens.map((t) => t.symbol.length), 2)
  for (const t of m.tokens) {
    lines.push(`  ${t.key.padEnd(keyWidth)}  ${(t.symbol || '""').padEnd(symbolWidth)}  ${t.address}  ${t.behaviours.join(', ')}`)
  }
  return lines
}

/** Starts the local EVM chain (loading the saved world when it is still good). */
export async function startLocalChain(options: StartLocalChainOptions): Promise<LocalChain> {
  const { startWorld } = await import('./world.ts')
  const world = await startWorld({ dataDir: options.dataDir, port: options.port, log: options.log, useSavedState: options.rebuild !== true })
  const { tokens } = world.manifest
  const chosen = SHOWCASE_KEYS.map((key) => tokens.find((t) => t.key === key)).filter((t) => t !== undefined)
  return {
    chain: localChainEntry(world.manifest),
    rpcUrl: world.rpcUrl,
    readyMs: world.readyMs,
    loaded: world.loaded,
    tokenCount: tokens.length,
    showcase: (chosen.length > 0 ? chosen : tokens.slice(0, SHOWCASE_FALLBACK)).map((t) => ({ name: t.name, address: t.address, behaviours: t.behaviours })),
    describe: () => describeWorld(world),
    manifestPath: world.manifestPath,
    exited: world.exited,
    stop: () => world.stop(),
  }
}

/** Starts the local Solana: LiteSVM behind a Solana JSON-RPC server on 127.0.0.1. */
export async function startLocalSolana(options: { dataDir: string; log?: (line: string) => void }): Promise<LocalSolana> {
  const { startSolanaWorld } = await import('./solana/world.ts')
  const world = await startSolanaWorld({ dataDir: options.dataDir, log: options.log })
  const { pricing, mints } = world.manifest
  return {
    rpcUrl: world.rpcUrl,
    pricing: { stablecoins: pricing.stablecoins, solUsdPools: pricing.solUsdPools },
    showcase: mints.slice(0, 1).map((m) => ({ name: m.key, address: m.address })),
    stop: () => world.stop(),
  }
}

// The service's interface, checked here where it is implemented.
void ({ missingTools, startLocalChain, startLocalSolana } satisfies LocalWorlds)
