import type { SolanaFacts } from './collect/facts.ts'
import type { TransferFee } from './decode/extensions.ts'

export interface TransferFeeSchedule {
  /** The fee in force at the current epoch. */
  current: TransferFee
  /** A different fee that takes over at a later epoch; null when none is scheduled. */
  scheduled: TransferFee | null
  /** The epoch could not be read: `current` is the larger of the two fees. */
  epochUnknown: boolean
}

/**
 * The transfer fee in force and the one scheduled, as Token-2022 applies them: the newer fee once
 * the current epoch reaches its epoch, the older one before. null without a TransferFeeConfig.
 */
export function transferFeeSchedule(facts: Pick<SolanaFacts, 'mint' | 'epoch'>): TransferFeeSchedule | null {
  const config = facts.mint.extensions.transferFeeConfig
  if (!config) return null
  const { older, newer } = config
  if (!facts.epoch?.ok) {
    return { current: newer.basisPoints >= older.basisPoints ? newer : older, scheduled: null, epochUnknown: true }
  }
  const epoch = facts.epoch.value
  if (epoch >= newer.epoch) return { current: newer, scheduled: null, epochUnknown: false }
  const differs = newer.basisPoints !== older.basisPoints || newer.maximumFee !== older.maximumFee
  return { current: older, scheduled: differs ? newer : null, epochUnknown: false }
}
