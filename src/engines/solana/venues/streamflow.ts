import { STREAMFLOW_CONTRACT } from './program-layouts.ts'
import { scheduleAfter, type LockerDefinition } from './locker.ts'
import { expectLayout, fieldReader } from './venue.ts'

/**
 * Streamflow token locks and vesting streams: a `Contract` account per stream, as the program's
 * SDK reads it (no discriminator: searched by its size and the mint at its offset). The tokens sit
 * in the contract's escrow token account; `cliffAmount` unlocks at `cliff`, then
 * `amountPerPeriod` every `period` until the deposit is paid out. A stream its sender can cancel
 * locks nothing: the sender can take the tokens back at any time.
 */
export const STREAMFLOW: LockerDefinition = {
  id: 'streamflow',
  name: 'Streamflow',
  programId: STREAMFLOW_CONTRACT.program,
  kind: 'schedule',
  searches: (mint) => [{ dataSize: STREAMFLOW_CONTRACT.size!, memcmp: [{ offset: STREAMFLOW_CONTRACT.fields.mint.offset, bytes: mint }] }],
  decode(address, data, now) {
    const what = 'Streamflow contract'
    expectLayout(STREAMFLOW_CONTRACT, data, what, true)
    const f = fieldReader(STREAMFLOW_CONTRACT, data, what)
    const total = f.u64('depositedAmount')
    const rateChanged = f.u64('lastRateChangeTime')
    // Everything is paid out by the stream's end.
    const end = Number(f.u64('end'))
    const unlocks = scheduleAfter(now, {
      // After a rate change the schedule runs on from what was unlocked then.
      cliff: rateChanged > 0n ? rateChanged : f.u64('cliff'),
      cliffAmount: rateChanged > 0n ? f.u64('fundsUnlockedAtLastRateChange') : f.u64('cliffAmount'),
      period: f.u64('period'),
      perPeriod: f.u64('amountPerPeriod'),
      total,
    }).map((u) => (end > 0 && u.time > end ? { ...u, time: end } : u))
    const notLocked = f.bool('closed') ? 'closed' : f.u64('canceledAt') > 0n ? 'cancelled' : f.bool('cancelableBySender') ? 'its sender can cancel it and take the tokens back' : ''
    return {
      address,
      holder: f.address('escrowTokens'),
      mint: f.address('mint'),
      recipient: f.address('recipient'),
      locked: unlocks.reduce((s, u) => s + u.amount, 0n),
      unlocks,
      notLocked,
    }
  },
}
