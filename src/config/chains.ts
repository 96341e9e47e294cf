import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isAddress } from 'viem/utils'
import type { Address } from 'viem'
import { ConfigError } from '../errors.ts'
import { checksummed, evmAddressProblem } from '../evm-address.ts'

/**
 * The EVM chain registry: what tokenrisk needs to know about a chain to report on its tokens.
 * Shipped entries live in `src/config/chains/<chainId>.json`; a user file (`--chains` /
 * `CHAINS_FILE`, a JSON array of entries) adds chains or overrides fields of shipped ones;
 * `RPC_URL_<chainId>` (comma-separated) gives RPC URLs. A chain is served when it has RPC URLs.
 * The format is documented in docs/chains.md.
 */

export type DexType = 'uniswap-v2' | 'uniswap-v3' | 'pancake-v3' | 'uniswap-v4' | 'solidly' | 'slipstream' | 'launchpad' | 'four-meme'
const DEX_TYPES: readonly string[] = ['uniswap-v2', 'uniswap-v3', 'pancake-v3', 'uniswap-v4', 'solidly', 'slipstream', 'launchpad', 'four-meme'] satisfies DexType[]
/** PancakeSwap V3's fee tiers (hundredths of a basis point), searched by default on its DEXes. */
export const PANCAKE_V3_DEFAULT_FEE_TIERS = [100, 500, 2500, 10000]
export type LockerType = 'tokenrisk-locker' | 'uncx-v2' | 'pinklock-v2'
const LOCKER_TYPES: readonly string[] = ['tokenrisk-locker', 'uncx-v2', 'pinklock-v2'] satisfies LockerType[]

export interface DexConfig {
  /** Name shown in reports (`availableDex[].name`, `honeypotDetails[].dex`). */
  name: string
  type: DexType
  /**
   * The factory (V2, V3); for Uniswap V4, the PoolManager that holds every pool; for a launchpad, the
   * contract that holds every curve (four.meme: its TokenManager2).
   */
  factory: Address
  /** A four.meme-interface launchpad's helper (TokenManagerHelper3), which answers `getTokenInfo` and `tryBuy`. */
  lens?: Address
  /** Uniswap V4's StateView lens, where deployed (informational: pool state is read with the manager's extsload). */
  stateView?: Address
  /** Uniswap V4: the block the PoolManager was deployed in, where the search for its Initialize logs starts. */
  fromBlock?: number
  /** V2 router (informational; the probe swaps against pairs directly). */
  router?: Address
  /** V3 quoter (informational; the probe swaps against pools directly). */
  quoter?: Address
  /** V2 swap fee in basis points (30 for Uniswap, 25 for PancakeSwap). */
  feeBps: number
  /** V3 fee tiers searched for pools. */
  feeTiers: number[]
  /** Slipstream-style (Aerodrome's concentrated pools): the tick spacings its factory names pools by. */
  tickSpacings?: number[]
}

export interface LockerConfig {
  name: string
  type: LockerType
  address: Address
}

export interface ChainLinks {
  /** Token page on the block explorer; `{address}` is replaced. */
  explorerToken?: string
  explorerAddress?: string
  /** Pool page (e.g. a pool terminal); `{pair}` is replaced. */
  pool?: string
  /** Token page on a market aggregator; `{address}` is replaced. */
  aggregatorToken?: string
}

export interface ChainEntry {
  chainId: number
  name: string
  rpcUrls: string[]
  nativeSymbol: string
  wrappedNative: Address
  /** USD stablecoins: priced at 1 USD, used as quote assets and to price the wrapped native token. */
  stablecoins: Address[]
  /** Other quote assets worth searching pools against (priced through their own pools). */
  majors: Address[]
  dexes: DexConfig[]
  lockers: LockerConfig[]
  burnAddresses: Address[]
  multicall3: Address
  /** Average seconds per block: sizes the 24 h window of swap events. */
  blockTimeSeconds: number
  /** Blocks behind the head that the holder index treats as final (stored); newer ones are read each time. */
  finalityBlocks: number
  /** Largest block range asked of `eth_getLogs` at once (smaller ranges are used when the node refuses). */
  maxLogRange: number
  /** Largest JSON-RPC batch sent to the node. */
  maxBatchSize: number
  /**
   * The chain's EVM version ("cancun", "shanghai" or "paris"), which picks the build of the probe;
   * detected from the node when absent.
   */
  evmVersion?: 'cancun' | 'shanghai' | 'paris'
  links: ChainLinks
}

