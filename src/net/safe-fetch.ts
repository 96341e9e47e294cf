import { promises as dns } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { UpstreamError, type BaseErrorOptions } from '../errors.ts'
import { contentUrl, ContentUriError, DEFAULT_GATEWAYS, type ContentGateways } from './content-uri.ts'
import { refusedAddress, refusedHostname, type AddressPolicy } from './ip-policy.ts'

/** Largest body read; a bigger answer is refused (declared or while streaming). */
export const SAFE_FETCH_MAX_BYTES = 64 * 1024
/** Time budget of one fetch, redirects and DNS included. */
export const SAFE_FETCH_TIMEOUT_MS = 2_500
/** Redirects followed, each checked like the first request. */
export const SAFE_FETCH_MAX_REDIRECTS = 3
export const SAFE_FETCH_USER_AGENT = 'tokenrisk-metadata-fetcher/1'
/** Largest block of response headers accepted. */
const MAX_HEADER_BYTES = 16 * 1024
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/** What went wrong, for callers and tests; the message says it in words. */
export type SafeFetchFailure =
  | 'uri' // scheme not fetched, malformed, credentials
  | 'host' // a reserved, local or single-label name
  | 'address' // resolves to (or is) a refused address
  | 'dns' // the name does not resolve
  | 'redirect' // too many, or to a URL that is not followed
  | 'status' // not a 2xx answer
  | 'content-type' // not JSON (text/plain is tolerated)
  | 'encoding' // a compressed body although none was accepted
  | 'too-large'
  | 'not-json'
  | 'timeout'
  | 'aborted'
  | 'network'

/** A refused or failed fetch. Upstream in nature: the report goes on without the document. */
export class SafeFetchError extends UpstreamError {
  override name = 'SafeFetchError'
  constructor(
    readonly failure: SafeFetchFailure,
    message: string,
    options?: BaseErrorOptions,
  ) {
    super(message, options)
  }
}

/** Resolves a host name to every address it has (as `dns.lookup` with `all: true` does). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>

export interface SafeFetchOptions {
  timeoutMs: number
  maxBytes: number
  maxRedirects: number
  /** Follow `http:` URLs (and redirects to them); otherwise only `https:` and the gateways. */
  allowHttp: boolean
  /** Unsafe, tests only: loopback addresses and `localhost` may be reached. */
  allowLoopback: boolean
  gateways: ContentGateways
  userAgent: string
  /** The system resolver by default; tests answer their own. */
  resolve: Resolver
}

export interface SafeFetchResult {
  /** The URL that answered (after gateways and redirects). */
  url: string
  json: unknown
}

export interface SafeFetcher {
  readonly gateways: ContentGateways
  /**
   * Reads the JSON document at `uri`. Rejects with SafeFetchError (never anything else) when the
   * URI, a host, an address, a redirect, the answer or the time budget breaks a rule.
   */
  fetchJson(uri: string, options?: { signal?: AbortSignal }): Promise<SafeFetchResult>
}

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true })

/**
 * A fetcher for JSON documents at URLs someone else chose (a token's metadata uri), hardened
 * against server-side request forgery:
 * - `https:` only (`http:` when allowed), `ipfs://` and `ar://` through the configured gateways;
 *   no credentials in URLs, no cookies, a tokenrisk User-Agent;
 * - reserved, local and single-label host names refused before any DNS query; every address a
 *   name resolves to must be public (no private, loopback, link-local, CGNAT, multicast,
 *   unique-local or IPv4-mapped private address), and the connection goes to the address that
 *   was checked: the name is resolved once per connection, so a rebinding answer cannot slip in;
 * - at most `maxRedirects` redirects, followed by hand and checked like the first request;
 * - JSON (or text/plain) only, no compression, at most `maxBytes` read, `timeoutMs` in all.
 *
 * @example
 * const fetcher = createSafeFetcher({ timeoutMs: 2_000 })
 * const { json } = await fetcher.fetchJson('ipfs://bafkrei…', { signal })
 */
