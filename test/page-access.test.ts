// How the token pages reach the JSON API, at the HTTP level: a page session opens the pages'
// own routes only, each client address at its own limit per minute (in memory and on Redis), is
// signed (a forged, expired or foreign session is refused), and is only handed out with
// PUBLIC_PAGES=on; the pages' assets are served compressed, named by their hash, cached for good.
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { loadConfig } from '../src/config/settings.ts'
import { createMetrics } from '../src/http/metrics.ts'
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from '../src/http/rate-limit.ts'
import { createPageSessions, PAGE_SESSION_COOKIE, PAGE_SESSION_TTL_SECONDS } from '../src/web/session.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { embeddedStore, redisUp, requireService, TEST_REDIS_URL, type TestStore } from './helpers/services.ts'

const RATE_PER_MINUTE = 3
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

/** The `name=value` part of a Set-Cookie header, as a browser sends it back. */
const cookieOf = (setCookie: string | string[] | undefined) => String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(';')[0]

/** Waits, when the current minute ends within `seconds`, for the next one: a test's requests then share one window. */
async function freshMinute(seconds = 10): Promise<void> {
  const left = 60 - (Math.floor(Date.now() / 1000) % 60)
  if (left < seconds) await new Promise((resolve) => setTimeout(resolve, left * 1000))
}

