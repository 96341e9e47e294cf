import { defineCheck } from '../../checks/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

export const nonTransferable = defineCheck<SolanaFacts>({
  id: 'nonTransferable',
  group: 'otherChecks',
  tier: 'Critical',
  describe: {
    present: 'The token cannot be transferred at all: a holder can never sell it.',
    absent: 'The token can be transferred.',
    undetermined: 'Whether the token can be transferred could not be determined.',
  },
  meaning: 'Token-2022 NonTransferable extension (soulbound token)',
  method: 'the NonTransferable extension of the mint',
  run: ({ mint }) => (mint.extensions.nonTransferable ? present('NonTransferable extension') : absent('no NonTransferable extension')),
})
