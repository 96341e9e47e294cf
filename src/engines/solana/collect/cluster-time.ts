import { getSysvarClockDecoder, SYSVAR_CLOCK_ADDRESS } from '@solana/sysvars'
import type { CollectContext } from './context.ts'

/** Size of the Clock sysvar's data. */
const CLOCK_SIZE = 40

/**
 * The cluster's own time (unix seconds) from the Clock sysvar, read in the report's first batch of
 * accounts; null when the node does not give the account or it is not a clock. Ages and unlock
 * times are measured against it, as the EVM engine measures against its block's timestamp.
 *
 * @example
 * const now = (await readClusterTime(ctx)) ?? Math.floor(Date.now() / 1000)
 */
export async function readClusterTime(ctx: CollectContext): Promise<number | null> {
  const account = await ctx.loader.load(SYSVAR_CLOCK_ADDRESS)
  if (!account || account.data.length !== CLOCK_SIZE) return null
  const time = Number(getSysvarClockDecoder().decode(account.data).unixTimestamp)
  return Number.isSafeInteger(time) && time > 0 ? time : null
}
