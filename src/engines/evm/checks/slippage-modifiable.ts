import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { fromPowers } from './evidence.ts'

export const slippageModifiable = defineCheck<EvmFacts>({
  id: 'slippageModifiable',
  tier: 'RISKY',
  describe: {
    present: 'A privileged account can change the buy, sell or transfer tax for everyone.',
    absent: 'No privileged account can change the taxes.',
    undetermined: 'Whether the taxes can be changed could not be determined.',
  },
  method:
    'simulation: the buy, sell and transfer taxes of a holder the call did not name are measured before and after each candidate function call; a numeric setter is searched on-chain (bisection between the last accepted and the first refused value, and between the last value that sells and the first that does not), alone and with its sibling setters at their largest accepted values (sales that go from the tax they paid straight to failing, with no higher tax at the neighbouring value, fail on a rule the setter sets, an exact amount or a size, not on a fee: transferPausable and antiwhaleModifiable say it), and the reach is stated with who is paid the tax (an address a privileged call can replace counts as the owner\'s). The highest buy and sell tax any privileged account reaches, whether it can make every sale fail, and where that tax goes ("owner-set wallet", "token contract", "burned", "fixed wallet", "" when not seen) are also given as figures on the measured pool, as honeypotDetails[].feeCeiling, with a sentence ("the owner can raise the sell tax to 99 %, paid to a wallet it sets"); with no privileged account to try, each pool\'s own taxes are its ceiling. The functions of a contract the token\'s pools run on every trade (a Uniswap V4 pool\'s hook: a dynamic LP fee its owner sets counts as the sell tax it is) are tried the same way, by that contract\'s owner and the token\'s privileged accounts, and the evidence names the contract',
  run: (facts) => fromPowers(facts, 'feeAll', 'changed the taxes of a holder it did not name', true),
})
