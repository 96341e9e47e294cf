import type { Redis } from 'ioredis'

/** Decides whether one more request of a caller fits in its budget. */
export interface RateLimiter {
  /**
   * Counts one request of `keyId` against `limit` requests per window of `windowSeconds` (1 by
   * default: a per-second limit); returns 0 when allowed, else the seconds to wait.
   */
  take(keyId: string, limit: number, windowSeconds?: number): Promise<number>
  close(): Promise<void>
}

/** The fixed window holding `nowMs`: its index and the whole seconds until it ends (at least 1). */
function windowOf(nowMs: number, windowSeconds: number): { index: number; secondsLeft: number } {
  const index = Math.floor(nowMs / 1000 / windowSeconds)
  const endMs = (index + 1) * windowSeconds * 1000
  return { index, secondsLeft: Math.max(1, Math.ceil((endMs - nowMs) / 1000)) }
}

/** Fixed windows in process memory (one instance). */
export function createMemoryRateLimiter(): RateLimiter {
  // One table of counts per window length, dropped when its window ends.
  const tables = new Map<number, { index: number; counts: Map<string, number> }>()
  return {
    async take(keyId, limit, windowSeconds = 1) {
      const { index, secondsLeft } = windowOf(Date.now(), windowSeconds)
      let table = tables.get(windowSeconds)
      if (!table || table.index !== index) tables.set(windowSeconds, (table = { index, counts: new Map() }))
      const n = (table.counts.get(keyId) ?? 0) + 1
      table.counts.set(keyId, n)
      return n > limit ? secondsLeft : 0
    },
    async close() {},
  }
}

/** Fixed windows shared by every instance on the same Redis. */
export function createRedisRateLimiter(redis: Redis, prefix = 'tokenrisk:rl:'): RateLimiter {
  return {
    async take(keyId, limit, windowSeconds = 1) {
      const { index, secondsLeft } = windowOf(Date.now(), windowSeconds)
      // Per-second windows keep the key name they always had.
      const key = windowSeconds === 1 ? `${prefix}${keyId}:${index}` : `${prefix}${keyId}:${windowSeconds}s:${index}`
      const results = await redis.multi().incr(key).expire(key, windowSeconds + 1).exec()
      const n = Number(results?.[0]?.[1] ?? 0)
      return n > limit ? secondsLeft : 0
    },
    async close() {},
  }
}
