// SARIF output: the fixture corpus's audit as SARIF 2.1.0, validated against the OASIS schema (as
// shipped by @microsoft/jest-sarif, a draft-04 JSON schema, checked with Ajv's draft-04 class and
// its formats); rules from the detectors' metadata, fingerprints stable across runs and line
// shifts, and `tokenrisk audit --format sarif --fail-on` as a CI gate runs it.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import Ajv04 from 'ajv-draft-04'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analyzeWithFindings } from '../src/audit/analyze.ts'
import { DETECTORS } from '../src/audit/detectors/registry.ts'
import { FINGERPRINT_KEY, LEVEL_OF, toSarif, type SarifLog } from '../src/audit/report/sarif.ts'
import type { Vulnerability } from '../src/contract/audit-history.ts'
import { main } from '../src/cli/main.ts'
import { captureIo } from './helpers/io.ts'
import { NODE_MODULES } from './helpers/paths.ts'

const require = createRequire(import.meta.url)
const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'audit', 'detectors')

function sarifValidator() {
  const schema = JSON.parse(fs.readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as object
  // The published schema has one pattern (`language`) that is a valid regular expression only
  // without the `u` flag, as JSON Schema draft-04 validators read it.
  const ajv = new Ajv04.default({ allErrors: true, strict: false, unicodeRegExp: false })
  addFormats.default(ajv)
  return ajv.compile(schema)
}

/** Every fixture folder's findings, their files prefixed with the folder (one project of them all). */
async function corpusFindings(): Promise<Vulnerability[]> {
  const all: Vulnerability[] = []
  for (const folder of fs.readdirSync(FIXTURES).sort()) {
    const { result } = await analyzeWithFindings(path.join(FIXTURES, folder), { includePaths: [NODE_MODULES] })
    all.push(...result.vulnerabilities.map((v) => ({ ...v, file: `${folder}/${v.file}` })))
  }
  return all
}

let dir: string
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenrisk-sarif-'))
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('SARIF of the fixture corpus', () => {
  let log: SarifLog
  let findings: Vulnerability[]
  beforeAll(async () => {
    findings = await corpusFindings()
    log = toSarif({ vulnerabilities: findings, detectors: DETECTORS, version: '0.1.0', skipped: [{ file: 'Binary.sol', reason: 'not a text file' }] })
  }, 120_000)

  it('is valid SARIF 2.1.0', () => {
    const validate = sarifValidator()
    const valid = validate(JSON.parse(JSON.stringify(log)))
    expect(validate.errors ?? []).toEqual([])
    expect(valid).toBe(true)
    // The validator does reject a broken log.
    const broken = JSON.parse(JSON.stringify(log)) as { runs: { results: { level: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[] }
    broken.runs[0].results[0].level = 'fatal'
    broken.runs[0].results[1].locations[0].physicalLocation.region.startLine = 0
    expect(validate(broken)).toBe(false)
  })

  it('has a rule per detector from its metadata, and a result per finding with its location and level', () => {
    const { rules } = log.runs[0].tool.driver
    expect(rules.map((r) => r.id)).toEqual(DETECTORS.map((d) => d.id))
    for (const [i, d] of DETECTORS.entries()) {
      expect(rules[i]).toMatchObject({ shortDescription: { text: d.title }, fullDescription: { text: d.explanation }, defaultConfiguration: { level: LEVEL_OF[d.severity] } })
      expect(rules[i].help.text.startsWith(d.recommendation)).toBe(true)
    }
    const { results } = log.runs[0]
    expect(results).toHaveLength(findings.length)
    expect(findings.length).toBeGreaterThan(100)
    for (const r of results) {
      expect(rules[r.ruleIndex].id).toBe(r.ruleId)
      const region = r.locations[0].physicalLocation.region
      // A line may hold two findings of one detector (of different severities): one of them is this.
      const matching = findings.filter(
        (f) => f.detector === r.ruleId && f.file === decodeURI(r.locations[0].physicalLocation.artifactLocation.uri) && f.lineNumbers[0] === region.startLine && f.lineNumbers[1] === region.endLine,
      )
      expect(matching.length).toBeGreaterThan(0)
      expect(matching.map((f) => LEVEL_OF[f.severity])).toContain(r.level)
      expect(matching.map((f) => f.severity)).toContain(r.properties.severity)
    }
    expect(new Set(results.map((r) => r.partialFingerprints[FINGERPRINT_KEY])).size).toBe(results.length)
    // The recipient side of transaction-order dependence, in 0.8 and 0.4 syntax, is in the corpus's SARIF.
    const ordering = results.filter((r) => r.ruleId === 'transaction-order-dependence').map((r) => `${decodeURI(r.locations[0].physicalLocation.artifactLocation.uri)}:${r.locations[0].physicalLocation.region.startLine}`)
    expect(ordering).toEqual(expect.arrayContaining(['transaction-order-dependence/Payees.sol:26', 'transaction-order-dependence/Payees.sol:57', 'transaction-order-dependence/Payees.sol:77', 'transaction-order-dependence/OldPayees.sol:28', 'transaction-order-dependence/OldPayees.sol:34']))
    expect(log.runs[0].invocations[0].toolExecutionNotifications).toEqual([expect.objectContaining({ level: 'warning', message: { text: 'Not analysed: not a text file' } })])
  })
})

describe('SARIF fingerprints', () => {
  it('stay the same across runs, and when code moves', async () => {
    const source = fs.readFileSync(path.join(FIXTURES, 'weak-prng', 'Lottery.sol'), 'utf8')
    const a = path.join(dir, 'a')
    const b = path.join(dir, 'b')
    fs.mkdirSync(a)
    fs.mkdirSync(b)
    fs.writeFileSync(path.join(a, 'Lottery.sol'), source)
    // The same contract, moved down by a comment block.
    fs.writeFileSync(path.join(b, 'Lottery.sol'), source.replace('contract Lottery {', '// The lottery.\n// Its rules.\n\ncontract Lottery {'))
    const sarifOf = async (root: string) => toSarif({ vulnerabilities: (await analyzeWithFindings(root, { includePaths: [NODE_MODULES] })).result.vulnerabilities, detectors: DETECTORS, version: '0.1.0' })
    const first = await sarifOf(a)
    const again = await sarifOf(a)
    const moved = await sarifOf(b)
    const prints = (log: SarifLog) => log.runs[0].results.map((r) => `${r.ruleId} ${r.partialFingerprints[FINGERPRINT_KEY]}`).sort()
    expect(first.runs[0].results.length).toBeGreaterThan(3)
    expect(prints(again)).toEqual(prints(first))
    expect(prints(moved)).toEqual(prints(first))
    expect(moved.runs[0].results.map((r) => r.locations[0].physicalLocation.region.startLine)).not.toEqual(first.runs[0].results.map((r) => r.locations[0].physicalLocation.region.startLine))
  })
})

describe('tokenrisk audit --format sarif --fail-on', () => {
  const cli = async (...argv: string[]) => {
    const io = captureIo({ DATA_DIR: path.join(dir, 'data') })
    const code = await main(argv, io)
    return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') }
  }

  it('prints valid SARIF and fails the gate on a high finding, recording the audit either way', async () => {
    const lottery = path.join(FIXTURES, 'weak-prng')
    const res = await cli('audit', lottery, '--project', 'gate', '--user', 'ci', '--format', 'sarif', '--fail-on', 'high')
    expect(res.code).toBe(3)
    expect(res.err).toMatch(/^--fail-on high: \d+ findings? of severity high or higher$/m)
    const log = JSON.parse(res.out) as SarifLog
    expect(sarifValidator()(log)).toBe(true)
    expect(log.runs[0].originalUriBaseIds?.['%SRCROOT%'].uri).toBe(`file://${lottery}/`)
    expect(log.runs[0].results.some((r) => r.ruleId === 'weak-prng' && r.level === 'error')).toBe(true)
    // The same project with a gate on nothing it has passes; a text run names each finding's detector.
    const text = await cli('audit', path.join(FIXTURES, 'pragma-floating'), '--project', 'gate2', '--user', 'ci', '--fail-on', 'high')
    expect(text.code).toBe(0)
    expect(text.out).toMatch(/\(pragma-floating\) — /)
    const json = await cli('audit', path.join(FIXTURES, 'tx-origin'), '--project', 'gate2', '--user', 'ci', '--format', 'json', '--fail-on', 'low')
    expect(json.code).toBe(3)
    expect(JSON.parse(json.out).vulnerabilities[0].detector).toMatch(/^[a-z-]+$/)
  })

  it('refuses an unknown format or gate', async () => {
    const bad = await cli('audit', FIXTURES, '--project', 'gate', '--user', 'ci', '--fail-on', 'critical')
    expect(bad).toMatchObject({ code: 2, err: '--fail-on must be one of high, medium, low' })
    const format = await cli('audit', FIXTURES, '--project', 'gate', '--user', 'ci', '--format', 'xml')
    expect(format).toMatchObject({ code: 2, err: '--format must be one of text, json, sarif' })
  })
})
