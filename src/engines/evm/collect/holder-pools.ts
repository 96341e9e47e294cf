import { formatUnits, getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { NO_OVERRIDE_REASON } from '../chain/capabilities.ts'
import { PROBE_ADDRESSES, callProbe, decodeHolderPools, decodeProbe, decodeTrade, encodeHolderPools, type HolderPoolResult, type PoolInfo } from '../chain/probe.ts'
import { decodeRevert } from '../chain/revert.ts'
import type { MarketFacts, PoolFact, TokenBasics, TradeFact } from '../facts.ts'
import { VENUES, venueOf } from '../venues/registry.ts'
import { units, type Venue } from '../venues/venue.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import { dexQueries, type Discovery } from './discovery.ts'
import { decodeText } from './probe-reads.ts'
import { priceQuotes } from './markets.ts'
import { UNLISTED_V2_FEE_BPS } from './own-pairs.ts'
import { emptyTrade, interpretTrade, quoteRoute, unreadPool } from './trades.ts'

/**
 * Pools among the token's holders: an account that holds the token and answers as a pool of it (a
 * V2-like pair, a V3-like pool, a Solidly-style pool) is a market, whatever exchange made it — one
 * the chain entry does not list included. The largest holders of record are read as pools once the
 * holder index stands, and each pool found is traded in the same call (one round trip, beside the
 * holders' own reads).
 */

/** Holders of record read as pools at most, the largest first. */
export const MAX_HOLDER_POOL_CANDIDATES = 10
/** Decimals a token may answer (a larger answer is not a token's decimals). */
const MAX_DECIMALS = 255n
/** The probe's answer for an account that names the token as one of its two tokens but answers no pool read. */
const KIND_NAMES_TOKEN = 1

export interface HolderPoolsFound {
  /** The pools found, with their figures (the traded ones). */
  pools: PoolFact[]
  /** One per pool found: traded, or why it was not (untradable: `simulated` false). */
  trades: TradeFact[]
  /** Why the holders were not read as pools ('' when they were). */
  note: string
}

/** The venue whose pools answer as the probe's `kind` does (V2-like, V3-like, Solidly-style). */
function venueOfKind(kind: number): Venue | undefined {
  return Object.values(VENUES).find((v) => v.holderKinds?.includes(kind))
}

/**
 * Reads the largest holders of record as pools and trades on those that are pools of the token
 * against a quote asset the probe can obtain. `known` are the pools found already (never read again).
 */
export async function collectHolderPools(
  ctx: CollectContext,
  d: Discovery,
  holders: readonly { address: Address }[],
  known: readonly Address[],
  donors: Address[],
  block: Hex,
): Promise<HolderPoolsFound> {
  const skip = [ctx.token, ZERO_ADDRESS, ...known, ...ctx.chain.burnAddresses, ...ctx.chain.lockers.map((l) => l.address)]
  const accounts = holders.map((h) => h.address).filter((a) => !skip.some((s) => sameAddress(s, a))).slice(0, MAX_HOLDER_POOL_CANDIDATES)
  if (accounts.length === 0) return { pools: [], trades: [], note: '' }
  if (ctx.rpc.capabilities?.stateOverride === 'no') return { pools: [], trades: [], note: `the holders were not read as pools: ${NO_OVERRIDE_REASON}` }
  const quotes = d.quotes.filter((q) => q.kind !== 'native' && q.kind !== 'other').flatMap((q) => {
    const route = quoteRoute(ctx, d, q.address)
    return route ? [{ address: q.address, route }] : []
  })
  const dexes = dexQueries(ctx)
  const raw = await callProbe(ctx.rpc, {
    what: 'holder pools',
    data: encodeHolderPools({
      token: ctx.token,
      weth: ctx.chain.wrappedNative,
      donors,
      feeBps: UNLISTED_V2_FEE_BPS,
      accounts,
      quotes: quotes.map((q) => q.address),
      routes: quotes.map((q) => q.route),
      dexes: dexes.map((x) => x.query),
      dexFees: dexes.map((x) => ctx.chain.dexes[x.index].feeBps),
    }),
    gas: ctx.gasCap,
    block,
    actors: [PROBE_ADDRESSES.w1, PROBE_ADDRESSES.w2, PROBE_ADDRESSES.w3, ...donors],
  })
  const { pools: read } = decodeProbe('holder pools', raw, decodeHolderPools)
  const quoteUsd = priceQuotes(ctx, d)
  const found = read.filter((h) => h.kind !== 0)
  const pools = found.map((h) => holderPoolFact(ctx, d, h, quoteUsd, otherUsd(ctx, d, h, quoteUsd, dexes.map((x) => x.index))))
  const trades = found.map((h, i) => holderPoolTrade(ctx, d, h, pools[i], quotes.map((q) => q.address)))
  return { pools: pools.filter((p, i) => trades[i].simulated && p.liquidityUsd !== undefined), trades, note: '' }
}

/**
 * The exchanges that keep all their pools' tokens in their factory (a Uniswap V4 PoolManager) and
 * hold the token while none of their pools was found: each is a market of the token whose figures
 * are unknown (no trade, no liquidity known), never "no pool". The holding is the token's
 * balanceOf(factory) read in the discovery (whether or not the factory is among the largest
 * holders of record), or the holders' balance of record when that read did not answer.
 * `known` are the pools found (a V4 pool's address is its PoolManager's); `searchNote` what the
 * pool search could not cover. No chain read of its own.
 */
export function custodyTrades(ctx: CollectContext, d: Discovery, holders: readonly { address: Address; balance: bigint }[], known: readonly Address[], searchNote: string): TradeFact[] {
  return ctx.chain.dexes.flatMap((dex) => {
    const custodian = venueOf(dex.type).custodian
    const balance = d.custody.find((c) => sameAddress(c.holder, dex.factory))?.balance ?? holders.find((h) => sameAddress(h.address, dex.factory))?.balance
    if (!custodian || balance === undefined || balance === 0n || known.some((k) => sameAddress(k, dex.factory))) return []
    const manager = getAddress(dex.factory)
    const amount = d.basics.decimals === undefined ? `${balance} raw units` : `${formatUnits(balance, d.basics.decimals)} ${d.basics.symbol ?? ''}`.trim()
    const why = `${custodian.name} ${manager} holds ${amount} of the token: pools of it live there, but none was found ${custodian.finding}${searchNote ? ` (${searchNote})` : ''}; its buy, sell and taxes are not measured`
    // Which pools, against what, in which order: unknown. Its `quote` names no asset.
    const pool: PoolFact = { ...unreadPool({ dex: dex.name, dexType: dex.type, fee: undefined, address: manager, token0: undefined, quote: manager }), custody: { balance } }
    return [{ ...emptyTrade(pool, why), venue: why }]
  })
}

/** The markets once a holding of unfound pools is known: their total liquidity is unknown (never "none"). */
export function withCustody(markets: MarketFacts, trades: readonly TradeFact[]): MarketFacts {
  return trades.some((t) => t.pool.custody) ? { ...markets, liquidityUsd: undefined } : markets
}

/** The USD price of a pool's other token that is no quote asset, through its own deepest pool against WETH (undefined: none, or unpriced). */
function otherUsd(ctx: CollectContext, d: Discovery, h: HolderPoolResult, quoteUsd: Record<string, number>, dexIndexes: number[]): number | undefined {
  const pool = h.otherPool
  if (sameAddress(pool.pool, ZERO_ADDRESS) || !h.otherDecimalsRead || h.otherDecimals > MAX_DECIMALS) return undefined
  const dex = ctx.chain.dexes[dexIndexes[Number(pool.dex)] ?? -1]
  const weth = d.quotes.find((q) => sameAddress(q.address, ctx.chain.wrappedNative))
  const wethUsd = quoteUsd[ctx.chain.wrappedNative.toLowerCase()]
  if (!dex || weth?.decimals === undefined || wethUsd === undefined) return undefined
  const inWeth = venueOf(dex.type).price(pool, h.other, Number(h.otherDecimals), weth.decimals)
  return inWeth === undefined ? undefined : inWeth * wethUsd
}

/** A pool found among the holders as a pool fact: its exchange (by its factory), reserves, price and liquidity. */
function holderPoolFact(ctx: CollectContext, d: Discovery, h: HolderPoolResult, quoteUsd: Record<string, number>, otherPriceUsd: number | undefined): PoolFact {
  // An exchange of the chain entry (a pool against a token that is no quote asset) keeps its name.
  const listed = ctx.chain.dexes.find((x) => !sameAddress(h.factory, ZERO_ADDRESS) && sameAddress(x.factory, h.factory))
  const venue = listed ? venueOf(listed.type) : venueOfKind(h.kind)
  const listedQuote = d.quotes.find((q) => sameAddress(q.address, h.other))
  // A token that is no quote asset: its decimals as it answered them.
  const symbol = decodeText({ success: h.otherSymbol !== '0x', returnData: h.otherSymbol }) ?? ''
  const quote = listedQuote ?? (h.otherDecimalsRead && h.otherDecimals <= MAX_DECIMALS ? { symbol, decimals: Number(h.otherDecimals) } : undefined)
  const factory = sameAddress(h.factory, ZERO_ADDRESS) ? 'unknown' : getAddress(h.factory)
  const tokenIs0 = BigInt(ctx.token) < BigInt(h.other)
  const token0 = tokenIs0 ? getAddress(ctx.token) : getAddress(h.other)
  const info: PoolInfo = {
    dex: -1n,
    pool: h.account,
    kind: h.kind,
    fee: UNLISTED_V2_FEE_BPS,
    quote: h.other,
    token0,
    reserveToken: h.reserveToken,
    reserveQuote: h.reserveOther,
    // Not read for a pool found among the holders: unknown, not zero.
    lpSupply: undefined,
    sqrtPriceX96: h.sqrtPriceX96,
    // Its liquidity is not read: a V3-like pool's price needs only that it has some.
    liquidity: h.reserveToken > 0n ? 1n : 0n,
  }
  const decimals = d.basics.decimals
  const price = venue && decimals !== undefined && quote?.decimals !== undefined ? venue.price(info, ctx.token, decimals, quote.decimals) : undefined
  const qUsd = quoteUsd[h.other.toLowerCase()] ?? otherPriceUsd
  const priceUsd = price !== undefined && qUsd !== undefined ? price * qUsd : undefined
  const liquidityUsd =
    priceUsd !== undefined && quote?.decimals !== undefined && decimals !== undefined ? units(h.reserveOther, quote.decimals) * qUsd! + units(h.reserveToken, decimals) * priceUsd : undefined
  return {
    dex: listed?.name ?? `unlisted ${venue?.holderName ?? 'exchange'} (factory ${factory})`,
    dexType: venue?.type ?? 'uniswap-v2',
    fee: h.kind === 2 ? UNLISTED_V2_FEE_BPS : 0,
    address: getAddress(h.account),
    token0,
    token1: tokenIs0 ? getAddress(h.other) : getAddress(ctx.token),
    quote: getAddress(h.other),
    quoteSymbol: quote?.symbol ?? '',
    quoteDecimals: quote?.decimals,
    tokenReserve: h.reserveToken,
    quoteReserve: h.reserveOther,
    lpSupply: undefined,
    priceInQuote: price,
    priceUsd,
    liquidityUsd,
    ...(h.kind === 5 || h.kind === 6 ? { stable: h.kind === 6 } : {}),
  }
}

/** The trade on a pool found among the holders, or why there was none. */
function holderPoolTrade(ctx: CollectContext, d: Discovery, h: HolderPoolResult, pool: PoolFact, quotes: Address[]): TradeFact {
  const where = `a holder of the token that answers as a pool of it (${pool.dex})`
  if (h.trade !== '0x') {
    const fact = interpretTrade(pool, decodeTrade(h.trade))
    return {
      ...fact,
      router: { address: undefined, buyOk: undefined, buyReason: '', sellOk: undefined, sellStep: '', sellReason: '', sellTax: { percent: undefined, note: 'no router is known for an exchange found among the holders' }, note: 'no router is known for an exchange found among the holders' },
      loadedNote: 'not sold again with the token holding itself: a pool found among the holders',
      venue: `${where}, found among its largest holders and traded directly${sameAddress(h.otherPool.pool, ZERO_ADDRESS) ? '' : `; its other token bought and priced through its pool ${getAddress(h.otherPool.pool)} against WETH`}`,
    }
  }
  const why =
    h.err !== '0x'
      ? `its simulation did not run: ${decodeRevert(h.err)}`
      : h.kind === KIND_NAMES_TOKEN || !venueOfKind(h.kind)
        ? 'it names the token as one of its two tokens (token0/token1) but answers neither getReserves() nor slot0(): a pool of a kind tokenrisk cannot trade'
        : h.reserveToken === 0n || h.reserveOther === 0n
          ? 'it has no reserves: nothing can be bought or sold there'
          : !quotes.some((q) => sameAddress(q, h.other)) && sameAddress(h.otherPool.pool, ZERO_ADDRESS)
            ? `its other token ${getAddress(h.other)} is none of the chain's quote assets and has no V2 or V3 pool against WETH to be bought and priced through`
            : 'it was not traded'
  return { ...emptyTrade(pool, `${where}: ${why}`), venue: `${where}: ${why}` }
}

/** The markets with the pools found among the holders: their liquidity added, the price from the deepest when none was known. */
export function withHolderPools(markets: MarketFacts, found: HolderPoolsFound, basics: TokenBasics): MarketFacts {
  if (found.pools.length === 0) return markets
  const pools = [...markets.pools, ...found.pools].sort((a, b) => (b.liquidityUsd ?? -1) - (a.liquidityUsd ?? -1))
  const liquidities = pools.map((p) => p.liquidityUsd)
  const liquidityUsd = liquidities.every((l) => l !== undefined) ? liquidities.reduce((a, b) => a! + b!, 0) : undefined
  const priceUsd = markets.priceUsd ?? pools.find((p) => p.priceUsd !== undefined)?.priceUsd
  const marketCapUsd =
    markets.marketCapUsd ?? (priceUsd !== undefined && basics.totalSupply !== undefined && basics.decimals !== undefined ? priceUsd * units(basics.totalSupply, basics.decimals) : undefined)
  return { ...markets, pools, liquidityUsd, priceUsd, marketCapUsd }
}
