import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { SNIPE_SECONDS } from '../collect/launch.ts'
import { named } from './bundled-launch.ts'
import { absent, present, undetermined } from './helpers.ts'

export const snipedLaunch = defineCheck<SolanaFacts>({
  id: 'snipedLaunch',
  tier: 'Medium Risk',
  describe: {
    present: `Wallets bought in the first ${SNIPE_SECONDS} seconds after the creation (snipers), ahead of everyone else.`,
    absent: `No wallet bought in the first ${SNIPE_SECONDS} seconds after the creation slot.`,
    undetermined: 'Whether the launch was sniped could not be determined.',
  },
  method: "the mint's first transactions (balances they changed, and their times)",
  run: ({ launch }) => {
    if (!launch.ok) return undetermined(launch.reason)
    const { snipers, windowCovered, transactionsRead } = launch.value
    if (snipers.length > 0) return present(`${snipers.length} snipers: ${named(snipers)}`)
    if (!windowCovered) return undetermined(`the ${transactionsRead} first transactions read do not reach ${SNIPE_SECONDS} s after the creation`)
    return absent(`no buy in the ${SNIPE_SECONDS} s after the creation slot (${transactionsRead} first transactions read)`)
  },
})
