import { refusedHostname } from './ip-policy.ts'

/**
 * Content addresses as token metadata writes them (`https://…`, `ipfs://<cid>/<path>`,
 * `ar://<tx>/<path>`) turned into http(s) URLs through configured gateways.
 */

export interface ContentGateways {
  /** Base URL an IPFS CID is appended to, ending in "/" (e.g. https://ipfs.io/ipfs/). */
  ipfs: string
  /** Base URL an Arweave transaction id is appended to, ending in "/" (e.g. https://arweave.net/). */
  arweave: string
}

export const DEFAULT_IPFS_GATEWAY = 'https://ipfs.io/ipfs/'
export const DEFAULT_ARWEAVE_GATEWAY = 'https://arweave.net/'
export const DEFAULT_GATEWAYS: ContentGateways = { ipfs: DEFAULT_IPFS_GATEWAY, arweave: DEFAULT_ARWEAVE_GATEWAY }
/** Longest URI accepted (Metaplex allows 200 bytes on chain; JSON documents are not bounded). */
export const MAX_URI_LENGTH = 2048

/** CIDv0 (base58, "Qm…") and CIDv1 (base32/base36 and other multibase letters and digits). */
const CID = /^[A-Za-z0-9]{16,128}$/
/** Arweave transaction ids: 32 bytes, base64url. */
const ARWEAVE_TX = /^[A-Za-z0-9_-]{43}$/
/** A path segment of safe characters (no dot segments, checked separately). */
const SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]+$/

/** Why a URI cannot be turned into a URL; `reason` is safe to log. */
export class ContentUriError extends Error {
  override name = 'ContentUriError'
}

/**
 * The http(s) URL to read `uri` from: `https:` as is, `http:` only when `allowHttp`, `ipfs://` and
 * `ar://` through the gateways. Throws ContentUriError for any other scheme (`javascript:`,
 * `data:`, `file:`, relative references), URLs carrying credentials, and malformed addresses.
 *
 * @example
 * contentUrl('ipfs://bafkreia…/logo.png', { gateways: DEFAULT_GATEWAYS, allowHttp: false }).href
 * // 'https://ipfs.io/ipfs/bafkreia…/logo.png'
 */
export function contentUrl(uri: string, options: { gateways: ContentGateways; allowHttp: boolean }): URL {
  const text = uri.trim()
  if (text.length === 0) throw new ContentUriError('the URI is empty')
  if (text.length > MAX_URI_LENGTH) throw new ContentUriError(`the URI is longer than ${MAX_URI_LENGTH} characters`)
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f\\]/.test(text)) throw new ContentUriError('the URI contains blanks, control characters or backslashes')
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase()
  if (scheme === 'ipfs') return gatewayUrl(options.gateways.ipfs, text.slice('ipfs:'.length), CID, 'IPFS CID', true)
  if (scheme === 'ar') return gatewayUrl(options.gateways.arweave, text.slice('ar:'.length), ARWEAVE_TX, 'Arweave transaction id', false)
  if (scheme !== 'https' && !(scheme === 'http' && options.allowHttp)) {
    throw new ContentUriError(scheme ? `the ${scheme}: scheme is not fetched` : 'the URI is not absolute')
  }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ContentUriError('the URI is not a valid URL')
  }
  if (url.username || url.password) throw new ContentUriError('the URI carries credentials')
  url.hash = ''
  return url
}

/**
 * A link that is safe to hand to a client: an `https:` URL whose host is not an IP address of a
 * private network nor a local or reserved name, or the gateway URL of an `ipfs://`/`ar://` URI;
 * "" for anything else (`javascript:`, `data:`, `http:`, relative, malformed).
 *
 * @example
 * publicLink('javascript:alert(1)', DEFAULT_GATEWAYS) // ''
 * publicLink('ar://<43 chars>', DEFAULT_GATEWAYS) // 'https://arweave.net/<43 chars>'
 */
export function publicLink(uri: unknown, gateways: ContentGateways): string {
  if (typeof uri !== 'string') return ''
  let url: URL
  try {
    url = contentUrl(uri, { gateways, allowHttp: false })
  } catch {
    return ''
  }
  const viaGateway = /^(ipfs|ar):/i.test(uri.trim())
  if (viaGateway) return url.href
  if (url.protocol !== 'https:' || refusedHostname(url.hostname)) return ''
  return url.href
}

function gatewayUrl(base: string, rest: string, id: RegExp, what: string, allowIpfsPrefix: boolean): URL {
  let path = rest.replace(/^\/\//, '')
  // "ipfs://ipfs/<cid>" is a common misspelling of "ipfs://<cid>".
  if (allowIpfsPrefix) path = path.replace(/^ipfs\//, '')
  path = path.replace(/#.*$/, '')
  if (path.includes('?')) throw new ContentUriError(`the ${what} URI has a query`)
  const segments = path.split('/')
  const [first, ...more] = segments
  if (!id.test(first)) throw new ContentUriError(`the URI does not start with a valid ${what}`)
  if (more.length > 0 && more[more.length - 1] === '') more.pop()
  for (const segment of more) {
    if (!SEGMENT.test(segment) || /^(\.|%2e){1,2}$/i.test(segment)) throw new ContentUriError(`the ${what} URI has an unsafe path`)
  }
  return new URL([first, ...more].join('/'), base.endsWith('/') ? base : `${base}/`)
}
