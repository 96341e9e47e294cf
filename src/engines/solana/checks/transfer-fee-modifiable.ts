import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

export const transferFeeModifiable = defineCheck<SolanaFacts>({
  id: 'transferFeeModifiable',
  tier: 'RISKY',
  describe: {
    present: 'The transfer-fee authority can change the fee charged on every transfer (up to 100 %), effective two epochs later.',
    absent: 'No one can change the transfer fee.',
    undetermined: 'Whether the transfer fee can be changed could not be determined.',
  },
  method: 'the TransferFeeConfig extension of the mint',
  run: ({ mint }) => {
    const config = mint.extensions.transferFeeConfig
    if (config?.configAuthority) return present(`transfer fee config authority ${config.configAuthority}`)
    return absent(config ? 'TransferFeeConfig extension with no config authority' : 'no TransferFeeConfig extension')
  },
})
