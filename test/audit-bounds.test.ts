// Audits are honest about what they analysed and bounded in size: files that could not be
// analysed are listed (stored, on the report page, never in the history's shape), an audit that
// analysed nothing fails and records nothing, every finding is listed (with its detector's id) up
// to the audit's size bound and what is past it is said exactly, and the history and report pages
// stay small however big the audit.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analyzeProject, analyzeWithFindings } from '../src/audit/analyze.ts'
import { listFindings } from '../src/audit/bounds.ts'
import { codeBytes, MAX_PROJECT_CODE_BYTES, MAX_PROJECT_TOKENS, MAX_SOURCE_BYTES } from '../src/audit/load/load-project.ts'
import { tokenize } from '../src/audit/parse/lexer.ts'
import { parseSource } from '../src/audit/parse/parse-source.ts'
import { countBySeverity, securityScore } from '../src/audit/score.ts'
import { FINDINGS_PER_PAGE } from '../src/audit/report/page.ts'
import { AUDIT_LIMITS, type Vulnerability } from '../src/contract/audit-history.ts'
import { InputError } from '../src/errors.ts'
import { createInProcessAuditQueue } from '../src/queue/audit-queue.ts'
import { createAuditJobRunner } from '../src/queue/run-audit.ts'
import { parseAuditImport } from '../src/store/import-audits.ts'
import { createAuditRepository, serializeAudit, type NewAudit } from '../src/store/repositories/audits.ts'
import { MIGRATIONS } from '../src/store/migrations/index.ts'
import { sql } from 'kysely'
import { sampleAudit } from './helpers/audits.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { generateSolidity, vaultContract } from './helpers/big-solidity.ts'
import { storeKinds, type TestStore } from './helpers/services.ts'

const HISTORY = '/api/v1/projects/audit/history'
const GOOD = `pragma solidity 0.8.24;\ncontract Good {\n  address owner;\n  function kill() external { require(tx.origin == owner); selfdestruct(payable(msg.sender)); }\n}\n`

