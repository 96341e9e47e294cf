import { defineCheck } from '../../../report/define-check.ts'
import type { LaunchWallet, SolanaFacts } from '../collect/facts.ts'
import { absent, present, undetermined } from './helpers.ts'

/** Wallets named in the evidence, at most. */
const MAX_NAMED = 5

export const named = (list: LaunchWallet[]) => list.slice(0, MAX_NAMED).map((w) => `${w.wallet} (${w.evidence})`).join('; ') + (list.length > MAX_NAMED ? '; …' : '')

export const bundledLaunch = defineCheck<SolanaFacts>({
  id: 'bundledLaunch',
  tier: 'RISKY',
  describe: {
    present: 'At launch, wallets bought in the creation slot (a bundle) or were funded by the creator: insiders hold supply they can dump on buyers.',
    absent: 'No wallet bought in the creation slot, and no buyer was funded by the creator.',
    undetermined: 'Whether the launch was bundled could not be determined.',
  },
  method: "the mint's first transactions and the creator's before them (balances they changed)",
  run: ({ launch }) => {
    if (!launch.ok) return undetermined(launch.reason)
    const { bundled, insiders } = launch.value
    if (bundled.length > 0 || insiders.length > 0) {
      const parts = [bundled.length > 0 ? `${bundled.length} bundled: ${named(bundled)}` : '', insiders.length > 0 ? `${insiders.length} insiders: ${named(insiders)}` : '']
      return present(parts.filter(Boolean).join('; '))
    }
    return absent(`no buyer in the creation slot ${launch.value.creationSlot} and none funded by the creator (${launch.value.transactionsRead} first transactions read, ${launch.value.creatorTransactionsRead} of the creator's)`)
  },
})
