import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { fromPowers } from './evidence.ts'

export const isMintable = defineCheck<EvmFacts>({
  id: 'isMintable',
  tier: 'Critical',
  describe: {
    present: 'A privileged account can mint new tokens.',
    absent: 'No privileged account can mint new tokens.',
    undetermined: 'Whether new tokens can be minted could not be determined.',
  },
  method: 'simulation: candidate functions are called as each privileged-account candidate and the total supply is compared before and after',
  run: (facts) => fromPowers(facts, 'mint', 'raised the total supply', false),
})
