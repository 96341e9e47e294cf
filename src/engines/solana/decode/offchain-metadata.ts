import { publicLink, type ContentGateways } from '../../../net/content-uri.ts'

/**
 * What a token's off-chain metadata JSON (the document at the on-chain `uri`) says that a report
 * shows. Every value is already safe to hand to a client: links are `https:` (or gateway links of
 * `ipfs://`/`ar://`), handles are plain words; anything else is "".
 */
export interface OffChainMetadata {
  imageUrl: string
  website: string
  /** Twitter/X: a handle or an https link. */
  microblog: string
  /** Telegram: a handle or an https link. */
  messenger: string
  /** Discord: an https link (an invite). */
  forum: string
  /** Facebook: a handle or an https link. */
  socialNetwork: string
  codeHostLinks: string[]
}

/** Longest text value taken from the document. */
const MAX_VALUE_LENGTH = 512
/** Source repositories kept. */
const MAX_CODE_HOST_LINKS = 5
/** A social handle as projects write it: "@name", "name", "name.xyz". */
const HANDLE = /^@?[A-Za-z0-9_.-]{1,64}$/

type Json = Record<string, unknown>
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Decodes the de-facto Metaplex fungible-token JSON (`name`, `symbol`, `description`, `image`,
 * `external_url`, `properties.files`) and the links projects commonly publish beside it — in
 * `extensions`, `properties`, `links` or at the top level (`website`, `twitter`, `telegram`,
 * `discord`, `facebook`, `github`), looked up in that order. Throws when the document is not a
 * JSON object; a field of the wrong type or an unsafe link is left "".
 *
 * @example
 * decodeOffChainMetadata({ image: 'ipfs://bafkrei…', extensions: { twitter: '@tok' } }, gateways).microblog // '@tok'
 */
export function decodeOffChainMetadata(json: unknown, gateways: ContentGateways): OffChainMetadata {
  if (!isRecord(json)) throw new Error('the metadata document is not a JSON object')
  const properties = isRecord(json.properties) ? json.properties : {}
  const sources = [json.extensions, properties, properties.links, json.links, json].filter(isRecord)
  const values = (...keys: string[]): unknown[] => sources.flatMap((s) => keys.map((k) => s[k]))
  const first = <T>(candidates: unknown[], accept: (v: unknown) => T | ''): T | '' => {
    for (const c of candidates) {
      const v = accept(c)
      if (v !== '') return v
    }
    return ''
  }
  const files = Array.isArray(properties.files) ? properties.files.filter(isRecord) : []
  const imageFiles = files.filter((f) => typeof f.type === 'string' && f.type.toLowerCase().startsWith('image/')).map((f) => f.uri)

  return {
    imageUrl: first([json.image, ...imageFiles], (v) => link(v, gateways)),
    website: first(values('website', 'external_url', 'homepage'), httpsLink),
    microblog: first(values('twitter', 'x'), handleOrLink),
    messenger: first(values('telegram'), handleOrLink),
    forum: first(values('discord'), httpsLink),
    socialNetwork: first(values('facebook'), handleOrLink),
    codeHostLinks: [...new Set(values('github').flatMap((v) => (Array.isArray(v) ? v : [v])).map(httpsLink).filter(Boolean))].slice(0, MAX_CODE_HOST_LINKS),
  }
}

/** An https link or the gateway link of an ipfs:// / ar:// URI; "" otherwise. */
function link(v: unknown, gateways: ContentGateways): string {
  return typeof v === 'string' && v.length <= MAX_VALUE_LENGTH ? publicLink(v, gateways) : ''
}

/** An https link to a public host; "" for anything else (content addresses included). */
export function httpsLink(v: unknown): string {
  if (typeof v !== 'string' || v.length > MAX_VALUE_LENGTH || !/^https:/i.test(v.trim())) return ''
  return publicLink(v, { ipfs: '', arweave: '' })
}

/** A plain handle as written, or an https link; "" for anything else. */
export function handleOrLink(v: unknown): string {
  if (typeof v !== 'string') return ''
  const text = v.trim()
  return HANDLE.test(text) ? text : httpsLink(text)
}
