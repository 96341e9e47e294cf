import { readFile } from 'node:fs/promises'
import { getAddress, isAddress } from 'viem/utils'
import type { Address } from 'viem'
import { DEFAULT_GATEWAYS, publicLink, type ContentGateways } from '../net/content-uri.ts'

/**
 * Metadata providers: what a chain cannot say about a token (image, categories, social links,
 * centralised exchanges). A token list in the Token Lists JSON format (file or URL) and, when a key
 * is configured, a CoinGecko-compatible market-data API. A provider that fails or is slow gives
 * nothing; it never fails a report.
 */
export interface MetadataProvider {
  name: string
  /** `address` is an EVM address, or a Solana mint (base58) under a Solana chain id. */
  lookup(chainId: number, address: string, signal: AbortSignal): Promise<Partial<MetadataFacts> | undefined>
  /**
   * The well-known tokens of a chain whose symbol or name is `symbol` or `name` (compared without
   * case or surrounding spaces): what a look-alike imitates. Absent when the provider keeps no
   * names.
   */
  sameName?(chainId: number, name: string, symbol: string, signal: AbortSignal): Promise<WellKnownToken[]>
}

/** A token a list names as well known: its address, symbol and name, and which list says so. */
export interface WellKnownToken {
  address: string
  symbol: string
  name: string
  source: string
}

/** How names and symbols are compared: without case, surrounding or repeated spaces. */
export const nameKey = (s: string | undefined): string => (s ?? '').trim().replace(/\s+/g, ' ').toLowerCase()

/** An index of a list's tokens by chain and by symbol or name, for look-alike searches. */
export function indexByName(tokens: readonly TokenListToken[], keep: (t: TokenListToken) => boolean = () => true): Map<string, TokenListToken[]> {
  const index = new Map<string, TokenListToken[]>()
  const add = (key: string, t: TokenListToken) => {
    if (!key.endsWith(':')) index.set(key, [...(index.get(key) ?? []), t])
  }
  for (const t of tokens) {
    if (!keep(t)) continue
    add(`${t.chainId}:${nameKey(t.symbol)}`, t)
    if (nameKey(t.name) !== nameKey(t.symbol)) add(`${t.chainId}:${nameKey(t.name)}`, t)
  }
  return index
}

/** The tokens of an index sharing `name` or `symbol` on `chainId`, each once. */
export function findSameName(index: ReadonlyMap<string, TokenListToken[]>, chainId: number, name: string, symbol: string, source: string): WellKnownToken[] {
  const found = new Map<string, WellKnownToken>()
  for (const key of new Set([nameKey(symbol), nameKey(name)])) {
    if (!key) continue
    for (const t of index.get(`${chainId}:${key}`) ?? []) found.set(t.address, { address: t.address, symbol: t.symbol ?? '', name: t.name ?? '', source })
  }
  return [...found.values()]
}

/** What providers tell about a token beyond the chain: image, categories, links, social figures. */
export interface MetadataFacts {
  imageUrl: string
  categories: string[]
  codeHostLinks: string[]
  microblog: { name: string; followers: string }
  socialNetwork: { name: string; likes: string }
  messenger: { name: string; users: string }
  forum: { url: string; subscribers: string }
  marketAggregatorLink: string
  /** CoinGecko id (from a token list's `coingeckoId`, or the market-data API's id); "" when unknown. */
  coinGeckoId: string
  /** Project website (http(s) link); "" when unknown. */
  website: string
  /** Discord invite link; "" when unknown. */
  discord: string
  /** Subreddit link; "" when unknown. */
  reddit: string
  centralisedExchanges: { name: string; link: string }[]
  sources: string[]
}

/** Chain ids Token Lists give Solana clusters: mainnet-beta, testnet, devnet. */
export const SOLANA_TOKEN_LIST_CHAIN_IDS = { 'mainnet-beta': 101, testnet: 102, devnet: 103 } as const
const SOLANA_CHAIN_IDS: ReadonlySet<number> = new Set(Object.values(SOLANA_TOKEN_LIST_CHAIN_IDS))
const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/** Index key of a listed token: EVM addresses case-insensitive, Solana mints (base58) exact. */
function listKey(chainId: number, address: string): string | undefined {
  if (SOLANA_CHAIN_IDS.has(chainId)) return BASE58_ADDRESS.test(address) ? `${chainId}:${address}` : undefined
  return isAddress(address, { strict: false }) ? `${chainId}:${address.toLowerCase()}` : undefined
}

