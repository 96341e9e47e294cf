import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

export const ownerChangeBalance = defineCheck<SolanaFacts>({
  id: 'ownerChangeBalance',
  tier: 'Critical',
  describe: {
    present: 'A permanent delegate can transfer or burn tokens out of any holder’s account without the holder’s consent.',
    absent: 'No permanent delegate: no one can move or burn a holder’s tokens but the holder.',
    undetermined: 'Whether someone can move holders’ tokens could not be determined.',
  },
  method: 'the PermanentDelegate extension of the mint',
  run: ({ mint }) => {
    const delegate = mint.extensions.permanentDelegate?.delegate
    if (delegate) return present(`permanent delegate ${delegate}`)
    return absent(mint.extensions.permanentDelegate ? 'PermanentDelegate extension with no delegate' : 'no PermanentDelegate extension')
  },
})
