import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

export const defaultAccountFrozen = defineCheck<SolanaFacts>({
  id: 'defaultAccountFrozen',
  tier: 'RISKY',
  describe: {
    present: 'New token accounts start frozen: a buyer cannot move the tokens until the freeze authority thaws the account (an allow-list).',
    absent: 'New token accounts start usable.',
    undetermined: 'Whether new token accounts start frozen could not be determined.',
  },
  method: 'the DefaultAccountState extension of the mint',
  run: ({ mint }) => {
    const state = mint.extensions.defaultAccountState?.state
    if (state === 'frozen') return present(`default account state frozen; freeze authority ${mint.freezeAuthority ?? 'none (accounts can never be thawed)'}`)
    return absent(state ? `default account state ${state}` : 'no DefaultAccountState extension')
  },
})
