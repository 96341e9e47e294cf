import { ammByProgram, type AmmDefinition, type DecodedPool } from '../decode/pools.ts'
import { POOL_VENUES } from '../venues/registry.ts'
import { PUMP_CURVE_NAME } from '../venues/pump-curve.ts'
import { decodeTokenAccountBase, decodeTokenProgramAccount } from '../decode/token.ts'
import { tokenProgramName, WRAPPED_SOL_MINT } from '../programs.ts'
import { known, unknown, type CurveFacts, type Known, type PoolFacts } from './facts.ts'
import { reasonOf, type CollectContext } from './context.ts'
import { SolanaRpcError, isRefusal } from '../rpc/errors.ts'

const Q64 = 2 ** 64

export interface FoundPool {
  amm: Pick<AmmDefinition, 'id' | 'name' | 'readReserves'>
  address: string
  pool: DecodedPool
}

interface Reserves {
  reserveA: bigint
  reserveB: bigint
  decimalsA: number
  decimalsB: number
  frozenA: boolean
  frozenB: boolean
  /** The token accounts holding the reserves, when they are not the pool's own vaults (shared vaults). */
  tokenAccountA?: string
  tokenAccountB?: string
}

/**
 * The pools a search found, before their vaults are read: what a reader of their liquidity
 * providers or locks needs (the pool, its venue, its LP mint) is known here, one round trip
 * before the pools are priced and ranked.
 */
export interface SearchedPools {
  found: FoundPool[]
  completedCurves: CurveFacts[]
}

/** A pool as the search decoded it: what the readers of its liquidity providers and locks need. */
export type PoolCandidate = Pick<PoolFacts, 'amm' | 'dex' | 'address' | 'lpMint' | 'lpIssued'>

export function candidateOf(found: FoundPool): PoolCandidate {
  return { amm: found.amm.id, dex: found.amm.name, address: found.address, lpMint: found.pool.lpMint, lpIssued: found.pool.lpIssued }
}

/**
 * Finds the pools of `mint` on the venues an RPC can search (getProgramAccounts with each venue's
 * bounded filters: the pool account's size or discriminator and the mint at its offset, both
 * sides), in the first round trip, and adds the token's launch curve while it is not complete
 * (derived from the mint, read by the caller). Launchpad curves found that completed are no pools:
 * they are returned beside them, as the token's graduated launch. Every search must succeed: a node
 * that refuses one of them leaves the pool list unknown, never silently short.
 */
export async function searchPools(ctx: CollectContext, mint: string, curve: Promise<Known<CurveFacts | null>> = Promise.resolve(known(null))): Promise<Known<SearchedPools>> {
  if (!ctx.limits.searchPools) return unknown('pool search is turned off for this RPC')
  const searches = POOL_VENUES.flatMap((amm) =>
    amm.searches(mint).map(async (search) => {
      const accounts = await ctx.client.getProgramAccounts(amm.programId, search, undefined, ctx.signal)
      return accounts.map((a) => ({ amm, address: a.address, data: a.data }))
    }),
  )
  const settled = await Promise.allSettled(searches)
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  // A node refusing the search leaves the pools unknown; a node failing it fails the report.
  if (failed && !isRefusal(failed.reason)) throw failed.reason
  if (failed) return unknown(`pool search failed: ${reasonOf(failed.reason)}`)
  const accounts = settled.flatMap((result) => (result.status === 'fulfilled' ? result.value : []))
  // Pools whose state is split over two accounts: the other account, one read for all of them.
  const relatedAddress = (a: (typeof accounts)[number]) => {
    try {
      return a.amm.related?.address(a.data)
    } catch {
      return undefined
    }
  }
  const relatedAddresses = [...new Set(accounts.map(relatedAddress).filter((x): x is string => x !== undefined))]
  const relatedAccounts = new Map(relatedAddresses.length > 0 ? (await ctx.loader.loadMany(relatedAddresses)).map((a, i) => [relatedAddresses[i], a] as const) : [])
  const found = new Map<string, FoundPool>()
  const completedCurves: CurveFacts[] = []
  for (const account of accounts) {
    const { amm, address, data } = account
    try {
      const related = amm.related ? relatedAccounts.get(relatedAddress(account) ?? '') : undefined
      if (amm.related && (!related || related.owner !== amm.programId)) throw new Error(`its ${amm.name} config account is missing`)
      const pool = amm.related && related ? amm.related.decode(data, related.data) : amm.decode(data)
      if (pool.mintA !== mint && pool.mintB !== mint) continue
      // A curve that completed trades no more: its token trades where it migrated; the curve is its launch.
      if (pool.curve?.complete) completedCurves.push(completedCurve(amm.name, address, pool, mint))
      else found.set(address, { amm, address, pool })
    } catch (error) {
      ctx.logger.warn({ pool: address, amm: amm.id, reason: reasonOf(error) }, 'skipping a malformed pool account')
    }
  }
  const launch = await curve
  if (launch.ok && launch.value && !launch.value.complete) {
    const c = launch.value
    found.set(c.address, {
      amm: { id: 'pump-curve', name: PUMP_CURVE_NAME },
      address: c.address,
      pool: {
        mintA: mint,
        mintB: c.quoteMint,
        vaultA: c.tokenVault,
        vaultB: c.address,
        feesOwedA: 0n,
        feesOwedB: 0n,
        lpMint: null,
        lpIssued: null,
        sqrtPriceX64: null,
        // The curve prices on its virtual reserves and pays out of its real ones.
        rawPriceBPerA: c.virtualTokenReserve > 0n ? Number(c.virtualQuoteReserve) / Number(c.virtualTokenReserve) : undefined,
        reserves: { a: c.realTokenReserve, b: c.realQuoteReserve },
        swapEnabled: true,
      },
    })
  }
  return known({ found: [...found.values()].slice(0, ctx.limits.maxPools), completedCurves })
}