/** Default `eth_getLogs` range: large; nodes that refuse it get halved ranges. */
export const DEFAULT_MAX_LOG_RANGE = 1_000_000
/** Default JSON-RPC batch size; most providers accept 100 or more. */
export const DEFAULT_MAX_BATCH_SIZE = 100
export const CANONICAL_MULTICALL3: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'
export const DEFAULT_V3_FEE_TIERS = [100, 500, 3000, 10000]
/** The local chain world's chain id (anvil). */
export const DEVNET_CHAIN_ID = 31337

const SHIPPED_DIR = join(dirname(fileURLToPath(import.meta.url)), 'chains')

const ENTRY_FIELDS = new Set([
  'chainId', 'name', 'rpcUrls', 'nativeSymbol', 'wrappedNative', 'stablecoins', 'majors', 'dexes', 'lockers',
  'burnAddresses', 'multicall3', 'blockTimeSeconds', 'finalityBlocks', 'maxLogRange', 'maxBatchSize', 'evmVersion', 'links',
])
const EVM_VERSION_NAMES: readonly string[] = ['cancun', 'shanghai', 'paris']
const DEX_FIELDS = new Set(['name', 'type', 'factory', 'lens', 'router', 'quoter', 'stateView', 'fromBlock', 'feeBps', 'feeTiers', 'tickSpacings'])
/** The tick spacings of Aerodrome's Slipstream pools (its CLFactory's), searched by default on `slipstream` DEXes. */
export const SLIPSTREAM_DEFAULT_TICK_SPACINGS = [1, 50, 100, 200, 2000]
/** int24's largest value: no tick spacing is larger. */
const MAX_TICK_SPACING = 2 ** 23 - 1
const LOCKER_FIELDS = new Set(['name', 'type', 'address'])
const LINK_FIELDS = new Set(['explorerToken', 'explorerAddress', 'pool', 'aggregatorToken'])

/**
 * One entry of a chains file (docs/chains.md): a chain id and the fields to add or override.
 * Entries given in code (the local world's) are validated like a file's.
 */
export type ChainsFileEntry = Partial<ChainEntry> & { chainId: number }
type PartialEntry = ChainsFileEntry

class Problems {
  readonly list: string[] = []
  add(path: string, message: string) {
    this.list.push(`${path}: ${message}`)
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function address(v: unknown, path: string, problems: Problems): Address | undefined {
  if (typeof v !== 'string' || !isAddress(v, { strict: false })) {
    problems.add(path, 'must be a 0x-prefixed 20-byte hex address')
    return undefined
  }
  const problem = evmAddressProblem(v)
  if (problem) {
    problems.add(path, problem)
    return undefined
  }
  return checksummed(v)
}

function addressList(v: unknown, path: string, problems: Problems): Address[] | undefined {
  if (!Array.isArray(v)) {
    problems.add(path, 'must be an array of addresses')
    return undefined
  }
  const out: Address[] = []
  v.forEach((item, i) => {
    const a = address(item, `${path}[${i}]`, problems)
    if (a) out.push(a)
  })
  return out
}

function nonEmptyString(v: unknown, path: string, problems: Problems): string | undefined {
  if (typeof v !== 'string' || v.trim() === '') {
    problems.add(path, 'must be a non-empty string')
    return undefined
  }
  return v
}

function positiveNumber(v: unknown, path: string, problems: Problems, integer: boolean): number | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (integer && !Number.isInteger(v))) {
    problems.add(path, integer ? 'must be a whole number ≥ 0' : 'must be a number ≥ 0')
    return undefined
  }
  return v
}

