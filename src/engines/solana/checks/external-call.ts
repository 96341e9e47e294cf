import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

export const externalCall = defineCheck<SolanaFacts>({
  id: 'externalCall',
  tier: 'Medium Risk',
  describe: {
    present: 'A transfer-hook program runs on every transfer and can make any transfer (a sale) fail.',
    absent: 'No other program runs when the token is transferred.',
    undetermined: 'Whether another program runs on transfers could not be determined.',
  },
  method: 'the TransferHook extension of the mint',
  run: ({ mint }) => {
    const hook = mint.extensions.transferHook
    if (hook?.programId) return present(`transfer hook program ${hook.programId}`)
    return absent(hook ? 'TransferHook extension with no program' : 'no TransferHook extension')
  },
})
