import type { AmmDefinition } from '../decode/pools.ts'
import { RAYDIUM_CLMM_POOL_STATE } from './program-layouts.ts'
import { expectLayout, fieldReader, mintSearches } from './venue.ts'

/** Status bit of a CLMM pool that stops swaps (Raydium's PoolStatusBitIndex::Swap). */
const SWAP_DISABLED_BIT = 1 << 4

/**
 * Raydium CLMM (concentrated liquidity): `PoolState` as Raydium's SDK lays it out, price from its
 * `sqrt_price_x64` (Q64.64); liquidity is held as position NFTs, not LP tokens.
 */
export const RAYDIUM_CLMM: AmmDefinition = {
  id: 'raydium-clmm',
  name: 'Raydium CLMM',
  programId: RAYDIUM_CLMM_POOL_STATE.program,
  searches: (mint) => mintSearches(RAYDIUM_CLMM_POOL_STATE, ['mintA', 'mintB'], mint, true),
  decode(data) {
    const what = 'Raydium CLMM pool'
    expectLayout(RAYDIUM_CLMM_POOL_STATE, data, what, true)
    const f = fieldReader(RAYDIUM_CLMM_POOL_STATE, data, what)
    return {
      mintA: f.address('mintA'),
      mintB: f.address('mintB'),
      vaultA: f.address('vaultA'),
      vaultB: f.address('vaultB'),
      feesOwedA: f.u64('protocolFeesTokenA') + f.u64('fundFeesTokenA'),
      feesOwedB: f.u64('protocolFeesTokenB') + f.u64('fundFeesTokenB'),
      lpMint: null,
      lpIssued: null,
      sqrtPriceX64: f.u128('sqrtPriceX64'),
      swapEnabled: (f.u8('status') & SWAP_DISABLED_BIT) === 0,
    }
  },
}
