import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { transferFeeSchedule } from '../transfer-fee.ts'
import { absent, present } from './helpers.ts'

export const hasTransferFee = defineCheck<SolanaFacts>({
  id: 'hasTransferFee',
  tier: 'Medium Risk',
  describe: {
    present: 'Every transfer pays a fee to the token’s fee authority (a buy and sell tax), now or from a scheduled epoch.',
    absent: 'Transfers pay no token fee.',
    undetermined: 'Whether transfers pay a token fee could not be determined.',
  },
  method: 'the TransferFeeConfig extension of the mint and the current epoch',
  run: (facts) => {
    const schedule = transferFeeSchedule(facts)
    if (!schedule) return absent('no TransferFeeConfig extension')
    const { current, scheduled } = schedule
    const parts = [`current ${current.basisPoints} bp (max ${current.maximumFee} base units)`]
    if (scheduled) parts.push(`${scheduled.basisPoints} bp from epoch ${scheduled.epoch}`)
    if (schedule.epochUnknown) parts.push('current epoch unknown: the larger of both fees is assumed')
    return current.basisPoints > 0 || (scheduled?.basisPoints ?? 0) > 0 ? present(parts.join('; ')) : absent(parts.join('; '))
  },
})
