import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present, undetermined } from './helpers.ts'

/** Imitated tokens named in the evidence, at most. */
const MAX_NAMED = 3

export const lookAlike = defineCheck<SolanaFacts>({
  id: 'lookAlike',
  tier: 'RISKY',
  describe: {
    present: 'The token carries the symbol or name of a well-known token but is not that token: a look-alike that buyers may take for the real one.',
    absent: 'The token does not take the symbol or name of a well-known token it is not.',
    undetermined: 'Whether the token imitates a well-known token could not be determined.',
  },
  method: 'the mint\'s symbol and name against the well-known tokens of its cluster: the configured reference tokens, the bundled token lists (entries with a CoinGecko id) and TOKEN_LIST',
  run: ({ address, sameName }) => {
    if (!sameName.ok) return undetermined(sameName.reason)
    const same = sameName.value
    const itself = same.find((t) => t.address === address)
    if (itself) return absent(`this mint is the well-known ${itself.symbol || itself.name} (${itself.source})`, 'metadata')
    if (same.length === 0) return absent('no well-known token of the configured references and token lists shares its symbol or name', 'metadata')
    const named = same.slice(0, MAX_NAMED).map((t) => `${t.symbol || t.name} ${t.address} (${t.source})`)
    return present(`its symbol or name is that of ${named.join(', ')}${same.length > MAX_NAMED ? ', …' : ''}, another mint`, 'metadata')
  },
})
