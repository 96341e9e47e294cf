import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

export const confidentialTransfers = defineCheck<SolanaFacts>({
  id: 'confidentialTransfers',
  tier: 'Medium Risk',
  describe: {
    present: 'Balances and transfers can be confidential (encrypted): holder figures cover public balances only.',
    absent: 'All balances and transfers are public.',
    undetermined: 'Whether confidential transfers are enabled could not be determined.',
  },
  method: 'the confidential-transfer extensions of the mint',
  run: ({ mint }) => {
    const ct = mint.extensions.confidentialTransferMint
    if (ct) return present(`confidential transfers; authority ${ct.authority ?? 'none'}, new accounts ${ct.autoApproveNewAccounts ? 'auto-approved' : 'need approval'}${ct.hasAuditor ? ', with an auditor key' : ''}`)
    if (mint.extensions.confidentialMintBurn) return present('confidential mint and burn')
    return absent('no confidential-transfer extension')
  },
})
