import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { fromPowers } from './evidence.ts'

export const personalSlippageModifiable = defineCheck<EvmFacts>({
  id: 'personalSlippageModifiable',
  tier: 'RISKY',
  describe: {
    present: 'A privileged account can change the outcome for a single address (its own tax, a blacklist).',
    absent: 'No privileged account can single out an address.',
    undetermined: 'Whether a single address can be singled out could not be determined.',
  },
  method:
    'simulation: candidate functions are called with a holder\'s address; that holder\'s transfer and sell (and their taxes) are compared with a bystander\'s',
  run: (facts) => fromPowers(facts, 'feePersonal', 'changed the outcome of the one address it was given', true),
})
