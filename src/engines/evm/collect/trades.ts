import type { Address, Hex } from 'viem'
import { decodeRevert, isProbeReason } from '../chain/revert.ts'
import {
  LARGE_BUY_BPS,
  NO_ROUTE,
  PROBE_ADDRESSES,
  assertGasNotCapped,
  callProbe,
  decodeProbe,
  decodeTrade,
  encodeTrade,
  isStarved,
  type Outcome,
  type StateOverride,
  type ProbePool,
  type ProbeRoute,
  type PoolInfo,
  type TradeResult,
} from '../chain/probe.ts'
import { NO_OVERRIDE_REASON } from '../chain/capabilities.ts'
import type { OwnPairsFact, PoolFact, RouterTradeFact, TaxFigure, TradeFact } from '../facts.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import { settled, wasPending, type Discovery } from './discovery.ts'
import { poolFacts, priceQuotes } from './markets.ts'
import { ownPairOf } from './own-pairs.ts'
import { venueOf } from '../venues/registry.ts'

/** What the probe reports when a sell's transfer went through but the pool got none of it. */
const POOL_GOT_NOTHING = /the pool received none of the tokens sent/

/** A sell that loses this share or more of what was sent is a honeypot, even without a revert. */
export const HONEYPOT_TAX_PERCENT = 95
/**
 * A whole-balance sale that loses this many percentage points more than a sale of half the balance
 * did: part of it never reached the pool (a clamp that keeps some back, or a fee on whole sales).
 */
export const SELL_ALL_SHORTFALL_PP = 0.5

/** How the probe trades through the pool: its venue says. */
export function probePool(ctx: CollectContext, pool: PoolFact): ProbePool {
  const dex = ctx.chain.dexes.find((x) => x.name === pool.dex && x.type === pool.dexType)
  return venueOf(pool.dexType).probePool(pool, dex)
}

/**
 * How the probe gets the pool's quote asset: wrapped native is minted from ETH; any other quote is
 * bought with wrapped native through the deepest pool between the two on the chain's DEXes.
 */
export function quoteRoute(ctx: CollectContext, d: Discovery, quote: Address): ProbeRoute | undefined {
  const weth = ctx.chain.wrappedNative
  // The native coin is the probe's own (V4 pools settle it directly); wrapped native is minted from it.
  if (sameAddress(quote, weth) || sameAddress(quote, ZERO_ADDRESS)) return NO_ROUTE
  const candidates = d.pricePools.flatMap((pp) =>
    pp.pools.filter((p) => (sameAddress(pp.asset, weth) && sameAddress(p.quote, quote)) || (sameAddress(pp.asset, quote) && sameAddress(p.quote, weth))),
  )
  // Only pools the probe can buy through (a venue says), deepest first.
  // Reserves not read are unknown: such a pool is not chosen to buy through.
  const usable = candidates.filter((p) => !!p.reserveToken && !!p.reserveQuote && routeThrough(ctx, p) !== undefined)
  if (usable.length === 0) return undefined
  const side = (p: PoolInfo) => (sameAddress(p.quote, quote) ? p.reserveQuote : p.reserveToken) ?? 0n
  const deepest = usable.reduce((a, b) => (side(b) > side(a) ? b : a))
  return routeThrough(ctx, deepest)
}

function routeThrough(ctx: CollectContext, info: PoolInfo): ProbeRoute | undefined {
  const dex = ctx.chain.dexes[Number(info.dex)]
  return dex ? venueOf(dex.type).route(info, dex) : undefined
}

function percentLost(o: Outcome): number | undefined {
  if (!o.ok || o.sent === 0n) return undefined
  if (o.received >= o.sent) return 0
  // Four decimals of a percent, rounded half up (a 3 % fee floored by the token reads 2.99999…).
  return Number(((o.sent - o.received) * 2_000_000n + o.sent) / (2n * o.sent)) / 10_000
}

