import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present, undetermined } from './helpers.ts'

/** Frozen accounts named in the evidence, at most. */
const MAX_NAMED = 5

export const frozenHolders = defineCheck<SolanaFacts>({
  id: 'frozenHolders',
  tier: 'RISKY',
  describe: {
    present: 'Some of the largest token accounts are frozen: their owners cannot move or sell those tokens (a frozen pool vault cannot pay out).',
    absent: 'None of the largest token accounts is frozen.',
    undetermined: 'Whether holder accounts are frozen could not be determined.',
  },
  method: 'the state of the largest token accounts (getTokenLargestAccounts)',
  run: ({ holders }) => {
    if (!holders.ok) return undetermined(`the largest holders could not be read (${holders.reason})`)
    const frozen = holders.value.filter((h) => h.frozen)
    if (frozen.length === 0) return absent(`none of the ${holders.value.length} largest token accounts is frozen`)
    const named = frozen.slice(0, MAX_NAMED).map((h) => `${h.tokenAccount} (owner ${h.owner})`)
    return present(`${frozen.length} of the ${holders.value.length} largest token accounts frozen: ${named.join(', ')}${frozen.length > MAX_NAMED ? ', …' : ''}`)
  },
})
