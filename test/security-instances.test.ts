// Security: a dead instance blocks nothing. Work in progress is held by leases that lapse within
// seconds when their owner dies (kill -9 of a real process, on the real Redis): the lock of a
// report another instance waits for, and the hold of a queued audit job on a worker.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createRedisCache, DISTRIBUTED_LOCK_MS, DISTRIBUTED_WAIT_MS } from '../src/cache/cache.ts'
import { createRedisAuditQueue, startRedisAuditWorker } from '../src/queue/audit-queue.ts'
import { createAuditJobRunner } from '../src/queue/run-audit.ts'
import { createAuditRepository } from '../src/store/repositories/audits.ts'
import { PROJECT_ROOT } from './helpers/paths.ts'
import { embeddedStore, redisUp, requireService, TEST_REDIS_URL, type TestStore } from './helpers/services.ts'

const VAULT = join(import.meta.dirname, 'fixtures/projects/vault')
const source = (file: string) => pathToFileURL(join(PROJECT_ROOT, file)).href

/** A process running `code` (an ES module that may import the sources), its output gathered. */
function startProcess(code: string, env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--conditions=tokenrisk-source', '--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
  })
  let output = ''
  child.stdout?.on('data', (d) => (output += d))
  child.stderr?.on('data', (d) => (output += d))
  return { child, output: () => output }
}

/** Kills `child` with SIGKILL (nothing runs after it: no finally, no release) and waits for its end. */
async function killHard(child: ChildProcess): Promise<void> {
  const ended = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await ended
}

describe.runIf(requireService('Redis', redisUp))('a dead instance blocks nothing', () => {
  let redis: Redis
  let t: TestStore
  const children: ChildProcess[] = []
  beforeAll(async () => {
    redis = new Redis(TEST_REDIS_URL)
    t = await embeddedStore()
  })
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL')
    await redis?.quit()
    await t?.cleanup()
  })

  it('a report another instance was computing when it was killed is computed here once its lease lapses', async () => {
    const prefix = `tokenrisk-test:${randomBytes(4).toString('hex')}:`
    // Instance A takes the report's lock and works on it forever, until kill -9.
    const a = startProcess(
      `import { Redis } from 'ioredis'
       import { createRedisCache } from '${source('src/cache/cache.ts')}'
       const cache = createRedisCache(new Redis(process.env.REDIS_URL), { prefix: process.env.PREFIX })
       cache.getOrCompute('evm:report:1:0xtoken', 30000, () => { console.log('computing'); return new Promise(() => {}) })`,
      { REDIS_URL: TEST_REDIS_URL, PREFIX: prefix },
    )
    children.push(a.child)
    await vi.waitFor(() => expect(a.output()).toContain('computing'), { timeout: 20_000, interval: 50 })
    expect(await redis.exists(`${prefix}lock:evm:report:1:0xtoken`)).toBe(1)
    await killHard(a.child)

    // Instance B is asked the same report: it waits for A's lease to lapse, then computes it.
    const b = createRedisCache(redis, { prefix })
    const started = Date.now()
    let computedHere = 0
    const value = await b.getOrCompute('evm:report:1:0xtoken', 30_000, async () => {
      computedHere++
      return { report: 'computed by B' }
    })
    const waitedMs = Date.now() - started
    expect(value).toEqual({ report: 'computed by B' })
    expect(computedHere).toBe(1)
    // Taken over when the lease lapsed, not after the waiting backstop (nor the old 30 s lock).
    expect(waitedMs).toBeLessThan(DISTRIBUTED_WAIT_MS / 2)
    expect(DISTRIBUTED_LOCK_MS).toBeLessThan(15_000 / 2)
    process.stdout.write(`  report taken over ${waitedMs} ms after its owner was killed (lease ${DISTRIBUTED_LOCK_MS} ms)\n`)
  }, 40_000)

  it('an owner alive keeps its lease past one lease while it works: the others wait for its value and compute nothing', async () => {
    const prefix = `tokenrisk-test:${randomBytes(4).toString('hex')}:`
    const leaseMs = 300
    const other = new Redis(TEST_REDIS_URL)
    try {
      const a = createRedisCache(redis, { prefix, lockLeaseMs: leaseMs })
      const b = createRedisCache(other, { prefix, lockLeaseMs: leaseMs })
      let computed = 0
      const slow = async () => {
        computed++
        await new Promise((r) => setTimeout(r, leaseMs * 4))
        return `value ${computed}`
      }
      const first = a.getOrCompute('k', 10_000, slow)
      await vi.waitFor(async () => expect(await redis.exists(`${prefix}lock:k`)).toBe(1), { interval: 5 })
      const [x, y] = await Promise.all([first, b.getOrCompute('k', 10_000, slow)])
      expect([x, y]).toEqual(['value 1', 'value 1'])
      expect(computed).toBe(1)
    } finally {
      await other.quit()
    }
  }, 20_000)

  it('queued audit jobs of a killed worker are run by another, the one it was running taken over', async () => {
    const queueName = `tokenrisk-test-${randomBytes(4).toString('hex')}`
    const lockMs = 2_000
    // Worker A takes the first job and never finishes it; the others wait behind it.
    const a = startProcess(
      `import { startRedisAuditWorker } from '${source('src/queue/audit-queue.ts')}'
       startRedisAuditWorker(process.env.REDIS_URL, async (job) => { console.log('running ' + job.projectId); return new Promise(() => {}) }, { queueName: process.env.QUEUE, lockMs: ${lockMs} })`,
      { REDIS_URL: TEST_REDIS_URL, QUEUE: queueName },
    )
    children.push(a.child)
    const queue = createRedisAuditQueue(TEST_REDIS_URL, { queueName })
    const audits = createAuditRepository(t.store)
    let b: ReturnType<typeof startRedisAuditWorker> | undefined
    try {
      const submitted = ['first', 'second', 'third'].map((projectId) => queue.submit({ path: VAULT, projectId, userId: 'alice' }, { timeoutMs: 60_000 }))
      await vi.waitFor(() => expect(a.output()).toContain('running first'), { timeout: 20_000, interval: 50 })
      await killHard(a.child)

      const events: string[] = []
      b = startRedisAuditWorker(TEST_REDIS_URL, createAuditJobRunner({ audits }), { queueName, lockMs, stalledCheckMs: 500, onEvent: (event) => events.push(event) })
      const results = await Promise.all(submitted)
      expect(results.map((r) => r.audit.vulnerabilities.length > 0)).toEqual([true, true, true])
      for (const projectId of ['first', 'second', 'third']) expect((await audits.history({ projectId, userId: 'alice', limit: 10, page: 1 })).auditCount).toBe(1)
      expect(events).toContain('taken over')
    } finally {
      await queue.close()
      await b?.close()
    }
  }, 90_000)
})
