import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InputError, NotFoundError } from '../src/errors.ts'
import { createApiKeyRepository } from '../src/store/repositories/api-keys.ts'
import { createAuditRepository } from '../src/store/repositories/audits.ts'
import { sampleAudit } from './helpers/audits.ts'
import { storeKinds, type TestStore } from './helpers/services.ts'


for (const kind of storeKinds()) {
  describe(`store on ${kind.name}`, () => {
    let t: TestStore
    beforeAll(async () => {
      t = await kind.open()
    })
    afterAll(async () => {
      await t?.cleanup()
    })

    it('applies migrations once: opening twice is harmless', async () => {
      const row = await t.store.db.selectFrom('audits').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
      expect(Number(row.n)).toBe(0)
      await t.store.ping()
    })

    it('stores keys only as hashes and verifies them', async () => {
      const keys = createApiKeyRepository(t.store)
      const created = await keys.create({ userId: 'carol', name: 'ci', rateLimitRps: 5 })
      expect(created.key).toMatch(/^trk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/)
      const rows = await t.store.db.selectFrom('api_keys').selectAll().where('id', '=', created.id).execute()
      // The secret is everything after `trk_<id>_` (it may itself contain "_").
      const secret = created.key.slice(`trk_${created.id}_`.length)
      expect(secret).toHaveLength(43)
      expect(JSON.stringify(rows)).not.toContain(secret)
      expect(await keys.verify(created.key)).toEqual({ keyId: created.id, userId: 'carol', admin: false, rateLimitRps: 5, format: undefined })
      expect((await keys.list()).find((k) => k.id === created.id)).toMatchObject({ userId: 'carol', name: 'ci', revokedAt: null })
      await keys.revoke(created.id)
      expect(await keys.verify(created.key)).toBeUndefined()
      await expect(keys.revoke('ffffffffffff')).rejects.toBeInstanceOf(NotFoundError)
      await expect(keys.create({ userId: 'carol', rateLimitRps: 0 })).rejects.toBeInstanceOf(InputError)
    })

    it('honours a revocation at once in the same process and within the cache time in another', async () => {
      const mine = createApiKeyRepository(t.store, { cacheMs: 300 })
      const other = createApiKeyRepository(t.store)
      const a = await mine.create({ userId: 'rev' })
      expect(await mine.verify(a.key)).toBeDefined()
      await mine.revoke(a.id)
      expect(await mine.verify(a.key)).toBeUndefined()
      const b = await mine.create({ userId: 'rev' })
      expect(await mine.verify(b.key)).toBeDefined()
      await other.revoke(b.id)
      await new Promise((r) => setTimeout(r, 350))
      expect(await mine.verify(b.key)).toBeUndefined()
      // A cached row never lets a wrong secret through.
      const c = await mine.create({ userId: 'rev' })
      expect(await mine.verify(c.key)).toBeDefined()
      expect(await mine.verify(`${c.key.slice(0, -3)}AAA`)).toBeUndefined()
    })

    it('records an audit whole and reads it back by report id', async () => {
      const audits = createAuditRepository(t.store)
      const [recorded] = await audits.record({ projectId: 'p', userId: 'dave', projectName: 'Vault', audits: [sampleAudit(3, { findings: 5 })] })
      const report = await audits.report(recorded.reportId)
      expect(report).toMatchObject({ projectId: 'p', projectName: 'Vault', userId: 'dave', createdAt: recorded.createdAt })
      expect(report?.audit.vulnerabilities).toHaveLength(5)
      expect(report?.audit).toEqual(sampleAudit(3, { findings: 5 }))
      expect(await audits.report('nope')).toBeUndefined()
    })

    it('writes nothing when any part of a recording fails', async () => {
      const audits = createAuditRepository(t.store)
      const good = sampleAudit(1)
      // The second audit breaks a NOT NULL column inside the transaction, after the first was inserted.
      const bad = { ...sampleAudit(2), vulnerabilities: [{ ...sampleAudit(2).vulnerabilities[0], file: null as unknown as string }] }
      await expect(audits.record({ projectId: 'atomic', userId: 'erin', audits: [good, bad] })).rejects.toThrow()
      const history = await audits.history({ projectId: 'atomic', userId: 'erin', limit: 10, page: 1 })
      expect(history).toEqual({ audits: [], auditCount: 0 })
      const count = await t.store.db.selectFrom('audits').select((eb) => eb.fn.countAll().as('n')).where('project_id', '=', 'atomic').executeTakeFirstOrThrow()
      expect(Number(count.n)).toBe(0)
      const project = await t.store.db.selectFrom('projects').selectAll().where('id', '=', 'atomic').executeTakeFirst()
      expect(project).toBeUndefined()
    })

    it("refuses to record into another user's project", async () => {
      const audits = createAuditRepository(t.store)
      await audits.record({ projectId: 'owned', userId: 'frank', audits: [sampleAudit(1)] })
      await expect(audits.record({ projectId: 'owned', userId: 'grace', audits: [sampleAudit(2)] })).rejects.toThrow(/belongs to another user/)
      expect((await audits.history({ projectId: 'owned', userId: 'frank', limit: 10, page: 1 })).auditCount).toBe(1)
    })

    it('refuses inconsistent counts and line ranges', async () => {
      const audits = createAuditRepository(t.store)
      const fewer = { ...sampleAudit(1, { findings: 1 }), vulnerabilityCount: { high: 0, medium: 0, low: 0, informational: 0, optimization: 0 } }
      await expect(audits.record({ projectId: 'c', userId: 'h', audits: [fewer] })).rejects.toThrow(/vulnerabilityCount.high is 0 but 1 listed/)
      const backwards = sampleAudit(1, { findings: 1 })
      backwards.vulnerabilities[0].lineNumbers = [9, 3]
      await expect(audits.record({ projectId: 'c', userId: 'h', audits: [backwards] })).rejects.toThrow(/lineNumbers/)
    })

    it('keeps many vulnerabilities of one audit (chunked inserts)', async () => {
      const audits = createAuditRepository(t.store)
      const [r] = await audits.record({ projectId: 'big', userId: 'ivan', audits: [sampleAudit(1, { findings: 450 })] })
      expect((await audits.report(r.reportId))?.audit.vulnerabilities).toHaveLength(450)
    })
  })
}

