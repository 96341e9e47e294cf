import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present } from './helpers.ts'

export const mintClosable = defineCheck<SolanaFacts>({
  id: 'mintClosable',
  tier: 'Neutral',
  describe: {
    present: 'The close authority can close the mint once its supply is zero, and the address can then be reused for a different token.',
    absent: 'The mint cannot be closed.',
    undetermined: 'Whether the mint can be closed could not be determined.',
  },
  method: 'the MintCloseAuthority extension of the mint',
  run: ({ mint }) => {
    const close = mint.extensions.mintCloseAuthority
    if (close?.closeAuthority) return present(`close authority ${close.closeAuthority}`)
    return absent(close ? 'MintCloseAuthority extension with no authority' : 'no MintCloseAuthority extension')
  },
})
