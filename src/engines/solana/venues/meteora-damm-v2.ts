import type { AmmDefinition } from '../decode/pools.ts'
import { CP_AMM_POOL } from './program-layouts.ts'
import { expectLayout, fieldReader, mintSearches } from './venue.ts'

/** `pool_status` of a DAMM v2 pool that trades (1 disables it). */
const POOL_ENABLED = 0

/**
 * Meteora DAMM v2 (the cp-amm program): a concentrated constant-product pool whose price is its
 * `sqrt_price` (Q64.64); liquidity is held as position NFTs, not LP tokens. Layout from the
 * program's IDL.
 */
export const METEORA_DAMM_V2: AmmDefinition = {
  id: 'meteora-damm-v2',
  name: 'Meteora DAMM v2',
  programId: CP_AMM_POOL.program,
  searches: (mint) => mintSearches(CP_AMM_POOL, ['token_a_mint', 'token_b_mint'], mint, true),
  decode(data) {
    const what = 'Meteora DAMM v2 pool'
    expectLayout(CP_AMM_POOL, data, what, true)
    const f = fieldReader(CP_AMM_POOL, data, what)
    return {
      mintA: f.address('token_a_mint'),
      mintB: f.address('token_b_mint'),
      vaultA: f.address('token_a_vault'),
      vaultB: f.address('token_b_vault'),
      feesOwedA: f.u64('protocol_a_fee'),
      feesOwedB: f.u64('protocol_b_fee'),
      lpMint: null,
      lpIssued: null,
      sqrtPriceX64: f.u128('sqrt_price'),
      swapEnabled: f.u8('pool_status') === POOL_ENABLED,
    }
  },
}
