import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../src/cli/main.ts'
import { formatSummary } from '../src/cli/scan.ts'
import { formatSolanaSummary } from '../src/cli/solana-summary.ts'
import { SolanaReport } from '../src/contract/solana-report.ts'
import { TokenReport } from '../src/contract/token-report.ts'
import { createDatabase } from '../src/store/database.ts'
import { createAuditRepository } from '../src/store/repositories/audits.ts'
import { sampleAudit } from './helpers/audits.ts'
import { blankOf as blank } from './helpers/blank-report.ts'
import { captureIo } from './helpers/io.ts'
import { PROJECT_ROOT } from './helpers/paths.ts'

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
    expect(unknownFlag.err).toBe('unknown option --colour (a value starting with - goes after --); tokenrisk keys --help lists its options')
    const unknownCommand = await cli('frobnicate')
    expect(unknownCommand.code).toBe(2)
  })

  it('prints its version, and a command\'s help with help <command>', async () => {
    const version = await cli('--version')
    expect(version).toMatchObject({ code: 0, out: `tokenrisk ${(JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version}` })
    expect((await cli('version')).out).toBe(version.out)
    const help = await cli('help', 'scan')
    expect(help.code).toBe(0)
    expect(help.out).toBe((await cli('scan', '--help')).out)
    expect(help.out).toMatch(/^Usage:\n  tokenrisk scan <address> --chain/)
    expect(help.out).not.toMatch(/Commands:/)
    expect(await cli('help', 'frobnicate')).toMatchObject({ code: 2, err: expect.stringMatching(/^unknown command 'frobnicate': the commands are serve, /) })
    expect((await cli('help')).out).toMatch(/tokenrisk help <command>/)
  })

  it('says what was wrong with a --chain given, and what to set', async () => {
    const address = '0x0000000000000000000000000000000000000001'
    expect(await cli('scan', address, '--chain', 'eth')).toMatchObject({ code: 2, err: expect.stringMatching(/^--chain eth is not a chain id: give the chain's decimal id \(1 for Ethereum/) })
    expect(await cli('scan', address)).toMatchObject({ code: 2, err: expect.stringMatching(/^--chain is required: a decimal EVM chain id/) })
    expect(await cli('scan', address, '--chain', '1')).toMatchObject({ code: 2, err: expect.stringMatching(/^chain 1 \(Ethereum\) has no JSON-RPC URL here: set RPC_URL_1=<url>/) })
    expect(await cli('scan', address, '--chain', '987654321')).toMatchObject({ code: 2, err: expect.stringMatching(/^chain 987654321 is not known to tokenrisk: add it to a chains file \(CHAINS_FILE/) })
  })

  it('says "not measured" for a figure it could not measure, never "unknown %" or "unknown USD"', () => {
    const evm = blank(TokenReport) as TokenReport
    evm.honeypotDetails = [{ ...(blank(TokenReport.properties.honeypotDetails.items) as TokenReport['honeypotDetails'][number]), dex: 'uniswap-v2', pairAddress: '0xpair' }]
    const solana = blank(SolanaReport) as SolanaReport
    solana.honeypotDetails.pools = [{ ...(blank(SolanaReport.properties.honeypotDetails.properties.pools.items) as SolanaReport['honeypotDetails']['pools'][number]), dex: 'raydium', pairAddress: 'pair' }]
    for (const text of [formatSummary(evm, { color: false }).join('\n'), formatSolanaSummary(solana, { color: false }).join('\n')]) {
      expect(text).not.toMatch(/unknown (%|USD)/)
      expect(text).toMatch(/price not measured +market cap not measured/)
      expect(text).toMatch(/buy not measured  sell not measured  transfer not measured/)
      expect(text).toMatch(/total not measured +code not measured +market not measured/)
    }
  })

  it("says under a pool where it lives and what runs on its swaps (a V4 pool's hook and what it did)", () => {
    const evm = blank(TokenReport) as TokenReport
    const pool = blank(TokenReport.properties.honeypotDetails.items) as TokenReport['honeypotDetails'][number]
    const venue = 'Uniswap V4 pool 0x12 in the PoolManager 0x34, against WETH, a 0.3% LP fee; hook 0x56 (beforeSwap): sells through the pool fail: gate closed'
    evm.honeypotDetails = [
      { ...pool, dex: 'Uniswap V4', pairAddress: '0xmanager', poolId: '0xid', isPairHoneypot: '1', honeypotReason: 'gate closed', venue },
      { ...pool, dex: 'Uniswap V2', pairAddress: '0xpair', isPairHoneypot: '0' },
    ]
    const lines = formatSummary(evm, { color: false })
    // A V4 pool is named by its id beside its PoolManager's address.
    const at = lines.findIndex((l) => l.startsWith('  Uniswap V4 0xmanager pool 0xid  buy'))
    expect(lines[at + 1]).toBe(`    ${venue}`)
    // A pool the report says nothing more of has no such line.
    const v2 = lines.findIndex((l) => l.startsWith('  Uniswap V2 0xpair'))
    expect(lines[v2 + 1]).not.toMatch(/^ {4}\S/)
  })

  it('says where a Solana token launched: on its curve, graduated to a pool, or that the curve could not be read', () => {
    const solana = blank(SolanaReport) as SolanaReport
    const agg = solana.marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation
    const curveLine = () => formatSolanaSummary(solana, { color: false }).find((l) => l.startsWith('  launch curve'))
    agg.launchCurve = { ...agg.launchCurve, state: 'on curve', venue: 'pump.fun bonding curve', address: 'Curve1111', progressPercent: '42.5', quoteReserve: '12.4' }
    expect(curveLine()).toBe('  launch curve: trading on its pump.fun bonding curve Curve1111: 42.5 % of its tokens sold, 12.4 SOL on it')
    agg.launchCurve = { ...agg.launchCurve, state: 'graduated', progressPercent: '100', graduatedPool: 'Pool1111' }
    expect(curveLine()).toBe('  launch curve: graduated from its pump.fun bonding curve Curve1111; it trades in the pool Pool1111')
    agg.launchCurve = { ...agg.launchCurve, state: '', reason: 'the node refused the read' }
    expect(curveLine()).toBe('  launch curve not measured: the node refused the read')
    agg.launchCurve = { ...agg.launchCurve, state: 'none' }
    expect(curveLine()).toBeUndefined()
  })

  it('lists the Solana pools whose liquidity is locked, and the unlocks to come', () => {
    const solana = blank(SolanaReport) as SolanaReport
    const locks = solana.marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.liquidityLockedDetails
    locks.lockedPools = [{ pool: 'Pool1111', dexName: 'Meteora DAMM v2', lockedPercent: 70, permanentPercent: 40, vestingPercent: 30, lockers: [] }]
    locks.upcomingUnlockDetails = [{ time: '2027-01-01T00:00:00.000Z', percent: 10, pool: 'Pool1111', slot: '' }]
    const text = formatSolanaSummary(solana, { color: false })
    expect(text).toContain('    Meteora DAMM v2 Pool1111: 70 % of its liquidity locked (40 % for ever, 30 % until its unlocks)')
    expect(text).toContain('    unlock 10 % of Pool1111 at 2027-01-01T00:00:00.000Z')
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
