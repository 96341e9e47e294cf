import { SOLANA_TOKEN_LIST_CHAIN_IDS, type MetadataProvider } from '../../../metadata/providers.ts'
import { handleOrLink, httpsLink } from '../decode/offchain-metadata.ts'
import type { ClusterName, ListedMetadata } from './facts.ts'

/**
 * What the configured token list says about `mint` on `cluster` (Token Lists use chain id 101 for
 * mainnet-beta, 102 testnet, 103 devnet); null when the list does not name it, or the cluster is
 * not a public one (a private cluster's mints are not the listed ones). Links are kept only when
 * safe to hand out, the image only as an https link.
 */
export async function readListedMetadata(provider: MetadataProvider, cluster: ClusterName, mint: string, signal: AbortSignal): Promise<ListedMetadata | null> {
  if (cluster === 'unknown') return null
  const found = await provider.lookup(SOLANA_TOKEN_LIST_CHAIN_IDS[cluster], mint, signal)
  if (!found) return null
  return {
    imageUrl: httpsLink(found.imageUrl),
    categories: (found.categories ?? []).filter((c) => typeof c === 'string' && c !== ''),
    codeHostLinks: (found.codeHostLinks ?? []).map(httpsLink).filter(Boolean),
    microblog: handleOrLink(found.microblog?.name),
    messenger: handleOrLink(found.messenger?.name),
    socialNetwork: handleOrLink(found.socialNetwork?.name),
    forum: httpsLink(found.forum?.url),
    website: httpsLink(found.website),
    discord: httpsLink(found.discord),
    reddit: httpsLink(found.reddit),
    coinGeckoId: found.coinGeckoId && /^[a-z0-9-]+$/.test(found.coinGeckoId) ? found.coinGeckoId : '',
    marketAggregatorLink: httpsLink(found.marketAggregatorLink),
  }
}
