import { ByteReader, MalformedAccountError } from './reader.ts'
import { ORCA_WHIRLPOOL_PROGRAM, RAYDIUM_AMM_V4_PROGRAM, RAYDIUM_CPMM_PROGRAM } from '../programs.ts'

/** One getProgramAccounts search: the filters the node applies (bounded: a size or discriminator, and the mint). */
export interface PoolSearch {
  dataSize?: number
  memcmp: { offset: number; bytes: string }[]
}

/** A pool's state reduced to what liquidity and price need. */
export interface DecodedPool {
  mintA: string
  mintB: string
  vaultA: string
  vaultB: string
  /** Amounts inside the vaults that belong to the protocol, not to the pool's reserves. */
  feesOwedA: bigint
  feesOwedB: bigint
  /** LP mint of constant-product pools; null for concentrated liquidity. */
  lpMint: string | null
  /**
   * LP tokens the pool itself counts as issued (AMM v4 `lpReserve`, CPMM `lp_supply`). LP tokens
   * burned through the token program leave this figure but not the mint's supply, so the gap is
   * the burned share. null when the pool keeps no such count.
   */
  lpIssued: bigint | null
  /** Concentrated liquidity: √price (token B per token A, base units) as Q64.64. */
  sqrtPriceX64: bigint | null
  /** Price of one base unit of A in base units of B when the pool states it otherwise (DLMM's active bin, a curve's virtual reserves). */
  rawPriceBPerA?: number
  /** A pool whose price is not the ratio of its reserves (a stable curve): B per A in base units on the reserves read; undefined when it cannot say. */
  priceOnReserves?: (a: bigint, b: bigint) => number | undefined
  /** Reserves the pool states itself (a bonding curve's real reserves), instead of its vaults' balances. */
  reserves?: { a: bigint; b: bigint }
  /** false when the pool's own status forbids swaps; null when the pool has no such switch. */
  swapEnabled: boolean | null
  /** The pool's shares of vaults it shares with other pools (DAMM v1's vault LP accounts), read by its venue's readReserves. */
  sharesA?: string
  sharesB?: string
  /** A launchpad curve the token trades on until it graduates (LaunchLab, DBC). */
  curve?: PoolCurve
}

/** What a launchpad curve found as a pool says of the launch. */
export interface PoolCurve {
  complete: boolean
  /** Who launched the token on it. */
  creator: string
  /** Percent of the curve's sale done (tokens sold, or quote raised toward migration); undefined when it cannot say. */
  progressPercent: number | undefined
  /** Reserves the curve prices on beyond its real ones (0 when it prices otherwise). */
  virtualToken: bigint
  virtualQuote: bigint
  /** The exchanges its token moves to when it graduates, as the curve's own settings name them (more than one when they do not say which). */
  graduatesTo: string[]
}

export type AmmId = 'raydium-amm-v4' | 'raydium-cpmm' | 'raydium-clmm' | 'orca-whirlpool' | 'pumpswap' | 'meteora-damm-v2' | 'meteora-dlmm' | 'pump-curve' | 'raydium-launchlab' | 'meteora-dbc' | 'meteora-damm-v1'

/** How to find (getProgramAccounts filters) and read the pools of one AMM. */
export interface AmmDefinition {
  id: AmmId
  /** Exchange name in reports. */
  name: string
  programId: string
  /**
   * The getProgramAccounts searches that find the pools of `mint` (a token may be on either
   * side): each bounded by the pool account's exact size or its discriminator, and the mint at
   * its offset.
   */
  searches(mint: string): PoolSearch[]
  decode(data: Uint8Array): DecodedPool
  /**
   * For a pool whose state is split over two accounts (a curve and its config): the address of
   * the other account, read after the search, and the pool decoded with it.
   */
  related?: { address(data: Uint8Array): string; decode(data: Uint8Array, related: Uint8Array): DecodedPool }
  /**
   * For a pool whose reserves sit in shared vaults (Meteora DAMM v1): its reserves, read through
   * `load` (the report's batched account reader), and the token accounts that hold them. null
   * when an account is missing or is not what the pool says.
   */
  readReserves?(pool: DecodedPool, load: (addresses: string[]) => Promise<({ owner: string; data: Uint8Array } | null)[]>): Promise<SharedReserves | null>
}