function urlList(v: unknown, path: string, problems: Problems): string[] | undefined {
  if (!Array.isArray(v)) {
    problems.add(path, 'must be an array of http(s) or ws(s) URLs')
    return undefined
  }
  const out: string[] = []
  v.forEach((item, i) => {
    if (typeof item !== 'string' || !/^https?:\/\/\S+$/.test(item)) problems.add(`${path}[${i}]`, 'must be an http(s) URL')
    else out.push(item)
  })
  return out
}

function unknownFields(obj: Record<string, unknown>, allowed: Set<string>, path: string, problems: Problems) {
  for (const key of Object.keys(obj)) if (!allowed.has(key)) problems.add(`${path}.${key}`, 'is not a known field')
}

function parseDex(v: unknown, path: string, problems: Problems): DexConfig | undefined {
  if (!isObject(v)) {
    problems.add(path, 'must be an object {name, type, factory, ...}')
    return undefined
  }
  unknownFields(v, DEX_FIELDS, path, problems)
  const name = nonEmptyString(v.name, `${path}.name`, problems)
  const type = typeof v.type === 'string' && DEX_TYPES.includes(v.type) ? (v.type as DexType) : undefined
  if (!type) problems.add(`${path}.type`, `must be one of ${DEX_TYPES.map((t) => `"${t}"`).join(', ')}`)
  const factory = address(v.factory, `${path}.factory`, problems)
  const router = v.router === undefined ? undefined : address(v.router, `${path}.router`, problems)
  const quoter = v.quoter === undefined ? undefined : address(v.quoter, `${path}.quoter`, problems)
  const stateView = v.stateView === undefined ? undefined : address(v.stateView, `${path}.stateView`, problems)
  const lens = v.lens === undefined ? undefined : address(v.lens, `${path}.lens`, problems)
  if (v.lens !== undefined && type !== undefined && type !== 'four-meme') problems.add(`${path}.lens`, 'is read only for DEXes of type "four-meme"')
  if (type === 'four-meme' && v.lens === undefined) problems.add(`${path}.lens`, 'is required for DEXes of type "four-meme" (its TokenManagerHelper3)')
  const fromBlock = v.fromBlock === undefined ? undefined : positiveNumber(v.fromBlock, `${path}.fromBlock`, problems, true)
  let feeBps = 30
  if (v.feeBps !== undefined) {
    const f = positiveNumber(v.feeBps, `${path}.feeBps`, problems, true)
    if (f !== undefined && f >= 10_000) problems.add(`${path}.feeBps`, 'must be below 10000')
    else if (f !== undefined) feeBps = f
  }
  let feeTiers = type === 'pancake-v3' ? PANCAKE_V3_DEFAULT_FEE_TIERS : DEFAULT_V3_FEE_TIERS
  if (v.feeTiers !== undefined) {
    if (!Array.isArray(v.feeTiers) || v.feeTiers.some((t) => typeof t !== 'number' || !Number.isInteger(t) || t <= 0 || t >= 1_000_000)) {
      problems.add(`${path}.feeTiers`, 'must be an array of whole numbers (fee in hundredths of a basis point, e.g. 3000)')
    } else feeTiers = v.feeTiers as number[]
  }
  let tickSpacings: number[] | undefined = type === 'slipstream' ? SLIPSTREAM_DEFAULT_TICK_SPACINGS : undefined
  if (v.tickSpacings !== undefined) {
    if (type !== 'slipstream') problems.add(`${path}.tickSpacings`, 'is read only for DEXes of type "slipstream"')
    else if (!Array.isArray(v.tickSpacings) || v.tickSpacings.length === 0 || v.tickSpacings.some((t) => typeof t !== 'number' || !Number.isInteger(t) || t <= 0 || t > MAX_TICK_SPACING)) {
      problems.add(`${path}.tickSpacings`, `must be a non-empty array of whole numbers from 1 to ${MAX_TICK_SPACING} (e.g. [1, 50, 100, 200, 2000])`)
    } else tickSpacings = v.tickSpacings as number[]
  }
  if (!name || !factory || !type) return undefined
  return {
    name,
    type,
    factory,
    feeBps,
    feeTiers,
    ...(tickSpacings ? { tickSpacings } : {}),
    ...(router ? { router } : {}),
    ...(quoter ? { quoter } : {}),
    ...(stateView ? { stateView } : {}),
    ...(lens && type === 'four-meme' ? { lens } : {}),
    ...(fromBlock !== undefined ? { fromBlock } : {}),
  }
}

