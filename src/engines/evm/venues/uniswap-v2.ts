import { decodeAbiParameters } from 'viem/utils'
import type { Hex } from 'viem'
import { units, wordAnswer, type Venue } from './venue.ts'

/** keccak256("Sync(uint112,uint112)") — V2 pairs emit it after every swap, mint and burn. */
export const SYNC_TOPIC: Hex = '0x1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1'

/**
 * Uniswap V2-style pairs (Uniswap V2, PancakeSwap V2, SushiSwap, ...): `factory.getPair`, x·y=k
 * reserves, a fungible LP token, the fee in basis points from the chain entry.
 */
export const uniswapV2: Venue = {
  type: 'uniswap-v2',
  liquidityForm: 'a fungible LP token',
  fungibleLp: true,
  holderKinds: [2],
  holderName: 'V2 exchange',
  lensQuery: (dex) => ({ factory: dex.factory, kind: 2, fees: [] }),
  price(info, _asset, assetDecimals, quoteDecimals) {
    // Reserves not read are unknown, and empty ones price nothing.
    if (!info.reserveToken || !info.reserveQuote) return undefined
    return units(info.reserveQuote, quoteDecimals) / units(info.reserveToken, assetDecimals)
  },
  fee: (dex) => dex.feeBps,
  probePool: (pool, dex) => ({ pool: pool.address, kind: 2, quote: pool.quote, feeBps: dex?.feeBps ?? pool.fee ?? 0 }),
  route: (info, dex) => ({ pool: info.pool, kind: 2, feeBps: dex?.feeBps ?? 0 }),
  router: (dex) => dex.router,
  // allPairsLength()
  probeCall: () => ({ call: 'allPairsLength()', data: '0x574f2ba3', read: (a) => wordAnswer(a)?.toString().concat(' pairs') }),
  // PairCreated(address indexed token0, address indexed token1, address pair, uint256)
  creation: { topic: '0x0d3648bd0f6ba80134a33ba9275ac585d9d315f0ad8355cddefde31afa28d0e9', poolWord: 0 },
  swapTopics: [SYNC_TOPIC],
  priceFromLog(data, tokenIs0, tokenDecimals, quoteDecimals) {
    const [r0, r1] = decodeAbiParameters([{ type: 'uint112' }, { type: 'uint112' }], data)
    const [rt, rq] = tokenIs0 ? [r0, r1] : [r1, r0]
    if (rt === 0n) return undefined
    return units(rq, quoteDecimals) / units(rt, tokenDecimals)
  },
}