/** Reserves of a pool in shared vaults: its share of each, and the token accounts of the vaults (and whether they are frozen). */
export interface SharedReserves {
  a: bigint
  b: bigint
  tokenAccountA: string
  tokenAccountB: string
  frozenA: boolean
  frozenB: boolean
}

/** Searches for a mint at two offsets of accounts of one exact size. */
const bySize = (dataSize: number, offsets: readonly [number, number]) => (mint: string): PoolSearch[] => offsets.map((offset) => ({ dataSize, memcmp: [{ offset, bytes: mint }] }))

const POOL_STATE_DISCRIMINATOR = Uint8Array.from([247, 237, 227, 245, 215, 195, 222, 70])
const WHIRLPOOL_DISCRIMINATOR = Uint8Array.from([63, 149, 209, 12, 225, 128, 99, 9])

function expectDiscriminator(data: Uint8Array, expected: Uint8Array, what: string): void {
  if (data.length < expected.length || expected.some((b, i) => data[i] !== b)) {
    throw new MalformedAccountError(`${what}: account discriminator does not match`)
  }
}

/** Raydium AMM v4 (`LIQUIDITY_STATE_LAYOUT_V4`, 752 bytes, no discriminator). */
export const RAYDIUM_AMM_V4_LAYOUT = {
  size: 752,
  status: 0,
  baseNeedTakePnl: 192,
  quoteNeedTakePnl: 200,
  baseVault: 336,
  quoteVault: 368,
  baseMint: 400,
  quoteMint: 432,
  lpMint: 464,
  lpReserve: 720,
} as const
/** AMM v4 statuses under which swaps run (Initialized, SwapOnly, WaitingTrade). */
const AMM_V4_SWAP_STATUSES = new Set([1n, 6n, 7n])

/** Raydium CPMM `PoolState` (Anchor, 637 bytes with its discriminator). */
export const RAYDIUM_CPMM_LAYOUT = {
  size: 637,
  token0Vault: 72,
  token1Vault: 104,
  lpMint: 136,
  token0Mint: 168,
  token1Mint: 200,
  status: 329,
  lpSupply: 333,
  protocolFeesToken0: 341,
  protocolFeesToken1: 349,
  fundFeesToken0: 357,
  fundFeesToken1: 365,
  creatorFeesToken0: 397,
  creatorFeesToken1: 405,
} as const
/** CPMM status bit that disables swaps. */
const CPMM_SWAP_DISABLED_BIT = 1 << 2

/** Orca `Whirlpool` (Anchor, 653 bytes with its discriminator). */
export const ORCA_WHIRLPOOL_LAYOUT = {
  size: 653,
  sqrtPrice: 65,
  protocolFeeOwedA: 85,
  protocolFeeOwedB: 93,
  tokenMintA: 101,
  tokenVaultA: 133,
  tokenMintB: 181,
  tokenVaultB: 213,
} as const

const at = (data: Uint8Array, offset: number, what: string) => new ByteReader(data, offset, what)

export const RAYDIUM_AMM_V4: AmmDefinition = {
  id: 'raydium-amm-v4',
  name: 'Raydium AMM v4',
  programId: RAYDIUM_AMM_V4_PROGRAM,
  searches: bySize(RAYDIUM_AMM_V4_LAYOUT.size, [RAYDIUM_AMM_V4_LAYOUT.baseMint, RAYDIUM_AMM_V4_LAYOUT.quoteMint]),
  decode(data) {
    const L = RAYDIUM_AMM_V4_LAYOUT
    const what = 'Raydium AMM v4 pool'
    if (data.length !== L.size) throw new MalformedAccountError(`${what}: ${data.length} bytes, expected ${L.size}`)
    const status = at(data, L.status, what).u64('status')
    return {
      mintA: at(data, L.baseMint, what).address('base mint'),
      mintB: at(data, L.quoteMint, what).address('quote mint'),
      vaultA: at(data, L.baseVault, what).address('base vault'),
      vaultB: at(data, L.quoteVault, what).address('quote vault'),
      feesOwedA: at(data, L.baseNeedTakePnl, what).u64('base pnl'),
      feesOwedB: at(data, L.quoteNeedTakePnl, what).u64('quote pnl'),
      lpMint: at(data, L.lpMint, what).address('lp mint'),
      lpIssued: at(data, L.lpReserve, what).u64('lp reserve'),
      sqrtPriceX64: null,
      swapEnabled: AMM_V4_SWAP_STATUSES.has(status),
    }
  },
}