describe('history page cache', () => {
  it('serves a new audit as soon as it is recorded, even by another process, once the count is read again', async () => {
    const kind = storeKinds()[0]
    const t = await kind.open()
    try {
      const reader = createAuditRepository(t.store, { projectCacheMs: 0 })
      // A second repository on the same database plays the other process (e.g. `audits import`).
      const writer = createAuditRepository(t.store, { pageCacheSize: 0 })
      await writer.record({ projectId: 'live', userId: 'u', audits: [sampleAudit(1)] })
      const first = await reader.history({ projectId: 'live', userId: 'u', limit: 10, page: 1 })
      expect(first.audits.map((a) => a.totalLines)).toEqual([1])
      expect(await reader.history({ projectId: 'live', userId: 'u', limit: 10, page: 1 })).toEqual(first)
      await writer.record({ projectId: 'live', userId: 'u', audits: [sampleAudit(2)] })
      const second = await reader.history({ projectId: 'live', userId: 'u', limit: 10, page: 1 })
      expect(second.audits.map((a) => a.totalLines)).toEqual([2, 1])
      expect(second.auditCount).toBe(2)
    } finally {
      await t.cleanup()
    }
  })

  it("reuses a project's count for a second: another process's audit shows after it, this process's at once", async () => {
    const t = await storeKinds()[0].open()
    try {
      const reader = createAuditRepository(t.store, { projectCacheMs: 300 })
      const other = createAuditRepository(t.store)
      await reader.record({ projectId: 'ttl', userId: 'u', audits: [sampleAudit(1)] })
      expect((await reader.history({ projectId: 'ttl', userId: 'u', limit: 10, page: 1 })).auditCount).toBe(1)
      await other.record({ projectId: 'ttl', userId: 'u', audits: [sampleAudit(2)] })
      expect((await reader.history({ projectId: 'ttl', userId: 'u', limit: 10, page: 1 })).auditCount).toBe(1)
      await new Promise((r) => setTimeout(r, 350))
      expect((await reader.history({ projectId: 'ttl', userId: 'u', limit: 10, page: 1 })).audits.map((a) => a.totalLines)).toEqual([2, 1])
      await reader.record({ projectId: 'ttl', userId: 'u', audits: [sampleAudit(3)] })
      expect((await reader.history({ projectId: 'ttl', userId: 'u', limit: 10, page: 1 })).auditCount).toBe(3)
    } finally {
      await t.cleanup()
    }
  })

  it('serves the normalized rows and the history read model identically', async () => {
    const t = await storeKinds()[0].open()
    try {
      const audits = createAuditRepository(t.store)
      const [r] = await audits.record({ projectId: 'same', userId: 'u', audits: [sampleAudit(9, { findings: 7 })] })
      const fromRows = await audits.report(r.reportId)
      const fromModel = await audits.history({ projectId: 'same', userId: 'u', limit: 1, page: 1 })
      const { projectReportLink, ...audit } = fromModel.audits[0]
      expect(projectReportLink).toBe(`/reports/${r.reportId}`)
      expect(audit).toEqual(fromRows?.audit)
    } finally {
      await t.cleanup()
    }
  })
})
