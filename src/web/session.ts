import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * Page sessions of open pages (`PUBLIC_PAGES=on`). A page served without an API key still calls
 * the JSON API; what lets it is a cookie the page's HTML sets: signed by the service (HMAC-SHA256)
 * over its start and what the visitor presented (the client address and the `User-Agent`), so
 * that it works only from there, valid for ten minutes, `HttpOnly` (no script reads it, so none
 * can leak it) and `SameSite=Strict` (another site's page cannot make a visitor's browser send it),
 * scoped to the API's path. The cookie admits only the routes the page reads (token reports in
 * the contract's shape, the chain list), each client address at its own rate limit, and the cold
 * reports all open pages start draw on one budget; a caller without a key or a page's cookie is
 * refused as before. It authorises no one: it only says "this call comes from a page this service
 * served this visitor lately", so that the open pages do not open the JSON API itself.
 */

/** The cookie's name. */
export const PAGE_SESSION_COOKIE = 'tokenrisk_page'
/**
 * How long a page session lasts; every page load starts a new one. A page reads its report at
 * once; a cookie copied out of a browser is worth minutes, not an hour.
 */
export const PAGE_SESSION_TTL_SECONDS = 600
/** Bytes of a random signing key, when none is configured. */
const RANDOM_SECRET_BYTES = 32
/** Clock difference between instances tolerated on a session's start time. */
const CLOCK_SKEW_SECONDS = 60
const VERSION = 'v2'
/** Characters of the `User-Agent` a session is bound to (the rest does not tell visitors apart). */
const MAX_AGENT_CHARS = 512

/** What a visitor presented: the session works only for the same. */
export interface PageClient {
  /** The client address the connection came from. */
  address: string
  /** Its `User-Agent` header ("" without one). */
  userAgent?: string
}

export interface PageSessions {
  /**
   * A fresh session: the `Set-Cookie` header value for a page answered at `nowMs`, sent back by
   * the browser to `path` only (the JSON API's, `/api/v1/`).
   */
  cookie(options: { secure: boolean; path: string; client: PageClient; nowMs?: number }): string
  /** Whether the request's `Cookie` header holds a valid, unexpired session started for `client`. */
  valid(cookieHeader: string | undefined, client: PageClient, nowMs?: number): boolean
}

/**
 * Page sessions signed with `secret` (`PUBLIC_PAGES_SECRET`), or with a random key of this process
 * when none is given: then only this process accepts its sessions.
 *
 * @example
 * const sessions = createPageSessions({ secret: config.publicPagesSecret })
 * reply.header('set-cookie', sessions.cookie({ secure: request.protocol === 'https', path: '/api/v1/' }))
 * sessions.valid(request.headers.cookie) // true on the page's API calls
 */
export function createPageSessions(options: { secret?: string } = {}): PageSessions {
  const key = options.secret ?? randomBytes(RANDOM_SECRET_BYTES).toString('base64')
  const sign = (issuedAt: number, client: PageClient) =>
    createHmac('sha256', key)
      .update(JSON.stringify([VERSION, issuedAt, client.address, (client.userAgent ?? '').slice(0, MAX_AGENT_CHARS)]))
      .digest('base64url')

  return {
    cookie({ secure, path, client, nowMs = Date.now() }) {
      const issuedAt = Math.floor(nowMs / 1000)
      const value = `${VERSION}.${issuedAt}.${sign(issuedAt, client)}`
      return [
        `${PAGE_SESSION_COOKIE}=${value}`,
        `Path=${path}`,
        `Max-Age=${PAGE_SESSION_TTL_SECONDS}`,
        'HttpOnly',
        'SameSite=Strict',
        ...(secure ? ['Secure'] : []),
      ].join('; ')
    },

    valid(cookieHeader, client, nowMs = Date.now()) {
      const value = cookieValue(cookieHeader, PAGE_SESSION_COOKIE)
      if (!value) return false
      const [version, issued, signature] = value.split('.')
      if (version !== VERSION || !/^\d{1,12}$/.test(issued ?? '') || !signature) return false
      const issuedAt = Number(issued)
      const now = Math.floor(nowMs / 1000)
      if (issuedAt > now + CLOCK_SKEW_SECONDS || now - issuedAt > PAGE_SESSION_TTL_SECONDS) return false
      const expected = Buffer.from(sign(issuedAt, client))
      const given = Buffer.from(signature)
      return given.length === expected.length && timingSafeEqual(given, expected)
    },
  }
}

/** The value of cookie `name` in a `Cookie` header (the first, when several carry the name). */
function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

/** What the visitor of `request` presented: its client address and `User-Agent`. */
export function pageClient(request: { ip: string; headers: { 'user-agent'?: string } }): PageClient {
  return { address: request.ip, userAgent: request.headers['user-agent'] ?? '' }
}
