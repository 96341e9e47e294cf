import type { AmmDefinition } from '../decode/pools.ts'
import { DLMM_LB_PAIR } from './program-layouts.ts'
import { expectLayout, fieldReader, mintSearches } from './venue.ts'

/** Basis points in one: a bin step is in basis points. */
const BASIS_POINTS = 10_000
/** `status` of a pair that trades (1 disables it). */
const PAIR_ENABLED = 0

/**
 * Meteora DLMM (the lb_clmm program): liquidity in price bins; the price of token X in token Y
 * (base units) is (1 + bin_step / 10 000) ^ active_id, the active bin's. Layout from the
 * program's IDL.
 */
export const METEORA_DLMM: AmmDefinition = {
  id: 'meteora-dlmm',
  name: 'Meteora DLMM',
  programId: DLMM_LB_PAIR.program,
  searches: (mint) => mintSearches(DLMM_LB_PAIR, ['token_x_mint', 'token_y_mint'], mint, true),
  decode(data) {
    const what = 'Meteora DLMM pair'
    expectLayout(DLMM_LB_PAIR, data, what, true)
    const f = fieldReader(DLMM_LB_PAIR, data, what)
    return {
      mintA: f.address('token_x_mint'),
      mintB: f.address('token_y_mint'),
      vaultA: f.address('reserve_x'),
      vaultB: f.address('reserve_y'),
      feesOwedA: f.u64('protocol_fee.amount_x'),
      feesOwedB: f.u64('protocol_fee.amount_y'),
      lpMint: null,
      lpIssued: null,
      sqrtPriceX64: null,
      rawPriceBPerA: dlmmPrice(f.i32('active_id'), f.u16('bin_step')),
      swapEnabled: f.u8('status') === PAIR_ENABLED,
    }
  },
}

/** Price of one base unit of X in base units of Y at a bin. */
export function dlmmPrice(activeId: number, binStep: number): number {
  return (1 + binStep / BASIS_POINTS) ** activeId
}
