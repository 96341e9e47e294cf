import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

export const transferHookModifiable = defineCheck<SolanaFacts>({
  id: 'transferHookModifiable',
  tier: 'RISKY',
  describe: {
    present: 'The transfer-hook authority can set or replace the program that runs on every transfer.',
    absent: 'No one can add or replace a transfer hook.',
    undetermined: 'Whether a transfer hook can be added or replaced could not be determined.',
  },
  method: 'the TransferHook extension of the mint',
  run: ({ mint }) => {
    const hook = mint.extensions.transferHook
    if (hook?.authority) return present(`transfer hook authority ${hook.authority}; hook program ${hook.programId ?? 'none yet'}`)
    return absent(hook ? 'TransferHook extension with no authority' : 'no TransferHook extension')
  },
})