/** Longest a provider may take for one token before the report goes on without it. */
export const METADATA_TIMEOUT_MS = 2_500
/** How long a token list is reused before it is read again. */
export const TOKEN_LIST_REFRESH_MS = 10 * 60_000

export function emptyMetadata(): MetadataFacts {
  return {
    imageUrl: '',
    categories: [],
    codeHostLinks: [],
    microblog: { name: '', followers: '' },
    socialNetwork: { name: '', likes: '' },
    messenger: { name: '', users: '' },
    forum: { url: '', subscribers: '' },
    marketAggregatorLink: '',
    coinGeckoId: '',
    website: '',
    discord: '',
    reddit: '',
    centralisedExchanges: [],
    sources: [],
  }
}

export interface TokenListToken {
  chainId: number
  address: string
  symbol?: string
  name?: string
  logoURI?: string
  tags?: string[]
  extensions?: Record<string, unknown>
}

export interface TokenList {
  name?: string
  tokens: TokenListToken[]
  tags?: Record<string, { name?: string }>
}

/** An http(s) link as given, an `ipfs://`/`ar://` one through the gateways, else "". */
function httpUrl(u: unknown, gateways: ContentGateways = DEFAULT_GATEWAYS): string {
  if (typeof u !== 'string') return ''
  if (/^(ipfs|ar):/i.test(u.trim())) return publicLink(u, gateways)
  return /^https?:\/\/\S+$/.test(u) ? u : ''
}

function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v]
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string')
  return []
}

export function parseTokenList(text: string, source: string): TokenList {
  const json = JSON.parse(text) as unknown
  if (typeof json !== 'object' || json === null || !Array.isArray((json as TokenList).tokens)) {
    throw new Error(`${source} is not a token list (no "tokens" array)`)
  }
  return json as TokenList
}

/**
 * A token list (Token Lists format) read from a file path or an http(s) URL, reloaded every
 * `refreshMs`. Image from `logoURI`, categories from `tags` (named through the list's `tags`),
 * links from common `extensions` (website, twitter, telegram, github, coingeckoId, ...). Solana
 * mints are found under chain ids 101 (mainnet-beta), 102 (testnet) and 103 (devnet).
 *
 * @example
 * const provider = createTokenListProvider('./tokens.json')
 */
export function createTokenListProvider(
  source: string,
  options: { fetch?: typeof fetch; refreshMs?: number; gateways?: ContentGateways } = {},
): MetadataProvider {
  const doFetch = options.fetch ?? fetch
  const gateways = options.gateways ?? DEFAULT_GATEWAYS
  const refreshMs = options.refreshMs ?? TOKEN_LIST_REFRESH_MS
  let loaded: { at: number; index: Map<string, TokenListToken>; byName: Map<string, TokenListToken[]>; list: TokenList } | undefined
  let loading: Promise<void> | undefined
  const load = async (signal: AbortSignal) => {
    const text = /^https?:\/\//.test(source)
      ? await (async () => {
          const r = await doFetch(source, { signal })
          if (!r.ok) throw new Error(`${source} answered HTTP ${r.status}`)
          return r.text()
        })()
      : await readFile(source, 'utf8')
    const list = parseTokenList(text, source)
    loaded = { at: Date.now(), index: indexTokenList(list), byName: indexByName(list.tokens), list }
  }
  const fresh = async (signal: AbortSignal) => {
    if (!loaded || Date.now() - loaded.at > refreshMs) {
      loading ??= load(signal).finally(() => {
        loading = undefined
      })
      await loading
    }
  }
  return {
    name: `token list ${source}`,
    // The operator's list: every token it names is well known.
    async sameName(chainId, name, symbol, signal) {
      await fresh(signal)
      return loaded ? findSameName(loaded.byName, chainId, name, symbol, `token list ${source}`) : []
    },
    async lookup(chainId, address, signal) {
      await fresh(signal)
      const key = listKey(chainId, address)
      const t = key ? loaded?.index.get(key) : undefined
      if (!t || !loaded) return undefined
      return listedFacts(t, loaded.list.tags, gateways)
    },
  }
}

/** A list's tokens by chain and address (EVM addresses case-insensitive, Solana mints exact). */
export function indexTokenList(list: TokenList): Map<string, TokenListToken> {
  const index = new Map<string, TokenListToken>()
  for (const t of list.tokens) {
    const key = typeof t?.chainId === 'number' && typeof t.address === 'string' ? listKey(t.chainId, t.address) : undefined
    if (key) index.set(key, t)
  }
  return index
}

