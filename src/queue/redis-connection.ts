import type { ConnectionOptions } from 'bullmq'

/**
 * BullMQ connection options of a Redis URL. Its own module, without BullMQ itself: the holder
 * indexer needs it and loads BullMQ only when it queues on Redis, so that a command without
 * REDIS_URL (`tokenrisk scan`) never loads the library.
 *
 * @example
 * new Queue('audits', { connection: redisConnection('redis://127.0.0.1:6379/2') })
 */
export function redisConnection(redisUrl: string): ConnectionOptions {
  const u = new URL(redisUrl)
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: null,
  }
}
