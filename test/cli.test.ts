import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../src/cli/main.ts'
import { createDatabase } from '../src/store/database.ts'
import { createAuditRepository } from '../src/store/repositories/audits.ts'
import { sampleAudit } from './helpers/audits.ts'
import { captureIo } from './helpers/io.ts'

const run = promisify(execFile)

describe('tokenrisk CLI', () => {
  let dataDir: string
  let env: NodeJS.ProcessEnv
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-cli-'))
    env = { DATA_DIR: dataDir }
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  const cli = async (...argv: string[]) => {
    const io = captureIo(env)
    const code = await main(argv, io)
    return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') }
  }

  it('creates a key and prints it once as JSON, lists and revokes it', async () => {
    const created = await cli('keys', 'create', '--user', 'alice', '--name', 'laptop', '--json')
    expect(created.code).toBe(0)
    const { id, key, userId } = JSON.parse(created.out)
    expect(userId).toBe('alice')
    expect(key).toMatch(new RegExp(`^trk_${id}_`))
    const listed = await cli('keys', 'list')
    expect(listed.out).toContain(`${id}  user=alice  name=laptop`)
    expect(listed.out).not.toContain(key)
    const admin = await cli('keys', 'create', '--user', 'ops', '--admin')
    expect(admin.out).toMatch(/\(admin\)/)
    expect((await cli('keys', 'revoke', id)).out).toBe(`revoked ${id} (user alice)`)
    expect((await cli('keys', 'list')).out).toMatch(new RegExp(`${id}.*revoked`))
  })

  it('explains what is wrong instead of failing with a stack', async () => {
    const noUser = await cli('keys', 'create')
    expect(noUser).toMatchObject({ code: 2, err: '--user is required' })
    const badRate = await cli('keys', 'create', '--user', 'x', '--rate-limit', 'fast')
    expect(badRate.code).toBe(2)
    expect(badRate.err).toMatch(/rate limit must be a positive integer/)
    const unknownKey = await cli('keys', 'revoke', 'ffffffffffff')
    expect(unknownKey).toMatchObject({ code: 1, err: 'no API key with id ffffffffffff' })
    const unknownFlag = await cli('keys', 'list', '--colour')
    expect(unknownFlag.code).toBe(2)
    expect(unknownFlag.err).toMatch(/Unknown option '--colour'/)
    const unknownCommand = await cli('frobnicate')
    expect(unknownCommand.code).toBe(2)
  })

  it('reports every bad configuration value at once', async () => {
    const io = captureIo({ DATA_DIR: dataDir, PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', METRICS_TOKEN: 'short-secret' })
    const code = await main(['keys', 'list'], io)
    expect(code).toBe(2)
    const err = io.stderr.join('\n')
    expect(err).toMatch(/PORT="eighty": must be a whole number from 0 to 65535/)
    expect(err).toMatch(/LOG_LEVEL="loud": must be one of fatal, error/)
    expect(err).toMatch(/DATABASE_URL="mysql:\/\/x": must be a URL \(postgres, postgresql\)/)
    // A credential is named, never echoed.
    expect(err).toMatch(/METRICS_TOKEN=\(hidden\): must be at least 16 characters/)
    expect(err).not.toContain('short-secret')
  })

  it('imports audits from a file, all of them or none', async () => {
    const file = join(dataDir, 'audits.json')
    writeFileSync(file, JSON.stringify([sampleAudit(1), { ...sampleAudit(2), projectReportLink: 'https://elsewhere/r/1' }]))
    const ok = await cli('audits', 'import', file, '--project', 'vault', '--user', 'alice', '--name', 'Vault')
    expect(ok).toMatchObject({ code: 0, out: 'imported 2 audits into project vault' })

    const bad = join(dataDir, 'bad.json')
    const broken = sampleAudit(4)
    ;(broken.vulnerabilities[1] as { severity: string }).severity = 'critical'
    writeFileSync(bad, JSON.stringify([sampleAudit(3), broken]))
    const refused = await cli('audits', 'import', bad, '--project', 'vault', '--user', 'alice')
    expect(refused.code).toBe(2)
    expect(refused.err).toMatch(/^invalid audit file: \[1\]\.vulnerabilities\[1\]\.severity: /)

    const missingField = join(dataDir, 'missing.json')
    const { totalLines: _t, ...noLines } = sampleAudit(5)
    writeFileSync(missingField, JSON.stringify(noLines))
    expect((await cli('audits', 'import', missingField, '--project', 'vault', '--user', 'alice')).err).toMatch(/totalLines/)

    const extra = join(dataDir, 'extra.json')
    writeFileSync(extra, JSON.stringify({ ...sampleAudit(6), severityScore: 3 }))
    expect((await cli('audits', 'import', extra, '--project', 'vault', '--user', 'alice')).err).toMatch(/invalid audit file/)

    const notJson = join(dataDir, 'not.json')
    writeFileSync(notJson, '{ nope')
    expect((await cli('audits', 'import', notJson, '--project', 'vault', '--user', 'alice')).err).toMatch(/cannot read .* as JSON/)

    const store = await createDatabase({ dataDir })
    try {
      const history = await createAuditRepository(store).history({ projectId: 'vault', userId: 'alice', limit: 100, page: 1 })
      expect(history.auditCount).toBe(2)
      expect(history.audits.map((a) => a.totalLines)).toEqual([2, 1])
    } finally {
      await store.close()
    }
  })

  it('audits a project and prints the audit in the contract shape with --json', async () => {
    const res = await cli('audit', join(import.meta.dirname, 'fixtures/projects/vault'), '--project', 'cli-vault', '--user', 'alice', '--json')
    expect(res.code).toBe(0)
    const audit = JSON.parse(res.out)
    expect(Object.keys(audit).sort()).toEqual(['projectReportLink', 'securityScore', 'totalLines', 'vulnerabilities', 'vulnerabilityCount'])
    expect(audit.projectReportLink).toMatch(/^http:\/\/127\.0\.0\.1:3000\/reports\/[A-Za-z0-9_-]{24}$/)
    expect(audit.vulnerabilities.find((v: { name: string }) => v.name === 'Unprotected selfdestruct')).toMatchObject({
      severity: 'high',
      file: 'Vault.sol',
      lineNumbers: [12, 12],
    })
  })

  it('imports Slither output, and refuses a malformed one with the reason', async () => {
    const root = join(import.meta.dirname, 'fixtures/audit/slither')
    const ok = await cli('audit', '--import-slither', join(root, 'results.json'), '--root', join(root, 'project'), '--project', 'from-slither', '--user', 'alice')
    expect(ok.code).toBe(0)
    expect(ok.out).toMatch(/^audit of from-slither recorded: security score [\d.]+; \d+ lines; high \d+/)
    const bad = join(dataDir, 'bad-slither.json')
    writeFileSync(bad, JSON.stringify({ success: true, results: { detectors: [{ check: 1 }] } }))
    const refused = await cli('audit', '--import-slither', bad, '--project', 'from-slither', '--user', 'alice')
    expect(refused.code).toBe(2)
    expect(refused.err).toMatch(/check/)
    const missing = await cli('audit', '--project', 'x', '--user', 'alice')
    expect(missing.code).toBe(2)
    expect(missing.err).toMatch(/usage/)
  })

  it('runs as `npx tokenrisk` from the repository root', async () => {
    const { stdout } = await run('npx', ['--no-install', 'tokenrisk', '--help'], { env: { ...process.env, DATA_DIR: dataDir } })
    expect(stdout).toMatch(/tokenrisk serve/)
    expect(stdout).toMatch(/DATABASE_URL/)
  })
})
