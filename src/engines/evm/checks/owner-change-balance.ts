import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { fromPowers } from './evidence.ts'

export const ownerChangeBalance = defineCheck<EvmFacts>({
  id: 'ownerChangeBalance',
  tier: 'Critical',
  describe: {
    present: 'A privileged account can change the balance of any holder.',
    absent: 'No privileged account can change the balance of a holder.',
    undetermined: 'Whether a privileged account can change holders\' balances could not be determined.',
  },
  method:
    'simulation: every state-changing function of the (implementation) bytecode is called as each privileged-account candidate, and a holder\'s balance is compared before and after',
  run: (facts) => fromPowers(facts, 'changeBalance', 'changed a holder\'s balance', true),
})