/** The entry of `address` on `chainId` in an index made by `indexTokenList`. */
export function findListed<T>(index: ReadonlyMap<string, T>, chainId: number, address: string): T | undefined {
  const key = listKey(chainId, address)
  return key ? index.get(key) : undefined
}

/** The CoinGecko page of an id; "" when the id is not one (lowercase words and dashes). */
export function coinGeckoLink(id: string): string {
  return id && /^[a-z0-9-]+$/.test(id) ? `https://www.coingecko.com/en/coins/${id}` : ''
}

/**
 * What one token-list entry tells: image from `logoURI`, categories from `tags` (named through the
 * list's `tags`), links from the common `extensions` (website, twitter, telegram, discord, reddit,
 * facebook, github, coingeckoId).
 */
export function listedFacts(t: TokenListToken, tags: TokenList['tags'], gateways: ContentGateways = DEFAULT_GATEWAYS): Partial<MetadataFacts> {
  const ext = t.extensions ?? {}
  const tagNames = (t.tags ?? []).map((tag) => tags?.[tag]?.name ?? tag)
  const twitter = strings(ext.twitter)[0] ?? ''
  const telegram = strings(ext.telegram)[0] ?? ''
  const facebook = strings(ext.facebook)[0] ?? ''
  const out: Partial<MetadataFacts> = {
    imageUrl: httpUrl(t.logoURI, gateways),
    categories: tagNames,
    codeHostLinks: [...strings(ext.github), ...strings(ext.repository), ...strings(ext.codeHostLinks)].map((u) => httpUrl(u, gateways)).filter(Boolean),
  }
  if (twitter) out.microblog = { name: twitter, followers: '' }
  if (telegram) out.messenger = { name: telegram, users: '' }
  if (facebook) out.socialNetwork = { name: facebook, likes: '' }
  const forum = httpUrl(strings(ext.forum)[0] ?? strings(ext.reddit)[0] ?? strings(ext.discord)[0], gateways)
  if (forum) out.forum = { url: forum, subscribers: '' }
  const website = httpUrl(strings(ext.website)[0], gateways)
  if (website) out.website = website
  const discord = httpUrl(strings(ext.discord)[0], gateways)
  if (discord) out.discord = discord
  const reddit = httpUrl(strings(ext.reddit)[0], gateways)
  if (reddit) out.reddit = reddit
  const cg = strings(ext.coingeckoId)[0] ?? ''
  if (coinGeckoLink(cg)) {
    out.coinGeckoId = cg
    out.marketAggregatorLink = coinGeckoLink(cg)
  }
  return out
}

/** Asset platforms of the market-data API, by chain id. */
export const MARKET_DATA_PLATFORMS: Record<number, string> = {
  1: 'ethereum',
  56: 'binance-smart-chain',
  137: 'polygon-pos',
  42161: 'arbitrum-one',
  8453: 'base',
}
export const DEFAULT_MARKET_DATA_URL = 'https://pro-api.coingecko.com/api/v3'

/** Market names that are decentralised exchanges (left out of `centralisedExchanges`). */
const DEX_NAME = /swap|uniswap|sushi|pancake|curve|balancer|dex|aerodrome|velodrome|camelot|trader joe|1inch|0x protocol/i

interface CoinResponse {
  id?: string
  image?: { large?: string; small?: string }
  categories?: (string | null)[]
  links?: {
    repos_url?: { github?: string[] }
    twitter_screen_name?: string
    facebook_username?: string
    telegram_channel_identifier?: string
    subreddit_url?: string
  }
  community_data?: {
    twitter_followers?: number | null
    facebook_likes?: number | null
    telegram_channel_user_count?: number | null
    reddit_subscribers?: number | null
  }
  tickers?: { market?: { name?: string; identifier?: string }; trade_url?: string | null }[]
}

const num = (n: number | null | undefined) => (typeof n === 'number' && Number.isFinite(n) ? String(n) : '')

/**
 * A CoinGecko-compatible market-data API (`GET {baseUrl}/coins/{platform}/contract/{address}`),
 * used only when a key is configured: image, categories, social figures, centralised exchanges.
 */