function parseLocker(v: unknown, path: string, problems: Problems): LockerConfig | undefined {
  if (!isObject(v)) {
    problems.add(path, 'must be an object {name, type, address}')
    return undefined
  }
  unknownFields(v, LOCKER_FIELDS, path, problems)
  const name = nonEmptyString(v.name, `${path}.name`, problems)
  const type = v.type
  const known = typeof type === 'string' && LOCKER_TYPES.includes(type)
  if (!known) problems.add(`${path}.type`, `must be one of ${LOCKER_TYPES.map((t) => `"${t}"`).join(', ')}`)
  const addr = address(v.address, `${path}.address`, problems)
  if (!name || !addr || !known) return undefined
  return { name, type: type as LockerType, address: addr }
}

function parseLinks(v: unknown, path: string, problems: Problems): ChainLinks | undefined {
  if (!isObject(v)) {
    problems.add(path, 'must be an object of URL templates')
    return undefined
  }
  unknownFields(v, LINK_FIELDS, path, problems)
  const out: ChainLinks = {}
  for (const key of LINK_FIELDS) {
    const t = v[key]
    if (t === undefined) continue
    if (typeof t !== 'string' || !/^https?:\/\//.test(t)) problems.add(`${path}.${key}`, 'must be an http(s) URL template')
    else out[key as keyof ChainLinks] = t
  }
  return out
}

/** Validates one entry of a chains file; every problem is reported with its path. */
function parseEntry(v: unknown, path: string, problems: Problems): PartialEntry | undefined {
  if (!isObject(v)) {
    problems.add(path, 'must be an object with at least chainId')
    return undefined
  }
  unknownFields(v, ENTRY_FIELDS, path, problems)
  const chainId = v.chainId
  if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId < 1) {
    problems.add(`${path}.chainId`, 'must be a whole number ≥ 1')
    return undefined
  }
  const out: PartialEntry = { chainId }
  if (v.name !== undefined) out.name = nonEmptyString(v.name, `${path}.name`, problems)
  if (v.rpcUrls !== undefined) out.rpcUrls = urlList(v.rpcUrls, `${path}.rpcUrls`, problems)
  if (v.nativeSymbol !== undefined) out.nativeSymbol = nonEmptyString(v.nativeSymbol, `${path}.nativeSymbol`, problems)
  if (v.wrappedNative !== undefined) out.wrappedNative = address(v.wrappedNative, `${path}.wrappedNative`, problems)
  if (v.stablecoins !== undefined) out.stablecoins = addressList(v.stablecoins, `${path}.stablecoins`, problems)
  if (v.majors !== undefined) out.majors = addressList(v.majors, `${path}.majors`, problems)
  if (v.burnAddresses !== undefined) out.burnAddresses = addressList(v.burnAddresses, `${path}.burnAddresses`, problems)
  if (v.multicall3 !== undefined) out.multicall3 = address(v.multicall3, `${path}.multicall3`, problems)
  if (v.dexes !== undefined) {
    if (!Array.isArray(v.dexes)) problems.add(`${path}.dexes`, 'must be an array')
    else out.dexes = v.dexes.map((d, i) => parseDex(d, `${path}.dexes[${i}]`, problems)).filter((d): d is DexConfig => !!d)
  }
  if (v.lockers !== undefined) {
    if (!Array.isArray(v.lockers)) problems.add(`${path}.lockers`, 'must be an array')
    else out.lockers = v.lockers.map((d, i) => parseLocker(d, `${path}.lockers[${i}]`, problems)).filter((d): d is LockerConfig => !!d)
  }
  if (v.blockTimeSeconds !== undefined) {
    const t = positiveNumber(v.blockTimeSeconds, `${path}.blockTimeSeconds`, problems, false)
    if (t === 0) problems.add(`${path}.blockTimeSeconds`, 'must be above 0')
    else out.blockTimeSeconds = t
  }
  if (v.finalityBlocks !== undefined) out.finalityBlocks = positiveNumber(v.finalityBlocks, `${path}.finalityBlocks`, problems, true)
  if (v.maxLogRange !== undefined) {
    const r = positiveNumber(v.maxLogRange, `${path}.maxLogRange`, problems, true)
    if (r === 0) problems.add(`${path}.maxLogRange`, 'must be at least 1')
    else out.maxLogRange = r
  }
  if (v.maxBatchSize !== undefined) {
    const b = positiveNumber(v.maxBatchSize, `${path}.maxBatchSize`, problems, true)
    if (b === 0) problems.add(`${path}.maxBatchSize`, 'must be at least 1')
    else out.maxBatchSize = b
  }
  if (v.evmVersion !== undefined) {
    if (typeof v.evmVersion !== 'string' || !EVM_VERSION_NAMES.includes(v.evmVersion)) problems.add(`${path}.evmVersion`, 'must be "cancun", "shanghai" or "paris"')
    else out.evmVersion = v.evmVersion as ChainEntry['evmVersion']
  }
  if (v.links !== undefined) out.links = parseLinks(v.links, `${path}.links`, problems)
  for (const key of Object.keys(out) as (keyof PartialEntry)[]) if (out[key] === undefined) delete out[key]
  return out
}

