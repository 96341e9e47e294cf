import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

export const isFreezable = defineCheck<SolanaFacts>({
  id: 'isFreezable',
  tier: 'Critical',
  describe: {
    present: 'The freeze authority can freeze any holder’s token account, so the holder can no longer sell or move the tokens.',
    absent: 'No one can freeze token accounts: the freeze authority is revoked.',
    undetermined: 'Whether token accounts can be frozen could not be determined.',
  },
  method: "the mint account's freeze authority",
  run: ({ mint }) => (mint.freezeAuthority ? present(`freeze authority ${mint.freezeAuthority}`) : absent('freeze authority is none')),
})
