import type { AmmId } from '../decode/pools.ts'
import type { PoolSearch } from '../decode/pools.ts'

/** Tokens one lock account holds, as its program will release them. */
export interface DecodedLock {
  /** The lock account. */
  address: string
  /** The token account that holds the locked tokens, or the address owning it (a holder the report tags as the lock). */
  holder: string
  mint: string
  /** Who receives the tokens as they unlock. */
  recipient: string
  /** Tokens still locked at the moment of the report. */
  locked: bigint
  /** Unlocks still to come: unix seconds and tokens. */
  unlocks: { time: number; amount: bigint }[]
  /** Why the tokens are not locked although a lock account holds them ("" when they are): cancelable, cancelled, closed, expired. */
  notLocked: string
}

/** An AMM's own lock of its pools' LP tokens, for good: the lock account, the pool it locks, the LP token account it keeps them in, and how many. */
export interface DecodedPoolLock {
  address: string
  pool: string
  holder: string
  /** Who may claim the locked LP's fees. */
  recipient: string
  locked: bigint
}

/**
 * A lock program LP tokens can be held in: either one whose lock accounts are searched by the
 * mint they lock (each search bounded by the account's size or discriminator and the mint at its
 * offset), or one whose authority holds every token it locks, for good, or an AMM's own lock
 * whose accounts are searched by the pool whose LP they lock for good (its pools only).
 */
export type LockerDefinition =
  | { id: string; name: string; programId: string; kind: 'schedule'; searches(mint: string): PoolSearch[]; decode(address: string, data: Uint8Array, now: number): DecodedLock }
  | { id: string; name: string; programId: string; kind: 'permanent'; authority: string }
  | { id: string; name: string; programId: string; kind: 'pool'; amm: AmmId; searches(pool: string): PoolSearch[]; decode(address: string, data: Uint8Array): DecodedPoolLock }

/** Cap on the unlock steps listed per lock: a stream paying every second would list millions; the rest is one last step at its end. */
export const MAX_UNLOCK_STEPS = 24

/**
 * The unlocks a linear schedule has left after `now`: `cliffAmount` at `cliff`, then `perPeriod`
 * every `period` until `total` is reached (or `periods` steps, when the schedule counts them).
 */
export function scheduleAfter(now: number, s: { cliff: bigint; cliffAmount: bigint; period: bigint; perPeriod: bigint; total: bigint; periods?: bigint }): { time: number; amount: bigint }[] {
  const out: { time: number; amount: bigint }[] = []
  let released = 0n
  const step = (time: bigint, amount: bigint) => {
    const take = amount < s.total - released ? amount : s.total - released
    released += take
    if (take > 0n && time > BigInt(now)) out.push({ time: Number(time), amount: take })
  }
  step(s.cliff, s.cliffAmount)
  if (s.period > 0n && s.perPeriod > 0n) {
    const due = s.periods ?? (s.total - released + s.perPeriod - 1n) / s.perPeriod
    // Steps already past are released without listing; the ones to come are listed up to the cap.
    const past = BigInt(now) >= s.cliff ? (BigInt(now) - s.cliff) / s.period : 0n
    const skipped = past < due ? past : due
    released += skipped * s.perPeriod < s.total - released ? skipped * s.perPeriod : s.total - released
    for (let i = skipped + 1n; i <= due && released < s.total; i++) {
      if (out.length === MAX_UNLOCK_STEPS - 1 && i < due) {
        out.push({ time: Number(s.cliff + s.period * due), amount: s.total - released })
        released = s.total
        break
      }
      step(s.cliff + s.period * i, s.perPeriod)
    }
  }
  return out
}
