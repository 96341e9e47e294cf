import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sampleAudit } from './helpers/audits.ts'
import { buildTestApp, TEST_BASE_URL, type TestApp } from './helpers/app.ts'
import { storeKinds, type TestStore } from './helpers/services.ts'

const HISTORY = '/api/v1/projects/audit/history'

for (const kind of storeKinds()) {
  describe(`audit history on ${kind.name}`, () => {
    let t: TestStore
    let api: TestApp
    let aliceKey: string
    let bobKey: string
    let adminKey: string
    let revokedKey: string

    /** `key: null` sends no key at all. */
    const get = (query: string, key: string | null = aliceKey) =>
      api.app.inject({ url: `${HISTORY}?${query}`, headers: key === null ? {} : { 'x-api-key': key } })

    beforeAll(async () => {
      t = await kind.open()
      api = await buildTestApp(t.store)
      aliceKey = (await api.keys.create({ userId: 'alice', name: 'laptop' })).key
      bobKey = (await api.keys.create({ userId: 'bob' })).key
      adminKey = (await api.keys.create({ userId: 'ops', admin: true })).key
      const revoked = await api.keys.create({ userId: 'alice', name: 'old' })
      revokedKey = revoked.key
      await api.keys.revoke(revoked.id)
      // 25 audits, one second apart, oldest first: audit n has totalLines n.
      const base = Date.parse('2026-01-01T00:00:00Z')
      await api.audits.record({
        projectId: 'vault',
        userId: 'alice',
        audits: Array.from({ length: 25 }, (_, i) => sampleAudit(i + 1, { createdAt: new Date(base + i * 1000).toISOString() })),
      })
      // Three audits at the same instant: the later recorded comes first.
      const tie = new Date(base + 100_000).toISOString()
      for (const n of [101, 102, 103]) {
        await api.audits.record({ projectId: 'ties', userId: 'alice', audits: [sampleAudit(n, { createdAt: tie })] })
      }
      await api.audits.record({ projectId: 'bobs', userId: 'bob', audits: [sampleAudit(7)] })
    })

    afterAll(async () => {
      await api?.app.close()
      await t?.cleanup()
    })

    describe('contract conformance', () => {
      it('answers the contract shape with JSON integers and a JSON number score', async () => {
        const res = await get('projectId=vault&userId=alice&limit=2&page=1')
        expect(res.statusCode).toBe(200)
        expect(res.headers['content-type']).toMatch(/^application\/json/)
        const body = res.json()
        expect(Object.keys(body).sort()).toEqual(['auditCount', 'audits'])
        expect(body.auditCount).toBe(25)
        expect(body.audits).toHaveLength(2)
        const audit = body.audits[0]
        expect(Object.keys(audit).sort()).toEqual(['projectReportLink', 'securityScore', 'totalLines', 'vulnerabilities', 'vulnerabilityCount'])
        expect(Number.isInteger(audit.totalLines)).toBe(true)
        expect(typeof audit.securityScore).toBe('number')
        expect(audit.securityScore).toBe(25 + 50 + 0.5)
        for (const k of ['high', 'medium', 'low', 'informational', 'optimization']) {
          expect(Number.isInteger(audit.vulnerabilityCount[k])).toBe(true)
        }
        expect(audit.projectReportLink).toMatch(new RegExp(`^${TEST_BASE_URL}/reports/[A-Za-z0-9_-]{24}$`))
        const v = audit.vulnerabilities[0]
        expect(Object.keys(v).sort()).toEqual(['confidence', 'explanation', 'file', 'lineNumbers', 'name', 'recommendation', 'severity', 'snippet'])
        expect(v).toMatchObject({ name: 'Finding 0 of audit 25', severity: 'high', confidence: 'high', lineNumbers: [10, 12], file: 'src/Contract25.sol' })
        expect(v.snippet).toContain('target.call')
      })

      it.each(['projectId', 'userId'])("answers 400 `must have required property '%s'` when it is missing", async (name) => {
        const query = name === 'projectId' ? 'userId=alice' : 'projectId=vault'
        const res = await get(query)
        expect(res.statusCode).toBe(400)
        expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: `must have required property '${name}'` })
      })

      it('names projectId first when both are missing', async () => {
        const res = await get('')
        expect(res.json().message).toBe("must have required property 'projectId'")
      })

      it('refuses an empty projectId with a clear message', async () => {
        const res = await get('projectId=&userId=alice')
        expect(res.statusCode).toBe(400)
        expect(res.json().message).toMatch(/projectId must be a non-empty string/)
      })
    })

    describe('auth', () => {
      it('answers 401 without a key, with an unknown key, a malformed key and a revoked key', async () => {
        const missing = await get('projectId=vault&userId=alice', null)
        expect(missing.statusCode).toBe(401)
        expect(missing.json().message).toMatch(/missing API key/)
        const unknown = await get('projectId=vault&userId=alice', `trk_000000000000_${'A'.repeat(43)}`)
        expect(unknown.statusCode).toBe(401)
        const wrongSecret = await get('projectId=vault&userId=alice', aliceKey.slice(0, -4) + 'AAAA')
        expect(wrongSecret.statusCode).toBe(401)
        const malformed = await get('projectId=vault&userId=alice', 'hello')
        expect(malformed.statusCode).toBe(401)
        const revoked = await get('projectId=vault&userId=alice', revokedKey)
        expect(revoked.statusCode).toBe(401)
        expect(revoked.json().message).toBe('invalid or revoked API key')
      })

      it('checks the key before the parameters', async () => {
        const res = await get('userId=alice', null)
        expect(res.statusCode).toBe(401)
      })

      it("answers 401 when a key asks for another user's projects", async () => {
        const res = await get('projectId=vault&userId=alice', bobKey)
        expect(res.statusCode).toBe(401)
        expect(res.json().message).toMatch(/its own user's projects/)
      })

      it("reads a project of another user as empty, even when userId is the key's own", async () => {
        const res = await get('projectId=vault&userId=bob', bobKey)
        expect(res.statusCode).toBe(200)
        expect(res.json()).toEqual({ audits: [], auditCount: 0 })
      })

      it("lets an admin key read any user's projects", async () => {
        const res = await get('projectId=bobs&userId=bob', adminKey)
        expect(res.statusCode).toBe(200)
        expect(res.json().auditCount).toBe(1)
      })
    })

    describe('paging', () => {
      const lines = async (query: string) => (await get(query)).json().audits.map((a: { totalLines: number }) => a.totalLines)

      it('defaults to page 1 of 10, newest first', async () => {
        expect(await lines('projectId=vault&userId=alice')).toEqual([25, 24, 23, 22, 21, 20, 19, 18, 17, 16])
      })

      it('pages through every audit once, with a partial last page', async () => {
        expect(await lines('projectId=vault&userId=alice&limit=10&page=2')).toEqual([15, 14, 13, 12, 11, 10, 9, 8, 7, 6])
        expect(await lines('projectId=vault&userId=alice&limit=10&page=3')).toEqual([5, 4, 3, 2, 1])
        const all: number[] = []
        for (let page = 1; page <= 9; page++) all.push(...(await lines(`projectId=vault&userId=alice&limit=3&page=${page}`)))
        expect(all).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i))
      })

      it('answers an empty page past the end, still counting every audit', async () => {
        const res = await get('projectId=vault&userId=alice&limit=10&page=4')
        expect(res.statusCode).toBe(200)
        expect(res.json()).toEqual({ audits: [], auditCount: 25 })
      })

      it('answers a project without audits with an empty list', async () => {
        const res = await get('projectId=nothing-here&userId=alice')
        expect(res.json()).toEqual({ audits: [], auditCount: 0 })
      })

      it('accepts limit 1 and 100 and refuses 0, 101, negative and non-numeric values', async () => {
        expect(await lines('projectId=vault&userId=alice&limit=1')).toEqual([25])
        expect((await lines('projectId=vault&userId=alice&limit=100')).length).toBe(25)
        for (const bad of ['0', '101', '-1', 'ten', '1.5', '']) {
          const res = await get(`projectId=vault&userId=alice&limit=${bad}`)
          expect(res.statusCode, `limit=${bad}`).toBe(400)
          expect(res.json().message).toMatch(/^limit must be a positive integer/)
        }
        for (const bad of ['0', '-2', 'x', '1000001']) {
          const res = await get(`projectId=vault&userId=alice&page=${bad}`)
          expect(res.statusCode, `page=${bad}`).toBe(400)
          expect(res.json().message).toMatch(/^page must be a positive integer/)
        }
      })

      it('breaks ties of the same instant by recording order, later first', async () => {
        expect(await lines('projectId=ties&userId=alice')).toEqual([103, 102, 101])
        expect(await lines('projectId=ties&userId=alice&limit=1&page=2')).toEqual([102])
      })

      it('keeps each audit with its own vulnerabilities in order', async () => {
        const body = (await get('projectId=vault&userId=alice&limit=25')).json()
        for (const audit of body.audits) {
          expect(audit.vulnerabilities.map((v: { name: string }) => v.name)).toEqual([
            `Finding 0 of audit ${audit.totalLines}`,
            `Finding 1 of audit ${audit.totalLines}`,
          ])
        }
      })
    })
  })
}