function tax(o: Outcome, what: string): TaxFigure {
  const p = percentLost(o)
  if (p !== undefined) return { percent: p, note: `simulated ${what}: ${o.received} of ${o.sent} arrived` }
  return { percent: undefined, note: o.ok ? `${what} not simulated` : `${what} failed: ${decodeRevert(o.err)}` }
}

export function emptyTrade(pool: PoolFact, error: string): TradeFact {
  const unknown: TaxFigure = { percent: undefined, note: error }
  return {
    pool,
    simulated: false,
    error,
    buyOk: undefined,
    buyReason: '',
    buyTax: unknown,
    sellTax: unknown,
    transferTax: unknown,
    honeypot: undefined,
    honeypotReason: '',
    sellAllOk: undefined,
    sellAllReason: '',
    sell99Ok: undefined,
    buyAgainOk: undefined,
    buyAgainReason: '',
    bigBuyOk: undefined,
    bigBuyReason: '',
    bigBuyPercentOfPool: Number(LARGE_BUY_BPS) / 100,
  }
}

/** Reads a trade result into the pool's facts: taxes, honeypot, cooldown, limits. */
export function interpretTrade(pool: PoolFact, r: TradeResult): TradeFact {
  const fact = emptyTrade(pool, '')
  fact.simulated = true
  const buyReason = r.buy.ok ? '' : decodeRevert(r.buy.err)
  const buyByProbe = !r.buy.ok && isProbeReason(buyReason)
  fact.buyOk = buyByProbe ? undefined : r.buy.ok && r.buy.received > 0n
  fact.buyReason = r.buy.ok && r.buy.received === 0n ? 'the buyer received nothing' : buyReason
  fact.buyTax = r.buy.ok ? tax(r.buy, 'buy') : { percent: undefined, note: `buy failed: ${buyReason}` }
  fact.transferTax = r.transfer.sent > 0n || !r.transfer.ok ? tax(r.transfer, 'transfer') : { percent: undefined, note: 'no tokens to transfer' }
  const seller = r.seller !== '0x0000000000000000000000000000000000000000'
  if (seller) {
    const sellReason = r.sellPart.ok ? '' : decodeRevert(r.sellPart.err)
    const lost = percentLost(r.sellPart)
    if (r.sellPart.ok) {
      fact.sellTax = tax(r.sellPart, 'sell')
      fact.honeypot = lost !== undefined && lost >= HONEYPOT_TAX_PERCENT
      fact.honeypotReason = fact.honeypot ? `selling loses ${lost}% of the tokens` : ''
    } else if (POOL_GOT_NOTHING.test(sellReason)) {
      fact.sellTax = { percent: 100, note: 'simulated sell: the pool received none of the tokens sent' }
      fact.honeypot = true
      fact.honeypotReason = 'selling loses 100% of the tokens'
    } else if (isProbeReason(sellReason)) {
      fact.sellTax = { percent: undefined, note: `sell not simulated: ${sellReason}` }
    } else {
      fact.sellTax = { percent: undefined, note: `sell failed: ${sellReason}` }
      fact.honeypot = true
      fact.honeypotReason = sellReason
    }
    const allReason = r.sellAll.ok ? '' : decodeRevert(r.sellAll.err)
    fact.sellAllOk = r.sellAll.ok ? true : isProbeReason(allReason) ? undefined : false
    fact.sellAllReason = allReason
    const mostReason = r.sell99.ok ? '' : decodeRevert(r.sell99.err)
    fact.sell99Ok = r.sell99.ok ? true : isProbeReason(mostReason) ? undefined : false
    // A whole-balance sale that did not revert is checked, not assumed: what reached the pool.
    const allLost = percentLost(r.sellAll)
    if (allLost !== undefined && lost !== undefined && allLost - lost > SELL_ALL_SHORTFALL_PP) fact.sellAllShortfall = { percent: allLost, partPercent: lost }
  } else {
    fact.sellTax = { percent: undefined, note: fact.buyOk === false ? 'could not buy, and no holder could lend tokens to sell' : 'no tokens to sell' }
  }
  if (fact.buyOk) {
    const againReason = r.buyAgain.ok ? '' : decodeRevert(r.buyAgain.err)
    fact.buyAgainOk = r.buyAgain.ok ? true : isProbeReason(againReason) ? undefined : false
    fact.buyAgainReason = againReason
    const bigReason = r.bigBuy.ok ? '' : decodeRevert(r.bigBuy.err)
    fact.bigBuyOk = r.bigBuy.ok ? true : isProbeReason(bigReason) ? undefined : false
    fact.bigBuyReason = bigReason
  }
  return fact
}

