import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

export const isPaused = defineCheck<SolanaFacts>({
  id: 'isPaused',
  tier: 'Critical',
  describe: {
    present: 'Transfers are paused right now: no one can buy, sell or move the token.',
    absent: 'Transfers are not paused.',
    undetermined: 'Whether transfers are paused could not be determined.',
  },
  method: 'the Pausable extension of the mint',
  run: ({ mint }) => {
    const pausable = mint.extensions.pausable
    if (pausable?.paused) return present(`paused; pause authority ${pausable.authority ?? 'none (it can never resume)'}`)
    return absent(pausable ? 'Pausable extension, not paused' : 'no Pausable extension')
  },
})
