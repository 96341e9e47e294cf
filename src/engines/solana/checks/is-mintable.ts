import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

export const isMintable = defineCheck<SolanaFacts>({
  id: 'isMintable',
  tier: 'Critical',
  describe: {
    present: 'The mint authority can create new tokens at any time.',
    absent: 'No one can create new tokens: the mint authority is revoked.',
    undetermined: 'Whether new tokens can be created could not be determined.',
  },
  method: "the mint account's mint authority (SPL Token and Token-2022)",
  run: ({ mint }) => (mint.mintAuthority ? present(`mint authority ${mint.mintAuthority}`) : absent('mint authority is none')),
})