let dir: string
const project = (name: string, files: Record<string, string | Buffer>): string => {
  const root = path.join(dir, name)
  fs.mkdirSync(root, { recursive: true })
  for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(root, file), content)
  return root
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenrisk-bounds-'))
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('what an audit analysed', () => {
  it('lists the files it could not analyse, and scores only the analysed code', async () => {
    const root = project('mixed', {
      'Good.sol': GOOD,
      'Binary.sol': Buffer.from([0x70, 0x72, 0x00, 0x01, 0xff, 0xfe, 0x00, 0x13]),
      'Nested.sol': `pragma solidity 0.8.24;\ncontract N { function f() external pure returns (uint) { return ${'('.repeat(20_000)}1${')'.repeat(20_000)}; } }\n`,
      'Broken.sol': 'pragma solidity 0.8.24;\ncontract Broken { function ( }\n',
    })
    const alone = await analyzeProject(project('alone', { 'Good.sol': GOOD }))
    const result = await analyzeProject(root)
    expect(result.skipped).toEqual([
      { file: 'Binary.sol', reason: 'not a text file (it holds NUL bytes); not analysed' },
      { file: 'Broken.sol', reason: expect.stringMatching(/^syntax error/) },
      { file: 'Nested.sol', reason: 'syntax error: the code is nested too deeply to analyse' },
    ])
    expect(result.files.map((f) => f.path)).toEqual(['Good.sol'])
    expect(result.totalLines).toBe(alone.totalLines)
    expect(result.securityScore).toBe(alone.securityScore)
    expect(result.securityScore).toBeLessThan(100)
    expect(result.vulnerabilityCount).toEqual(alone.vulnerabilityCount)
  })

  it('fails, recording nothing, when it could analyse nothing', async () => {
    const binaryOnly = project('binary-only', { 'Token.sol': Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00]) })
    await expect(analyzeProject(binaryOnly)).rejects.toThrow(InputError)
    await expect(analyzeProject(binaryOnly)).rejects.toThrow(/nothing was analysed: .*Token\.sol: not a text file/)
    const nestedOnly = project('nested-only', { 'Deep.sol': `contract D { function f() external { ${'{'.repeat(30_000)} } }` })
    await expect(analyzeProject(nestedOnly)).rejects.toThrow(/nothing was analysed: .*Deep\.sol: syntax error/)

    const t = await storeKinds()[0].open()
    try {
      const audits = createAuditRepository(t.store)
      const queue = createInProcessAuditQueue(createAuditJobRunner({ audits }))
      await expect(queue.submit({ path: binaryOnly, projectId: 'nothing', userId: 'alice' })).rejects.toThrow(/nothing was analysed/)
      expect(await audits.history({ projectId: 'nothing', userId: 'alice', limit: 10, page: 1 })).toEqual({ audits: [], auditCount: 0 })
    } finally {
      await t.cleanup()
    }
  })

  it('refuses code past the project budget file by file, saying so', async () => {
    const files = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`V${i}.sol`, `pragma solidity 0.8.24;\n${vaultContract(i)}`]))
    const root = project('budget', files)
    const one = codeBytes(files['V0.sol'])
    const result = await analyzeProject(root, { maxCodeBytes: Math.floor(one * 2.5) })
    expect(result.files.map((f) => f.path)).toEqual(['V0.sol', 'V1.sol'])
    expect(result.skipped.map((s) => s.file)).toEqual(['V2.sol', 'V3.sol'])
    expect(result.skipped[0].reason).toMatch(/code budget .* is spent; not analysed/)
  })

  it('refuses a file past the syntax budget before building its tree, saying how many tokens it holds', async () => {
    const files = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`V${i}.sol`, `pragma solidity 0.8.24;\n${vaultContract(i)}`]))
    const root = project('syntax-budget', files)
    const one = parseSource(files['V0.sol'])
    if (!one.ok) throw new Error(one.message)
    const result = await analyzeProject(root, { maxTokens: one.tokens * 2 + 1 })
    expect(result.files.map((f) => f.path)).toEqual(['V0.sol', 'V1.sol'])
    expect(result.skipped).toEqual([{ file: 'V2.sol', reason: `the project's syntax budget (${one.tokens * 2 + 1} tokens, dependencies included) is spent: the file holds ${one.tokens} tokens and the budget has 1 left; not analysed` }])
    // The 5 MB generated file of the limits benchmark fits in the default budgets.
    const huge = generateSolidity(5 * 1024 * 1024)
    expect(Buffer.byteLength(huge)).toBeLessThanOrEqual(MAX_SOURCE_BYTES)
    expect(codeBytes(huge)).toBeLessThanOrEqual(MAX_PROJECT_CODE_BYTES)
    expect(tokenize(huge).length).toBeLessThanOrEqual(MAX_PROJECT_TOKENS)
  })
})

