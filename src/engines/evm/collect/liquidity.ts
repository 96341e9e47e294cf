import { getAddress, type Hex } from 'viem'
import { ethCall } from '../chain/multicall.ts'
import { RpcError } from '../chain/rpc.ts'
import { LOCKER_KINDS, PROBE_ADDRESSES, decodeAccounts, decodeLocks, encodeAccounts, encodeLocks, probeOverride } from '../chain/probe.ts'
import type { HoldersFact, LiquidityFact, LockFact, PoolFact } from '../facts.ts'
import type { CollectContext } from './context.ts'

/** Locks read per locker and LP token at most. */
export const MAX_LOCKS = 200

export interface LockReads {
  locks: LockFact[]
  /** LP raw units held by each burn address (read with balanceOf). */
  burned: bigint | undefined
  note: string
}

/**
 * Reads the locks of the LP token in every known locker of the chain, and what burn addresses
 * hold of it — one `eth_call` per locker plus one for the burn balances, in one round trip.
 */
export async function readLocks(ctx: CollectContext, pool: PoolFact | undefined, block: Hex): Promise<LockReads> {
  if (!pool || pool.dexType !== 'uniswap-v2') return { locks: [], burned: undefined, note: 'no V2 pool: liquidity is not a fungible LP token' }
  const override = probeOverride([])
  const lockers = ctx.chain.lockers
  const [lockResults, burnRaw] = await Promise.all([
    Promise.all(
      lockers.map(async (l) => {
        try {
          const raw = await ethCall(
            ctx.rpc,
            { to: PROBE_ADDRESSES.main, data: encodeLocks(l.address, LOCKER_KINDS[l.type], pool.address, MAX_LOCKS), gas: ctx.gasCap },
            block,
            override,
          )
          return decodeLocks(raw).map(
            (x): LockFact => ({
              locker: l.name,
              lockerAddress: l.address,
              owner: getAddress(x.owner),
              amount: x.amount,
              unlockTime: Number(x.unlockTime),
              withdrawn: x.withdrawn,
            }),
          )
        } catch (error) {
          if (!(error instanceof RpcError)) throw error
          ctx.log.warn({ chainId: ctx.chain.chainId, locker: l.address, err: error.message }, 'locker read failed')
          return []
        }
      }),
    ),
    ethCall(
      ctx.rpc,
      { to: PROBE_ADDRESSES.main, data: encodeAccounts(pool.address, ctx.chain.burnAddresses), gas: ctx.gasCap },
      block,
      override,
    ).catch((error: unknown) => {
      if (error instanceof RpcError) return undefined
      throw error
    }),
  ])
  const burned = burnRaw ? decodeAccounts(burnRaw).balances.reduce((a, b) => a + b, 0n) : undefined
  return { locks: lockResults.flat().filter((l) => l.amount > 0n), burned, note: `${lockers.length} locker(s) read` }
}

/** The LP facts of the deepest V2 pool: supply, holders, what is locked or burned, upcoming unlocks. */
export function liquidityFact(pool: PoolFact | undefined, holders: HoldersFact, reads: LockReads, now: number): LiquidityFact {
  if (!pool || pool.dexType !== 'uniswap-v2') {
    return {
      pool,
      totalLpSupply: undefined,
      holders: { complete: false, count: undefined, top: [], note: reads.note },
      locks: [],
      lockedAmount: undefined,
      burnedAmount: undefined,
      note: pool ? 'the deepest pool is a V3 pool: its liquidity is held as positions, not a fungible LP token' : 'no pool',
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
