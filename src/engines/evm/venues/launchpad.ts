import { decodeAbiParameters, decodeFunctionResult, encodeFunctionData, formatEther, getAddress, parseAbi, toFunctionSelector } from 'viem/utils'
import type { Address, Hex } from 'viem'
import type { DexConfig } from '../../../config/chains.ts'
import { RpcError } from '../chain/rpc.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from '../collect/context.ts'
import type { PoolFact, TradeFact } from '../facts.ts'
import { units, wordAnswer, type CurveRef, type FoundPool, type Venue, type VenueFind } from './venue.ts'

/**
 * keccak256("Trade(address,address,address,bool,uint256,uint256,uint256,uint256,uint256)"): every
 * trade on a curve, with the curve's state after it (the token again in its data).
 */
export const LAUNCHPAD_TRADE_TOPIC: Hex = '0xf4682780a0e17045675b1fdf80687447d8cc9589bc87f718bcba8cbd53a2e81e'
/** The probe's kind of a launchpad curve (see the probe's TokenProbe). */
export const KIND_CURVE = 7
/** Basis points in a whole (the launchpad's fee), and in a percent. */
const BPS = 10_000
const BPS_PER_PERCENT = 100

const LAUNCHPAD_ABI = parseAbi([
  'function curves(address token) view returns (uint256 tokenReserve, uint256 nativeReserve, uint256 virtualNative, address creator, bool graduated)',
  'function graduationTarget() view returns (uint256)',
  'function feeBps() view returns (uint256)',
])

/** The launchpad's answers for the token, or why there are none (a launchpad that reverts: not one of this interface). */
async function readCurve(ctx: CollectContext, dex: DexConfig, token: Address): Promise<{ words: Hex[] } | { why: string }> {
  const calls: Hex[] = [
    encodeFunctionData({ abi: LAUNCHPAD_ABI, functionName: 'curves', args: [token] }),
    encodeFunctionData({ abi: LAUNCHPAD_ABI, functionName: 'graduationTarget' }),
    encodeFunctionData({ abi: LAUNCHPAD_ABI, functionName: 'feeBps' }),
  ]
  try {
    return { words: await Promise.all(calls.map((data) => ctx.rpc.request<Hex>('eth_call', [{ to: dex.factory, data }, 'latest']))) }
  } catch (error) {
    if (error instanceof RpcError && error.kind === 'revert') return { why: `${dex.name} at ${dex.factory} did not answer as a launchpad (its curve was not read)` }
    throw error
  }
}

/**
 * The token's curve on the launchpad (first round trip: three reads of the launchpad). A curve not
 * yet graduated is the token's market; a graduated one is closed (its tokens moved to a DEX), said
 * in the note.
 */
async function findCurve(ctx: CollectContext, dex: DexConfig, dexIndex: number, token: Address): Promise<VenueFind> {
  const read = await readCurve(ctx, dex, token)
  if ('why' in read) return { pools: [], note: read.why }
  let curve: readonly [bigint, bigint, bigint, Address, boolean]
  let target: bigint
  let feeBps: bigint
  try {
    curve = decodeFunctionResult({ abi: LAUNCHPAD_ABI, functionName: 'curves', data: read.words[0] })
    target = decodeFunctionResult({ abi: LAUNCHPAD_ABI, functionName: 'graduationTarget', data: read.words[1] })
    feeBps = decodeFunctionResult({ abi: LAUNCHPAD_ABI, functionName: 'feeBps', data: read.words[2] })
  } catch {
    return { pools: [], note: `${dex.name} at ${dex.factory} answered what a launchpad does not (its curve was not read)` }
  }
  const [tokenReserve, nativeReserve, virtualNative, creator, graduated] = curve
  if (sameAddress(creator, ZERO_ADDRESS)) return { pools: [], note: '' }
  if (graduated) return { pools: [], note: `the token graduated from its curve on ${dex.name} (${formatEther(nativeReserve)} of ${formatEther(target)} raised): the curve is closed` }
  const launchpad = getAddress(dex.factory)
  const ref: CurveRef = { launchpad, creator: getAddress(creator), virtualNative, raised: nativeReserve, target }
  const pool: FoundPool = {
    dex: BigInt(dexIndex),
    pool: launchpad,
    kind: KIND_CURVE,
    fee: Number(feeBps),
    quote: ZERO_ADDRESS,
    // The native coin's address (zero) sorts first, as in a V4 pool against it.
    token0: ZERO_ADDRESS,
    reserveToken: tokenReserve,
    reserveQuote: nativeReserve,
    lpSupply: 0n,
    sqrtPriceX96: 0n,
    liquidity: 0n,
    curve: ref,
  }
  return { pools: [pool], note: '' }
}

