import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import pg from 'pg'
import { createDatabase, type Store } from '../../src/store/database.ts'

/** The PostgreSQL and Redis that every developer and CI machine runs (see README). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

async function reachable(probe: () => Promise<void>): Promise<boolean> {
  try {
    await probe()
    return true
  } catch {
    return false
  }
}

export const postgresUp = await reachable(async () => {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 })
  await client.connect()
  await client.end()
})

export const redisUp = await reachable(async () => {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null })
  try {
    await redis.connect()
    await redis.ping()
  } finally {
    redis.disconnect()
  }
})

/**
 * Whether tests that need `service` run. In CI a missing service is a failure, never a skip;
 * on a developer's machine the tests are skipped with a visible notice.
 */
export function requireService(service: 'PostgreSQL' | 'Redis', up: boolean): boolean {
  if (up) return true
  if (process.env.CI) throw new Error(`${service} is not reachable, and CI must test against it`)
  process.stderr.write(`\n  NOTICE: ${service} is not reachable: its tests are SKIPPED (start it to run them)\n\n`)
  return false
}

export interface TestStore {
  store: Store
  cleanup(): Promise<void>
}

/** A fresh embedded store in a temporary directory. */
export async function embeddedStore(): Promise<TestStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-test-'))
  const store = await createDatabase({ dataDir })
  return {
    store,
    async cleanup() {
      await store.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** A fresh PostgreSQL store in a schema of its own, dropped afterwards. */
export async function postgresStore(): Promise<TestStore> {
  const schema = `t_${randomBytes(6).toString('hex')}`
  const store = await createDatabase({ databaseUrl: TEST_DATABASE_URL, dataDir: tmpdir(), pgSchema: schema })
  return {
    store,
    async cleanup() {
      await store.close()
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
      await client.connect()
      await client.query(`drop schema if exists ${schema} cascade`)
      await client.end()
    },
  }
}

/** The store kinds to run a suite on: always the embedded one, PostgreSQL when reachable. */
export function storeKinds(): { name: string; open: () => Promise<TestStore> }[] {
  const kinds = [{ name: 'embedded SQLite', open: embeddedStore }]
  if (requireService('PostgreSQL', postgresUp)) kinds.push({ name: 'PostgreSQL', open: postgresStore })
  return kinds
}