describe('page sessions', () => {
  const sessions = createPageSessions({ secret: 'a-secret-of-thirty-two-characters!!' })
  const now = Date.UTC(2026, 0, 1)
  const visitor = { address: '192.0.2.1', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' }

  it('are cookies no script reads and no other site sends, for the API only', () => {
    const cookie = sessions.cookie({ secure: true, path: '/api/v1/', client: visitor, nowMs: now })
    expect(cookie).toMatch(new RegExp(`^${PAGE_SESSION_COOKIE}=v2\\.\\d+\\.[\\w-]+; Path=/api/v1/; Max-Age=${PAGE_SESSION_TTL_SECONDS}; HttpOnly; SameSite=Strict; Secure$`))
    expect(sessions.cookie({ secure: false, path: '/x/api/v1/', client: visitor, nowMs: now })).not.toContain('Secure')
  })

  it('hold for ten minutes, signed: another key, a changed time or signature, or a later time is refused', () => {
    expect(PAGE_SESSION_TTL_SECONDS).toBe(600)
    const value = cookieOf(sessions.cookie({ secure: false, path: '/api/v1/', client: visitor, nowMs: now }))
    expect(sessions.valid(`other=1; ${value}`, visitor, now + 1000)).toBe(true)
    expect(sessions.valid(value, visitor, now + (PAGE_SESSION_TTL_SECONDS - 1) * 1000)).toBe(true)
    expect(sessions.valid(value, visitor, now + (PAGE_SESSION_TTL_SECONDS + 1) * 1000)).toBe(false)
    expect(createPageSessions({ secret: 'another-secret-of-thirty-two-chars!' }).valid(value, visitor, now)).toBe(false)
    expect(createPageSessions({ secret: 'a-secret-of-thirty-two-characters!!' }).valid(value, visitor, now)).toBe(true)
    const [name, rest] = value.split('=')
    const [version, issued, signature] = rest.split('.')
    expect(sessions.valid(`${name}=${version}.${Number(issued) + 1}.${signature}`, visitor, now)).toBe(false)
    const changed = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`
    expect(sessions.valid(`${name}=${version}.${issued}.${changed}`, visitor, now)).toBe(false)
    expect(sessions.valid(undefined, visitor, now)).toBe(false)
    // Without a configured key, each process signs with its own.
    expect(createPageSessions().valid(value, visitor, now)).toBe(false)
  })

  it('work only for what the visitor presented: another address or another User-Agent is refused', () => {
    const value = cookieOf(sessions.cookie({ secure: false, path: '/api/v1/', client: visitor, nowMs: now }))
    expect(sessions.valid(value, { ...visitor }, now)).toBe(true)
    expect(sessions.valid(value, { ...visitor, address: '198.51.100.7' }, now)).toBe(false)
    expect(sessions.valid(value, { ...visitor, userAgent: 'curl/8.5.0' }, now)).toBe(false)
    expect(sessions.valid(value, { address: visitor.address }, now)).toBe(false)
  })
})

describe('the token pages over HTTP', () => {
  let t: TestStore
  let open: TestApp
  let keyed: TestApp
  let key = ''

  beforeAll(async () => {
    t = await embeddedStore()
    const config = loadConfig({})
    // A real engine whose only chain has a node that is down: the chain list needs no node.
    const deps = { config, env: { RPC_URL_1: 'http://127.0.0.1:9' }, cache: createMemoryCache(), store: t.store, logger: silent, metrics: createMetrics({ defaultMetrics: false }) }
    const tokens = { evm: createEvmEngine(deps).service, solana: createSolanaEngine({ ...deps, rpcUrls: [] }) }
    open = await buildTestApp(t.store, { tokens, options: { pages: { open: true, ratePerMinute: RATE_PER_MINUTE, coldPerMinute: 20 } } })
    keyed = await buildTestApp(t.store, { tokens, options: { pages: { open: false, ratePerMinute: RATE_PER_MINUTE, coldPerMinute: 20 } } })
    key = (await open.keys.create({ userId: 'alice' })).key
  })

  afterAll(async () => {
    await open?.app.close()
    await keyed?.app.close()
    await t?.cleanup()
  })

  it('serves one shell for every page, with a policy that loads nothing from elsewhere and runs no inline script', async () => {
    for (const url of ['/', '/t/1/0x0000000000000000000000000000000000000001', '/t/solana/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v']) {
      const res = await keyed.app.inject(url)
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(res.headers['content-security-policy']).toContain("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'")
      expect(res.headers['content-security-policy']).not.toContain('unsafe-inline')
      expect(res.headers['set-cookie']).toBeUndefined()
      expect(res.body).toContain('data-access="key"')
    }
    // An address that is markup is text in the title.
    const hostile = await keyed.app.inject('/t/1/%3Cscript%3Ealert(1)%3C%2Fscript%3E')
    expect(hostile.body).toContain('<title>Token &lt;script&gt;alert(1)&lt;/script&gt; on chain 1 — tokenrisk</title>')
  })

  it('serves the script and style sheet by their hash, compressed once, kept for good', async () => {
    const shell = (await keyed.app.inject('/')).body
    const script = /src="\.\/(assets\/page\.[0-9a-f]{12}\.js)"/.exec(shell)?.[1]
    const style = /href="\.\/(assets\/page\.[0-9a-f]{12}\.css)"/.exec(shell)?.[1]
    expect(script && style).toBeTruthy()
    const plain = await keyed.app.inject(`/${script}`)
    const br = await keyed.app.inject({ url: `/${script}`, headers: { 'accept-encoding': 'gzip, deflate, br' } })
    const gzip = await keyed.app.inject({ url: `/${style}`, headers: { 'accept-encoding': 'gzip;q=1, br;q=0' } })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(br.headers['content-encoding']).toBe('br')
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2)
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(br.headers.vary).toBe('accept-encoding')
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect((await keyed.app.inject('/assets/page.000000000000.js')).statusCode).toBe(404)
  })

  it('without PUBLIC_PAGES, a page session opens nothing', async () => {
    const cookie = cookieOf((await open.app.inject('/')).headers['set-cookie'])
    expect((await keyed.app.inject({ url: '/api/v1/chains', headers: { cookie } })).statusCode).toBe(401)
  })

  it('with PUBLIC_PAGES=on, a page session opens the pages\' routes only, each address at its own limit per minute', async () => {
    const res = await open.app.inject('/t/1/0x0000000000000000000000000000000000000001')
    expect(res.body).toContain('data-access="open"')
    const cookie = cookieOf(res.headers['set-cookie'])
    expect(cookie.startsWith(`${PAGE_SESSION_COOKIE}=`)).toBe(true)
    // No key, no session, or a forged one: the JSON API is not open.
    expect((await open.app.inject('/api/v1/chains')).statusCode).toBe(401)
    expect((await open.app.inject({ url: '/api/v1/chains', headers: { cookie: `${PAGE_SESSION_COOKIE}=v2.${Math.floor(Date.now() / 1000)}.forged` } })).statusCode).toBe(401)
    // The session opens no route the pages do not read.
    expect((await open.app.inject({ url: '/api/v1/projects/audit/history?projectId=p&userId=alice', headers: { cookie } })).statusCode).toBe(401)
    expect((await open.app.inject({ url: '/api/v1/auth/user/plan/usage', headers: { cookie } })).statusCode).toBe(401)

    await freshMinute()
    // Each address's page load starts its own session: a session works from its own address only.
    const cookies = new Map<string, string>()
    for (const remoteAddress of ['192.0.2.1', '192.0.2.2']) cookies.set(remoteAddress, cookieOf((await open.app.inject({ url: '/', remoteAddress })).headers['set-cookie']))
    expect((await open.app.inject({ url: '/api/v1/chains', headers: { cookie: cookies.get('192.0.2.1') }, remoteAddress: '192.0.2.2' })).statusCode).toBe(401)
    const from = (remoteAddress: string) => open.app.inject({ url: '/api/v1/chains', headers: { cookie: cookies.get(remoteAddress) }, remoteAddress })
    for (let i = 0; i < RATE_PER_MINUTE; i++) {
      const ok = await from('192.0.2.1')
      expect(ok.statusCode).toBe(200)
      expect(ok.json().chains).toEqual([{ chainId: '1', name: 'Ethereum', addressLink: 'https://etherscan.io/address/{address}' }])
    }
    const limited = await from('192.0.2.1')
    expect(limited.statusCode).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60)
    // Another address has its own limit, and a key its own (the page limit is not the key's).
    expect((await from('192.0.2.2')).statusCode).toBe(200)
    expect((await open.app.inject({ url: '/api/v1/chains', headers: { cookie: cookies.get('192.0.2.1'), 'x-api-key': key }, remoteAddress: '192.0.2.1' })).statusCode).toBe(200)
  })

  describe.runIf(requireService('Redis', redisUp))('on Redis', () => {
    it('counts an address\'s page calls across instances, per minute', async () => {
      const redis = new Redis(TEST_REDIS_URL)
      try {
        const prefix = `tokenrisk:test:pages:${process.pid}:${Date.now()}:`
        const limiters: RateLimiter[] = [createRedisRateLimiter(redis, prefix), createRedisRateLimiter(redis, prefix)]
        await freshMinute()
        expect(await limiters[0].take('page:192.0.2.1', 2, 60)).toBe(0)
        expect(await limiters[1].take('page:192.0.2.1', 2, 60)).toBe(0)
        const wait = await limiters[0].take('page:192.0.2.1', 2, 60)
        expect(wait).toBeGreaterThan(0)
        expect(wait).toBeLessThanOrEqual(60)
        // Per-second limits keep their own count.
        expect(await limiters[1].take('page:192.0.2.1', 2)).toBe(0)
      } finally {
        redis.disconnect()
      }
    })
  })

  it('in memory, a per-minute window says how long is left of it', async () => {
    const limiter = createMemoryRateLimiter()
    await freshMinute()
    expect(await limiter.take('a', 1, 60)).toBe(0)
    const wait = await limiter.take('a', 1, 60)
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(60)
    expect(await limiter.take('a', 1)).toBe(0)
  })
})
