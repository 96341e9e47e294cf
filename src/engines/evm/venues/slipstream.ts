import { encodeFunctionData, getAddress, parseAbi } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { SLIPSTREAM_DEFAULT_TICK_SPACINGS, type DexConfig } from '../../../config/chains.ts'
import type { PoolInfo, ReadCall } from '../chain/probe.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from '../collect/context.ts'
import { decodeUint, probeReads } from '../collect/probe-reads.ts'
import { concentratedVenue, V3_SWAP_TOPIC } from './uniswap-v3.ts'
import { wordAnswer, type FoundPool, type Venue, type VenueFind } from './venue.ts'

const FACTORY_ABI = parseAbi(['function getPool(address tokenA, address tokenB, int24 tickSpacing) view returns (address)'])
const POOL_ABI = parseAbi(['function slot0() view returns (uint160)', 'function liquidity() view returns (uint128)', 'function fee() view returns (uint24)'])
const BALANCE_ABI = parseAbi(['function balanceOf(address) view returns (uint256)'])
/** A concentrated pool's fee is in hundredths of a basis point: a whole pool's worth is 1,000,000. */
const MAX_FEE = 1_000_000n
/** Reads per found pool: slot0, liquidity, fee, the token's and the quote's balances. */
const STATE_READS = 5

/**
 * The token's pools on a Slipstream-style factory: `getPool(token, quote, tickSpacing)` for every
 * quote and tick spacing, in one probe call of the first round trip; the pools' state (price,
 * liquidity, fee, balances) in one more, awaited by what needs their figures. A figure that could
 * not be read stays unknown, never zero.
 */
async function findSlipstreamPools(ctx: CollectContext, dex: DexConfig, dexIndex: number, token: Address, quotes: Address[]): Promise<VenueFind> {
  const spacings = dex.tickSpacings ?? SLIPSTREAM_DEFAULT_TICK_SPACINGS
  const asked = quotes.filter((q) => !sameAddress(q, ZERO_ADDRESS) && !sameAddress(q, token)).flatMap((quote) => spacings.map((spacing) => ({ quote, spacing })))
  if (asked.length === 0) return { pools: [], note: '' }
  const answers = await probeReads(
    ctx,
    asked.map((a) => ({ target: dex.factory, data: encodeFunctionData({ abi: FACTORY_ABI, functionName: 'getPool', args: [token, a.quote, a.spacing] }) })),
    'latest',
  )
  const found: { pool: Address; quote: Address }[] = []
  answers.forEach((answer, i) => {
    const value = decodeUint(answer)
    if (value === undefined || value === 0n || value >= 1n << 160n) return
    const pool = getAddress(`0x${value.toString(16).padStart(40, '0')}`)
    if (!found.some((f) => sameAddress(f.pool, pool))) found.push({ pool, quote: asked[i].quote })
  })
  if (found.length === 0) return { pools: [], note: '' }
  // Known by their addresses now; every figure unknown until the state is read.
  const base = (f: { pool: Address; quote: Address }): PoolInfo => ({
    dex: BigInt(dexIndex),
    pool: f.pool,
    kind: 3,
    fee: undefined,
    quote: f.quote,
    // Concentrated pools order their tokens by address.
    token0: BigInt(token) < BigInt(f.quote) ? token : f.quote,
    reserveToken: undefined,
    reserveQuote: undefined,
    lpSupply: undefined,
    sqrtPriceX96: undefined,
    liquidity: undefined,
  })
  const pending: FoundPool[] = found.map((f) => ({ ...base(f), pending: true }))
  const state = (async (): Promise<FoundPool[]> => {
    const calls = found.flatMap((f): ReadCall[] => [
      { target: f.pool, data: encodeFunctionData({ abi: POOL_ABI, functionName: 'slot0' }) },
      { target: f.pool, data: encodeFunctionData({ abi: POOL_ABI, functionName: 'liquidity' }) },
      { target: f.pool, data: encodeFunctionData({ abi: POOL_ABI, functionName: 'fee' }) },
      { target: token, data: encodeFunctionData({ abi: BALANCE_ABI, functionName: 'balanceOf', args: [f.pool] }) },
      { target: f.quote, data: encodeFunctionData({ abi: BALANCE_ABI, functionName: 'balanceOf', args: [f.pool] }) },
    ])
    const results = await probeReads(ctx, calls, 'latest')
    // A read that failed leaves its figure unknown (undefined), never zero.
    return found.map((f, i): FoundPool => {
      const [sqrtPriceX96, liquidity, fee, reserveToken, reserveQuote] = results.slice(i * STATE_READS, (i + 1) * STATE_READS).map(decodeUint)
      return {
        ...base(f),
        sqrtPriceX96: sqrtPriceX96 === undefined ? undefined : sqrtPriceX96 & ((1n << 160n) - 1n),
        liquidity: liquidity === undefined ? undefined : liquidity & ((1n << 128n) - 1n),
        fee: fee !== undefined && fee < MAX_FEE ? Number(fee) : undefined,
        reserveToken,
        reserveQuote,
      }
    })
  })()
  state.catch(() => {})
  return { pools: pending, note: '', state }
}

const concentrated = concentratedVenue('slipstream', V3_SWAP_TOPIC)

/**
 * Aerodrome Slipstream and its Velodrome twin: concentrated pools named by tick spacing
 * (`getPool(a, b, int24)`), each pool's fee its own (`fee()`); priced from `slot0` and traded with
 * Uniswap V3's `swap` and `uniswapV3SwapCallback`, as the V3 venues are.
 */
export const slipstream: Venue = {
  ...concentrated,
  lensQuery: undefined,
  find: findSlipstreamPools,
  // getPool(0, 1, spacing): any factory of this interface answers (address zero for no pool).
  probeCall: (dex) => {
    const spacing = (dex.tickSpacings ?? SLIPSTREAM_DEFAULT_TICK_SPACINGS)[0]
    const data = encodeFunctionData({ abi: FACTORY_ABI, functionName: 'getPool', args: ['0x0000000000000000000000000000000000000001', '0x0000000000000000000000000000000000000002', spacing] }) as Hex
    return {
      call: `getPool(a, b, ${spacing})`,
      data,
      read: (a) => (wordAnswer(a) === undefined ? undefined : `pools named by tick spacing (${(dex.tickSpacings ?? SLIPSTREAM_DEFAULT_TICK_SPACINGS).join(', ')})`),
    }
  },
  describe: (trade) =>
    `concentrated pool ${trade.pool.address} named by its tick spacing, ${trade.pool.fee === undefined ? 'a fee the pool did not answer' : `a ${trade.pool.fee / 10_000}% fee the pool states`}`,
  // Pools against other tokens are read through the probe's pool lens, which does not ask this
  // factory: its announcements are not searched (its pools against the quote assets are).
  creation: undefined,
}
