import { defineCheck } from '../../../report/define-check.ts'
import { DUST_RULE } from '../collect/effect-floor.ts'
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
  method:
    `simulation: candidate functions are called as each privileged-account candidate; the total supply and the balances of the watched accounts (the caller, accounts in the calldata, test holders, pools, the token, burn addresses, accounts the token names in storage or code, its largest holders of record) are compared before and after, and, where the node traces calls, the same calls are replayed and every account their Transfer events name is measured in the storage diff of the balance mapping: tokens that appear beyond what measured debits explain are minted, however they are written (every value a balance or the supply can take is a value read, 2^256 - 1 included: only a read that failed is unknown); a balance shown higher with the supply unchanged is asked whether it is held: right after the call, the account sends all it was shown before and not one unit more is a display multiplied, nothing created (the holders of record asked in a second run where they act for themselves, only when the test holders' rise was found so); ${DUST_RULE}`,
  run: (facts) => fromPowers(facts, 'mint', 'raised the total supply', false),
})
