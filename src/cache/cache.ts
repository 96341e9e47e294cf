import type { Redis } from 'ioredis'

/**
 * A small key/value cache of JSON values with a time to live. In-process by default; on Redis
 * when several instances must share it.
 */
export interface Cache {
  get<T>(key: string): Promise<T | undefined>
  set(key: string, value: unknown, ttlMs: number): Promise<void>
  /**
   * Computes `key` once across callers: in-process callers share one promise; with Redis, one
   * instance takes a short lock and the others wait for its value. `ttlMs` may depend on the
   * value (an answer that could not measure everything is kept for less time).
   */
  getOrCompute<T>(key: string, ttlMs: Ttl<T>, compute: () => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** How long a computed value is kept: fixed, or decided from the value. */
export type Ttl<T> = number | ((value: T) => number)

const ttlOf = <T>(ttl: Ttl<T>, value: T): number => (typeof ttl === 'function' ? ttl(value) : ttl)

/** Entries kept by the in-process cache before the oldest are dropped. */
export const MEMORY_CACHE_MAX_ENTRIES = 10_000
/** Bytes (of the values' JSON) the in-process cache keeps before the oldest are dropped. */
export const MEMORY_CACHE_MAX_BYTES = 128 * 1024 * 1024
/** Largest value a cache keeps: a bigger one is computed and answered, never stored. */
export const CACHE_MAX_VALUE_BYTES = 4 * 1024 * 1024

/** Size of a JSON value as the caches count it: the length of its JSON text (0 when it has none). */
export function jsonSize(value: unknown): number {
  if (typeof value === 'string') return value.length
  try {
    return JSON.stringify(value)?.length ?? 0
  } catch {
    return 0
  }
}

export interface TtlMapBounds {
  /** Total size kept, as counted by `sizeOf`. */
  maxBytes?: number
  /** Size of one value (default: the length of its JSON text). */
  sizeOf?: (value: never) => number
}
/**
 * The lease of the lock an instance holds while it computes a value the others wait for: well
 * under the request deadline (15 s by default), renewed every `DISTRIBUTED_LOCK_RENEW_MS` while
 * its owner works. An owner that dies (kill -9, a lost host) stops renewing: its lease lapses
 * within this, and a waiting instance takes the lock and computes the value itself.
 */
export const DISTRIBUTED_LOCK_MS = 5_000
/**
 * How often the owner of a lock renews its lease: five times a lease, so that a serving thread
 * busy for seconds on a loaded machine does not lose it to a duplicate computation.
 */
export const DISTRIBUTED_LOCK_RENEW_MS = 1_000
/** How often a waiting instance looks for the value another instance computes. */
export const DISTRIBUTED_POLL_MS = 25
/**
 * How long an instance waits for another's value at most, its lease renewed all along, before it
 * computes the value itself: a backstop, since every computation is bounded by its deadline.
 */
export const DISTRIBUTED_WAIT_MS = 30_000
/** Deletes the lock only if it is still ours. */
const RELEASE_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
/** Extends the lock's lease only if it is still ours. */
const RENEW_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"

/**
 * A synchronous map whose entries expire after `ttlMs` and of which at most `maxEntries` are kept,
 * and, with `bounds.maxBytes`, at most that many bytes (the least recently set go first; a value
 * bigger than a quarter of the bound is not kept at all). The building block of the in-process
 * caches.
 *
 * @example
 * const rows = createTtlMap<KeyRow>(1_000, 10_000)
 * rows.set(id, row); rows.get(id) // row, for a second
 * const pages = createTtlMap<string>(Infinity, 1_000, { maxBytes: 64 * 1024 * 1024 })
 */
export function createTtlMap<V>(ttlMs: number, maxEntries: number, bounds: TtlMapBounds = {}) {
  const entries = new Map<string, { value: V; expires: number; size: number }>()
  const maxBytes = bounds.maxBytes ?? Number.POSITIVE_INFINITY
  const sizeOf = (bounds.sizeOf as ((value: V) => number) | undefined) ?? jsonSize
  let bytes = 0
  const remove = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    bytes -= entry.size
    entries.delete(key)
  }
  return {
    /** Bytes held, as counted by `sizeOf` (0 without a byte bound). */
    get bytes(): number {
      return bytes
    },
    get size(): number {
      return entries.size
    },
    /** The value, or undefined when absent or expired. */
    get(key: string): V | undefined {
      const entry = entries.get(key)
      if (!entry) return undefined
      if (entry.expires <= Date.now()) {
        remove(key)
        return undefined
      }
      return entry.value
    },
    /** Whether `key` holds a live value (which may itself be undefined). */
    has(key: string): boolean {
      const entry = entries.get(key)
      return entry !== undefined && entry.expires > Date.now()
    },
    set(key: string, value: V, entryTtlMs = ttlMs): void {
      if (entryTtlMs <= 0) return
      remove(key)
      const size = Number.isFinite(maxBytes) ? sizeOf(value) : 0
      if (size > maxBytes / 4) return
      entries.set(key, { value, expires: Date.now() + entryTtlMs, size })
      bytes += size
      while (entries.size > maxEntries || bytes > maxBytes) {
        const oldest = entries.keys().next().value
        if (oldest === undefined) break
        remove(oldest)
      }
    },
    delete(key: string): void {
      remove(key)
    },
    clear(): void {
      entries.clear()
      bytes = 0
    },
  }
}

function singleFlight() {
  const inFlight = new Map<string, Promise<unknown>>()
  return function <T>(key: string, run: () => Promise<T>): Promise<T> {
    const current = inFlight.get(key)
    if (current) return current as Promise<T>
    const promise = run().finally(() => inFlight.delete(key))
    inFlight.set(key, promise)
    return promise
  }
}

/**
 * An in-process cache with TTL and least-recently-set eviction, bounded by entries and by the
 * bytes of its values' JSON (`MEMORY_CACHE_MAX_BYTES` by default).
 *
 * @example
 * const cache = createMemoryCache()
 * const report = await cache.getOrCompute('evm:1:0xabc', 30_000, () => buildReport())
 */
export function createMemoryCache(options: { maxEntries?: number; maxBytes?: number } = {}): Cache {
  const entries = createTtlMap<unknown>(0, options.maxEntries ?? MEMORY_CACHE_MAX_ENTRIES, {
    maxBytes: options.maxBytes ?? MEMORY_CACHE_MAX_BYTES,
  })
  const flight = singleFlight()
  return {
    async get<T>(key: string) {
      return entries.get(key) as T | undefined
    },
    async set(key, value, ttlMs) {
      entries.set(key, value, ttlMs)
    },
    getOrCompute<T>(key: string, ttlMs: Ttl<T>, compute: () => Promise<T>): Promise<T> {
      const hit = entries.get(key)
      if (hit !== undefined) return Promise.resolve(hit as T)
      return flight(key, async () => {
        const value = await compute()
        entries.set(key, value, ttlOf(ttlMs, value))
        return value
      })
    },
    async close() {
      entries.clear()
    },
  }
}

/**
 * A cache shared by every instance that uses the same Redis. Values are stored as JSON.
 *
 * @example
 * const cache = createRedisCache(new Redis(process.env.REDIS_URL), { prefix: 'tokenrisk:' })
 */
export function createRedisCache(redis: Redis, options: { prefix?: string; ownsClient?: boolean; lockLeaseMs?: number } = {}): Cache {
  const prefix = options.prefix ?? 'tokenrisk:cache:'
  const leaseMs = options.lockLeaseMs ?? DISTRIBUTED_LOCK_MS
  const renewMs = Math.max(1, Math.floor(leaseMs * (DISTRIBUTED_LOCK_RENEW_MS / DISTRIBUTED_LOCK_MS)))
  const flight = singleFlight()
  const get = async <T>(key: string): Promise<T | undefined> => {
    const raw = await redis.get(prefix + key)
    return raw === null ? undefined : (JSON.parse(raw) as T)
  }
  const set = async (key: string, value: unknown, ttlMs: number) => {
    if (ttlMs <= 0) return
    const json = JSON.stringify(value)
    // Redis bounds its own memory (maxmemory); a value this big is answered, never shared.
    if (json.length > CACHE_MAX_VALUE_BYTES) return
    await redis.set(prefix + key, json, 'PX', Math.ceil(ttlMs))
  }
  return {
    get,
    set,
    getOrCompute<T>(key: string, ttlMs: Ttl<T>, compute: () => Promise<T>): Promise<T> {
      return flight(key, async () => {
        const hit = await get<T>(key)
        if (hit !== undefined) return hit
        const lockKey = `${prefix}lock:${key}`
        const token = `${process.pid}:${Math.random()}`
        const deadline = Date.now() + DISTRIBUTED_WAIT_MS
        for (;;) {
          const locked = await redis.set(lockKey, token, 'PX', leaseMs, 'NX')
          if (locked === 'OK') {
            // The lease is renewed while we work; if this process dies, it lapses and another takes over.
            const renewal = setInterval(() => {
              redis.eval(RENEW_SCRIPT, 1, lockKey, token, String(leaseMs)).catch(() => {})
            }, renewMs)
            renewal.unref()
            try {
              const value = await compute()
              await set(key, value, ttlOf(ttlMs, value))
              return value
            } finally {
              clearInterval(renewal)
              await redis.eval(RELEASE_SCRIPT, 1, lockKey, token)
            }
          }
          await new Promise((r) => setTimeout(r, DISTRIBUTED_POLL_MS))
          const value = await get<T>(key)
          if (value !== undefined) return value
          if (Date.now() > deadline) return compute()
        }
      })
    },
    async close() {
      if (options.ownsClient) await redis.quit()
    },
  }
}
