import { decodeDammPosition, decodeDammVesting, dammPointsAreTimestamps, positionSearch, scheduleUnlocks, vestingSearch } from '../venues/meteora-damm-v2-locks.ts'
import { METEORA_DAMM_V2 } from '../venues/meteora-damm-v2.ts'
import type { PoolLockFacts } from './facts.ts'
import type { PoolCandidate } from './pools.ts'
import type { CollectContext } from './context.ts'

/** DAMM v2 pools whose positions are read, and vesting positions per pool whose schedules are read. */
export const MAX_LOCK_POOLS = 3
export const MAX_VESTING_POSITIONS = 5

/**
 * Locked liquidity of one of the token's DAMM v2 pools (the caller reads at most MAX_LOCK_POOLS):
 * its positions (one search: the position's size and the pool at its offset), permanently locked
 * and vesting liquidity, and the unlocks of the vesting schedules (one search per vesting position,
 * at most MAX_VESTING_POSITIONS). Two round trips after the pool search.
 */
export async function readPoolLocks(ctx: CollectContext, pool: PoolCandidate): Promise<PoolLockFacts> {
  const [positions, poolAccount] = await Promise.all([ctx.client.getProgramAccounts(METEORA_DAMM_V2.programId, positionSearch(pool.address), undefined, ctx.signal), ctx.loader.load(pool.address)])
  const timestamps = poolAccount ? dammPointsAreTimestamps(poolAccount.data) : false
  const decoded = positions.map((p) => ({ address: p.address, ...decodeDammPosition(p.data) }))
  const vestingPositions = decoded.filter((p) => p.vested > 0n).slice(0, MAX_VESTING_POSITIONS)
  const schedules = (
    await Promise.all(vestingPositions.map((p) => ctx.client.getProgramAccounts(METEORA_DAMM_V2.programId, vestingSearch(p.address), undefined, ctx.signal)))
  ).flatMap((list) => list.map((v) => decodeDammVesting(v.data)))
  schedules.push(...decoded.map((p) => p.innerVesting).filter((v) => v.cliffUnlock > 0n || v.perPeriod > 0n))
  const unlocks = schedules
    .flatMap(scheduleUnlocks)
    .map((u) => ({ time: timestamps ? Number(u.point) : null, slot: timestamps ? null : u.point, liquidity: u.liquidity }))
    .sort((a, b) => Number((a.time ?? 0) - (b.time ?? 0)) || Number((a.slot ?? 0n) - (b.slot ?? 0n)))
  return {
    pool: pool.address,
    dex: pool.dex,
    total: decoded.reduce((s, p) => s + p.unlocked + p.vested + p.permanent, 0n),
    permanent: decoded.reduce((s, p) => s + p.permanent, 0n),
    vesting: decoded.reduce((s, p) => s + p.vested, 0n),
    unlocks,
  }
}

/** Whether the pool's liquidity is in DAMM v2 positions whose locks `readPoolLocks` reads. */
export function hasPositionLocks(pool: PoolCandidate): boolean {
  return pool.amm === 'meteora-damm-v2'
}
