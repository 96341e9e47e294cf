import type { Redis } from 'ioredis'

/**
 * Requests of each API key per calendar month (UTC), for the quota endpoint
 * (`GET /api/v1/auth/user/plan/usage`). A request counts once it passed its key's check and rate
 * limit. In process memory the count is this process's since it started; on Redis it is every
 * instance's.
 */
export interface UsageCounter {
  /** Counts one request of `keyId` at `at` (now by default). */
  count(keyId: string, at?: Date): Promise<void>
  /** Requests of `keyId` in the period holding `at`. */
  used(keyId: string, at?: Date): Promise<number>
}

/** The period usage is counted over, as the published body names it. */
export const USAGE_PERIOD = 'MONTH'
/** How long Redis keeps a month's count after it was last written: past the month's end. */
const REDIS_USAGE_TTL_SECONDS = 40 * 24 * 3600

/** The calendar month (UTC) holding `at`: its key ("2026-11"), start and end. */
export function usagePeriod(at: Date): { key: string; start: Date; end: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1))
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1))
  return { key: start.toISOString().slice(0, 7), start, end }
}

/** Counts in process memory; a month's counts are dropped once a later month is counted. */
export function createMemoryUsageCounter(): UsageCounter {
  let month = ''
  let counts = new Map<string, number>()
  return {
    async count(keyId, at = new Date()) {
      const { key } = usagePeriod(at)
      if (key > month) {
        month = key
        counts = new Map()
      }
      if (key === month) counts.set(keyId, (counts.get(keyId) ?? 0) + 1)
    },
    async used(keyId, at = new Date()) {
      return usagePeriod(at).key === month ? (counts.get(keyId) ?? 0) : 0
    },
  }
}

/** Counts on Redis, shared by every instance (one key per API key and month). */
export function createRedisUsageCounter(redis: Redis, prefix = 'tokenrisk:usage:'): UsageCounter {
  const keyOf = (keyId: string, at: Date) => `${prefix}${keyId}:${usagePeriod(at).key}`
  return {
    async count(keyId, at = new Date()) {
      const key = keyOf(keyId, at)
      await redis.multi().incr(key).expire(key, REDIS_USAGE_TTL_SECONDS).exec()
    },
    async used(keyId, at = new Date()) {
      return Number((await redis.get(keyOf(keyId, at))) ?? 0)
    },
  }
}
