import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

export const nonTransferable = defineCheck<SolanaFacts>({
  id: 'nonTransferable',
  tier: 'Critical',
  describe: {
    present: 'The token cannot be transferred at all: a holder can never sell it.',
    absent: 'The token can be transferred.',
    undetermined: 'Whether the token can be transferred could not be determined.',
  },
  method: 'the NonTransferable extension of the mint',
  run: ({ mint }) => (mint.extensions.nonTransferable ? present('NonTransferable extension') : absent('no NonTransferable extension')),
})