describe('bounded findings', () => {
  it('lists every finding of a repetitive file, each with its detector id', async () => {
    const root = project('repeated', { 'Many.sol': generateSolidity(60 * 1024) })
    const { result, findings } = await analyzeWithFindings(root)
    const perGroup = new Map<string, number>()
    for (const f of findings) perGroup.set(`${f.detector} ${f.file}`, (perGroup.get(`${f.detector} ${f.file}`) ?? 0) + 1)
    // Far more than the 20 per detector and file an audit once listed.
    expect(Math.max(...perGroup.values())).toBeGreaterThan(60)
    const counted = Object.values(result.vulnerabilityCount).reduce((a, b) => a + b, 0)
    expect(counted).toBe(findings.length)
    expect(result.vulnerabilities).toEqual(findings)
    expect(result.vulnerabilities.every((v) => typeof v.detector === 'string' && /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(v.detector))).toBe(true)
    expect(result.unlisted).toEqual([])
    expect(result.securityScore).toBe(securityScore(findings))
  })

  it('past its size bound in findings, lists the most severe and says exactly what it did not list', async () => {
    const { findings } = await analyzeWithFindings(project('repeated-bound', { 'Many.sol': generateSolidity(60 * 1024) }))
    const maxCount = Math.floor(findings.length / 3)
    const { listed, unlisted } = listFindings(findings, { maxCount })
    expect(listed).toEqual(findings.slice(0, maxCount))
    const rest = findings.slice(maxCount)
    expect(unlisted.reduce((sum, u) => sum + u.count, 0)).toBe(rest.length)
    // One group per detector, severity and file, with the first and last line its findings start on.
    for (const u of unlisted) {
      const mine = rest.filter((f) => f.detector === u.detector && f.severity === u.severity && f.file === u.file)
      expect(mine.length).toBe(u.count)
      expect(u.lines).toEqual([Math.min(...mine.map((f) => f.lineNumbers[0])), Math.max(...mine.map((f) => f.lineNumbers[0]))])
      expect(u.name).toBe(mine[0].name)
    }
  })

  it('keeps the listed findings within the stored audit’s byte limit, most severe first', () => {
    const finding = (i: number, severity: Vulnerability['severity']) => ({
      detector: `d${i % 7}`,
      name: `Finding ${i % 7}`,
      severity,
      confidence: 'high' as const,
      snippet: 'x'.repeat(1_000),
      lineNumbers: [i + 1, i + 1],
      file: `F${i}.sol`,
      recommendation: 'r',
      explanation: 'e',
    })
    const findings = [...Array.from({ length: 50 }, (_, i) => finding(i, 'high')), ...Array.from({ length: 50 }, (_, i) => finding(50 + i, 'low'))]
    const { listed, unlisted } = listFindings(findings, { maxBytes: 60_000 })
    expect(listed.length).toBeGreaterThan(40)
    expect(listed.length).toBeLessThan(60)
    expect(listed).toEqual(findings.slice(0, listed.length))
    expect(listed.slice(0, 50).every((f) => f.severity === 'high')).toBe(true)
    expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThan(60_000)
    expect(listed.length + unlisted.reduce((s, u) => s + u.count, 0)).toBe(100)
  })

  it('cuts a minified line in a snippet', async () => {
    const long = `pragma solidity 0.8.24; contract M { address o; function k() external { require(tx.origin == o); } ${'uint256 public v; '.repeat(5_000)} }`
    const result = await analyzeProject(project('minified', { 'M.sol': long }))
    expect(result.vulnerabilities.length).toBeGreaterThan(0)
    for (const v of result.vulnerabilities) expect(v.snippet.length).toBeLessThan(2 * 1024)
    expect(result.vulnerabilities.some((v) => /more characters \*\/$/.test(v.snippet))).toBe(true)
  })
})

describe('audit imports', () => {
  it('refuse every string past its limit, naming the field, and audits past the byte limit', () => {
    const huge = sampleAudit(1)
    huge.vulnerabilities[0].snippet = 'x'.repeat(10 * 1024 * 1024)
    expect(() => parseAuditImport(huge)).toThrow(/^invalid audit file: vulnerabilities\[0\]\.snippet: Expected string length less or equal to 16384$/)
    const named = sampleAudit(1)
    named.vulnerabilities[1].name = 'n'.repeat(2 * 1024 * 1024)
    expect(() => parseAuditImport(named)).toThrow(/^invalid audit file: vulnerabilities\[1\]\.name: Expected string length less or equal to 200$/)
    const dated = { ...sampleAudit(1), createdAt: `2026-01-01T00:00:00Z${' '.repeat(100)}` }
    expect(() => parseAuditImport(dated)).toThrow(/createdAt/)
    const many = sampleAudit(1, { findings: 1_000 })
    for (const v of many.vulnerabilities) v.snippet = 'y'.repeat(AUDIT_LIMITS.snippet)
    expect(() => parseAuditImport(many)).toThrow(/at most 2097152 are accepted/)
  })
})

