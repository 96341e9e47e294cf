import { getAddress } from 'viem/utils'
import type { Hex } from 'viem'
import { LOCKER_KINDS, callProbe, decodeAccounts, decodeLocks, decodeProbe, encodeAccounts, encodeLocks } from '../chain/probe.ts'
import type { HoldersFact, LiquidityFact, LockFact, PoolFact } from '../facts.ts'
import type { CollectContext } from './context.ts'
import { venueOf } from '../venues/registry.ts'

/** Locks read per locker and LP token at most. */
export const MAX_LOCKS = 200

export interface LockReads {
  locks: LockFact[]
  /** LP raw units held by the burn addresses (read with balanceOf). */
  burned: bigint | undefined
  note: string
}

/**
 * Reads the locks of the LP token in every known locker of the chain, and what burn addresses
 * hold of it — one `eth_call` per locker plus one for the burn balances, in one round trip.
 */
export async function readLocks(ctx: CollectContext, pool: PoolFact | undefined, block: Hex): Promise<LockReads> {
  if (!pool || !venueOf(pool.dexType).fungibleLp) return { locks: [], burned: undefined, note: 'no V2 pool: liquidity is not a fungible LP token' }
  const lockers = ctx.chain.lockers
  const [lockResults, burnRaw] = await Promise.all([
    Promise.all(
      lockers.map(async (l) => {
        const raw = await callProbe(ctx.rpc, { what: 'locker reads', data: encodeLocks(l.address, LOCKER_KINDS[l.type], pool.address, MAX_LOCKS), gas: ctx.gasCap, block })
        return decodeProbe('locker reads', raw, decodeLocks).map(
          (x): LockFact => ({
            locker: l.name,
            lockerAddress: l.address,
            owner: getAddress(x.owner),
            amount: x.amount,
            unlockTime: Number(x.unlockTime),
            withdrawn: x.withdrawn,
          }),
        )
      }),
    ),
    callProbe(ctx.rpc, { what: 'burn balance reads', data: encodeAccounts(pool.address, ctx.chain.burnAddresses), gas: ctx.gasCap, block }),
  ])
  const burned = decodeProbe('burn balance reads', burnRaw, decodeAccounts).balances.reduce((a, b) => a + b, 0n)
  return { locks: lockResults.flat().filter((l) => l.amount > 0n), burned, note: `${lockers.length} locker(s) read` }
}

/** The LP facts of the deepest V2 pool: supply, holders, what is locked or burned, upcoming unlocks. */
export function liquidityFact(pool: PoolFact | undefined, holders: HoldersFact, reads: LockReads, now: number): LiquidityFact {
  if (!pool || !venueOf(pool.dexType).fungibleLp) {
    return {
      pool,
      totalLpSupply: undefined,
      holders: { complete: false, count: undefined, top: [], note: reads.note },
      locks: [],
      lockedAmount: undefined,
      burnedAmount: undefined,
      note: pool ? `the deepest pool is a ${pool.dex} pool: its liquidity is held as ${venueOf(pool.dexType).liquidityForm}` : 'no pool',
    }
  }
  const active = reads.locks.filter((l) => !l.withdrawn && l.unlockTime > now)
  return {
    pool,
    totalLpSupply: pool.lpSupply,
    holders,
    locks: reads.locks,
    lockedAmount: active.reduce((a, l) => a + l.amount, 0n),
    burnedAmount: reads.burned,
    note: reads.note,
  }
}
