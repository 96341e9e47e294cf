import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

export const transferPausable = defineCheck<SolanaFacts>({
  id: 'transferPausable',
  tier: 'Critical',
  describe: {
    present: 'The pause authority can stop every transfer, mint and burn of the token at any time.',
    absent: 'No one can pause transfers of the token.',
    undetermined: 'Whether transfers can be paused could not be determined.',
  },
  method: 'the Pausable extension of the mint',
  run: ({ mint }) => {
    const pausable = mint.extensions.pausable
    if (pausable?.authority) return present(`pause authority ${pausable.authority}; currently ${pausable.paused ? 'paused' : 'not paused'}`)
    return absent(pausable ? 'Pausable extension with no authority' : 'no Pausable extension')
  },
})