/**
 * The pools of `searchPools` read (their vaults: the round trip after the search) and priced where
 * the other side is a stablecoin or wrapped SOL (SOL priced from the reference pools), the deepest first.
 */
export async function describePools(ctx: CollectContext, searched: SearchedPools, mint: string, solUsd: Promise<number | undefined>): Promise<FoundPools> {
  const facts = await Promise.all(searched.found.map((p) => describePool(ctx, p, mint, solUsd)))
  facts.sort((a, b) => (b.liquidityUsd ?? -1) - (a.liquidityUsd ?? -1))
  return { pools: facts, completedCurves: searched.completedCurves }
}

/** The pools a search found, and the launchpad curves it found completed (no pools: their tokens trade where they migrated). */
export interface FoundPools {
  pools: PoolFacts[]
  completedCurves: CurveFacts[]
}

/** A launchpad curve found by search that completed: the token's launch, graduated. */
function completedCurve(venue: string, address: string, pool: DecodedPool, mint: string): CurveFacts {
  const tokenIsA = pool.mintA === mint
  const reserves = pool.reserves ?? { a: 0n, b: 0n }
  return {
    venue,
    address,
    tokenVault: tokenIsA ? pool.vaultA : pool.vaultB,
    complete: true,
    creator: pool.curve?.creator ?? '',
    quoteMint: tokenIsA ? pool.mintB : pool.mintA,
    virtualTokenReserve: pool.curve?.virtualToken ?? 0n,
    virtualQuoteReserve: pool.curve?.virtualQuote ?? 0n,
    realTokenReserve: tokenIsA ? reserves.a : reserves.b,
    realQuoteReserve: tokenIsA ? reserves.b : reserves.a,
    progressPercent: pool.curve?.progressPercent,
    graduatesTo: pool.curve?.graduatesTo ?? [],
  }
}

