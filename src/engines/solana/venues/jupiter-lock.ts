import { JUP_LOCK_VESTING_ESCROW } from './program-layouts.ts'
import { scheduleAfter, type LockerDefinition } from './locker.ts'
import { expectLayout, fieldReader } from './venue.ts'

/** `cancel_mode` of an escrow no one can cancel (1: the creator can, 2: the recipient, 3: either; a cancel sends what is still locked back to the creator). */
const CANCEL_NONE = 0
const CANCEL_WHO = ['', 'its creator', 'its recipient', 'its creator or recipient']

/**
 * Jupiter Lock: a `VestingEscrow` account per lock, as the program's IDL lays it out; its tokens
 * sit in the escrow's associated token account (the escrow is their owner). `cliffUnlockAmount`
 * unlocks at `cliffTime`, then `amountPerPeriod` every `frequency` for `numberOfPeriod` periods.
 * An escrow that can be cancelled locks nothing: a cancel sends what is still locked back to the creator.
 */
export const JUPITER_LOCK: LockerDefinition = {
  id: 'jupiter-lock',
  name: 'Jupiter Lock',
  programId: JUP_LOCK_VESTING_ESCROW.program,
  kind: 'schedule',
  searches: (mint) => [{ dataSize: JUP_LOCK_VESTING_ESCROW.size!, memcmp: [{ offset: JUP_LOCK_VESTING_ESCROW.fields.tokenMint.offset, bytes: mint }] }],
  decode(address, data, now) {
    const what = 'Jupiter Lock escrow'
    expectLayout(JUP_LOCK_VESTING_ESCROW, data, what, true)
    const f = fieldReader(JUP_LOCK_VESTING_ESCROW, data, what)
    const cliffAmount = f.u64('cliffUnlockAmount')
    const perPeriod = f.u64('amountPerPeriod')
    const periods = f.u64('numberOfPeriod')
    const unlocks = scheduleAfter(now, { cliff: f.u64('cliffTime'), cliffAmount, period: f.u64('frequency'), perPeriod, total: cliffAmount + perPeriod * periods, periods })
    const cancel = f.u8('cancelMode')
    const notLocked = f.u64('cancelledAt') > 0n ? 'cancelled' : cancel === CANCEL_NONE ? '' : `${CANCEL_WHO[cancel] ?? `cancel mode ${cancel}: someone`} can cancel it, sending what is locked back to the creator`
    return {
      address,
      // The escrow owns the token account that holds the locked tokens.
      holder: address,
      mint: f.address('tokenMint'),
      recipient: f.address('recipient'),
      locked: unlocks.reduce((s, u) => s + u.amount, 0n),
      unlocks,
      notLocked,
    }
  },
}
