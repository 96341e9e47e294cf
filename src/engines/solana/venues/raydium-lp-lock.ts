import { RAYDIUM_LP_LOCK as LAYOUT } from './program-layouts.ts'
import type { LockerDefinition } from './locker.ts'

/**
 * Raydium's LP lock (Burn & Earn): the LP tokens it locks go to its authority for good (their
 * owner keeps only the right to the fees), so what the authority holds of an LP token is
 * permanently locked. Addresses from Raydium's SDK.
 */
export const RAYDIUM_LP_LOCK: LockerDefinition = {
  id: 'raydium-lp-lock',
  name: 'Raydium LP lock',
  programId: LAYOUT.program,
  kind: 'permanent',
  authority: LAYOUT.authority,
}
