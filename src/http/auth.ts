import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AuthError, RateLimitedError } from '../errors.ts'
import type { ApiKeyRepository, Principal } from '../store/repositories/api-keys.ts'
import { pageClient, type PageSessions } from '../web/session.ts'
import type { RateLimiter } from './rate-limit.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller on routes with `config.auth`; absent on a page session's call. */
    principal?: Principal
  }
  interface FastifyContextConfig {
    /** Require an API key (`x-api-key`, or `Authorization: Bearer <key>`) on this route. */
    auth?: boolean
    /** Refusals of this route are JSON-RPC errors (`/mcp`): the one error shape is their `error.data`. */
    jsonRpcErrors?: boolean
    /** A page (`/reports/<id>`): a browser asking for HTML gets its errors as an HTML page with a way back. */
    htmlErrors?: boolean
    /**
     * The route counts the calls a request carries against the key's rate limit and usage itself
     * (`/mcp`: each tool call), rather than the request: the key is still required first.
     */
    meteredPerCall?: boolean
    /** The token pages read this route: with open pages, a page session admits it without a key. */
    page?: boolean
  }
}

export const API_KEY_HEADER = 'x-api-key'
/** The scheme of the `Authorization` header that carries an API key too (what agents' hosts send). */
const BEARER = /^Bearer[ \t]+(\S+)\s*$/i

/** The API key a request carries: its `x-api-key`, else the token of `Authorization: Bearer <key>`. */
export function requestKey(headers: FastifyRequest['headers']): string | undefined {
  const header = headers[API_KEY_HEADER]
  const key = Array.isArray(header) ? header[0] : header
  if (key) return key
  const authorization = headers.authorization
  return typeof authorization === 'string' ? BEARER.exec(authorization)?.[1] : undefined
}
/** Seconds of the window open pages' per-address limit and their budget of cold reports count in. */
const PAGE_RATE_WINDOW_SECONDS = 60
/** The rate limiter's key of the open pages' budget of cold reports: one for every visitor, whatever their address. */
const PAGE_COLD_BUDGET_KEY = 'page-cold-reports'

/** Open pages (`PUBLIC_PAGES=on`): the sessions their HTML starts, and each client address's limit. */
export interface OpenPages {
  sessions: PageSessions
  /** Requests per minute per client address (0: none). */
  ratePerMinute: number
  /** Cold reports a minute all anonymous visitors together may start (0: none; they read what is cached). */
  coldPerMinute: number
}

/**
 * The open pages' budget of cold reports (`OpenPages.coldPerMinute`), counted by `rateLimiter`
 * (across instances when it is on Redis): takes one report from it, or throws a 429 saying that
 * reports already made are still served and when to come back.
 */
export function anonymousColdBudget(rateLimiter: RateLimiter, coldPerMinute: number): () => Promise<void> {
  return async () => {
    const wait = coldPerMinute > 0 ? await rateLimiter.take(PAGE_COLD_BUDGET_KEY, coldPerMinute, PAGE_RATE_WINDOW_SECONDS) : PAGE_RATE_WINDOW_SECONDS
    if (wait > 0) {
      throw new RateLimitedError(wait, {
        message: `the open pages' budget of new reports is spent for now (reports already made are still served); come back in ${wait} s, or use an API key`,
      })
    }
  }
}

/**
 * Requires a valid, unrevoked API key on routes marked `config: { auth: true }`, then applies the
 * key's rate limit (its own, or the service default; 0 = none). With open pages, a request without
 * a key to a route marked `page` is let through on a page session instead, at its client address's
 * own rate limit. Runs before validation, so an unauthenticated caller learns nothing about the
 * parameters.
 */
export function registerAuth(
  app: FastifyInstance,
  deps: { keys: ApiKeyRepository; rateLimiter: RateLimiter; defaultRateLimitRps: number; pages?: OpenPages },
) {
  app.decorateRequest('principal', undefined)
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const config = request.routeOptions.config
    if (!config?.auth) return
    const key = requestKey(request.headers)
    if (!key && deps.pages && config.page && deps.pages.sessions.valid(request.headers.cookie, pageClient(request))) {
      const limit = deps.pages.ratePerMinute
      if (limit > 0) {
        const wait = await deps.rateLimiter.take(`page:${request.ip}`, limit, PAGE_RATE_WINDOW_SECONDS)
        if (wait > 0) throw new RateLimitedError(wait)
      }
      return
    }
    if (!key) throw new AuthError(`missing API key: send it in the ${API_KEY_HEADER} header (or as Authorization: Bearer <key>)`)
    const principal = await deps.keys.verify(key)
    if (!principal) throw new AuthError('invalid or revoked API key')
    request.principal = principal
    if (!request.routeOptions.config.meteredPerCall) await takeRateLimit(deps, principal)
  })
}

/**
 * Counts one request of `principal` against its rate limit (its own, or the service default;
 * 0 = none); throws a `RateLimitedError` past it.
 */
export async function takeRateLimit(deps: { rateLimiter: RateLimiter; defaultRateLimitRps: number }, principal: Principal): Promise<void> {
  const limit = principal.rateLimitRps ?? deps.defaultRateLimitRps
  if (limit <= 0) return
  const wait = await deps.rateLimiter.take(principal.keyId, limit)
  if (wait > 0) throw new RateLimitedError(wait)
}
