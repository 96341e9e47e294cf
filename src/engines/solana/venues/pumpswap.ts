import type { AmmDefinition } from '../decode/pools.ts'
import { PUMP_AMM_POOL } from './program-layouts.ts'
import { expectLayout, fieldReader, mintSearches } from './venue.ts'

/**
 * PumpSwap, the constant-product AMM pump.fun tokens graduate to: `Pool` accounts as the
 * program's IDL lays them out (its size grew over versions, so searches select it by its
 * discriminator). Its LP token's `lp_supply` is what the pool counts as issued.
 */
export const PUMPSWAP: AmmDefinition = {
  id: 'pumpswap',
  name: 'PumpSwap',
  programId: PUMP_AMM_POOL.program,
  searches: (mint) => mintSearches(PUMP_AMM_POOL, ['base_mint', 'quote_mint'], mint, false),
  decode(data) {
    const what = 'PumpSwap pool'
    expectLayout(PUMP_AMM_POOL, data, what)
    const f = fieldReader(PUMP_AMM_POOL, data, what)
    return {
      mintA: f.address('base_mint'),
      mintB: f.address('quote_mint'),
      vaultA: f.address('pool_base_token_account'),
      vaultB: f.address('pool_quote_token_account'),
      feesOwedA: 0n,
      feesOwedB: 0n,
      lpMint: f.address('lp_mint'),
      lpIssued: f.u64('lp_supply'),
      sqrtPriceX64: null,
      swapEnabled: null,
    }
  },
}
