import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { DEFAULT_GATEWAYS, type ContentGateways } from '../net/content-uri.ts'
import {
  SOLANA_TOKEN_LIST_CHAIN_IDS,
  findListed,
  findSameName,
  indexByName,
  indexTokenList,
  listedFacts,
  mergeMetadata,
  parseTokenList,
  type MetadataProvider,
  type TokenList,
  type TokenListToken,
  type WellKnownToken,
} from './providers.ts'

/**
 * The token lists tokenrisk ships (npm dependencies, exact versions in package.json): what clients
 * display for well-known tokens (image, categories, links, social names, CoinGecko id) with no
 * setting and no network. Each list is read and indexed once, on the first lookup of a chain it
 * covers: a service that never reports a Solana token never loads the Solana registry.
 */
export interface BundledTokenList {
  name: string
  /** The list's JSON file, as a module specifier of its package. */
  file: string
  /** Which lookups it answers. */
  covers: 'evm' | 'solana'
}

export const BUNDLED_TOKEN_LISTS: readonly BundledTokenList[] = [
  { name: 'Uniswap default token list', file: '@uniswap/default-token-list/build/uniswap-default.tokenlist.json', covers: 'evm' },
  { name: 'Solana token registry', file: '@solana/spl-token-registry/dist/main/tokens/solana.tokenlist.json', covers: 'solana' },
]

const SOLANA_CHAIN_IDS: ReadonlySet<number> = new Set(Object.values(SOLANA_TOKEN_LIST_CHAIN_IDS))
/** Extensions the report reads; the rest of an entry (descriptions, market ids, bridges) is dropped when indexed. */
const KEPT_EXTENSIONS = ['website', 'twitter', 'telegram', 'discord', 'reddit', 'facebook', 'github', 'repository', 'forum', 'coingeckoId'] as const

/** An entry reduced to what the report reads, so that the index holds little more than that. */
function slim(t: TokenListToken): TokenListToken {
  const ext = t.extensions
  let kept: Record<string, unknown> | undefined
  if (ext) {
    for (const key of KEPT_EXTENSIONS) {
      if (ext[key] !== undefined) (kept ??= {})[key] = ext[key]
    }
  }
  return { chainId: t.chainId, address: t.address, symbol: t.symbol, name: t.name, logoURI: t.logoURI, tags: t.tags?.length ? t.tags : undefined, extensions: kept }
}

interface LoadedList {
  index: Map<string, TokenListToken>
  /** Well-known entries by symbol and name: those with a CoinGecko id (a registry also lists look-alikes of its own). */
  byName: Map<string, TokenListToken[]>
  tags: TokenList['tags']
}

/** Reads, checks and indexes one bundled list (slimmed entries only). */
export async function loadBundledList(list: BundledTokenList): Promise<LoadedList> {
  const path = createRequire(import.meta.url).resolve(list.file)
  const parsed = parseTokenList(await readFile(path, 'utf8'), list.name)
  const tokens = parsed.tokens.map(slim)
  return { index: indexTokenList({ ...parsed, tokens }), byName: indexByName(tokens, (t) => typeof t.extensions?.coingeckoId === 'string' && t.extensions.coingeckoId !== ''), tags: parsed.tags }
}

/**
 * The bundled lists as one metadata provider: EVM lookups go to the EVM list, Solana ones (chain
 * ids 101-103) to the Solana registry. A list that cannot be read gives nothing, and is tried
 * again on a later lookup.
 *
 * @example
 * const provider = createBundledTokenListProvider()
 * await provider.lookup(101, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', signal) // USDC: image, coingeckoId, website
 */
export function createBundledTokenListProvider(options: { lists?: readonly BundledTokenList[]; gateways?: ContentGateways } = {}): MetadataProvider {
  const lists = options.lists ?? BUNDLED_TOKEN_LISTS
  const gateways = options.gateways ?? DEFAULT_GATEWAYS
  const loading = new Map<BundledTokenList, Promise<LoadedList>>()
  const loaded = (list: BundledTokenList) => {
    let p = loading.get(list)
    if (!p) {
      p = loadBundledList(list)
      p.catch(() => loading.delete(list))
      loading.set(list, p)
    }
    return p
  }
  return {
    name: 'bundled token lists',
    async sameName(chainId, name, symbol) {
      const covers = SOLANA_CHAIN_IDS.has(chainId) ? 'solana' : 'evm'
      const found: WellKnownToken[] = []
      for (const list of lists.filter((l) => l.covers === covers)) found.push(...findSameName((await loaded(list)).byName, chainId, name, symbol, list.name))
      return found
    },
    async lookup(chainId, address) {
      const covers = SOLANA_CHAIN_IDS.has(chainId) ? 'solana' : 'evm'
      for (const list of lists.filter((l) => l.covers === covers)) {
        const { index, tags } = await loaded(list)
        const t = findListed(index, chainId, address)
        if (t) return listedFacts(t, tags, gateways)
      }
      return undefined
    },
  }
}

/**
 * Several providers as one, in order of precedence: every field is the first non-empty one (a
 * user's TOKEN_LIST before the bundled lists). A provider that fails is skipped.
 */
export function layeredProvider(providers: MetadataProvider[]): MetadataProvider {
  return {
    name: providers.map((p) => p.name).join(' + '),
    // Every list's well-known tokens: one that fails fails the search (an incomplete answer is no "none").
    async sameName(chainId, name, symbol, signal) {
      const answers = await Promise.all(providers.map((p) => (p.sameName ? p.sameName(chainId, name, symbol, signal) : Promise.resolve([]))))
      return answers.flat()
    },
    async lookup(chainId, address, signal) {
      const answers = await Promise.all(providers.map((p) => p.lookup(chainId, address, signal).catch(() => undefined)))
      if (answers.every((a) => a === undefined)) return undefined
      return mergeMetadata(answers, providers.map((p) => p.name))
    },
  }
}
