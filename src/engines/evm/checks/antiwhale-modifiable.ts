import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { fromPowers } from './evidence.ts'

export const antiwhaleModifiable = defineCheck<EvmFacts>({
  id: 'antiwhaleModifiable',
  tier: 'Medium Risk',
  describe: {
    present: 'A privileged account can change the maximum transaction or wallet size.',
    absent: 'No privileged account can change a maximum transaction or wallet size.',
    undetermined: 'Whether the maximum transaction or wallet size can be changed could not be determined.',
  },
  method:
    'simulation: numeric setters are called as each privileged account at several values, from 0 up; a holder the call did not name then transfers and sells, and a setter that blocks it at some values only is a limit',
  run: (facts) => fromPowers(facts, 'limit', 'changed how much a holder may trade', true),
})
