import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { MAX_CREATOR_TRANSACTIONS } from '../collect/launch.ts'
import { absent, present, undetermined } from './helpers.ts'

export const creatorRugHistory = defineCheck<SolanaFacts>({
  id: 'creatorRugHistory',
  tier: 'RISKY',
  describe: {
    present: 'The creator made other tokens before and pulled the liquidity of at least one of them.',
    absent: 'The creator pulled the liquidity of none of its earlier tokens.',
    undetermined: "Whether the creator pulled its earlier tokens' liquidity could not be determined.",
  },
  method: `the creator's transactions before this mint's creation (at most ${MAX_CREATOR_TRANSACTIONS}): mints it initialised, and pool vaults it emptied`,
  run: ({ launch }) => {
    if (!launch.ok) return undetermined(launch.reason)
    const h = launch.value.creatorHistory
    const earlier = `${h.earlierMints.length} earlier mint${h.earlierMints.length === 1 ? '' : 's'}`
    if (h.liquidityPulled.length > 0) return present(`${earlier}; liquidity pulled from ${h.liquidityPulled.map((p) => `${p.mint} in ${p.signature}`).join(', ')}`)
    if (!h.complete) return undetermined(`${earlier} and no pulled liquidity in the creator's last ${MAX_CREATOR_TRANSACTIONS} transactions before the creation; older ones were not read`)
    return absent(`${earlier}, none with its liquidity pulled (every transaction of the creator before the creation read)`)
  },
})
