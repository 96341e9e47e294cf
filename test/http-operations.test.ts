import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRedisRateLimiter } from '../src/http/rate-limit.ts'
import { sampleAudit } from './helpers/audits.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { embeddedStore, redisUp, requireService, TEST_REDIS_URL, type TestStore } from './helpers/services.ts'

const HISTORY = '/api/v1/projects/audit/history?projectId=p&userId=u'

describe('operations', () => {
  let t: TestStore
  let api: TestApp
  let key: string
  beforeAll(async () => {
    t = await embeddedStore()
    api = await buildTestApp(t.store, { options: { corsOrigins: ['https://wallet.example'] } })
    key = (await api.keys.create({ userId: 'u' })).key
    await api.audits.record({ projectId: 'p', userId: 'u', audits: Array.from({ length: 30 }, (_, i) => sampleAudit(i + 1, { findings: 5 })) })
  })
  afterAll(async () => {
    await api?.app.close()
    await t?.cleanup()
  })

  it('answers liveness and readiness', async () => {
    expect((await api.app.inject('/healthz')).json()).toEqual({ status: 'ok' })
    expect((await api.app.inject('/readyz')).json()).toEqual({ status: 'ok', checks: { store: 'ok' } })
  })

  it('answers 503 on /readyz naming the dependency that fails', async () => {
    const broken = await buildTestApp(t.store, {
      readiness: [
        { name: 'chain 1', check: async () => Promise.reject(new Error('connect ECONNREFUSED')) },
        { name: 'slow', check: () => new Promise(() => {}) },
      ],
    })
    const res = await broken.app.inject('/readyz')
    expect(res.statusCode).toBe(503)
    expect(res.json()).toEqual({
      status: 'unavailable',
      checks: { store: 'ok', 'chain 1': 'connect ECONNREFUSED', slow: expect.stringMatching(/deadline/) },
    })
    await broken.app.close()
  }, 10_000)

  it('serves an OpenAPI 3.1 document describing the three endpoints, and a docs page', async () => {
    const doc = (await api.app.inject('/openapi.json')).json()
    expect(doc.openapi).toBe('3.1.0')
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/projects/audit/history', '/healthz', '/readyz']))
    const history = doc.paths['/api/v1/projects/audit/history'].get
    expect(history.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['limit', 'page', 'projectId', 'userId'])
    expect(history.security).toEqual([{ apiKey: [] }])
    expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' })
    expect(doc.components.schemas.AuditHistory.properties.auditCount.type).toBe('integer')
    const docs = await api.app.inject('/docs/')
    expect(docs.statusCode).toBe(200)
    expect(docs.headers['content-type']).toMatch(/text\/html/)
  })

  it('exposes Prometheus metrics per route and status', async () => {
    await api.app.inject({ url: HISTORY, headers: { 'x-api-key': key } })
    await api.app.inject({ url: HISTORY })
    const text = (await api.app.inject('/metrics')).body
    expect(text).toMatch(/tokenrisk_http_requests_total\{method="GET",route="\/api\/v1\/projects\/audit\/history",status="200"\} \d+/)
    expect(text).toMatch(/tokenrisk_http_requests_total\{method="GET",route="\/api\/v1\/projects\/audit\/history",status="401"\} \d+/)
    expect(text).toMatch(/tokenrisk_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/v1\/projects\/audit\/history",status="200"\}/)
  })

  it('answers /metrics only with the bearer token when METRICS_TOKEN is set', async () => {
    const token = 'metrics-secret-0123456789'
    const guarded = await buildTestApp(t.store, { options: { metricsToken: token } })
    for (const authorization of [undefined, 'Bearer wrong-secret-0123456789', token, `Basic ${token}`]) {
      const res = await guarded.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} })
      expect(res.statusCode, String(authorization)).toBe(401)
      expect(res.headers['www-authenticate']).toBe('Bearer')
      expect(res.json().message).toMatch(/metrics token/)
      expect(res.body).not.toContain('tokenrisk_http')
    }
    const ok = await guarded.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } })
    expect(ok.statusCode).toBe(200)
    expect(ok.body).toMatch(/tokenrisk_http_requests_total/)
    await guarded.app.close()
  })

  it('gives every route a deadline: a handler that never finishes is answered 503', async () => {
    const slow = await buildTestApp(t.store, { options: { requestTimeoutMs: 200 } })
    slow.app.get('/stuck', () => new Promise(() => {}))
    const started = Date.now()
    const res = await slow.app.inject('/stuck')
    expect(res.statusCode).toBe(503)
    expect(res.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message: 'no answer within the request deadline; try again' })
    // Answered by the deadline, not left hanging (the bound is loose: a loaded machine is slow).
    expect(Date.now() - started).toBeLessThan(20_000)
    await slow.app.close()
  })

  it('answers unknown routes with a JSON 404 and never leaks a stack', async () => {
    const res = await api.app.inject('/api/v2/nothing')
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'no route GET /api/v2/nothing' })
  })

  it('gives every answer a request id, honouring the caller’s', async () => {
    const res = await api.app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } })
    expect(res.headers['x-request-id']).toBe('abc-123')
    expect((await api.app.inject('/healthz')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('compresses large answers for clients that accept it', async () => {
    const res = await api.app.inject({ url: `${HISTORY}&limit=30`, headers: { 'x-api-key': key, 'accept-encoding': 'gzip' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('gzip')
  })

  it('allows only the configured CORS origins', async () => {
    const allowed = await api.app.inject({ url: '/healthz', headers: { origin: 'https://wallet.example' } })
    expect(allowed.headers['access-control-allow-origin']).toBe('https://wallet.example')
    const other = await api.app.inject({ url: '/healthz', headers: { origin: 'https://evil.example' } })
    expect(other.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('lets an allowed origin send the key either way: x-api-key or Authorization: Bearer', async () => {
    const preflight = await api.app.inject({
      method: 'OPTIONS',
      url: '/mcp',
      headers: { origin: 'https://wallet.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    })
    expect(preflight.statusCode).toBe(204)
    const allowed = String(preflight.headers['access-control-allow-headers']).split(',').map((h) => h.trim())
    expect(allowed).toEqual(expect.arrayContaining(['x-api-key', 'authorization', 'content-type']))
  })

  it('has CORS off by default', async () => {
    const plain = await buildTestApp(t.store)
    const res = await plain.app.inject({ url: '/healthz', headers: { origin: 'https://wallet.example' } })
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
    await plain.app.close()
  })

  it('applies a per-key rate limit with 429 and Retry-After', async () => {
    const limited = await api.keys.create({ userId: 'u', rateLimitRps: 3 })
    // Align to the start of a second so that all requests share one window.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5))
    const statuses: number[] = []
    let retryAfter: string | undefined
    for (let i = 0; i < 5; i++) {
      const res = await api.app.inject({ url: HISTORY, headers: { 'x-api-key': limited.key } })
      statuses.push(res.statusCode)
      if (res.statusCode === 429) {
        retryAfter = res.headers['retry-after'] as string
        expect(res.json().message).toMatch(/rate limit exceeded/)
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    expect(retryAfter).toBe('1')
    // Keys without a limit are not limited when the service default is off.
    for (let i = 0; i < 10; i++) expect((await api.app.inject({ url: HISTORY, headers: { 'x-api-key': key } })).statusCode).toBe(200)
  })

  describe.runIf(requireService('Redis', redisUp))('rate limit shared through Redis', () => {
    it('counts requests of one key across two instances', async () => {
      const redis = new Redis(TEST_REDIS_URL)
      // The limit counts per one-second window: on a loaded machine six requests may straddle two
      // windows, and then the attempt says nothing; it is made again with fresh counters.
      let statuses: number[] = []
      for (let attempt = 0; attempt < 5; attempt++) {
        const prefix = `tokenrisk:test:${process.pid}:${Date.now()}:${attempt}:`
        const a = await buildTestApp(t.store, { rateLimiter: createRedisRateLimiter(redis, prefix), options: { defaultRateLimitRps: 4 } })
        const b = await buildTestApp(t.store, { rateLimiter: createRedisRateLimiter(redis, prefix), options: { defaultRateLimitRps: 4 } })
        await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5))
        const window = Math.floor(Date.now() / 1000)
        // All six at once, alternating between the instances: they land within the same window
        // unless the machine stalls for the rest of the second.
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? a.app : b.app).inject({ url: HISTORY, headers: { 'x-api-key': key } })),
        )
        statuses = answers.map((r) => r.statusCode).sort((x, y) => x - y)
        const oneWindow = Math.floor(Date.now() / 1000) === window
        await a.app.close()
        await b.app.close()
        if (oneWindow) break
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429])
      await redis.quit()
    })
  })
})
