import { decodeAbiParameters } from 'viem/utils'
import type { Hex } from 'viem'
import type { DexType } from '../../../config/chains.ts'
import { sameAddress } from '../collect/context.ts'
import { wordAnswer, type Venue } from './venue.ts'

/** keccak256("Swap(address,address,int256,int256,uint160,uint128,int24)") — Uniswap V3 pools. */
export const V3_SWAP_TOPIC: Hex = '0xc42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67'

const Q96 = 2 ** 96

/** Price of token0 in token1 units (whole units) from a V3 sqrtPriceX96. */
export function v3Price0in1(sqrtPriceX96: bigint, dec0: number, dec1: number): number {
  const r = Number(sqrtPriceX96) / Q96
  return r * r * 10 ** (dec0 - dec1)
}

/** The asset's price from a concentrated-liquidity pool's sqrtPriceX96 (either side). */
export function sqrtPrice(sqrtPriceX96: bigint, assetIs0: boolean, assetDecimals: number, quoteDecimals: number): number | undefined {
  if (sqrtPriceX96 === 0n) return undefined
  const p = assetIs0 ? v3Price0in1(sqrtPriceX96, assetDecimals, quoteDecimals) : 1 / v3Price0in1(sqrtPriceX96, quoteDecimals, assetDecimals)
  return Number.isFinite(p) && p > 0 ? p : undefined
}

/**
 * A Uniswap V3-style venue: `factory.getPool(a, b, fee)` over the entry's fee tiers, the price
 * from `slot0`, swaps through the pool with a callback. Forks differ in their tiers, their swap
 * event and their callback's name (the probe answers both Uniswap's and PancakeSwap's).
 */
export function concentratedVenue(type: DexType, swapTopic: Hex): Venue {
  return {
    type,
    liquidityForm: 'positions (no fungible LP token)',
    fungibleLp: false,
    lensQuery: (dex) => ({ factory: dex.factory, kind: 3, fees: dex.feeTiers }),
    price(info, asset, assetDecimals, quoteDecimals) {
      // A price, its side or the liquidity not read is unknown; no liquidity prices nothing.
      if (!info.liquidity || info.sqrtPriceX96 === undefined || info.token0 === undefined) return undefined
      return sqrtPrice(info.sqrtPriceX96, sameAddress(info.token0, asset), assetDecimals, quoteDecimals)
    },
    fee: (_dex, info) => info.fee,
    probePool: (pool) => ({ pool: pool.address, kind: 3, quote: pool.quote, feeBps: 0 }),
    route: (info) => ({ pool: info.pool, kind: 3, feeBps: 0 }),
    router: () => undefined,
    // feeAmountTickSpacing(uint24): a tier the factory enabled has a tick spacing.
    probeCall: (dex) => {
      const tier = dex.feeTiers.at(-1) ?? 10_000
      return {
        call: `feeAmountTickSpacing(${tier})`,
        data: `0x22afcccb${tier.toString(16).padStart(64, '0')}`,
        read: (a) => {
          const spacing = wordAnswer(a)
          return spacing === undefined ? undefined : spacing === 0n ? `tier ${tier} not enabled` : `tier ${tier} spaced ${spacing}`
        },
      }
    },
    // PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)
    creation: { topic: '0x783cca1c0412dd0d695e784568c96da2e9c22ff989357a2e8b1d9b2b4e6b7118', poolWord: 1 },
    swapTopics: [swapTopic],
    priceFromLog(data, tokenIs0, tokenDecimals, quoteDecimals) {
      // Uniswap's and PancakeSwap's Swap events both begin (amount0, amount1, sqrtPriceX96, ...).
      const [, , sqrtPriceX96] = decodeAbiParameters([{ type: 'int256' }, { type: 'int256' }, { type: 'uint160' }], data)
      return sqrtPrice(sqrtPriceX96, tokenIs0, tokenDecimals, quoteDecimals)
    },
  }
}

/** Uniswap V3 and its exact forks (and the V3-style pools of exchanges the chain entry does not list, found among holders). */
export const uniswapV3: Venue = { ...concentratedVenue('uniswap-v3', V3_SWAP_TOPIC), holderKinds: [3], holderName: 'V3-style exchange' }