export const RAYDIUM_CPMM: AmmDefinition = {
  id: 'raydium-cpmm',
  name: 'Raydium CPMM',
  programId: RAYDIUM_CPMM_PROGRAM,
  searches: bySize(RAYDIUM_CPMM_LAYOUT.size, [RAYDIUM_CPMM_LAYOUT.token0Mint, RAYDIUM_CPMM_LAYOUT.token1Mint]),
  decode(data) {
    const L = RAYDIUM_CPMM_LAYOUT
    const what = 'Raydium CPMM pool'
    if (data.length !== L.size) throw new MalformedAccountError(`${what}: ${data.length} bytes, expected ${L.size}`)
    expectDiscriminator(data, POOL_STATE_DISCRIMINATOR, what)
    const u64 = (offset: number, field: string) => at(data, offset, what).u64(field)
    const status = at(data, L.status, what).u8('status')
    return {
      mintA: at(data, L.token0Mint, what).address('token 0 mint'),
      mintB: at(data, L.token1Mint, what).address('token 1 mint'),
      vaultA: at(data, L.token0Vault, what).address('token 0 vault'),
      vaultB: at(data, L.token1Vault, what).address('token 1 vault'),
      feesOwedA: u64(L.protocolFeesToken0, 'protocol fees 0') + u64(L.fundFeesToken0, 'fund fees 0') + u64(L.creatorFeesToken0, 'creator fees 0'),
      feesOwedB: u64(L.protocolFeesToken1, 'protocol fees 1') + u64(L.fundFeesToken1, 'fund fees 1') + u64(L.creatorFeesToken1, 'creator fees 1'),
      lpMint: at(data, L.lpMint, what).address('lp mint'),
      lpIssued: at(data, L.lpSupply, what).u64('lp supply'),
      sqrtPriceX64: null,
      swapEnabled: (status & CPMM_SWAP_DISABLED_BIT) === 0,
    }
  },
}

export const ORCA_WHIRLPOOL: AmmDefinition = {
  id: 'orca-whirlpool',
  name: 'Orca Whirlpool',
  programId: ORCA_WHIRLPOOL_PROGRAM,
  searches: bySize(ORCA_WHIRLPOOL_LAYOUT.size, [ORCA_WHIRLPOOL_LAYOUT.tokenMintA, ORCA_WHIRLPOOL_LAYOUT.tokenMintB]),
  decode(data) {
    const L = ORCA_WHIRLPOOL_LAYOUT
    const what = 'Orca Whirlpool'
    if (data.length !== L.size) throw new MalformedAccountError(`${what}: ${data.length} bytes, expected ${L.size}`)
    expectDiscriminator(data, WHIRLPOOL_DISCRIMINATOR, what)
    return {
      mintA: at(data, L.tokenMintA, what).address('token mint A'),
      mintB: at(data, L.tokenMintB, what).address('token mint B'),
      vaultA: at(data, L.tokenVaultA, what).address('token vault A'),
      vaultB: at(data, L.tokenVaultB, what).address('token vault B'),
      feesOwedA: at(data, L.protocolFeeOwedA, what).u64('protocol fee A'),
      feesOwedB: at(data, L.protocolFeeOwedB, what).u64('protocol fee B'),
      lpMint: null,
      lpIssued: null,
      sqrtPriceX64: at(data, L.sqrtPrice, what).u128('sqrt price'),
      swapEnabled: null,
    }
  },
}

/** The AMMs whose pools price SOL in the reference pools. */
export const REFERENCE_AMMS: readonly AmmDefinition[] = [RAYDIUM_AMM_V4, RAYDIUM_CPMM, ORCA_WHIRLPOOL]

export function ammByProgram(programId: string): AmmDefinition | undefined {
  return REFERENCE_AMMS.find((a) => a.programId === programId)
}
