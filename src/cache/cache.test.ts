import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { redisUp, requireService, TEST_REDIS_URL } from '../../test/helpers/services.ts'
import { CACHE_MAX_VALUE_BYTES, createMemoryCache, createRedisCache, createTtlMap, type Cache } from './cache.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function sharedBehaviour(name: string, make: () => Cache) {
  describe(name, () => {
    it('computes concurrent requests for one key once', async () => {
      const cache = make()
      let calls = 0
      const compute = async () => {
        calls++
        await sleep(50)
        return { n: calls }
      }
      const results = await Promise.all(Array.from({ length: 10 }, () => cache.getOrCompute('k1', 10_000, compute)))
      expect(calls).toBe(1)
      expect(results.every((r) => r.n === 1)).toBe(true)
      expect(await cache.get('k1')).toEqual({ n: 1 })
    })

    it('forgets values after their TTL', async () => {
      const cache = make()
      await cache.set('k2', 'v', 30)
      expect(await cache.get('k2')).toBe('v')
      await sleep(60)
      expect(await cache.get('k2')).toBeUndefined()
    })

    it('does not keep a failed computation', async () => {
      const cache = make()
      await expect(cache.getOrCompute('k3', 10_000, async () => Promise.reject(new Error('node down')))).rejects.toThrow('node down')
      expect(await cache.getOrCompute('k3', 10_000, async () => 'ok')).toBe('ok')
    })
  })
}

sharedBehaviour('in-process cache', () => createMemoryCache())

describe('byte bounds of the in-process caches', () => {
  it('drop the least recently set entries past the byte bound, and never keep a value over a quarter of it', () => {
    const map = createTtlMap<string>(60_000, 1_000, { maxBytes: 1_000 })
    for (let i = 0; i < 10; i++) map.set(`k${i}`, 'x'.repeat(200))
    expect(map.bytes).toBeLessThanOrEqual(1_000)
    expect(map.size).toBe(5)
    expect(map.get('k4')).toBeUndefined()
    expect(map.get('k5')).toBe('x'.repeat(200))
    map.set('big', 'y'.repeat(251))
    expect(map.get('big')).toBeUndefined()
    // Replacing and deleting give their bytes back.
    map.set('k9', 'z')
    map.delete('k8')
    expect(map.bytes).toBe(3 * 200 + 1)
  })

  it('bound the report cache by the size of the reports’ JSON', async () => {
    const cache = createMemoryCache({ maxBytes: 10_000 })
    for (let i = 0; i < 20; i++) await cache.set(`r${i}`, { body: 'r'.repeat(1_000) }, 60_000)
    const kept = (await Promise.all(Array.from({ length: 20 }, (_, i) => cache.get(`r${i}`)))).filter((v) => v !== undefined)
    expect(kept.length).toBeGreaterThan(5)
    expect(kept.length).toBeLessThan(10)
    expect(await cache.get('r19')).toEqual({ body: 'r'.repeat(1_000) })
    expect(await cache.get('r0')).toBeUndefined()
    // A value too big to keep is still computed and answered.
    expect(await cache.getOrCompute('huge', 60_000, async () => 'h'.repeat(5_000))).toHaveLength(5_000)
    expect(await cache.get('huge')).toBeUndefined()
  })
})

describe('in-process cache bounds', () => {
  it('drops the oldest entries past its size', async () => {
    const cache = createMemoryCache({ maxEntries: 2 })
    await cache.set('a', 1, 10_000)
    await cache.set('b', 2, 10_000)
    await cache.set('c', 3, 10_000)
    expect(await cache.get('a')).toBeUndefined()
    expect(await cache.get('c')).toBe(3)
  })
})

describe.runIf(requireService('Redis', redisUp))('Redis cache', () => {
  const clients: Redis[] = []
  const prefix = `tokenrisk:test:cache:${process.pid}:${Date.now()}:`
  const make = () => {
    const redis = new Redis(TEST_REDIS_URL)
    clients.push(redis)
    return createRedisCache(redis, { prefix })
  }
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit()))
  })

  sharedBehaviour('one instance', make)

  it('answers a value too big to share without storing it', async () => {
    const cache = make()
    const huge = 'x'.repeat(CACHE_MAX_VALUE_BYTES + 1)
    expect(await cache.getOrCompute('too-big', 10_000, async () => huge)).toBe(huge)
    expect(await cache.get('too-big')).toBeUndefined()
  })

  it('shares values and computes once across instances', async () => {
    const a = make()
    const b = make()
    let calls = 0
    const compute = async () => {
      calls++
      await sleep(100)
      return 'report'
    }
    const results = await Promise.all([a.getOrCompute('shared', 10_000, compute), b.getOrCompute('shared', 10_000, compute)])
    expect(results).toEqual(['report', 'report'])
    expect(calls).toBe(1)
    expect(await b.get('shared')).toBe('report')
  })
})