/**
 * Parses the text of a chains file (a JSON array of entries). Throws one `ConfigError` naming
 * every bad field, e.g. `chains.json: [0].dexes[1].factory: must be a 0x-prefixed 20-byte hex address`.
 */
export function parseChainsFile(text: string, source: string): PartialEntry[] {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(`${source}: not valid JSON (${(error as Error).message})`)
  }
  if (!Array.isArray(json)) throw new ConfigError(`${source}: must be a JSON array of chain entries ([{"chainId": 1, ...}])`)
  const problems = new Problems()
  const entries = json.map((v, i) => parseEntry(v, `[${i}]`, problems))
  const seen = new Set<number>()
  entries.forEach((e, i) => {
    if (!e) return
    if (seen.has(e.chainId)) problems.add(`[${i}].chainId`, `${e.chainId} appears twice`)
    seen.add(e.chainId)
  })
  if (problems.list.length > 0) throw new ConfigError(`${source}: invalid chains file:\n  ${problems.list.join('\n  ')}`)
  return entries.filter((e): e is PartialEntry => !!e)
}

function complete(partial: PartialEntry, source: string): ChainEntry {
  const missing: string[] = []
  if (!partial.name) missing.push('name')
  if (!partial.wrappedNative) missing.push('wrappedNative')
  if (missing.length > 0) throw new ConfigError(`${source}: chain ${partial.chainId} is missing ${missing.join(', ')}`)
  return {
    chainId: partial.chainId,
    name: partial.name!,
    rpcUrls: partial.rpcUrls ?? [],
    nativeSymbol: partial.nativeSymbol ?? 'ETH',
    wrappedNative: partial.wrappedNative!,
    stablecoins: partial.stablecoins ?? [],
    majors: partial.majors ?? [],
    dexes: partial.dexes ?? [],
    lockers: partial.lockers ?? [],
    burnAddresses: partial.burnAddresses ?? [],
    multicall3: partial.multicall3 ?? CANONICAL_MULTICALL3,
    blockTimeSeconds: partial.blockTimeSeconds ?? 2,
    finalityBlocks: partial.finalityBlocks ?? 0,
    maxLogRange: partial.maxLogRange ?? DEFAULT_MAX_LOG_RANGE,
    maxBatchSize: partial.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE,
    ...(partial.evmVersion ? { evmVersion: partial.evmVersion } : {}),
    links: partial.links ?? {},
  }
}