export function createMarketDataProvider(options: { apiKey: string; baseUrl?: string; fetch?: typeof fetch }): MetadataProvider {
  const doFetch = options.fetch ?? fetch
  const base = (options.baseUrl ?? DEFAULT_MARKET_DATA_URL).replace(/\/+$/, '')
  return {
    name: `market data ${new URL(base).host}`,
    async lookup(chainId, address, signal) {
      const platform = MARKET_DATA_PLATFORMS[chainId]
      if (!platform) return undefined
      const url = `${base}/coins/${platform}/contract/${address.toLowerCase()}`
      const r = await doFetch(url, { signal, headers: { accept: 'application/json', 'x-cg-pro-api-key': options.apiKey } })
      if (r.status === 404) return undefined
      if (!r.ok) throw new Error(`market data answered HTTP ${r.status}`)
      const c = (await r.json()) as CoinResponse
      const links = c.links ?? {}
      const community = c.community_data ?? {}
      const cex = new Map<string, string>()
      for (const t of c.tickers ?? []) {
        const name = t.market?.name
        if (!name || DEX_NAME.test(name) || cex.has(name)) continue
        cex.set(name, httpUrl(t.trade_url))
      }
      return {
        imageUrl: httpUrl(c.image?.large ?? c.image?.small),
        categories: (c.categories ?? []).filter((x): x is string => typeof x === 'string' && x !== ''),
        codeHostLinks: (links.repos_url?.github ?? []).map((u) => httpUrl(u)).filter(Boolean),
        microblog: { name: links.twitter_screen_name ?? '', followers: num(community.twitter_followers) },
        socialNetwork: { name: links.facebook_username ?? '', likes: num(community.facebook_likes) },
        messenger: { name: links.telegram_channel_identifier ?? '', users: num(community.telegram_channel_user_count) },
        forum: { url: httpUrl(links.subreddit_url), subscribers: num(community.reddit_subscribers) },
        marketAggregatorLink: coinGeckoLink(c.id ?? ''),
        coinGeckoId: c.id ?? '',
        reddit: httpUrl(links.subreddit_url),
        centralisedExchanges: [...cex.entries()].map(([name, link]) => ({ name, link })),
      }
    },
  }
}

/** Asks every provider (in order of precedence) and merges what they know; the first non-empty value wins. */
export async function collectMetadata(
  providers: MetadataProvider[],
  chainId: number,
  address: Address,
  signal: AbortSignal,
  onError?: (provider: string, error: unknown) => void,
): Promise<MetadataFacts> {
  if (providers.length === 0) return emptyMetadata()
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(METADATA_TIMEOUT_MS)])
  const answers = await Promise.all(
    providers.map((p) =>
      p.lookup(chainId, getAddress(address), timeout).catch((error: unknown) => {
        onError?.(p.name, error)
        return undefined
      }),
    ),
  )
  return mergeMetadata(answers, providers.map((p) => p.name))
}

/** Merges answers in order of precedence: the first non-empty value of each field wins. */
export function mergeMetadata(answers: readonly (Partial<MetadataFacts> | undefined)[], names: readonly string[]): MetadataFacts {
  const out = emptyMetadata()
  answers.forEach((a, i) => {
    if (!a) return
    out.sources.push(names[i])
    if (!out.imageUrl && a.imageUrl) out.imageUrl = a.imageUrl
    if (out.categories.length === 0 && a.categories?.length) out.categories = a.categories
    if (out.codeHostLinks.length === 0 && a.codeHostLinks?.length) out.codeHostLinks = a.codeHostLinks
    if (!out.microblog.name && a.microblog?.name) out.microblog = a.microblog
    if (!out.socialNetwork.name && a.socialNetwork?.name) out.socialNetwork = a.socialNetwork
    if (!out.messenger.name && a.messenger?.name) out.messenger = a.messenger
    if (!out.forum.url && a.forum?.url) out.forum = a.forum
    if (!out.marketAggregatorLink && a.marketAggregatorLink) out.marketAggregatorLink = a.marketAggregatorLink
    if (!out.coinGeckoId && a.coinGeckoId) out.coinGeckoId = a.coinGeckoId
    if (!out.website && a.website) out.website = a.website
    if (!out.discord && a.discord) out.discord = a.discord
    if (!out.reddit && a.reddit) out.reddit = a.reddit
    if (out.centralisedExchanges.length === 0 && a.centralisedExchanges?.length) out.centralisedExchanges = a.centralisedExchanges
  })
  return out
}
