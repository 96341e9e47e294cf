import { encodeFunctionData, getAddress, parseAbi, toFunctionSelector } from 'viem/utils'
import { venueOf } from '../venues/registry.ts'
import type { Address, Hex } from 'viem'
import { callProbe, decodeOwnPairs, decodeProbe, encodeOwnPairs, type OwnPairsRead, type PairCheck } from '../chain/probe.ts'
import type { OwnPairFact, OwnPairsFact, PoolFact } from '../facts.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import { HIDDEN_OWNER_SLOTS, quoteAssets, type Discovery } from './discovery.ts'

/**
 * The token's own pair: the pool its code treats as "the pair" (fees, limits and blacklists are
 * applied to transfers to it). Tokens name it through a getter, keep it in storage, or mark it in a
 * mapping of AMM pairs; a token traded elsewhere never runs its sell path.
 */

/** Getters that answer a token's pair, as tokens name them. */
export const PAIR_GETTERS = [
  'uniswapV2Pair', 'pair', 'lpPair', 'uniswapPair', 'pancakePair', 'pancakeswapV2Pair', 'mainPair', 'dexPair', 'swapPair',
  'uniPair', 'uniswapV2PairAddress', 'pairAddress', 'liquidityPair', 'tradingPair', 'ammPair', 'uniswapV2PairAddr',
] as const

/** Mappings (address → flag) that mark a token's AMM pairs, as tokens name them. */
export const PAIR_FLAGS = [
  'automatedMarketMakerPairs', 'automatedMarketMakerPair', 'ammPairs', 'isPair', 'isPool', 'marketPairs', 'isMarketPair', 'lpPairs',
  'isLpPair', 'isAMMPair', 'ammPair', 'liquidityPools', 'isLiquidityPool', 'pairs',
] as const

const getterCalls: Hex[] = PAIR_GETTERS.map((name) => encodeFunctionData({ abi: parseAbi([`function ${name}() view returns (address)`]), functionName: name }))
const flagSelectors: Hex[] = PAIR_FLAGS.map((name) => toFunctionSelector(`function ${name}(address)`))

/** Swap fee assumed on a V2 pair of an exchange the chain's registry does not list (basis points): above any V2 fork's, so that the probe never underpays. */
export const UNLISTED_V2_FEE_BPS = 100

/**
 * Reads what the token names as its pair(s), in the same round trip as the discovery: its pair
 * getters and, for the V2 pool of every listed factory against every quote (empty ones too), its
 * AMM-pair flags. Never throws for the token's sake; a node failing the call fails the report.
 */
export async function readOwnPairs(ctx: CollectContext): Promise<OwnPairsRead> {
  const factories = ctx.chain.dexes.filter((d) => venueOf(d.type).fungibleLp).map((d) => d.factory)
  const quotes = quoteAssets(ctx).map((q) => q.address)
  const raw = await callProbe(ctx.rpc, {
    what: 'own pair reads',
    data: encodeOwnPairs(ctx.token, getterCalls, factories, quotes, flagSelectors),
    gas: ctx.gasCap,
    block: 'latest',
  })
  return decodeProbe('own pair reads', raw, decodeOwnPairs)
}

/** The pools the token recognises, whether the probe can trade there, and pools to add for it. */
export function ownPairFacts(ctx: CollectContext, d: Discovery, read: OwnPairsRead, pools: PoolFact[]): { fact: OwnPairsFact; extra: PoolFact[] } {
  const found = new Map<string, { check: PairCheck; how: string[] }>()
  const add = (check: PairCheck, how: string) => {
    const key = check.pair.toLowerCase()
    const entry = found.get(key) ?? { check, how: [] }
    if (!entry.how.includes(how)) entry.how.push(how)
    found.set(key, entry)
  }
  read.named.forEach((c, i) => {
    if (!sameAddress(c.pair, ZERO_ADDRESS) && !sameAddress(c.pair, ctx.token)) add(c, `${PAIR_GETTERS[i]}()`)
  })
  read.pools.forEach((c, i) => {
    const bits = read.flagged[i] ?? 0n
    PAIR_FLAGS.forEach((name, k) => {
      if ((bits >> BigInt(k)) & 1n) add(c, `${name}(pair)`)
    })
  })
  // Storage: a pool's address kept in one of the first slots (a pair variable without a getter).
  const candidates = [...read.pools, ...read.named]
  for (let i = 0; i < HIDDEN_OWNER_SLOTS; i++) {
    const word = d.slots[`0x${i.toString(16)}`]
    if (!word || BigInt(word) === 0n || BigInt(word) >= 1n << 160n) continue
    const c = candidates.find((p) => !sameAddress(p.pair, ZERO_ADDRESS) && BigInt(p.pair) === BigInt(word))
    if (c) add(c, `storage slot ${i}`)
  }

  const extra: PoolFact[] = []
  const pairs: OwnPairFact[] = [...found.values()].map(({ check, how }) => {
    const listed = pools.some((p) => sameAddress(p.address, check.pair))
    const problem = listed ? '' : untradable(ctx, d, check)
    if (!listed && !problem) extra.push(unlistedPool(ctx, d, check))
    return { address: getAddress(check.pair), how, tradable: !problem, problem, listed }
  })
  return { fact: { pairs, note: '' }, extra }
}

/** Why the probe cannot trade on a pair the token names ('' when it can). */
function untradable(ctx: CollectContext, d: Discovery, c: PairCheck): string {
  if (c.codeSize === 0n) return 'no contract is there: the pair the token names does not exist'
  if (!c.isPair) return 'it is not a V2 pair (no getReserves())'
  const side = sameAddress(c.token0, ctx.token) ? 0 : sameAddress(c.token1, ctx.token) ? 1 : -1
  if (side < 0) return 'it is a pair of other tokens'
  if (c.reserve0 === 0n || c.reserve1 === 0n) return 'it has no liquidity: nothing can be bought or sold there'
  const quote = side === 0 ? c.token1 : c.token0
  if (!sameAddress(quote, ctx.chain.wrappedNative) && !d.quotes.some((q) => sameAddress(q.address, quote))) {
    return `its other side ${getAddress(quote)} is no quote asset the probe can obtain`
  }
  return ''
}

/** A V2 pair on an exchange the chain's registry does not list, as a pool to trade on. */
function unlistedPool(ctx: CollectContext, d: Discovery, c: PairCheck): PoolFact {
  const tokenIs0 = sameAddress(c.token0, ctx.token)
  const quote = getAddress(tokenIs0 ? c.token1 : c.token0)
  const q = d.quotes.find((x) => sameAddress(x.address, quote))
  return {
    dex: `unlisted V2 exchange (factory ${sameAddress(c.factory, ZERO_ADDRESS) ? 'unknown' : getAddress(c.factory)})`,
    dexType: 'uniswap-v2',
    fee: UNLISTED_V2_FEE_BPS,
    address: getAddress(c.pair),
    token0: getAddress(c.token0),
    token1: getAddress(c.token1),
    quote,
    quoteSymbol: q?.symbol ?? '',
    quoteDecimals: q?.decimals,
    tokenReserve: tokenIs0 ? c.reserve0 : c.reserve1,
    quoteReserve: tokenIs0 ? c.reserve1 : c.reserve0,
    lpSupply: undefined,
    priceInQuote: undefined,
    priceUsd: undefined,
    liquidityUsd: undefined,
  }
}

/** How the token names `pool` as its pair ('' when it does not). */
export function ownPairOf(fact: OwnPairsFact | undefined, pool: Address): string {
  const p = fact?.pairs.find((x) => sameAddress(x.address, pool))
  return p ? p.how.join(', ') : ''
}

