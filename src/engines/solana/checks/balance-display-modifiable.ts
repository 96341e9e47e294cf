import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

export const balanceDisplayModifiable = defineCheck<SolanaFacts>({
  id: 'balanceDisplayModifiable',
  tier: 'Medium Risk',
  describe: {
    present: 'An authority can change how balances are displayed (interest rate or UI multiplier): wallets may show amounts that differ from the raw balance.',
    absent: 'Displayed balances are the raw balances scaled by the decimals only.',
    undetermined: 'Whether displayed balances can be changed could not be determined.',
  },
  method: 'the InterestBearingConfig and ScaledUiAmount extensions of the mint',
  run: ({ mint }) => {
    const { interestBearingConfig: interest, scaledUiAmount: scaled } = mint.extensions
    const reasons: string[] = []
    if (interest?.rateAuthority) reasons.push(`interest rate authority ${interest.rateAuthority} (rate ${interest.currentRate} bp)`)
    if (scaled?.authority) reasons.push(`UI multiplier authority ${scaled.authority} (multiplier ${scaled.multiplier})`)
    if (reasons.length > 0) return present(reasons.join('; '))
    return absent(interest || scaled ? 'display extensions without an authority' : 'no InterestBearingConfig or ScaledUiAmount extension')
  },
})