async function describePool(ctx: CollectContext, found: FoundPool, mint: string, solUsdPromise: Promise<number | undefined>): Promise<PoolFacts> {
  const { pool } = found
  const tokenIsA = pool.mintA === mint
  const quoteMint = tokenIsA ? pool.mintB : pool.mintA
  const stable = ctx.pricing.stablecoins.find((s) => s.mint === quoteMint)
  const [reserves, solUsd] = await Promise.all([readReserves(ctx, pool, found.amm), quoteMint === WRAPPED_SOL_MINT ? solUsdPromise : Promise.resolve(undefined)])
  const quoteUsd = stable ? 1 : quoteMint === WRAPPED_SOL_MINT ? solUsd : undefined
  const base = {
    amm: found.amm.id,
    dex: found.amm.name,
    address: found.address,
    mints: [pool.mintA, pool.mintB] as [string, string],
    quoteMint,
    quoteSymbol: stable?.symbol ?? (quoteMint === WRAPPED_SOL_MINT ? 'SOL' : ''),
    tokenVault: tokenIsA ? pool.vaultA : pool.vaultB,
    swapEnabled: pool.swapEnabled,
    lpMint: pool.lpMint,
    lpIssued: pool.lpIssued,
    ...(pool.curve ? { curve: pool.curve } : {}),
  }
  if (!reserves) {
    return { ...base, tokenReserve: 0n, quoteReserve: 0n, priceInQuote: undefined, quoteUsd, liquidityUsd: undefined, tokenVaultFrozen: false }
  }
  const tokenAccount = tokenIsA ? reserves.tokenAccountA : reserves.tokenAccountB
  if (tokenAccount) base.tokenVault = tokenAccount
  const tokenReserve = tokenIsA ? reserves.reserveA : reserves.reserveB
  const quoteReserve = tokenIsA ? reserves.reserveB : reserves.reserveA
  const quoteDecimals = tokenIsA ? reserves.decimalsB : reserves.decimalsA
  const tokenDecimals = tokenIsA ? reserves.decimalsA : reserves.decimalsB
  const priceInQuote = priceOf(pool, tokenIsA, reserves) ?? undefined
  const tokenWhole = toWhole(tokenReserve, tokenDecimals)
  const quoteWhole = toWhole(quoteReserve, quoteDecimals)
  const liquidityUsd = quoteUsd !== undefined && priceInQuote !== undefined ? (tokenWhole * priceInQuote + quoteWhole) * quoteUsd : undefined
  return {
    ...base,
    tokenReserve,
    quoteReserve,
    priceInQuote,
    quoteUsd,
    liquidityUsd,
    tokenVaultFrozen: tokenIsA ? reserves.frozenA : reserves.frozenB,
  }
}

/** Price of one whole token A (or B, when `forA` is false) in whole units of the other side. */
function priceOf(pool: DecodedPool, forA: boolean, r: Reserves): number | null {
  if (pool.priceOnReserves) {
    const raw = pool.priceOnReserves(r.reserveA, r.reserveB)
    const bPerA = raw === undefined ? Number.NaN : raw * 10 ** (r.decimalsA - r.decimalsB)
    if (!Number.isFinite(bPerA) || bPerA <= 0) return null
    return forA ? bPerA : 1 / bPerA
  }
  if (pool.rawPriceBPerA !== undefined) {
    const bPerA = pool.rawPriceBPerA * 10 ** (r.decimalsA - r.decimalsB)
    if (!Number.isFinite(bPerA) || bPerA <= 0) return null
    return forA ? bPerA : 1 / bPerA
  }
  if (pool.sqrtPriceX64 !== null) {
    const sqrt = Number(pool.sqrtPriceX64) / Q64
    const bPerA = sqrt * sqrt * 10 ** (r.decimalsA - r.decimalsB)
    if (!Number.isFinite(bPerA) || bPerA <= 0) return null
    return forA ? bPerA : 1 / bPerA
  }
  const a = toWhole(r.reserveA, r.decimalsA)
  const b = toWhole(r.reserveB, r.decimalsB)
  if (a <= 0 || b <= 0) return null
  return forA ? b / a : a / b
}

/** Vault balances (minus fees the pool owes elsewhere) and the decimals of both mints. */
/** A mint account's decimals; undefined when it is not a mint of a token program. */
function decimalsOf(account: { owner: string; data: Uint8Array }): number | undefined {
  const program = tokenProgramName(account.owner)
  if (!program) return undefined
  const decoded = decodeTokenProgramAccount(account.data, program)
  return decoded.kind === 'mint' ? decoded.mint.decimals : undefined
}