for (const kind of storeKinds()) {
  describe(`stored bounds on ${kind.name}`, () => {
    let t: TestStore
    let api: TestApp
    let key: string
    let reportId = ''

    /** An audit with `n` vulnerabilities of about `bytes` each. */
    const bigAudit = (n: number, bytes: number, totalLines: number): NewAudit => {
      const audit = sampleAudit(totalLines, { findings: n })
      audit.vulnerabilities.forEach((v, i) => {
        v.snippet = `${'s'.repeat(bytes)} // ${i} é`
      })
      audit.vulnerabilityCount.high += 1_000
      return audit
    }

    beforeAll(async () => {
      t = await kind.open()
      const audits = createAuditRepository(t.store, { historyPageMaxBytes: 200_000 })
      api = await buildTestApp(t.store, { audits })
      key = (await api.keys.create({ userId: 'alice' })).key
      await api.audits.record({ projectId: 'small', userId: 'alice', audits: [sampleAudit(1), sampleAudit(2)] })
      await api.audits.record({
        projectId: 'big',
        userId: 'alice',
        audits: [sampleAudit(10), bigAudit(300, 1_000, 11), bigAudit(120, 1_000, 12), sampleAudit(13)],
      })
      const queue = createInProcessAuditQueue(createAuditJobRunner({ audits }))
      const done = await queue.submit({
        path: project(`report-${kind.name.replace(/\W/g, '')}`, { 'Good.sol': GOOD, 'Binary.sol': Buffer.from([0, 1, 2]), 'Many.sol': generateSolidity(60 * 1024) }),
        projectId: 'mixed',
        userId: 'alice',
      })
      reportId = done.reportId
    })

    afterAll(async () => {
      await api?.app.close()
      await t?.cleanup()
    })

    it('keeps the history in the contract shape: skipped files and unlisted findings are not in it', async () => {
      const res = await api.app.inject({ url: `${HISTORY}?projectId=mixed&userId=alice`, headers: { 'x-api-key': key } })
      expect(res.statusCode).toBe(200)
      const [audit] = res.json().audits
      expect(Object.keys(audit).sort()).toEqual(['projectReportLink', 'securityScore', 'totalLines', 'vulnerabilities', 'vulnerabilityCount'])
      // Each finding: the contract's fields, then its detector's id as the one extra key.
      for (const v of audit.vulnerabilities) {
        expect(Object.keys(v)).toEqual(['name', 'severity', 'snippet', 'lineNumbers', 'confidence', 'recommendation', 'explanation', 'file', 'detector'])
        expect(v.detector).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/)
      }
      // Every finding counted is listed (this app's history pages are small: the page lists the first ones, the report all).
      const counted = Object.values(audit.vulnerabilityCount as Record<string, number>).reduce((a, b) => a + b, 0)
      expect((await api.audits.report(reportId))?.listedCount).toBe(counted)
    })

    it('cuts the largest audits of a history page to keep it under its byte limit, visibly', async () => {
      const small = await api.app.inject({ url: `${HISTORY}?projectId=small&userId=alice`, headers: { 'x-api-key': key } })
      expect(small.headers['x-vulnerabilities-truncated']).toBeUndefined()
      const res = await api.app.inject({ url: `${HISTORY}?projectId=big&userId=alice&limit=4`, headers: { 'x-api-key': key } })
      expect(res.statusCode).toBe(200)
      expect(Buffer.byteLength(res.body)).toBeLessThanOrEqual(200_000)
      expect(res.headers['x-vulnerabilities-truncated']).toBe('2')
      const body = res.json()
      expect(body.audits.map((a: { totalLines: number }) => a.totalLines)).toEqual([13, 12, 11, 10])
      const [a13, a12, a11, a10] = body.audits
      // Small audits whole; the two big ones share the rest, their counts whole, lists a prefix.
      expect(a13.vulnerabilities).toEqual(sampleAudit(13).vulnerabilities)
      expect(a10.vulnerabilities).toEqual(sampleAudit(10).vulnerabilities)
      for (const [big, n] of [[a12, 120], [a11, 300]] as const) {
        expect(big.vulnerabilities.length).toBeGreaterThan(30)
        expect(big.vulnerabilities.length).toBeLessThan(n)
        expect(big.vulnerabilities).toEqual(bigAudit(n, 1_000, big.totalLines).vulnerabilities.slice(0, big.vulnerabilities.length))
        expect(big.vulnerabilityCount.high).toBeGreaterThan(1_000)
        expect(Object.keys(big).sort()).toEqual(['projectReportLink', 'securityScore', 'totalLines', 'vulnerabilities', 'vulnerabilityCount'])
      }
      // The same page again comes from the cache, with the same header.
      const again = await api.app.inject({ url: `${HISTORY}?projectId=big&userId=alice&limit=4`, headers: { 'x-api-key': key } })
      expect(again.body).toBe(res.body)
      expect(again.headers['x-vulnerabilities-truncated']).toBe('2')
    })

    it('cuts audits recorded before their cut points were kept', async () => {
      await api.audits.record({ projectId: 'legacy', userId: 'alice', audits: [bigAudit(300, 1_000, 21), bigAudit(300, 1_000, 22)] })
      const ids = await t.store.db.selectFrom('projects').select('id').where('id', '=', 'legacy').execute()
      expect(ids).toHaveLength(1)
      await t.store.db.updateTable('audits').set({ body_cuts: null }).where('project_id', '=', 'legacy').execute()
      const res = await api.app.inject({ url: `${HISTORY}?projectId=legacy&userId=alice`, headers: { 'x-api-key': key } })
      expect(Buffer.byteLength(res.body)).toBeLessThanOrEqual(200_000)
      expect(res.headers['x-vulnerabilities-truncated']).toBe('2')
      const [a22] = res.json().audits
      expect(a22.vulnerabilities.length).toBeGreaterThan(30)
      expect(a22.vulnerabilities).toEqual(bigAudit(300, 1_000, 22).vulnerabilities.slice(0, a22.vulnerabilities.length))
    })

    it('pages the report page and says what was not analysed or not listed', async () => {
      const first = await api.app.inject({ url: `/reports/${reportId}` })
      expect(first.statusCode).toBe(200)
      const html = first.body
      expect(html).toContain('data-testid="skipped-count">1<')
      expect(html).toContain('<code>Binary.sol</code>: not a text file')
      expect(html).not.toContain('data-testid="unlisted-count"')
      expect(html).toContain('data-testid="finding-detector">')
      const listed = Number(/data-testid="finding-count">(\d+)</.exec(html)?.[1])
      expect(listed).toBeGreaterThan(FINDINGS_PER_PAGE)
      expect(html.match(/data-testid="finding"/g)).toHaveLength(FINDINGS_PER_PAGE)
      expect(html).toContain(`href="./${reportId}?page=2"`)
      const pages = Math.ceil(listed / FINDINGS_PER_PAGE)
      const last = await api.app.inject({ url: `/reports/${reportId}?page=${pages}` })
      expect(last.statusCode).toBe(200)
      expect(last.body.match(/data-testid="finding"/g)).toHaveLength(listed - (pages - 1) * FINDINGS_PER_PAGE)
      expect(last.body).toContain(`id="finding-${listed}"`)
      expect((await api.app.inject({ url: `/reports/${reportId}?page=${pages + 1}` })).statusCode).toBe(404)
      expect((await api.app.inject({ url: `/reports/${reportId}?page=x` })).statusCode).toBe(400)
    })

    it('says on the report page exactly what an audit past its size bound did not list, folded', async () => {
      const { findings } = await analyzeWithFindings(project(`past-bound-${kind.name.replace(/\W/g, '')}`, { 'Many.sol': generateSolidity(60 * 1024) }))
      const { listed, unlisted } = listFindings(findings, { maxCount: 100 })
      const [recorded] = await api.audits.record({
        projectId: 'past-bound',
        userId: 'alice',
        audits: [{ totalLines: 1, securityScore: securityScore(findings), vulnerabilityCount: countBySeverity(findings), vulnerabilities: listed, unlisted }],
      })
      const html = (await api.app.inject({ url: `/reports/${recorded.reportId}` })).body
      expect(html).toContain(`data-testid="unlisted-count">${findings.length - 100}<`)
      expect(html).toContain('<details data-testid="unlisted-groups">')
      const first = unlisted[0]
      expect(html).toContain(`(<code>${first.detector}</code>) in <code>Many.sol</code>: ${first.count} more, starting on lines ${first.lines?.[0]}–${first.lines?.[1]}`)
      expect(html.match(/data-testid="unlisted"/g)).toHaveLength(unlisted.length)
    })

    it('gives findings recorded before detector ids were kept their id (migration 0500)', async () => {
      const { findings } = await analyzeWithFindings(project(`legacy-ids-${kind.name.replace(/\W/g, '')}`, { 'Good.sol': GOOD }))
      const audit = { totalLines: 5, securityScore: securityScore(findings), vulnerabilityCount: countBySeverity(findings), vulnerabilities: findings }
      const imported = { ...sampleAudit(31), vulnerabilities: sampleAudit(31).vulnerabilities }
      const [mine, theirs] = await api.audits.record({ projectId: 'legacy-ids', userId: 'alice', audits: [audit, imported] })
      // The store as it was before: no column, no key in the served JSON.
      await sql`alter table vulnerabilities drop column detector`.execute(t.store.db)
      for (const r of [mine, theirs]) {
        const row = await t.store.db.selectFrom('audits').select('body_json').where('report_id', '=', r.reportId).executeTakeFirstOrThrow()
        const body = JSON.parse(row.body_json) as { vulnerabilities: { detector?: string }[] }
        for (const v of body.vulnerabilities) delete v.detector
        const again = serializeAudit(body as never)
        await t.store.db.updateTable('audits').set({ body_json: again.json, body_cuts: again.cuts.join(',') }).where('report_id', '=', r.reportId).execute()
      }
      const migration = MIGRATIONS.find((m) => m.name === '0500_finding_detector')!
      await migration.up(t.store.db as never, t.store.dialect)
      const fresh = createAuditRepository(t.store)
      const { audits } = await fresh.history({ projectId: 'legacy-ids', userId: 'alice', limit: 10, page: 1 })
      const byLines = new Map(audits.map((a) => [a.totalLines, a]))
      expect(byLines.get(5)?.vulnerabilities.map((v) => v.detector)).toEqual(findings.map((f) => f.detector))
      expect(byLines.get(31)?.vulnerabilities).toEqual(sampleAudit(31).vulnerabilities)
      const report = await fresh.report(mine.reportId)
      expect(report?.audit.vulnerabilities.map((v) => v.detector)).toEqual(findings.map((f) => f.detector))
      expect((await fresh.report(theirs.reportId))?.audit.vulnerabilities.every((v) => v.detector === undefined)).toBe(true)
    })

    it('refuses an import past the limits and writes nothing', async () => {
      const named = sampleAudit(1)
      await expect(api.audits.record({ projectId: 'p'.repeat(201), userId: 'alice', audits: [named] })).rejects.toThrow(/project id may be at most 200/)
      await expect(api.audits.record({ projectId: 'named', userId: 'alice', projectName: 'n'.repeat(2 * 1024 * 1024), audits: [named] })).rejects.toThrow(/project name may be at most 200/)
      const long = sampleAudit(2)
      long.vulnerabilities[0].snippet = 'x'.repeat(10 * 1024 * 1024)
      await expect(api.audits.record({ projectId: 'named', userId: 'alice', audits: [sampleAudit(3), long] })).rejects.toThrow(/\[1\]\.vulnerabilities\[0\]\.snippet is 10485760 characters long/)
      expect(await api.audits.history({ projectId: 'named', userId: 'alice', limit: 10, page: 1 })).toEqual({ audits: [], auditCount: 0 })
    })
  })
}
