import { describe, expect, it } from 'vitest'
import { idlAccountData } from '@tokenrisk/devworld/solana/layouts'
import { DAMM_V1_LOCK_ESCROW, JUP_LOCK_VESTING_ESCROW, STREAMFLOW_CONTRACT } from '../src/engines/solana/venues/program-layouts.ts'
import { METEORA_DAMM_V1_LOCK } from '../src/engines/solana/venues/meteora-damm-v1-lock.ts'
import { MalformedAccountError } from '../src/engines/solana/decode/reader.ts'
import { MAX_UNLOCK_STEPS } from '../src/engines/solana/venues/locker.ts'
import { JUPITER_LOCK } from '../src/engines/solana/venues/jupiter-lock.ts'
import { STREAMFLOW } from '../src/engines/solana/venues/streamflow.ts'

/**
 * The lock programs' schedules as the engine reads them, on accounts written from the same
 * published layouts: what is still locked, the unlocks to come, and the locks that lock nothing.
 */

const NOW = 1_800_000_000
const DAY = 86_400
const MINT = 'So11111111111111111111111111111111111111112'
const WALLET = '1nc1nerator11111111111111111111111111111111'
const LOCK = 'SysvarC1ock11111111111111111111111111111111'
const decode = (locker: typeof STREAMFLOW, data: Uint8Array) => {
  if (locker.kind !== 'schedule') throw new Error('a schedule locker')
  return locker.decode(LOCK, data, NOW)
}
const stream = (values: Record<string, string | bigint | number | boolean>) =>
  idlAccountData(STREAMFLOW_CONTRACT, { mint: MINT, escrowTokens: WALLET, sender: WALLET, recipient: WALLET, ...values })
const escrow = (values: Record<string, string | bigint | number | boolean>) =>
  idlAccountData(JUP_LOCK_VESTING_ESCROW, { recipient: WALLET, tokenMint: MINT, creator: WALLET, base: WALLET, ...values })

describe('Streamflow and Jupiter Lock schedules', () => {
  it('list a stream paying every second in at most MAX_UNLOCK_STEPS steps, the last one its remainder at the end', () => {
    const cliff = NOW + DAY
    const lock = decode(STREAMFLOW, stream({ depositedAmount: 1_000_000n, start: cliff, cliff, cliffAmount: 0n, period: 1n, amountPerPeriod: 1n, end: cliff + 1_000_000 }))
    expect(lock.notLocked).toBe('')
    expect(lock.locked).toBe(1_000_000n)
    expect(lock.unlocks).toHaveLength(MAX_UNLOCK_STEPS)
    expect(lock.unlocks.reduce((s, u) => s + u.amount, 0n)).toBe(1_000_000n)
    expect(lock.unlocks.at(-1)).toEqual({ time: cliff + 1_000_000, amount: 1_000_000n - BigInt(MAX_UNLOCK_STEPS - 1) })
  })

  it('leave out what unlocked already: a stream halfway through locks its second half', () => {
    const cliff = NOW - 10 * DAY
    const lock = decode(STREAMFLOW, stream({ depositedAmount: 400n, start: cliff, cliff, cliffAmount: 100n, period: BigInt(10 * DAY), amountPerPeriod: 100n, end: cliff + 30 * DAY }))
    // 100 at the cliff and 100 ten days later are out; 100 in ten days and 100 in twenty remain.
    expect(lock.unlocks).toEqual([{ time: cliff + 20 * DAY, amount: 100n }, { time: cliff + 30 * DAY, amount: 100n }])
    expect(lock.locked).toBe(200n)
  })

  it('say why a stream its sender can cancel, or a cancelled one, locks nothing', () => {
    const base = { depositedAmount: 500n, start: NOW + DAY, cliff: NOW + DAY, cliffAmount: 500n, period: 1n, end: NOW + DAY }
    expect(decode(STREAMFLOW, stream({ ...base, cancelableBySender: true })).notLocked).toMatch(/sender can cancel/)
    expect(decode(STREAMFLOW, stream({ ...base, canceledAt: BigInt(NOW - DAY) })).notLocked).toBe('cancelled')
    expect(decode(STREAMFLOW, stream(base)).notLocked).toBe('')
  })

  it('read a Jupiter Lock escrow: cliff then periods; one its creator can cancel locks nothing', () => {
    const values = { cliffTime: BigInt(NOW + DAY), frequency: BigInt(DAY), cliffUnlockAmount: 50n, amountPerPeriod: 25n, numberOfPeriod: 2n, vestingStartTime: BigInt(NOW) }
    const lock = decode(JUPITER_LOCK, escrow(values))
    expect(lock.unlocks).toEqual([{ time: NOW + DAY, amount: 50n }, { time: NOW + 2 * DAY, amount: 25n }, { time: NOW + 3 * DAY, amount: 25n }])
    expect([lock.locked, lock.notLocked, lock.holder]).toEqual([100n, '', LOCK])
    expect(decode(JUPITER_LOCK, escrow({ ...values, cancelMode: 1 })).notLocked).toMatch(/creator can cancel/)
    // Every unlock past: nothing left locked.
    expect(decode(JUPITER_LOCK, escrow({ ...values, cliffTime: BigInt(NOW - 10 * DAY) })).locked).toBe(0n)
  })
})

describe('Meteora DAMM v1 lock escrows', () => {
  const POOL = 'SysvarRent111111111111111111111111111111111'
  const VAULT = 'Stake11111111111111111111111111111111111111'
  const lockOf = (data: Uint8Array) => {
    if (METEORA_DAMM_V1_LOCK.kind !== 'pool') throw new Error('a pool locker')
    return METEORA_DAMM_V1_LOCK.decode(LOCK, data)
  }
  const data = idlAccountData(DAMM_V1_LOCK_ESCROW, { pool: POOL, owner: WALLET, escrowVault: VAULT, totalLockedAmount: 4_000n })

  it('read what an escrow locks for good: its pool, the LP token account holding it, and how much', () => {
    expect(lockOf(data)).toEqual({ address: LOCK, pool: POOL, holder: VAULT, recipient: WALLET, locked: 4_000n })
  })

  it('are searched by the pool they lock, and refuse an account that is not one', () => {
    if (METEORA_DAMM_V1_LOCK.kind !== 'pool') throw new Error('a pool locker')
    const [search] = METEORA_DAMM_V1_LOCK.searches(POOL)
    expect(search.memcmp).toContainEqual({ offset: DAMM_V1_LOCK_ESCROW.fields.pool.offset, bytes: POOL })
    const wrong = new Uint8Array(data)
    wrong[0] ^= 1
    expect(() => lockOf(wrong)).toThrow(MalformedAccountError)
    expect(() => lockOf(data.subarray(0, DAMM_V1_LOCK_ESCROW.fields.totalLockedAmount.offset + 4))).toThrow(MalformedAccountError)
  })
})
