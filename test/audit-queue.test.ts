import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  AuditJobError,
  createInProcessAuditQueue,
  createRedisAuditQueue,
  startRedisAuditWorker,
} from '../src/queue/audit-queue.ts'
import { createAuditJobRunner } from '../src/queue/run-audit.ts'
import { createAuditRepository } from '../src/store/repositories/audits.ts'
import { embeddedStore, redisUp, requireService, TEST_REDIS_URL, type TestStore } from './helpers/services.ts'

const VAULT = join(import.meta.dirname, 'fixtures/projects/vault')

describe('audit jobs', () => {
  let t: TestStore
  beforeAll(async () => {
    t = await embeddedStore()
  })
  afterAll(async () => t?.cleanup())

  it('run in process: analyse, record, answer the audit with its report link', async () => {
    const audits = createAuditRepository(t.store, { reportLink: (id) => `https://x/reports/${id}` })
    const queue = createInProcessAuditQueue(createAuditJobRunner({ audits }))
    const result = await queue.submit({ path: VAULT, projectId: 'vault', userId: 'alice', projectName: 'Vault' })
    expect(result.audit.projectReportLink).toBe(`https://x/reports/${result.reportId}`)
    expect(result.audit.totalLines).toBeGreaterThan(0)
    expect(result.audit.vulnerabilities.map((v) => v.name)).toContain('Unprotected selfdestruct')
    const history = await audits.history({ projectId: 'vault', userId: 'alice', limit: 10, page: 1 })
    expect(history.auditCount).toBe(1)
    expect(history.audits[0]).toEqual(result.audit)
    await queue.close()
  })

  it('report a failed job and record nothing', async () => {
    const audits = createAuditRepository(t.store)
    const queue = createInProcessAuditQueue(
      createAuditJobRunner({ audits, source: async () => Promise.reject(new Error('parser exploded')) }),
    )
    await expect(queue.submit({ path: VAULT, projectId: 'broken', userId: 'alice' })).rejects.toThrow(AuditJobError)
    await expect(queue.submit({ path: VAULT, projectId: 'broken', userId: 'alice' })).rejects.toThrow('audit failed: parser exploded')
    expect((await audits.history({ projectId: 'broken', userId: 'alice', limit: 10, page: 1 })).auditCount).toBe(0)
  })

  it('run one at a time in process by default', async () => {
    let running = 0
    let most = 0
    const audits = createAuditRepository(t.store)
    const runner = createAuditJobRunner({
      audits,
      source: async () => {
        running++
        most = Math.max(most, running)
        await new Promise((r) => setTimeout(r, 20))
        running--
        return { totalLines: 1, securityScore: 100, vulnerabilityCount: { high: 0, medium: 0, low: 0, informational: 0, optimization: 0 }, vulnerabilities: [], files: [], skipped: [], unlisted: [], errors: [] }
      },
    })
    const queue = createInProcessAuditQueue(runner)
    await Promise.all(Array.from({ length: 4 }, (_, i) => queue.submit({ path: VAULT, projectId: `seq-${i}`, userId: 'alice' })))
    expect(most).toBe(1)
  })

  describe.runIf(requireService('Redis', redisUp))('on Redis (BullMQ) with a worker', () => {
    it('runs jobs in the worker, reports failures, records nothing for them', async () => {
      const queueName = `tokenrisk-test-${randomBytes(4).toString('hex')}`
      const audits = createAuditRepository(t.store)
      const events: string[] = []
      const worker = startRedisAuditWorker(TEST_REDIS_URL, createAuditJobRunner({ audits }), {
        queueName,
        onEvent: (event) => events.push(event),
      })
      const queue = createRedisAuditQueue(TEST_REDIS_URL, { queueName })
      try {
        const ok = await queue.submit({ path: VAULT, projectId: 'queued', userId: 'bob' }, { timeoutMs: 30_000 })
        expect(ok.audit.vulnerabilities.length).toBeGreaterThan(0)
        expect((await audits.history({ projectId: 'queued', userId: 'bob', limit: 10, page: 1 })).auditCount).toBe(1)

        // The project belongs to bob: recording for carol fails inside the transaction.
        await expect(queue.submit({ path: VAULT, projectId: 'queued', userId: 'carol' }, { timeoutMs: 30_000 })).rejects.toThrow(
          /audit failed: project queued belongs to another user/,
        )
        await expect(queue.submit({ path: '/nonexistent/project', projectId: 'missing', userId: 'bob' }, { timeoutMs: 30_000 })).rejects.toThrow(
          /audit failed/,
        )
        expect((await audits.history({ projectId: 'queued', userId: 'bob', limit: 10, page: 1 })).auditCount).toBe(1)
        expect((await audits.history({ projectId: 'missing', userId: 'bob', limit: 10, page: 1 })).auditCount).toBe(0)
        // The worker's own events arrive on their own connection, shortly after the submitter's.
        await vi.waitFor(() => expect(events.filter((e) => e === 'failed')).toHaveLength(2), { timeout: 5_000 })
        expect(events.filter((e) => e === 'completed')).toHaveLength(1)
      } finally {
        await queue.close()
        await worker.close()
      }
    }, 60_000)
  })
})

describe.runIf(requireService('Redis', redisUp))('tokenrisk audit with REDIS_URL and a tokenrisk worker process', () => {
  it('queues the audit for the worker, which records it; --local runs it in the calling process', async () => {
    const { spawn } = await import('node:child_process')
    const { mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { main } = await import('../src/cli/main.ts')
    const { captureIo } = await import('./helpers/io.ts')
    const { PROJECT_ROOT } = await import('./helpers/paths.ts')
    const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-worker-'))
    // A Redis database of its own, so that no other process's worker takes the job.
    const env = { ...process.env, DATA_DIR: dataDir, REDIS_URL: `${TEST_REDIS_URL}/11`, LOG_LEVEL: 'warn' }
    const worker = spawn(process.execPath, [join(PROJECT_ROOT, 'bin/tokenrisk.js'), 'worker'], { env })
    let workerLog = ''
    worker.stderr.on('data', (d) => (workerLog += d))
    try {
      await vi.waitFor(() => expect(workerLog).toMatch(/running queued audits/), { timeout: 30_000, interval: 100 })
      const queued = captureIo(env)
      expect(await main(['audit', VAULT, '--project', 'queued-cli', '--user', 'alice', '--json'], queued), queued.stderr.join('\n')).toBe(0)
      expect(JSON.parse(queued.stdout.join('\n')).vulnerabilities.length).toBeGreaterThan(0)
      await vi.waitFor(() => expect(workerLog).toMatch(/"event":"completed".*"projectId":"queued-cli"/), { timeout: 5_000 })

      const local = captureIo({ ...env })
      worker.kill('SIGTERM')
      expect(await main(['audit', VAULT, '--project', 'queued-cli', '--user', 'alice', '--local'], local), local.stderr.join('\n')).toBe(0)
      expect(local.stdout.join('\n')).toMatch(/^audit of queued-cli recorded/)
    } finally {
      worker.kill('SIGKILL')
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 90_000)
})
