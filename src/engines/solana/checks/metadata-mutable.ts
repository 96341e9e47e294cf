import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present, undetermined } from './helpers.ts'

export const metadataMutable = defineCheck<SolanaFacts>({
  id: 'metadataMutable',
  tier: 'Medium Risk',
  describe: {
    present: 'The update authority can change the token’s name, symbol and image (it could impersonate another token).',
    absent: 'The token’s name, symbol and image cannot be changed.',
    undetermined: 'Whether the token’s metadata can be changed could not be determined.',
  },
  method: 'the Metaplex metadata account (is_mutable) and the TokenMetadata / MetadataPointer extensions',
  run: ({ metaplex, embeddedMetadata, mint }) => {
    const reasons: string[] = []
    if (metaplex.ok && metaplex.value.metadata?.isMutable) reasons.push(`Metaplex metadata is mutable by ${metaplex.value.metadata.updateAuthority}`)
    if (embeddedMetadata?.updateAuthority) reasons.push(`embedded metadata update authority ${embeddedMetadata.updateAuthority}`)
    const pointerAuthority = mint.extensions.metadataPointer?.authority
    if (pointerAuthority) reasons.push(`metadata pointer authority ${pointerAuthority}`)
    if (reasons.length > 0) return present(reasons.join('; '), 'metadata')
    if (!metaplex.ok) return undetermined(metaplex.reason)
    const hasAny = metaplex.value.metadata || embeddedMetadata
    return absent(hasAny ? 'metadata is immutable' : 'the token has no metadata', 'metadata')
  },
})