/** The price on an x·y = k curve of the tokens it holds and the native coin it raised plus its virtual reserve. */
export function curvePrice(tokenReserve: bigint, raised: bigint, virtualNative: bigint, tokenDecimals: number, nativeDecimals: number): number | undefined {
  if (tokenReserve === 0n) return undefined
  const p = units(virtualNative + raised, nativeDecimals) / units(tokenReserve, tokenDecimals)
  return Number.isFinite(p) && p > 0 ? p : undefined
}

/** How far the curve is from graduating: raised of target, percent. */
function progress(curve: CurveRef, symbol: string): string {
  // Two decimals of a percent, floored.
  const percent = curve.target > 0n ? Number((curve.raised * BigInt(BPS)) / curve.target) / BPS_PER_PERCENT : undefined
  return `${formatEther(curve.raised)} of the ${formatEther(curve.target)} ${symbol} it must raise to graduate raised${percent === undefined ? '' : ` (${percent}%)`}`
}

/**
 * Bonding-curve launchpads (tokenrisk's launchpad interface): one contract holds every token's
 * curve, read by `curves(token)`; a curve sells its tokens for the native coin on x·y = k with a
 * virtual native reserve, and buys them back (pulled with transferFrom) until it has raised its
 * graduation target. The probe buys from the curve and sells back to it like on a pool.
 */
export const launchpad: Venue = {
  type: 'launchpad',
  liquidityForm: "the native coin the launchpad holds on the token's curve (no LP token: the curve graduates to a DEX pool)",
  fungibleLp: false,
  nativeQuote: true,
  find: (ctx, dex, dexIndex, token) => findCurve(ctx, dex, dexIndex, token),
  price(info, _asset, assetDecimals, quoteDecimals) {
    const curve = (info as FoundPool).curve
    if (!curve || info.reserveToken === undefined || info.reserveQuote === undefined) return undefined
    return curvePrice(info.reserveToken, info.reserveQuote, curve.virtualNative, assetDecimals, quoteDecimals)
  },
  fee: (_dex, info) => info.fee,
  extra: (info) => {
    const curve = (info as FoundPool).curve
    return curve ? { curve } : {}
  },
  // The curve's fee as the launchpad answered it; unread, the probe expects none, and a fee taken then shows in the measured taxes.
  probePool: (pool: PoolFact) => ({ pool: pool.address, kind: KIND_CURVE, quote: pool.quote, feeBps: pool.fee ?? 0 }),
  // A curve sells only its own token: no quote asset is obtained through it.
  route: () => undefined,
  router: () => undefined,
  probeCall: () => ({
    call: 'graduationTarget()',
    data: toFunctionSelector('function graduationTarget()'),
    read: (a) => {
      const target = wordAnswer(a)
      return target === undefined ? undefined : `curves graduate at ${formatEther(target)} of the native coin`
    },
  }),
  describe: describeCurve,
  swapTopics: [LAUNCHPAD_TRADE_TOPIC],
  priceFromLog(data, _tokenIs0, tokenDecimals, quoteDecimals, pool) {
    const [curveToken, , , , tokenReserve, nativeReserve, virtualNative] = decodeAbiParameters(
      [{ type: 'address' }, { type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }],
      data,
    )
    // The launchpad's trades of other tokens' curves are not this token's price.
    const token = sameAddress(pool.token0, pool.quote) ? pool.token1 : pool.token0
    if (!sameAddress(curveToken, token)) return undefined
    return curvePrice(tokenReserve, nativeReserve, virtualNative, tokenDecimals, quoteDecimals)
  },
}

/** A curve in words: the launchpad, how far it is from graduating, its fee, and what the simulated trades did on it. */
export function describeCurve(trade: TradeFact): string {
  const curve = trade.pool.curve
  if (!curve) return ''
  const symbol = trade.pool.quoteSymbol || 'native coin'
  const where = `on the bonding curve of ${trade.pool.dex} ${curve.launchpad} (a launchpad; no DEX pool yet): ${progress(curve, symbol)}; ${trade.pool.fee === undefined ? 'a fee the launchpad did not answer' : `a ${trade.pool.fee / BPS_PER_PERCENT}% fee kept from the ${symbol} of each trade`}`
  return `${where}; ${curveTradeWords(trade)}`
}

/** What the simulated trades did on a bonding curve, in words (any launchpad's). */
export function curveTradeWords(trade: TradeFact): string {
  const sell = trade.sellTax.percent
  if (!trade.simulated) return 'not simulated'
  if (trade.honeypot) return `sells back to the curve fail: ${trade.honeypotReason}`
  if (sell !== undefined && sell > 0) return `sells lose ${sell}% of the tokens before they reach the curve`
  if (trade.honeypot === false) return 'buys from the curve and sells back to it went through'
  return `sells back to it were not measured: ${trade.sellTax.note}`
}
