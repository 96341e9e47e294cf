import type { Redis } from 'ioredis'

/** Decides whether one more request of a key fits in its per-second budget. */
export interface RateLimiter {
  /** Counts one request; returns 0 when allowed, else the seconds to wait. */
  take(keyId: string, perSecond: number): Promise<number>
  close(): Promise<void>
}

/** Fixed one-second windows in process memory (one instance). */
export function createMemoryRateLimiter(): RateLimiter {
  let window = 0
  let counts = new Map<string, number>()
  return {
    async take(keyId, perSecond) {
      const now = Math.floor(Date.now() / 1000)
      if (now !== window) {
        window = now
        counts = new Map()
      }
      const n = (counts.get(keyId) ?? 0) + 1
      counts.set(keyId, n)
      return n > perSecond ? 1 : 0
    },
    async close() {},
  }
}

/** Fixed one-second windows shared by every instance on the same Redis. */
export function createRedisRateLimiter(redis: Redis, prefix = 'tokenrisk:rl:'): RateLimiter {
  return {
    async take(keyId, perSecond) {
      const now = Math.floor(Date.now() / 1000)
      const key = `${prefix}${keyId}:${now}`
      const results = await redis.multi().incr(key).expire(key, 2).exec()
      const n = Number(results?.[0]?.[1] ?? 0)
      return n > perSecond ? 1 : 0
    },
    async close() {},
  }
}
