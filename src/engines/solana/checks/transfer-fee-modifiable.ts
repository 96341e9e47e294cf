import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

/**
 * Critical, like an EVM tax setter that reaches a confiscatory sell tax (docs/scoring.md): the
 * authority can raise the fee to 100 % of every transfer. Clients of the hosted service's Solana
 * shape read this check's risky state as rating 0.
 */
export const transferFeeModifiable = defineCheck<SolanaFacts>({
  id: 'transferFeeModifiable',
  tier: 'Critical',
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