/**
 * Simulates trading on every pool (one `eth_call` per pool, all in one round trip): buy, transfer
 * to a fresh wallet, sell part / all / 99 %, buy twice, buy big. `donors` lend tokens to sell when
 * buying is impossible.
 */
export async function collectTrades(
  ctx: CollectContext,
  d: Discovery,
  pools: PoolFact[],
  donors: Address[],
  block: Hex,
  ownPairs?: { fact: OwnPairsFact; extra: PoolFact[] },
): Promise<TradeFact[]> {
  // A node that refuses state overrides cannot run the probe: every pool is unknown, and says why.
  if (ctx.rpc.capabilities?.stateOverride === 'no') return pools.map((pool) => emptyTrade(pool, NO_OVERRIDE_REASON))
  const actors = [PROBE_ADDRESSES.w1, PROBE_ADDRESSES.w2, PROBE_ADDRESSES.w3, ...donors]
  const loaded = loadedState(ctx, d)
  const simulate = async (what: string, data: Hex, pool: ProbePool, state?: StateOverride): Promise<TradeResult> => {
    const raw = await callProbe(ctx.rpc, { what, data, gas: ctx.gasCap, block, actors, state, pool })
    const result = decodeProbe(what, raw, decodeTrade)
    const outcomes = [result.buy, result.transfer, result.sellPart, result.sellAll, result.sell99, result.buyAgain, result.bigBuy]
    assertGasNotCapped(what, ctx.gasCap, result.startGas, outcomes.some((o) => !o.ok && isStarved(o.err)))
    return result
  }
  const traded = await Promise.all(
    [...pools, ...(ownPairs?.extra ?? [])].map(async (known) => {
      // A pool known by its key or its announcement in the first round trip is traded once its
      // state is read (an empty one is not), its quote obtained through the quote's own pools.
      const late = wasPending(d, known)
      const dd = late ? await settled(d) : d
      const pool = late ? poolFacts(ctx, dd, priceQuotes(ctx, dd)).find((p) => sameAddress(p.address, known.address) && p.v4?.id === known.v4?.id) : known
      if (!pool) return undefined
      const route = quoteRoute(ctx, dd, pool.quote)
      if (!route) return emptyTrade(pool, `no pool to obtain ${pool.quoteSymbol || pool.quote} for the simulation`)
      const router = routerOf(ctx, pool)
      const params = { token: ctx.token, weth: ctx.chain.wrappedNative, pool: probePool(ctx, pool), route, donors }
      // The sells again with the token holding a large balance of itself: sells that break only
      // once a swap-back threshold is passed show there.
      const [normal, heavy] = await Promise.all([
        simulate('trade', encodeTrade({ ...params, router: router.address }), params.pool),
        'state' in loaded ? simulate('trade (token holding itself)', encodeTrade({ ...params, sellsOnly: true }), params.pool, loaded.state) : undefined,
      ])
      const fact = withRouterTrades(interpretTrade(pool, normal), normal, router.address, router.why)
      const traded: TradeFact = { ...withLoadedSells(fact, heavy, 'state' in loaded ? loaded.note : loaded.why), ownPair: ownPairOf(ownPairs?.fact, pool.address) }
      const venue = venueOf(pool.dexType).describe?.(traded)
      return venue ? { ...traded, venue } : traded
    }),
  )
  // A pair the token names that cannot be traded: said so, its behaviour unknown.
  const unrun = (ownPairs?.fact.pairs ?? []).filter((p) => !p.tradable)
  return [...traded.filter((t): t is TradeFact => !!t), ...unrun.map((p) => ({ ...emptyTrade(untradablePool(ctx, p.address), `the token's own pair (${p.how.join(', ')}) ${p.address} cannot be traded: ${p.problem}`), ownPair: p.how.join(', ') }))]
}

