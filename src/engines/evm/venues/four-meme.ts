import { decodeAbiParameters, decodeFunctionResult, encodeFunctionData, formatUnits, getAddress, parseAbi } from 'viem/utils'
import type { Address, Hex } from 'viem'
import type { DexConfig } from '../../../config/chains.ts'
import { RpcError } from '../chain/rpc.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from '../collect/context.ts'
import type { TradeFact } from '../facts.ts'
import { curveTradeWords } from './launchpad.ts'
import { units, type FourMemeCurveRef, type FoundPool, type Venue, type VenueFind } from './venue.ts'

/**
 * keccak256("TokenPurchase(address,address,uint256,uint256,uint256,uint256,uint256,uint256)"): every
 * buy from a four.meme-interface curve (nothing indexed: token, account, price, amount, cost, fee,
 * offers, funds).
 */
export const FOUR_MEME_PURCHASE_TOPIC: Hex = '0x7db52723a3b2cdd6164364b3b766e65e540d7be48ffa89582956d8eaebe62942'
/** keccak256("TokenSale(address,address,uint256,uint256,uint256,uint256,uint256,uint256)"): every sale back to the curve, its fields a purchase's. */
export const FOUR_MEME_SALE_TOPIC: Hex = '0x0a5575b3648bae2210cee56bf33254cc1ddfbc7bf637c0af2ac18b14fb1bae19'
/** The probe's kind of a four.meme-interface curve (see the probe's TokenProbe). */
export const KIND_FOUR_MEME = 8
/** The manager interface's version the probe trades (four.meme's TokenManager2); the probe refuses others, named here. */
const TRADED_MANAGER_VERSION = 2n
/** Basis points in a whole and in a percent (the trading fee rate is in basis points). */
const BPS = 10_000
const BPS_PER_PERCENT = 100
/** The decimals of the tokens four.meme-interface curves launch (the tokens on offer are counted in them). */
const CURVE_TOKEN_DECIMALS = 18
/** The native coin's decimals, for a quote whose decimals were not read. */
const NATIVE_DECIMALS = 18

const HELPER_ABI = parseAbi([
  'function getTokenInfo(address token) view returns (uint256 version, address tokenManager, address quote, uint256 lastPrice, uint256 tradingFeeRate, uint256 minTradingFee, uint256 launchTime, uint256 offers, uint256 maxOffers, uint256 funds, uint256 maxFunds, bool liquidityAdded)',
])

/** The helper's getTokenInfo of the token, or why it has none (a helper that reverts or answers otherwise is not one of this interface). */
async function readTokenInfo(ctx: CollectContext, dex: DexConfig, token: Address) {
  const helper = dex.lens ?? dex.factory
  const data = encodeFunctionData({ abi: HELPER_ABI, functionName: 'getTokenInfo', args: [token] })
  let answer: Hex
  try {
    answer = await ctx.rpc.request<Hex>('eth_call', [{ to: helper, data }, 'latest'])
  } catch (error) {
    if (error instanceof RpcError && error.kind === 'revert') return { why: `${dex.name}'s helper at ${helper} did not answer getTokenInfo (the token's curve was not read)` }
    throw error
  }
  try {
    return { helper: getAddress(helper), info: decodeFunctionResult({ abi: HELPER_ABI, functionName: 'getTokenInfo', data: answer }) }
  } catch {
    return { why: `${dex.name}'s helper at ${helper} answered getTokenInfo with what its interface does not (the token's curve was not read)` }
  }
}

/**
 * The token's curve on the four.meme-interface launchpad (first round trip: the helper's
 * getTokenInfo). A token with a manager whose liquidity is not yet added trades on its curve; one
 * whose liquidity was added graduated (its DEX pool is found by the other venues), said in the note.
 */
async function findCurve(ctx: CollectContext, dex: DexConfig, dexIndex: number, token: Address): Promise<VenueFind> {
  const read = await readTokenInfo(ctx, dex, token)
  if ('why' in read) return { pools: [], note: read.why ?? '' }
  const [version, tokenManager, quote, lastPrice, feeRate, minFee, , offers, maxOffers, funds, maxFunds, liquidityAdded] = read.info
  if (sameAddress(tokenManager, ZERO_ADDRESS)) return { pools: [], note: '' }
  if (liquidityAdded) return { pools: [], note: `the token graduated from its curve on ${dex.name} (its liquidity was added to a DEX pool): the curve is closed` }
  const manager = getAddress(tokenManager)
  const ref: FourMemeCurveRef = { manager, helper: read.helper, version, lastPrice, minFee, offers, maxOffers, funds, maxFunds }
  const reason = untradedReason(dex, ref, getAddress(quote))
  if (reason) ref.untraded = reason
  const pool: FoundPool = {
    dex: BigInt(dexIndex),
    pool: manager,
    kind: KIND_FOUR_MEME,
    fee: Number(feeRate),
    quote: getAddress(quote),
    // The native coin's address (zero) sorts first, as in a V4 pool against it.
    token0: BigInt(quote) < BigInt(token) ? getAddress(quote) : token,
    reserveToken: offers,
    reserveQuote: funds,
    lpSupply: 0n,
    sqrtPriceX96: 0n,
    liquidity: 0n,
    fourMeme: ref,
  }
  return { pools: [pool], note: '' }
}

