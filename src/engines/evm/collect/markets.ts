import { getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import type { PoolInfo } from '../chain/probe.ts'
import { getLogsAdaptive, type RawLog } from '../chain/logs.ts'
import type { MarketFacts, PoolFact } from '../facts.ts'
import { ZERO_ADDRESS, blockHex, sameAddress, type CollectContext } from './context.ts'
import { settled, type Discovery, type QuoteAsset } from './discovery.ts'
import { venueOf } from '../venues/registry.ts'
import { units } from '../venues/venue.ts'
import { V4_SWAP_TOPIC } from '../venues/uniswap-v4.ts'

export const DAY_SECONDS = 86_400
/** The 24 h window of blocks is estimated from the chain's block time with this margin, then cut by timestamps. */
const DAY_WINDOW_MARGIN = 1.5
/** Block headers fetched to place the 24 h boundary among the events' blocks. */
const MAX_HEADER_SAMPLES = 32

/** The pool's DEX entry and venue, or undefined when the pool's DEX is not listed. */
function dexOf(ctx: CollectContext, info: PoolInfo) {
  const dex = ctx.chain.dexes[Number(info.dex)]
  return dex ? { dex, venue: venueOf(dex.type) } : undefined
}

function poolPrice(ctx: CollectContext, info: PoolInfo, asset: Address, assetDecimals: number | undefined, quoteDecimals: number | undefined): number | undefined {
  if (assetDecimals === undefined || quoteDecimals === undefined) return undefined
  return dexOf(ctx, info)?.venue.price(info, asset, assetDecimals, quoteDecimals)
}

/**
 * USD prices of the quote assets: stablecoins at 1, the wrapped native token through its deepest
 * stablecoin pool, majors through their pools against either.
 */
export function priceQuotes(ctx: CollectContext, d: Discovery): Record<string, number> {
  const out: Record<string, number> = {}
  const decimalsOf = (a: Address) => d.quotes.find((q) => sameAddress(q.address, a))?.decimals
  for (const s of ctx.chain.stablecoins) out[s.toLowerCase()] = 1
  const priceThrough = (asset: Address, pools: PoolInfo[]): number | undefined => {
    let best: { usd: number; depth: number } | undefined
    for (const p of pools) {
      const quoteUsd = out[p.quote.toLowerCase()]
      const qd = decimalsOf(p.quote)
      if (quoteUsd === undefined || qd === undefined) continue
      const price = poolPrice(ctx, p, asset, decimalsOf(asset), qd)
      // A pool whose reserves were not read has no depth to compare: it prices nothing.
      if (price === undefined || p.reserveQuote === undefined) continue
      const depth = units(p.reserveQuote, qd) * quoteUsd
      if (!best || depth > best.depth) best = { usd: price * quoteUsd, depth }
    }
    return best?.usd
  }
  for (const { asset, pools } of d.pricePools) {
    const usd = priceThrough(asset, pools)
    if (usd !== undefined) out[asset.toLowerCase()] = usd
  }
  // The native coin (the other side of V4 pools) is worth its wrapped token.
  const wrapped = out[ctx.chain.wrappedNative.toLowerCase()]
  if (wrapped !== undefined && d.quotes.some((q) => q.kind === 'native')) out[ZERO_ADDRESS] = wrapped
  return out
}

/**
 * The token's pools as facts: price, USD liquidity. Empty pools are dropped; a pool whose state is
 * still `pending` (known by its key or its factory's announcement) is kept without figures.
 */
export function poolFacts(ctx: CollectContext, d: Discovery, quoteUsd: Record<string, number>): PoolFact[] {
  const out: PoolFact[] = []
  for (const info of d.pools) {
    if (info.reserveToken === 0n && info.reserveQuote === 0n && !info.pending) continue
    const listed = dexOf(ctx, info)
    if (!listed) continue
    const { dex, venue } = listed
    const quote: QuoteAsset | undefined = d.quotes.find((q) => sameAddress(q.address, info.quote))
    const price = info.pending ? undefined : poolPrice(ctx, info, ctx.token, d.basics.decimals, quote?.decimals)
    const qUsd = quoteUsd[info.quote.toLowerCase()]
    const priceUsd = price !== undefined && qUsd !== undefined ? price * qUsd : undefined
    let liquidityUsd: number | undefined
    // Reserves not read leave the liquidity unknown (never 0).
    if (qUsd !== undefined && quote?.decimals !== undefined && !info.pending && info.reserveToken !== undefined && info.reserveQuote !== undefined) {
      const quoteSide = units(info.reserveQuote, quote.decimals) * qUsd
      const tokenSide = priceUsd !== undefined && d.basics.decimals !== undefined ? units(info.reserveToken, d.basics.decimals) * priceUsd : undefined
      liquidityUsd = tokenSide === undefined ? (info.reserveToken === 0n ? quoteSide : undefined) : quoteSide + tokenSide
    }
    const token0 = info.token0 === undefined ? undefined : getAddress(info.token0)
    const token1 = token0 === undefined ? undefined : sameAddress(token0, ctx.token) ? getAddress(info.quote) : ctx.token
    out.push({
      dex: dex.name,
      dexType: dex.type,
      fee: venue.fee(dex, info),
      address: getAddress(info.pool),
      token0,
      token1,
      quote: getAddress(info.quote),
      quoteSymbol: quote?.symbol ?? '',
      quoteDecimals: quote?.decimals,
      tokenReserve: info.reserveToken,
      quoteReserve: info.reserveQuote,
      lpSupply: venue.fungibleLp ? info.lpSupply : undefined,
      priceInQuote: price,
      priceUsd,
      liquidityUsd,
      ...(info.v4 ? { v4: info.v4 } : {}),
      ...venue.extra?.(info),
    })
  }
  return out.sort((a, b) => (b.liquidityUsd ?? -1) - (a.liquidityUsd ?? -1))
}

/**
 * Market facts: price from the deepest pool, market cap, total liquidity, and the 24 h range
 * from the pools' own events (each venue's swap event: V2 Sync reserves, V3 Swap prices) of the last day of blocks.
 */
export async function collectMarkets(ctx: CollectContext, found: Discovery): Promise<MarketFacts> {
  const d = await settled(found)
  const quoteUsd = priceQuotes(ctx, d)
  const pools = poolFacts(ctx, d, quoteUsd)
  const priced = pools.filter((p) => p.priceUsd !== undefined)
  const priceUsd = priced[0]?.priceUsd
  const supply = d.basics.totalSupply
  const marketCapUsd = priceUsd !== undefined && supply !== undefined && d.basics.decimals !== undefined ? priceUsd * units(supply, d.basics.decimals) : undefined
  const liquidities = pools.map((p) => p.liquidityUsd)
  const liquidityUsd = pools.length === 0 ? 0 : liquidities.every((l) => l !== undefined) ? liquidities.reduce((a, b) => a! + b!, 0) : undefined
  const range = await dayRange(ctx, d, pools, priceUsd)
  return { pools, quoteUsd, priceUsd, marketCapUsd, liquidityUsd, dayHighUsd: range.high, dayLowUsd: range.low, dayRangeNote: range.note, searchNote: '' }
}

async function dayRange(
  ctx: CollectContext,
  d: Discovery,
  pools: PoolFact[],
  currentPrice: number | undefined,
): Promise<{ high: number | undefined; low: number | undefined; note: string }> {
  const priced = pools.filter((p) => p.priceUsd !== undefined && p.quoteDecimals !== undefined)
  if (priced.length === 0 || d.basics.decimals === undefined) return { high: undefined, low: undefined, note: 'no priced pool' }
  const head = d.block.number
  const windowBlocks = BigInt(Math.ceil((DAY_SECONDS / ctx.chain.blockTimeSeconds) * DAY_WINDOW_MARGIN))
  const from = head > windowBlocks ? head - windowBlocks : 0n
  // Pools with an address of their own are asked by address; pools inside a manager (V4) by their ids.
  const own = priced.filter((p) => !p.v4)
  const managed = priced.filter((p) => p.v4)
  const asked = await Promise.all([
    getLogsAdaptive(ctx.rpc, { address: own.map((p) => p.address), topics: [[...new Set(own.flatMap((p) => venueOf(p.dexType).swapTopics))]] }, from, head, ctx.logLimit),
    ...[...new Set(managed.map((p) => p.address))].map((manager) =>
      getLogsAdaptive(ctx.rpc, { address: [manager], topics: [V4_SWAP_TOPIC, managed.filter((p) => sameAddress(p.address, manager)).map((p) => p.v4!.id)] }, from, head, ctx.logLimit),
    ),
  ])
  const logs = asked.flatMap((a) => a.logs)
  const missing = asked.flatMap((a) => a.missing)
  if (missing.length > 0) return { high: undefined, low: undefined, note: 'the node refused the swap events of the last day' }
  const cutoff = d.block.timestamp - DAY_SECONDS
  const times = await blockTimes(ctx, logs)
  const prices: number[] = []
  for (const log of logs) {
    const ts = times(log)
    if (ts === undefined || ts < cutoff) continue
    const pool = priced.find((p) => sameAddress(p.address, log.address) && (!p.v4 || log.topics[1] === p.v4.id))
    if (!pool) continue
    const price = priceFromLog(pool, log, ctx.token, d.basics.decimals)
    if (price !== undefined) prices.push(price * (ctx.chain.stablecoins.some((s) => sameAddress(s, pool.quote)) ? 1 : pool.priceUsd! / pool.priceInQuote!))
  }
  if (prices.length === 0) {
    return currentPrice === undefined
      ? { high: undefined, low: undefined, note: 'no swaps in the last 24 h and no current price' }
      : { high: currentPrice, low: currentPrice, note: 'no swaps in the last 24 h: the price did not move' }
  }
  return { high: Math.max(...prices), low: Math.min(...prices), note: `${prices.length} pool events in the last 24 h` }
}

function priceFromLog(pool: PoolFact, log: RawLog, token: Address, tokenDecimals: number): number | undefined {
  const venue = venueOf(pool.dexType)
  if (!venue.swapTopics.some((topic) => topic === log.topics[0]?.toLowerCase())) return undefined
  try {
    const price = venue.priceFromLog(log.data, sameAddress(pool.token0, token), tokenDecimals, pool.quoteDecimals!, pool)
    return price !== undefined && Number.isFinite(price) && price > 0 ? price : undefined
  } catch {
    return undefined
  }
}

/**
 * Timestamps of the logs' blocks: from the logs themselves when the node includes them, else
 * from block headers — all of them when few, otherwise a sample that brackets the cutoff.
 */
async function blockTimes(ctx: CollectContext, logs: RawLog[]): Promise<(log: RawLog) => number | undefined> {
  if (logs.length === 0) return () => undefined
  if (logs.every((l) => l.blockTimestamp)) return (l) => Number(BigInt(l.blockTimestamp!))
  const blocks = [...new Set(logs.map((l) => BigInt(l.blockNumber)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const sample =
    blocks.length <= MAX_HEADER_SAMPLES
      ? blocks
      : Array.from({ length: MAX_HEADER_SAMPLES }, (_, i) => blocks[Math.floor((i * (blocks.length - 1)) / (MAX_HEADER_SAMPLES - 1))])
  const headers = await Promise.all(
    sample.map((b) => ctx.rpc.request<{ timestamp: Hex } | null>('eth_getBlockByNumber', [blockHex(b), false])),
  )
  const known = new Map<bigint, number>()
  sample.forEach((b, i) => {
    const h = headers[i]
    if (h) known.set(b, Number(BigInt(h.timestamp)))
  })
  if (sample.length === blocks.length) return (l) => known.get(BigInt(l.blockNumber))
  // Interpolate between sampled blocks: exact at samples, linear in between (a sampled day).
  const points = [...known.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))
  return (l) => {
    const b = BigInt(l.blockNumber)
    const exact = known.get(b)
    if (exact !== undefined) return exact
    let prev = points[0]
    for (const p of points) {
      if (p[0] > b) {
        const span = Number(p[0] - prev[0])
        return span <= 0 ? p[1] : prev[1] + ((p[1] - prev[1]) * Number(b - prev[0])) / span
      }
      prev = p
    }
    return prev?.[1]
  }
}