/** A pool fact for a pair the token names where nothing could be traded. */
function untradablePool(ctx: CollectContext, address: Address): PoolFact {
  return unreadPool({ dex: "the token's own pair", dexType: 'uniswap-v2', fee: 0, address, token0: ctx.token, quote: ZERO_ADDRESS })
}

/**
 * A pool fact of which only where it is was learned: its other side's symbol and decimals, its
 * reserves, LP supply, price and liquidity unknown (undefined, rendered ""), never 0.
 */
export function unreadPool(known: Pick<PoolFact, 'dex' | 'dexType' | 'fee' | 'address' | 'token0' | 'quote'>): PoolFact {
  return {
    ...known,
    token1: undefined,
    quoteSymbol: '',
    quoteDecimals: undefined,
    tokenReserve: undefined,
    quoteReserve: undefined,
    lpSupply: undefined,
    priceInQuote: undefined,
    priceUsd: undefined,
    liquidityUsd: undefined,
  }
}

/** The V2 router of the pool's exchange, or why the probe trades without one. */
export function routerOf(ctx: CollectContext, pool: PoolFact): { address: Address | undefined; why: string } {
  const dex = ctx.chain.dexes.find((x) => x.type === pool.dexType && x.name === pool.dex)
  if (!dex) return { address: undefined, why: `the exchange of ${pool.address} is not listed: no router is known for it` }
  if (!venueOf(dex.type).fungibleLp) return { address: undefined, why: 'router trades are made on V2 pools only' }
  const router = venueOf(dex.type).router(dex)
  if (!router) return { address: undefined, why: `no router is configured for ${dex.name}` }
  return { address: router, why: '' }
}

/**
 * Reads the router trades into the pool's facts: a sell that a plain transfer to the pair makes
 * but the router (approve, then transferFrom) does not is a honeypot for every wallet, and says
 * which step failed; a buy that fails only through the router cannot be made by wallets.
 */
