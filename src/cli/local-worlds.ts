import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ChainsFileEntry } from '../config/chains.ts'
import type { SolanaPricing } from '../engines/solana/collect/context.ts'
import { ConfigError } from '../errors.ts'

/**
 * The local worlds — a local EVM chain (anvil, a Uniswap DEX, a zoo of risky tokens) and a local
 * Solana — come from the repository's package `@tokenrisk/devworld`, a development dependency: a
 * production install (`npm install --omit=dev`) has neither its tools nor the worlds, and serves
 * the chains it is configured with. The service loads the package only when it starts a world,
 * and knows it only through this interface, which the package implements.
 */
export const LOCAL_WORLDS_PACKAGE = '@tokenrisk/devworld'

/**
 * Files a running world leaves under `<dataDir>/devnet/` for other processes (`tokenrisk scan`):
 * the local chain as a chains file (docs/chains.md), the local Solana's endpoint.
 */
export const LOCAL_CHAINS_FILE = 'chains.json'
export const LOCAL_SOLANA_FILE = 'solana.json'

export interface StartLocalChainOptions {
  /** The service's data directory; the world lives in `<dataDir>/devnet/`. */
  dataDir: string
  /** anvil's port; a free one when absent. */
  port?: number
  log?: (line: string) => void
  /** Build the world anew instead of loading the saved one. */
  rebuild?: boolean
}

/** A running local EVM chain. */
export interface LocalChain {
  /** The chain as an entry of a chains file, its RPC URL included. */
  chain: ChainsFileEntry
  rpcUrl: string
  /** Milliseconds from the call to a ready world. */
  readyMs: number
  /** Whether a saved world was loaded rather than built. */
  loaded: boolean
  /** How many tokens the zoo holds. */
  tokenCount: number
  /** Zoo tokens worth a ready `curl` command, the most telling first. */
  showcase: { name: string; address: string; behaviours: string[] }[]
  /** Lines that describe the world: RPC URL, contracts, every token and its behaviours. */
  describe(): string[]
  /** The world's ground truth (every expected check, tax, holder and lock), for people and tests. */
  manifestPath: string
  /** Resolves when the chain has exited (after `stop()`, or on its own). */
  exited: Promise<void>
  stop(): Promise<void>
}

/** A running local Solana. */
export interface LocalSolana {
  rpcUrl: string
  /** How the world's pools are priced: the Solana engine's `pricing`. */
  pricing: SolanaPricing
  /** Mints worth a ready `curl` command. */
  showcase: { name: string; address: string }[]
  stop(): Promise<void>
}

/** What `@tokenrisk/devworld` exports. */
export interface LocalWorlds {
  /** The worlds' tools that are not installed: none in a development install. */
  missingTools(): string[]
  startLocalChain(options: StartLocalChainOptions): Promise<LocalChain>
  startLocalSolana(options: { dataDir: string; log?: (line: string) => void }): Promise<LocalSolana>
}

/** The local Solana's endpoint, as a running world leaves it in `<dataDir>/devnet/solana.json`. */
export interface LocalSolanaEndpoint {
  rpcUrl: string
  pricing: SolanaPricing
}

function isModuleMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND'
}

function notInstalled(why: string, missing: string[]): ConfigError {
  return new ConfigError(
    `${why}, but the local worlds are not installed (missing: ${missing.join(', ')}). ` +
      'They come with the development install (npm install); a production install (npm install --omit=dev) serves configured chains only: ' +
      'set RPC_URL_<chainId> or CHAINS_FILE for EVM chains and SOLANA_RPC_URL for Solana, or DEVNET=off to serve without them.',
  )
}

/**
 * Loads `@tokenrisk/devworld`, or throws a `ConfigError` that says what is missing and what to
 * configure instead. `why` says what needs the worlds ("no chain is configured").
 *
 * @example
 * const worlds = await loadLocalWorlds('no EVM chain is configured')
 * const chain = await worlds.startLocalChain({ dataDir: './data' })
 */
export async function loadLocalWorlds(why: string): Promise<LocalWorlds> {
  let worlds: LocalWorlds
  try {
    worlds = (await import(LOCAL_WORLDS_PACKAGE)) as LocalWorlds
  } catch (error) {
    if (isModuleMissing(error)) throw notInstalled(why, [LOCAL_WORLDS_PACKAGE])
    throw error
  }
  const missing = worlds.missingTools()
  if (missing.length > 0) throw notInstalled(why, missing)
  return worlds
}

function readJson(path: string): unknown {
  if (!existsSync(path)) return undefined
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new ConfigError(`${path} is not valid JSON (${(error as Error).message})`)
  }
}

/** The local chain a running world left under the data dir, as chains-file entries; none without one. */
export function localChainEntries(dataDir: string): ChainsFileEntry[] {
  const json = readJson(join(dataDir, 'devnet', LOCAL_CHAINS_FILE))
  if (json === undefined) return []
  if (!Array.isArray(json)) throw new ConfigError(`${join(dataDir, 'devnet', LOCAL_CHAINS_FILE)} must be a chains file (a JSON array)`)
  return json as ChainsFileEntry[]
}

/** The local Solana a running world left under the data dir, when there is one. */
export function localSolanaEndpoint(dataDir: string): LocalSolanaEndpoint | undefined {
  const path = join(dataDir, 'devnet', LOCAL_SOLANA_FILE)
  const json = readJson(path) as Partial<LocalSolanaEndpoint> | undefined
  if (json === undefined) return undefined
  const pricing = json.pricing
  if (typeof json.rpcUrl !== 'string' || !pricing || !Array.isArray(pricing.stablecoins) || !Array.isArray(pricing.solUsdPools)) {
    throw new ConfigError(`${path} must hold {"rpcUrl": "...", "pricing": {"stablecoins": [...], "solUsdPools": [...]}}`)
  }
  return { rpcUrl: json.rpcUrl, pricing: { stablecoins: pricing.stablecoins, solUsdPools: pricing.solUsdPools } }
}
