import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { redisUp, requireService, TEST_REDIS_URL } from '../../test/helpers/services.ts'
import { createMemoryCache, createRedisCache, type Cache } from './cache.ts'

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
