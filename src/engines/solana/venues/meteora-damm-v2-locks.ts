import { CP_AMM_POSITION, CP_AMM_POOL, CP_AMM_VESTING } from './program-layouts.ts'
import type { PoolSearch } from '../decode/pools.ts'
import { expectLayout, fieldReader } from './venue.ts'

/** A vesting schedule: `cliffUnlock` at the cliff, then `perPeriod` every `frequency` for `periods` periods. */
export interface VestingSchedule {
  cliffPoint: bigint
  frequency: bigint
  cliffUnlock: bigint
  perPeriod: bigint
  periods: number
  released: bigint
}

export interface DecodedPosition {
  unlocked: bigint
  vested: bigint
  permanent: bigint
  /** The schedule kept in the position itself (all zero when none). */
  innerVesting: VestingSchedule
}

const vesting = (f: ReturnType<typeof fieldReader>): VestingSchedule => ({
  cliffPoint: f.u64('inner_vesting.cliff_point'),
  frequency: f.u64('inner_vesting.period_frequency'),
  cliffUnlock: f.u128('inner_vesting.cliff_unlock_liquidity'),
  perPeriod: f.u128('inner_vesting.liquidity_per_period'),
  periods: f.u16('inner_vesting.number_of_period'),
  released: f.u128('inner_vesting.total_released_liquidity'),
})

/** Positions of a DAMM v2 pool: one search, bounded by the position's size and the pool at its offset. */
export function positionSearch(pool: string): PoolSearch {
  return { dataSize: CP_AMM_POSITION.size!, memcmp: [{ offset: CP_AMM_POSITION.fields.pool.offset, bytes: pool }] }
}

/** Vesting accounts of a position (time locks on its liquidity). */
export function vestingSearch(position: string): PoolSearch {
  return { dataSize: CP_AMM_VESTING.size!, memcmp: [{ offset: CP_AMM_VESTING.fields.position.offset, bytes: position }] }
}

export function decodeDammPosition(data: Uint8Array): DecodedPosition {
  const what = 'Meteora DAMM v2 position'
  expectLayout(CP_AMM_POSITION, data, what, true)
  const f = fieldReader(CP_AMM_POSITION, data, what)
  return { unlocked: f.u128('unlocked_liquidity'), vested: f.u128('vested_liquidity'), permanent: f.u128('permanent_locked_liquidity'), innerVesting: vesting(f) }
}

export function decodeDammVesting(data: Uint8Array): VestingSchedule {
  const what = 'Meteora DAMM v2 vesting'
  expectLayout(CP_AMM_VESTING, data, what, true)
  return vesting(fieldReader(CP_AMM_VESTING, data, what))
}

/** Whether a pool's points (activation, cliffs) are unix seconds (1) or slots (0). */
export function dammPointsAreTimestamps(poolData: Uint8Array): boolean {
  return fieldReader(CP_AMM_POOL, poolData, 'Meteora DAMM v2 pool').u8('activation_type') === 1
}

/** The unlocks a schedule has left: [point, liquidity], the cliff's then each period's, less what was released. */
export function scheduleUnlocks(v: VestingSchedule): { point: bigint; liquidity: bigint }[] {
  const out: { point: bigint; liquidity: bigint }[] = []
  if (v.cliffUnlock > 0n) out.push({ point: v.cliffPoint, liquidity: v.cliffUnlock })
  for (let i = 1; i <= v.periods; i++) if (v.perPeriod > 0n) out.push({ point: v.cliffPoint + v.frequency * BigInt(i), liquidity: v.perPeriod })
  // What was released already came off the earliest unlocks.
  let released = v.released
  for (const u of out) {
    const taken = released < u.liquidity ? released : u.liquidity
    u.liquidity -= taken
    released -= taken
  }
  return out.filter((u) => u.liquidity > 0n)
}
