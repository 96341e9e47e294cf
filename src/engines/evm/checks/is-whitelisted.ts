import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { fromPowers } from './evidence.ts'

export const isWhitelisted = defineCheck<EvmFacts>({
  id: 'isWhitelisted',
  tier: 'Medium Risk',
  describe: {
    present: 'A privileged account can let chosen addresses trade on better terms than everyone else.',
    absent: 'No privileged account can favour chosen addresses.',
    undetermined: 'Whether chosen addresses can be favoured could not be determined.',
  },
  method:
    'simulation: candidate functions are called as each privileged account with a holder\'s address; the holder\'s tax and ability to trade are compared with a bystander\'s',
  run: (facts) => fromPowers(facts, 'whitelist', 'favoured the address it was given', true),
})
