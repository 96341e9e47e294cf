import { decodeAbiParameters } from 'viem/utils'
import type { Hex } from 'viem'
import type { PoolInfo } from '../chain/probe.ts'
import type { PoolFact } from '../facts.ts'
import { units, wordAnswer, type Venue } from './venue.ts'

/** keccak256("Sync(uint256,uint256)"): Solidly-style pools emit it after every swap, mint and burn. */
export const SOLIDLY_SYNC_TOPIC: Hex = '0xcf2aa50876cdfbb541206f89af0ee78d44a2abf8d328e37fa4917f982149848a'
/** The lens's kinds of Solidly pools (see the probe's ProbeReaders). */
const KIND_VOLATILE = 5 as const
const KIND_STABLE = 6 as const

/**
 * The price of the asset in quote units: the reserves' ratio on a volatile (x·y = k) pool; on a
 * stable one (x³y + y³x = k, amounts in whole units) the curve's slope, (3x²y + y³) / (x³ + 3y²x).
 */
export function solidlyPrice(reserveAsset: bigint, reserveQuote: bigint, stable: boolean, assetDecimals: number, quoteDecimals: number): number | undefined {
  if (reserveAsset === 0n || reserveQuote === 0n) return undefined
  const x = units(reserveAsset, assetDecimals)
  const y = units(reserveQuote, quoteDecimals)
  const p = stable ? (3 * x * x * y + y * y * y) / (x * x * x + 3 * y * y * x) : y / x
  return Number.isFinite(p) && p > 0 ? p : undefined
}

/**
 * Solidly-style exchanges (Aerodrome, Velodrome): `factory.getPool(a, b, stable)` for the volatile
 * and the stable pool of each pair, V2-like reserves and LP token, the fee per pool from the
 * factory's `getFee` (basis points); the probe trades by a transfer to the pool and `swap`, the
 * amount out asked of the pool's own `getAmountOut` (its curve).
 */
export const solidly: Venue = {
  type: 'solidly',
  liquidityForm: 'a fungible LP token',
  fungibleLp: true,
  holderKinds: [KIND_VOLATILE, KIND_STABLE],
  holderName: 'Solidly-style exchange',
  lensQuery: (dex) => ({ factory: dex.factory, kind: KIND_VOLATILE, fees: [] }),
  price: (info, _asset, assetDecimals, quoteDecimals) =>
    info.reserveToken === undefined || info.reserveQuote === undefined ? undefined : solidlyPrice(info.reserveToken, info.reserveQuote, info.kind === KIND_STABLE, assetDecimals, quoteDecimals),
  fee: (_dex, info) => info.fee,
  extra: (info: PoolInfo): Partial<PoolFact> => ({ stable: info.kind === KIND_STABLE }),
  // The probe asks the pool's own getAmountOut: the fee is not passed (0).
  probePool: (pool) => ({ pool: pool.address, kind: pool.stable ? KIND_STABLE : KIND_VOLATILE, quote: pool.quote, feeBps: 0 }),
  // The probe's quote routes are V2 and V3 pools only.
  route: () => undefined,
  router: () => undefined,
  // allPoolsLength()
  probeCall: () => ({ call: 'allPoolsLength()', data: '0xefde4e64', read: (a) => wordAnswer(a)?.toString().concat(' pools') }),
  describe: (trade) => `${trade.pool.stable ? 'stable (x³y + y³x)' : 'volatile (x·y)'} pool ${trade.pool.address}, ${trade.pool.fee === undefined ? 'a fee its factory did not answer' : `a ${trade.pool.fee / 100}% fee set by its factory`}`,
  // PoolCreated(address indexed token0, address indexed token1, bool indexed stable, address pool, uint256)
  creation: { topic: '0x2128d88d14c80cb081c1252a5acff7a264671bf199ce226b53788fb26065005e', poolWord: 0 },
  swapTopics: [SOLIDLY_SYNC_TOPIC],
  priceFromLog(data, tokenIs0, tokenDecimals, quoteDecimals, pool) {
    const [r0, r1] = decodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], data)
    const [rt, rq] = tokenIs0 ? [r0, r1] : [r1, r0]
    return solidlyPrice(rt, rq, pool.stable === true, tokenDecimals, quoteDecimals)
  },
}
