import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { getAddress } from 'viem/utils'
import { LOCAL_CHAINS_FILE, LOCAL_SOLANA_FILE, type LocalSolanaEndpoint } from 'tokenrisk/cli/local-worlds'
import type { ChainsFileEntry, DexConfig } from 'tokenrisk/config/chains'
import { writeAtomic } from './files.ts'
import type { DevnetManifest } from './manifest.ts'
import type { SolanaManifest } from './solana/manifest.ts'

/** Uniswap V3's fee tiers (hundredths of a basis point). */
const V3_FEE_TIERS = [100, 500, 3000, 10000]
/** PancakeSwap V3's fee tiers. */
const PANCAKE_V3_FEE_TIERS = [100, 500, 2500, 10000]
/** The tick spacings the world's Slipstream-interface factory enables (as Aerodrome's does). */
const SLIPSTREAM_TICK_SPACINGS = [1, 50, 100, 200, 2000]
/** Uniswap V2's swap fee, basis points. */
const V2_FEE_BPS = 30

/**
 * The local chain as the service knows chains: an entry of a chains file (docs/chains.md) with
 * its RPC URL, WETH, the USD stablecoin, the V2 (and V3 when present) DEX, our locker and the
 * burn addresses. It completes the shipped 31337 placeholder.
 *
 * @example
 * loadChainRegistry({ chains: { source: 'the local world', entries: [localChainEntry(world.manifest)] } })
 */
export function localChainEntry(manifest: DevnetManifest): ChainsFileEntry {
  const c = manifest.contracts
  const dexes: DexConfig[] = [
    { name: 'Uniswap V2', type: 'uniswap-v2', factory: getAddress(c.v2Factory), router: getAddress(c.v2Router), feeBps: V2_FEE_BPS, feeTiers: V3_FEE_TIERS },
  ]
  if (c.v3Factory) {
    dexes.push({
      name: 'Uniswap V3',
      type: 'uniswap-v3',
      factory: getAddress(c.v3Factory),
      ...(c.v3Quoter ? { quoter: getAddress(c.v3Quoter) } : {}),
      feeBps: 0,
      feeTiers: V3_FEE_TIERS,
    })
  }
  if (c.pancakeV3Factory) {
    dexes.push({ name: 'PancakeSwap V3', type: 'pancake-v3', factory: getAddress(c.pancakeV3Factory), feeBps: 0, feeTiers: PANCAKE_V3_FEE_TIERS })
  }
  if (c.solidlyFactory) dexes.push({ name: 'Aerodrome', type: 'solidly', factory: getAddress(c.solidlyFactory), feeBps: 0, feeTiers: [] })
  if (c.slipstreamFactory) dexes.push({ name: 'Aerodrome Slipstream', type: 'slipstream', factory: getAddress(c.slipstreamFactory), feeBps: 0, feeTiers: [], tickSpacings: SLIPSTREAM_TICK_SPACINGS })
  if (c.v4PoolManager) dexes.push({ name: 'Uniswap V4', type: 'uniswap-v4', factory: getAddress(c.v4PoolManager), feeBps: 0, feeTiers: [] })
  if (c.launchpad) dexes.push({ name: 'tokenrisk Launchpad', type: 'launchpad', factory: getAddress(c.launchpad), feeBps: 0, feeTiers: [] })
  if (c.fourMemeManager && c.fourMemeHelper) {
    dexes.push({ name: 'four.meme-interface Launchpad', type: 'four-meme', factory: getAddress(c.fourMemeManager), lens: getAddress(c.fourMemeHelper), feeBps: 0, feeTiers: [] })
  }
  return {
    chainId: manifest.chainId,
    name: 'local',
    rpcUrls: [manifest.rpcUrl],
    wrappedNative: getAddress(c.weth),
    stablecoins: [getAddress(c.usd)],
    majors: [],
    dexes,
    lockers: [{ name: 'tokenrisk LpLocker', type: 'tokenrisk-locker', address: getAddress(c.locker) }],
    burnAddresses: manifest.burnAddresses.map((a) => getAddress(a)),
    multicall3: getAddress(c.multicall3),
  }
}

/** The chain, as the service's registry takes entries given in code. */
export function localChains(manifest: DevnetManifest): { source: string; entries: ChainsFileEntry[] } {
  return { source: 'the local world', entries: [localChainEntry(manifest)] }
}

/** The local Solana's endpoint as the service reads it. */
export function localSolanaEndpoint(manifest: SolanaManifest): LocalSolanaEndpoint {
  return { rpcUrl: manifest.rpcUrl, pricing: { stablecoins: manifest.pricing.stablecoins, solUsdPools: manifest.pricing.solUsdPools } }
}


/** Leaves the chain in `<dir>/chains.json`, a chains file other processes (`tokenrisk scan`) read. */
export function writeLocalChainsFile(dir: string, manifest: DevnetManifest): string {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, LOCAL_CHAINS_FILE)
  writeAtomic(path, `${JSON.stringify([localChainEntry(manifest)], null, 2)}\n`)
  return path
}

/** Leaves the Solana endpoint in `<dir>/solana.json` for other processes (`tokenrisk scan`). */
export function writeLocalSolanaFile(dir: string, manifest: SolanaManifest): string {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, LOCAL_SOLANA_FILE)
  writeAtomic(path, `${JSON.stringify(localSolanaEndpoint(manifest), null, 2)}\n`)
  return path
}

/** Whether a left file still names `rpcUrl` (another world may have written over it since). */
function namesEndpoint(path: string, rpcUrl: string): boolean {
  if (!existsSync(path)) return false
  try {
    return readFileSync(path, 'utf8').includes(JSON.stringify(rpcUrl))
  } catch {
    return false
  }
}

/**
 * Takes back the file a world left for other processes when the world stops, so that
 * `tokenrisk scan` and `tokenrisk chains check` never read an endpoint nobody serves any more.
 * A file another world has written since is left alone.
 */
export function removeLocalFile(dir: string, file: typeof LOCAL_CHAINS_FILE | typeof LOCAL_SOLANA_FILE, rpcUrl: string): void {
  const path = join(dir, file)
  if (namesEndpoint(path, rpcUrl)) rmSync(path, { force: true })
}