export function withRouterTrades(fact: TradeFact, r: TradeResult, router: Address | undefined, why: string): TradeFact {
  const unknown: TaxFigure = { percent: undefined, note: why || 'not traded through a router' }
  if (!router || !fact.simulated) {
    const none: RouterTradeFact = { address: undefined, buyOk: undefined, buyReason: '', sellOk: undefined, sellStep: '', sellReason: '', sellTax: unknown, note: why }
    return { ...fact, router: none }
  }
  const buyReason = r.routerBuy.ok ? (r.routerBuy.received === 0n ? 'the buyer received nothing' : '') : decodeRevert(r.routerBuy.err)
  const buyOk = r.routerBuy.ok ? r.routerBuy.received > 0n : isProbeReason(buyReason) ? undefined : false
  const seller = r.seller !== '0x0000000000000000000000000000000000000000'
  const sellReason = !seller ? 'no tokens to sell' : r.routerSell.ok ? '' : decodeRevert(r.routerSell.err)
  const sellOk = !seller ? undefined : r.routerSell.ok ? r.routerSell.received > 0n : isProbeReason(sellReason) ? undefined : false
  const sellStep = sellOk === false ? (r.routerApproved ? 'swap' : 'approve') : ''
  const lost = percentLost(r.routerSell)
  const out: TradeFact = {
    ...fact,
    router: {
      address: router,
      buyOk,
      buyReason: buyOk === false ? buyReason : '',
      sellOk,
      sellStep,
      sellReason: r.routerSell.ok && r.routerSell.received === 0n ? 'the pool received none of the tokens sent' : sellReason,
      sellTax: r.routerSell.ok ? tax(r.routerSell, 'sell through the router') : { percent: undefined, note: sellReason },
      note: 'approve, then the router pulls the tokens with transferFrom (fee-on-transfer swap variants)',
    },
  }
  if (fact.honeypot === false && sellOk === false) {
    const where = sellStep === 'approve' ? "the holder's approve of the router" : "the router's swap (its transferFrom from the holder)"
    const reason = r.routerSell.ok ? 'the pool received none of the tokens sent' : sellReason
    out.honeypot = true
    out.honeypotReason = `selling through the router ${router} fails at ${where}: ${reason}; a plain transfer to the pair works, but wallets sell through a router`
    out.sellAllOk = false
    out.sellAllReason = out.honeypotReason
  } else if (fact.honeypot === false && lost !== undefined && lost >= HONEYPOT_TAX_PERCENT) {
    out.honeypot = true
    out.honeypotReason = `selling through the router ${router} loses ${lost}% of the tokens`
  }
  // Wallets pay what the router path takes: its figure when it is the higher.
  if (lost !== undefined && fact.sellTax.percent !== undefined && lost > fact.sellTax.percent + ROUTER_TAX_MARGIN_PP) out.sellTax = tax(r.routerSell, 'sell through the router')
  if (fact.buyOk === true && buyOk === false) {
    out.buyOk = false
    out.buyReason = `buying through the router ${router} fails (${buyReason}); a direct swap with the pair works, but wallets buy through a router`
  }
  return out
}

/** A router sell must lose this many percentage points more than a direct one before its figure replaces the direct one. */
const ROUTER_TAX_MARGIN_PP = 0.5

/** Share of the supply the token is made to hold of itself for the loaded trades (above any swap-back threshold seen in practice). */
export const LOADED_SELF_BALANCE_DIVISOR = 20n

/** The state override that gives the token a large balance of itself, or why there is none. */
function loadedState(ctx: CollectContext, d: Discovery): { state: StateOverride; note: string } | { why: string } {
  if ('why' in d.selfBalanceSlot) return { why: `sells with the token holding its own tokens were not simulated: ${d.selfBalanceSlot.why}` }
  const supply = d.basics.totalSupply
  if (!supply) return { why: 'sells with the token holding its own tokens were not simulated: its supply is unknown' }
  const value = supply / LOADED_SELF_BALANCE_DIVISOR
  return {
    state: { [ctx.token]: { stateDiff: { [d.selfBalanceSlot.slot]: `0x${value.toString(16).padStart(64, '0')}` as Hex } } },
    note: `sold again with the token holding ${value} (1/${LOADED_SELF_BALANCE_DIVISOR} of the supply) of itself`,
  }
}

/**
 * The verdict of a pool once the token holds a large balance of itself: a pool whose sells work
 * normally but fail (or lose everything) then is a honeypot that springs later.
 */
export function withLoadedSells(fact: TradeFact, heavy: TradeResult | undefined, note: string): TradeFact {
  if (!heavy) return { ...fact, loadedNote: note }
  const loaded = interpretTrade(fact.pool, heavy)
  if (fact.honeypot === false && loaded.honeypot === true) {
    return {
      ...fact,
      honeypot: true,
      honeypotReason: `selling fails once the token holds a large balance of itself, as after its swap-back threshold: ${loaded.honeypotReason}`,
      sellAllOk: false,
      sellAllReason: loaded.honeypotReason,
      loadedNote: note,
    }
  }
  return { ...fact, loadedNote: note }
}