/** Why the probe cannot trade the curve through this interface (undefined: it can). */
function untradedReason(dex: DexConfig, ref: FourMemeCurveRef, quote: Address): string | undefined {
  if (!sameAddress(quote, ZERO_ADDRESS)) return `the curve is quoted in the token ${quote}, not the native coin: tokenrisk trades four.meme-interface curves against the native coin only`
  if (ref.version !== TRADED_MANAGER_VERSION) return `the curve is held by the manager ${ref.manager} of interface version ${ref.version}, whose trades are not ${dex.name}'s buyTokenAMAP and sellToken`
  return undefined
}

/** Whole tokens, floored (the curve's tokens have CURVE_TOKEN_DECIMALS). */
const wholeTokens = (raw: bigint) => (raw / 10n ** BigInt(CURVE_TOKEN_DECIMALS)).toString()

/** How far the curve is from graduating: funds raised of the most it raises, tokens sold of those offered. */
function progress(ref: FourMemeCurveRef, symbol: string, quoteDecimals: number): string {
  // Two decimals of a percent, floored.
  const percent = (part: bigint, whole: bigint) => (whole > 0n ? ` (${Number((part * BigInt(BPS)) / whole) / BPS_PER_PERCENT}%)` : '')
  const sold = ref.maxOffers - ref.offers
  return `${formatUnits(ref.funds, quoteDecimals)} of the ${formatUnits(ref.maxFunds, quoteDecimals)} ${symbol} it must raise to graduate raised${percent(ref.funds, ref.maxFunds)}, ${wholeTokens(sold)} of its ${wholeTokens(ref.maxOffers)} tokens on offer sold${percent(sold, ref.maxOffers)}`
}

/**
 * four.meme-interface launchpads (four.meme's TokenManager2 on BNB Chain, with its helper
 * TokenManagerHelper3 as the chain entry's `lens`): the helper's `getTokenInfo(token)` names the
 * manager holding the token's curve and its state; the probe buys with `buyTokenAMAP` (the helper's
 * `tryBuy` prices it) and sells back with an approval and `sellToken`.
 */
export const fourMeme: Venue = {
  type: 'four-meme',
  liquidityForm: "the native coin the launchpad's manager holds on the token's curve (no LP token: the curve graduates to a DEX pool)",
  fungibleLp: false,
  nativeQuote: true,
  find: (ctx, dex, dexIndex, token) => findCurve(ctx, dex, dexIndex, token),
  price(info, _asset, _assetDecimals, quoteDecimals) {
    const ref = (info as FoundPool).fourMeme
    if (!ref || ref.lastPrice === 0n) return undefined
    // lastPrice: quote units (raw) per whole token.
    const p = units(ref.lastPrice, quoteDecimals)
    return Number.isFinite(p) && p > 0 ? p : undefined
  },
  fee: (_dex, info) => info.fee,
  extra: (info) => {
    const ref = (info as FoundPool).fourMeme
    return ref ? { fourMeme: ref } : {}
  },
  // The probe asks the helper (its `pool`) which manager holds the curve; an untraded curve is named with its reason.
  probePool: (pool, dex) => ({ pool: dex?.lens ?? pool.fourMeme?.helper ?? pool.address, kind: KIND_FOUR_MEME, quote: pool.quote, feeBps: pool.fee ?? 0 }),
  // A curve sells only its own token: no quote asset is obtained through it.
  route: () => undefined,
  router: () => undefined,
  probeCall: (dex) => ({
    call: 'getTokenInfo(0x0) on its helper',
    to: dex.lens,
    data: encodeFunctionData({ abi: HELPER_ABI, functionName: 'getTokenInfo', args: [ZERO_ADDRESS] }),
    read: (a) => {
      try {
        const [version, tokenManager] = decodeFunctionResult({ abi: HELPER_ABI, functionName: 'getTokenInfo', data: a })
        return `a four.meme-interface helper (address zero: version ${version}, manager ${tokenManager})`
      } catch {
        return undefined
      }
    },
  }),
  describe: describeFourMemeCurve,
  swapTopics: [FOUR_MEME_PURCHASE_TOPIC, FOUR_MEME_SALE_TOPIC],
  priceFromLog(data, _tokenIs0, _tokenDecimals, quoteDecimals, pool) {
    const [curveToken, , price] = decodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint256' }], data)
    // The manager's trades of other tokens' curves are not this token's price.
    const token = sameAddress(pool.token0, pool.quote) ? pool.token1 : pool.token0
    if (!sameAddress(curveToken, token) || price === 0n) return undefined
    return units(price, quoteDecimals)
  },
}

/** A four.meme-interface curve in words: the manager, how far it is from graduating, its fee, and what the simulated trades did on it. */
export function describeFourMemeCurve(trade: TradeFact): string {
  const ref = trade.pool.fourMeme
  if (!ref) return ''
  const symbol = trade.pool.quoteSymbol || 'native coin'
  const decimals = trade.pool.quoteDecimals ?? NATIVE_DECIMALS
  const fee = trade.pool.fee === undefined ? 'a fee the helper did not answer' : `a ${trade.pool.fee / BPS_PER_PERCENT}% fee (at least ${formatUnits(ref.minFee, decimals)} ${symbol}) kept from each trade`
  const where = `on the four.meme-interface bonding curve of ${trade.pool.dex} ${ref.manager} (a launchpad; no DEX pool yet): ${progress(ref, symbol, decimals)}; ${fee}`
  return `${where}; ${ref.untraded ? `not simulated: ${ref.untraded}` : curveTradeWords(trade)}`
}