export function createSafeFetcher(options: Partial<SafeFetchOptions> = {}): SafeFetcher {
  const o: SafeFetchOptions = {
    timeoutMs: SAFE_FETCH_TIMEOUT_MS,
    maxBytes: SAFE_FETCH_MAX_BYTES,
    maxRedirects: SAFE_FETCH_MAX_REDIRECTS,
    allowHttp: false,
    allowLoopback: false,
    gateways: DEFAULT_GATEWAYS,
    userAgent: SAFE_FETCH_USER_AGENT,
    resolve: systemResolver,
    ...options,
  }
  const policy: AddressPolicy = { allowLoopback: o.allowLoopback }

  /** Resolves, refuses when any answer is not public, and hands the checked addresses to the socket. */
  const pinnedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    o.resolve(hostname).then(
      (addresses) => {
        for (const a of addresses) {
          const reason = refusedAddress(a.address, policy)
          if (reason) return callback(new SafeFetchError('address', `${hostname} resolves to a refused address (${reason})`), '', 0)
        }
        const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : undefined
        const usable = family ? addresses.filter((a) => a.family === family) : addresses
        if (usable.length === 0) return callback(new SafeFetchError('dns', `${hostname} has no address`), '', 0)
        if (lookupOptions.all) callback(null, usable)
        else callback(null, usable[0].address, usable[0].family)
      },
      (error: unknown) => callback(new SafeFetchError('dns', `${hostname} could not be resolved`, { cause: error }), '', 0),
    )
  }

  type Answer = { kind: 'redirect'; location: string } | { kind: 'body'; body: Buffer }

  function requestOnce(url: URL, signal: AbortSignal): Promise<Answer> {
    const hostReason = refusedHostname(url.hostname, policy)
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
    if (hostReason) return Promise.reject(new SafeFetchError(isIP(host) ? 'address' : 'host', `${url.host} is refused: ${hostReason}`))
    return new Promise<Answer>((resolve, reject) => {
      const request = (url.protocol === 'https:' ? https : http).request(
        {
          protocol: url.protocol,
          host,
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers: { 'user-agent': o.userAgent, accept: 'application/json, text/plain;q=0.5', 'accept-encoding': 'identity' },
          agent: false,
          lookup: pinnedLookup,
          signal,
          maxHeaderSize: MAX_HEADER_BYTES,
        },
        (response) => {
          const status = response.statusCode ?? 0
          const fail = (error: SafeFetchError) => {
            response.destroy()
            reject(error)
          }
          if (REDIRECT_STATUSES.has(status)) {
            const location = response.headers.location
            response.destroy()
            if (!location) reject(new SafeFetchError('redirect', `HTTP ${status} without a Location`))
            else resolve({ kind: 'redirect', location })
            return
          }
          if (status < 200 || status > 299) return fail(new SafeFetchError('status', `HTTP ${status}`))
          const type = (response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
          if (!isJsonType(type)) return fail(new SafeFetchError('content-type', `the answer is ${type || 'of no declared type'}, not JSON`))
          const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase()
          if (encoding !== '' && encoding !== 'identity') return fail(new SafeFetchError('encoding', `the answer is ${encoding}-encoded`))
          const declared = Number(response.headers['content-length'])
          if (Number.isFinite(declared) && declared > o.maxBytes) return fail(new SafeFetchError('too-large', `the answer of ${declared} bytes exceeds ${o.maxBytes} bytes`))
          const chunks: Buffer[] = []
          let total = 0
          response.on('data', (chunk: Buffer) => {
            total += chunk.length
            if (total > o.maxBytes) fail(new SafeFetchError('too-large', `the answer exceeds ${o.maxBytes} bytes`))
            else chunks.push(chunk)
          })
          response.on('end', () => resolve({ kind: 'body', body: Buffer.concat(chunks, total) }))
          response.on('error', reject)
          response.on('close', () => {
            if (!response.complete) reject(new SafeFetchError('network', 'the connection closed before the answer was complete'))
          })
        },
      )
      request.on('error', reject)
      request.end()
    })
  }

  return {
    gateways: o.gateways,
    async fetchJson(uri, { signal } = {}) {
      const timeout = AbortSignal.timeout(o.timeoutMs)
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout
      let url: URL
      try {
        url = contentUrl(uri, o)
      } catch (error) {
        if (error instanceof ContentUriError) throw new SafeFetchError('uri', error.message)
        throw error
      }
      for (let hop = 0; ; hop++) {
        let answer: Answer
        try {
          answer = await requestOnce(url, combined)
        } catch (error) {
          throw failureOf(error, { signal, timeout, timeoutMs: o.timeoutMs })
        }
        if (answer.kind === 'body') return { url: url.href, json: parseJson(answer.body) }
        if (hop >= o.maxRedirects) throw new SafeFetchError('redirect', `more than ${o.maxRedirects} redirects`)
        url = redirectTarget(answer.location, url, o.allowHttp)
      }
    },
  }
}

/** The URL a Location header points to, if it may be followed (same scheme rules as the first URL). */
function redirectTarget(location: string, from: URL, allowHttp: boolean): URL {
  let next: URL
  try {
    next = new URL(location, from)
  } catch {
    throw new SafeFetchError('redirect', 'a redirect to a malformed URL')
  }
  if (next.protocol !== 'https:' && !(next.protocol === 'http:' && allowHttp)) throw new SafeFetchError('redirect', `a redirect to a ${next.protocol} URL is not followed`)
  if (next.username || next.password) throw new SafeFetchError('redirect', 'a redirect to a URL with credentials is not followed')
  next.hash = ''
  return next
}

function isJsonType(type: string): boolean {
  return type === 'application/json' || type === 'text/json' || type === 'text/plain' || /^application\/[a-z0-9.-]+\+json$/.test(type)
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8').replace(/^\uFEFF/, ''))
  } catch {
    throw new SafeFetchError('not-json', 'the answer is not valid JSON')
  }
}

/** Every failure as a SafeFetchError; the time budget and the caller's signal take precedence. */
function failureOf(error: unknown, s: { signal: AbortSignal | undefined; timeout: AbortSignal; timeoutMs: number }): SafeFetchError {
  if (s.timeout.aborted) return new SafeFetchError('timeout', `no complete answer within ${s.timeoutMs} ms`)
  if (s.signal?.aborted) return new SafeFetchError('aborted', 'the fetch was cancelled')
  if (error instanceof SafeFetchError) return error
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new SafeFetchError('dns', 'the host name could not be resolved', { cause: error })
  const message = error instanceof Error ? error.message : String(error)
  return new SafeFetchError('network', `the request failed: ${message}`, { cause: error })
}