/** The entries shipped with tokenrisk (no RPC URLs: those come from the user). */
export function shippedChains(): ChainEntry[] {
  const files = readdirSync(SHIPPED_DIR).filter((f) => f.endsWith('.json'))
  const partials = files.flatMap((f) => parseChainsFile(`[${readFileSync(join(SHIPPED_DIR, f), 'utf8')}]`, `src/config/chains/${f}`))
  return partials.map((p) => complete(p, 'shipped chains')).sort((a, b) => a.chainId - b.chainId)
}

export interface LoadChainRegistryOptions {
  /** Environment: `RPC_URL_<chainId>` (comma-separated URLs) and `CHAINS_FILE`. */
  env?: NodeJS.ProcessEnv
  /** A chains file (JSON array); overrides `CHAINS_FILE` from `env`. */
  chainsFile?: string
  /**
   * Entries applied before the user's file, in the chains-file format: the local world's chain
   * (with its RPC URL), which completes the shipped 31337 placeholder.
   */
  chains?: { source: string; entries: ChainsFileEntry[] }
}

export interface ChainRegistry {
  /** Every known entry, servable or not. */
  entries: ChainEntry[]
  /** Entries with RPC URLs: the chains the service answers for. */
  servable(): ChainEntry[]
  get(chainId: number): ChainEntry | undefined
}

/**
 * Builds the registry: shipped entries, then `chains` (the local world's entry), then the user's
 * chains file (which adds chains or overrides fields, `dexes` and other lists as a whole), then
 * `RPC_URL_<chainId>` environment variables. Throws `ConfigError` naming the bad field.
 *
 * @example
 * const registry = loadChainRegistry({ env: process.env, chainsFile: 'chains.json' })
 * registry.servable().map((c) => c.chainId) // [1, 31337]
 */
export function loadChainRegistry(options: LoadChainRegistryOptions = {}): ChainRegistry {
  const env = options.env ?? {}
  const byId = new Map<number, ChainEntry>()
  for (const e of shippedChains()) byId.set(e.chainId, e)
  const apply = (partials: PartialEntry[], source: string) => {
    for (const partial of partials) {
      const base = byId.get(partial.chainId)
      byId.set(partial.chainId, base ? { ...base, ...partial, links: { ...base.links, ...(partial.links ?? {}) } } : complete(partial, source))
    }
  }
  if (options.chains) apply(parseChainsFile(JSON.stringify(options.chains.entries), options.chains.source), options.chains.source)
  const file = options.chainsFile ?? env.CHAINS_FILE
  if (file) {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      throw new ConfigError(`chains file ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
    }
    apply(parseChainsFile(text, file), file)
  }
  for (const [key, value] of Object.entries(env)) {
    const m = /^RPC_URL_(\d+)$/.exec(key)
    if (!m || value === undefined || value.trim() === '') continue
    const chainId = Number(m[1])
    const problems = new Problems()
    const urls = urlList(value.split(',').map((s) => s.trim()).filter(Boolean), key, problems)
    if (problems.list.length > 0) throw new ConfigError(`invalid ${key}: ${problems.list.join('; ')}`)
    const base = byId.get(chainId)
    if (!base) {
      throw new ConfigError(
        `${key} is set but chain ${chainId} is not known: add it to a chains file (--chains / CHAINS_FILE) with at least name and wrappedNative`,
      )
    }
    byId.set(chainId, { ...base, rpcUrls: urls ?? [] })
  }
  const entries = [...byId.values()].sort((a, b) => a.chainId - b.chainId)
  return {
    entries,
    servable: () => entries.filter((e) => e.rpcUrls.length > 0),
    get: (chainId) => byId.get(chainId),
  }
}

/** Fills a link template (`{address}`, `{pair}`); "" when the chain has none. */
export function fillLink(template: string | undefined, values: Record<string, string>): string {
  if (!template) return ''
  return template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '')
}