async function readReserves(ctx: CollectContext, pool: DecodedPool, amm?: Pick<AmmDefinition, 'readReserves'>): Promise<Reserves | null> {
  if (amm?.readReserves) return readSharedReserves(ctx, pool, amm.readReserves)
  const [vaultA, vaultB, mintA, mintB] = await ctx.loader.loadMany([pool.vaultA, pool.vaultB, pool.mintA, pool.mintB])
  if (!mintA || !mintB) return null
  const decimalsA = decimalsOf(mintA)
  const decimalsB = decimalsOf(mintB)
  if (decimalsA === undefined || decimalsB === undefined) return null
  if (pool.reserves) {
    // A pool that states its reserves (a curve): its token vault only tells whether it is frozen.
    const frozenA = vaultA ? decodeTokenAccountBase(vaultA.data).state === 'frozen' : false
    return { reserveA: pool.reserves.a, reserveB: pool.reserves.b, decimalsA, decimalsB, frozenA, frozenB: false }
  }
  if (!vaultA || !vaultB) return null
  const accountA = decodeTokenAccountBase(vaultA.data)
  const accountB = decodeTokenAccountBase(vaultB.data)
  if (accountA.mint !== pool.mintA || accountB.mint !== pool.mintB) return null
  const clamp = (v: bigint) => (v > 0n ? v : 0n)
  return {
    reserveA: clamp(accountA.amount - pool.feesOwedA),
    reserveB: clamp(accountB.amount - pool.feesOwedB),
    decimalsA,
    decimalsB,
    frozenA: accountA.state === 'frozen',
    frozenB: accountB.state === 'frozen',
  }
}

/** Reserves a pool's venue reads from vaults it shares with other pools, and whether their token accounts are frozen. */
async function readSharedReserves(ctx: CollectContext, pool: DecodedPool, read: NonNullable<AmmDefinition['readReserves']>): Promise<Reserves | null> {
  const [shared, [mintA, mintB]] = await Promise.all([read(pool, (addresses) => ctx.loader.loadMany(addresses)), ctx.loader.loadMany([pool.mintA, pool.mintB])])
  const decimalsA = mintA ? decimalsOf(mintA) : undefined
  const decimalsB = mintB ? decimalsOf(mintB) : undefined
  if (!shared || decimalsA === undefined || decimalsB === undefined) return null
  return { reserveA: shared.a, reserveB: shared.b, decimalsA, decimalsB, frozenA: shared.frozenA, frozenB: shared.frozenB, tokenAccountA: shared.tokenAccountA, tokenAccountB: shared.tokenAccountB }
}

/**
 * USD price of SOL: the first reference pool that pairs wrapped SOL with a stablecoin. Started
 * with the mint read so its accounts share that call; undefined when no reference pool answers.
 */
export async function readSolUsd(ctx: CollectContext): Promise<number | undefined> {
  const addresses = ctx.pricing.solUsdPools
  if (addresses.length === 0) return undefined
  try {
    const accounts = await ctx.loader.loadMany(addresses)
    for (const account of accounts) {
      if (!account) continue
      const amm = ammByProgram(account.owner)
      if (!amm) continue
      const pool = amm.decode(account.data)
      const solIsA = pool.mintA === WRAPPED_SOL_MINT
      const other = solIsA ? pool.mintB : pool.mintA
      if ((!solIsA && pool.mintB !== WRAPPED_SOL_MINT) || !ctx.pricing.stablecoins.some((s) => s.mint === other)) continue
      const reserves = await readReserves(ctx, pool)
      const price = reserves ? priceOf(pool, solIsA, reserves) : null
      if (price !== null && price > 0) return price
    }
  } catch (error) {
    if (error instanceof SolanaRpcError && !isRefusal(error)) throw error
    ctx.logger.warn({ reason: reasonOf(error) }, 'SOL/USD reference pools could not be read')
  }
  return undefined
}

/**
 * The launch curve of a token that trades on a launchpad curve found by search (LaunchLab, DBC):
 * the deepest such pool. null when none is.
 */
export function curveOfPools(pools: PoolFacts[]): CurveFacts | null {
  const p = pools.find((x) => x.curve)
  if (!p?.curve) return null
  return {
    venue: p.dex,
    address: p.address,
    tokenVault: p.tokenVault,
    complete: p.curve.complete,
    creator: p.curve.creator,
    quoteMint: p.quoteMint,
    virtualTokenReserve: p.curve.virtualToken,
    virtualQuoteReserve: p.curve.virtualQuote,
    realTokenReserve: p.tokenReserve,
    realQuoteReserve: p.quoteReserve,
    progressPercent: p.curve.progressPercent,
    graduatesTo: p.curve.graduatesTo,
  }
}

function toWhole(amount: bigint, decimals: number): number {
  return Number(amount) / 10 ** decimals
}
