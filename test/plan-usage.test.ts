import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Redis } from 'ioredis'
import { randomUUID } from 'node:crypto'
import { createRedisUsageCounter, createMemoryUsageCounter, usagePeriod } from '../src/http/usage.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { embeddedStore, redisUp, requireService, TEST_REDIS_URL, type TestStore } from './helpers/services.ts'

const PATH = '/api/v1/auth/user/plan/usage'

let t: TestStore
let api: TestApp

beforeAll(async () => {
  t = await embeddedStore()
  api = await buildTestApp(t.store, { options: { defaultRateLimitRps: 5 } })
})

afterAll(async () => {
  await api?.app.close()
  await t?.cleanup()
})

const get = (app: TestApp, key?: string, url = PATH) => app.app.inject({ url, headers: key ? { 'x-api-key': key } : {} })

describe('GET /api/v1/auth/user/plan/usage', () => {
  it('answers the key, its plan, rate limit and usage in the published field names', async () => {
    const created = await api.keys.create({ userId: 'alice' })
    const res = await get(api, created.key)
    expect(res.statusCode).toBe(200)
    const period = usagePeriod(new Date())
    expect(res.json()).toEqual({
      success: true,
      data: {
        apiKeyId: created.id,
        userName: 'alice',
        email: '',
        usageStats: {
          plan: 'self-hosted',
          remainingRequests: null,
          totalRequests: null,
          usedRequests: 1,
          period: 'MONTH',
          periodStart: period.start.toISOString(),
          periodEnd: period.end.toISOString(),
          rateLimit: '5 / Sec',
          rateLimitRps: 5,
          error: null,
        },
      },
    })
    // Never the secret (everything after the key's id: it may itself hold an underscore).
    const secret = created.key.slice(created.key.indexOf(`${created.id}_`) + created.id.length + 1)
    expect(secret.length).toBeGreaterThanOrEqual(43)
    expect(res.body).not.toContain(secret)
  })

  it('counts every request of the key that was let through, and only that key', async () => {
    const mine = await api.keys.create({ userId: 'bob', rateLimitRps: 100 })
    const other = await api.keys.create({ userId: 'carol' })
    // This app serves no token routes: a request to a route that does not exist is not counted.
    for (let i = 0; i < 3; i++) expect((await get(api, mine.key, '/api/v1/chains')).statusCode).toBe(404)
    await get(api, other.key)
    const stats = (await get(api, mine.key)).json().data.usageStats
    expect(stats.usedRequests).toBe(1)
    expect(stats.rateLimit).toBe('100 / Sec')
    await get(api, mine.key)
    expect((await get(api, mine.key)).json().data.usageStats.usedRequests).toBe(3)
    expect((await get(api, other.key)).json().data.usageStats.usedRequests).toBe(2)
  })

  it('does not count a request the rate limit refused', async () => {
    const slow = await api.keys.create({ userId: 'dave', rateLimitRps: 1 })
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) statuses.push((await get(api, slow.key)).statusCode)
    expect(statuses).toContain(429)
    await new Promise((r) => setTimeout(r, 1_100))
    const used = (await get(api, slow.key)).json().data.usageStats.usedRequests
    expect(used).toBe(statuses.filter((s) => s === 200).length + 1)
  })

  it('needs a valid key, like every route under /api/v1', async () => {
    expect((await get(api)).statusCode).toBe(401)
    expect((await get(api, 'trk_000000000000_' + 'x'.repeat(43))).statusCode).toBe(401)
    const revoked = await api.keys.create({ userId: 'erin' })
    await api.keys.revoke(revoked.id)
    expect((await get(api, revoked.key)).statusCode).toBe(401)
  })

  it('says "unlimited" when neither the key nor the service sets a rate limit', async () => {
    const open = await buildTestApp(t.store)
    try {
      const key = (await open.keys.create({ userId: 'frank' })).key
      expect((await get(open, key)).json().data.usageStats).toMatchObject({ rateLimit: 'unlimited', rateLimitRps: 0 })
    } finally {
      await open.app.close()
    }
  })

  it('is in the OpenAPI document with its schema', async () => {
    const doc = (await api.app.inject('/openapi.json')).json()
    const op = doc.paths[PATH].get
    expect(op.security).toEqual([{ apiKey: [] }])
    expect(Object.keys(op.responses).sort()).toEqual(['200', '401', '429', '503'])
    expect(Object.keys(doc.components.schemas.PlanUsage.properties.data.properties.usageStats.properties)).toEqual(
      expect.arrayContaining(['plan', 'remainingRequests', 'totalRequests', 'period', 'rateLimit', 'error']),
    )
  })
})

describe('usage counters', () => {
  it('count by calendar month (UTC) in memory', async () => {
    const usage = createMemoryUsageCounter()
    await usage.count('k', new Date('2026-10-31T23:59:59Z'))
    await usage.count('k', new Date('2026-11-01T00:00:00Z'))
    await usage.count('k', new Date('2026-11-20T00:00:00Z'))
    expect(await usage.used('k', new Date('2026-11-25T00:00:00Z'))).toBe(2)
    expect(await usage.used('other', new Date('2026-11-25T00:00:00Z'))).toBe(0)
    expect(usagePeriod(new Date('2026-12-31T23:00:00Z'))).toEqual({ key: '2026-12', start: new Date('2026-12-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') })
  })

  describe.runIf(requireService('Redis', redisUp))('on Redis', () => {
    it('are shared by every instance', async () => {
      const redis = new Redis(`${TEST_REDIS_URL}/12`)
      const prefix = `tokenrisk:test:usage:${randomUUID()}:`
      try {
        const a = createRedisUsageCounter(redis, prefix)
        const b = createRedisUsageCounter(redis, prefix)
        const now = new Date()
        await a.count('k', now)
        await b.count('k', now)
        expect(await a.used('k', now)).toBe(2)
        expect(await b.used('k', new Date(now.getTime() - 40 * 24 * 3600 * 1000))).toBe(0)
        const two = await buildTestApp(t.store, { usage: a })
        try {
          const key = await two.keys.create({ userId: 'gina' })
          await get(two, key.key)
          await get(two, key.key)
          await expect.poll(() => b.used(key.id)).toBe(2)
        } finally {
          await two.app.close()
        }
      } finally {
        const keys = await redis.keys(`${prefix}*`)
        if (keys.length > 0) await redis.del(...keys)
        redis.disconnect()
      }
    })
  })
})
