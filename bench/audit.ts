/**
 * bench:audit — how fast and how precise tokenrisk's Solidity analyzer is.
 *
 * Speed: all of @openzeppelin/contracts, against solhint with its security rules over the same
 * files, in the same run. Each tool runs in a fresh Node process (so peak memory is its own and
 * nothing is warm), once cold; tokenrisk then runs a second time in the same process to show the
 * warm figure. Printed: time, files/s, lines/s, peak RSS, and the ratio solhint / tokenrisk.
 *
 * Precision: findings by severity on OpenZeppelin (audited code: every high there is a false
 * alarm), and on the detector fixture corpus (test/fixtures/audit/detectors/<id>/, our own
 * contracts: each bug line marked `// expect: <id>`, beside look-alikes that must stay quiet).
 * Every folder is analysed with every detector. Per detector: recall (marked bugs found), false
 * alarms (its findings in folders that mark its bugs, on lines no marker names as a bug), and its
 * findings elsewhere in the corpus (other folders, or bug lines marked for other detectors), then the same
 * per detector family. High-severity findings on lines no marker names as a bug are
 * listed: they are high-severity false alarms on look-alikes.
 *
 * Size: the OpenZeppelin audit as stored (findings counted and listed, bytes of JSON) against the
 * audit's size bound.
 *
 * Targets: OpenZeppelin analysed in under 2 s (and faster than solhint); no high-severity finding
 * on OpenZeppelin or on the look-alikes; every marked bug found.
 *
 *   npm run bench:audit
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { SEVERITIES, type Severity } from '../src/contract/audit-history.ts'
import { analyzeProject, analyzeWithFindings } from '../src/audit/analyze.ts'
import { DETECTOR_CATEGORIES } from '../src/audit/detectors/define-detector.ts'
import { DETECTORS } from '../src/audit/detectors/registry.ts'
import { countLines, findOwnSources } from '../src/audit/load/load-project.ts'
import { AUDIT_LIMITS } from '../src/contract/audit-history.ts'
import { serializeAudit } from '../src/store/repositories/audits.ts'

const ROOT = path.join(import.meta.dirname, '..')
const TARGET = path.join(ROOT, 'node_modules', '@openzeppelin', 'contracts')
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'audit', 'detectors')
const TARGET_SECONDS = 2

interface RunFigures {
  tool: string
  /** Milliseconds of analysis (in the child, excluding Node start-up). */
  ms: number
  /** Milliseconds of a second, warm run in the same process (tokenrisk only). */
  warmMs?: number
  files: number
  lines: number
  findings: number
  peakRssMb: number
  /** tokenrisk only: findings by severity, and the high ones (detector, file:line). */
  bySeverity?: Record<Severity, number>
  highs?: string[]
  /** tokenrisk only: the audit as stored: findings counted, listed, and its JSON's size. */
  counted?: number
  listed?: number
  auditBytes?: number
}

const require = createRequire(import.meta.url)

async function runTokenrisk(): Promise<RunFigures> {
  const start = performance.now()
  const result = await analyzeProject(TARGET)
  const ms = performance.now() - start
  const warmStart = performance.now()
  const { findings } = await analyzeWithFindings(TARGET)
  const warmMs = performance.now() - warmStart
  return {
    bySeverity: result.vulnerabilityCount,
    highs: findings.filter((f) => f.severity === 'high').map((f) => `${f.detector} ${f.file}:${f.lineNumbers[0]}`),
    tool: 'tokenrisk',
    ms,
    warmMs,
    files: result.files.length,
    lines: result.totalLines,
    findings: result.vulnerabilities.length,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    counted: Object.values(result.vulnerabilityCount).reduce((a, b) => a + b, 0),
    listed: result.vulnerabilities.length,
    auditBytes: serializeAudit(result).json.length,
  }
}

function runSolhint(): RunFigures {
  const solhint = require('solhint') as { processStr(source: string, config: object, fileName?: string): { reports: unknown[] } }
  // Every rule of solhint's security category, as warnings.
  const securityDir = path.join(path.dirname(require.resolve('solhint')), 'rules', 'security')
  const rules = Object.fromEntries(
    fs
      .readdirSync(securityDir)
      .filter((f) => f.endsWith('.js') && f !== 'index.js')
      .map((f) => [f.replace(/\.js$/, ''), 'warn']),
  )
  const files = findOwnSources(TARGET)
  const start = performance.now()
  let findings = 0
  let lines = 0
  for (const file of files) {
    const source = fs.readFileSync(file, 'utf8')
    lines += countLines(source)
    findings += solhint.processStr(source, { rules }, file).reports.length
  }
  return { tool: 'solhint (security rules)', ms: performance.now() - start, files: files.length, lines, findings, peakRssMb: process.resourceUsage().maxRSS / 1024 }
}

/** Runs one tool in a fresh process and reads its figures. */
function child(tool: 'tokenrisk' | 'solhint'): RunFigures & { wallMs: number } {
  const start = performance.now()
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'audit.ts'), '--child', tool], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  })
  const wallMs = performance.now() - start
  if (run.status !== 0) throw new Error(`${tool} run failed: ${run.stderr}`)
  const line = run.stdout.trim().split('\n').pop() ?? ''
  return { ...(JSON.parse(line) as RunFigures), wallMs }
}

function row(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
}

/** A fixture line: `file:line` within its folder. */
type LineKey = string

interface DetectorScore {
  expected: number
  found: number
  falseAlarms: string[]
  elsewhere: number
}

/**
 * Every detector on every fixture folder: recall and false alarms per detector (see the header),
 * the corpus's findings by severity, and the high-severity findings on lines no marker names.
 */
async function runCorpus(): Promise<{ scores: Map<string, DetectorScore>; bySeverity: Record<Severity, number>; highOnLookAlikes: string[]; folders: number; ms: number }> {
  const scores = new Map<string, DetectorScore>(DETECTORS.map((d) => [d.id, { expected: 0, found: 0, falseAlarms: [], elsewhere: 0 }]))
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>
  const highOnLookAlikes: string[] = []
  const folders = fs.readdirSync(FIXTURES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()
  const start = performance.now()
  for (const folder of folders) {
    const dir = path.join(FIXTURES, folder)
    // Expected findings per detector and line (a line may expect two of one detector).
    const expected = new Map<string, Map<LineKey, number>>()
    for (const file of solidityFiles(dir)) {
      fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        const marker = /\/\/\s*expect:\s*([a-z0-9-, ]+)/.exec(line)
        for (const id of marker ? marker[1].split(',').map((x) => x.trim()) : []) {
          const key = `${path.relative(dir, file).split(path.sep).join('/')}:${i + 1}`
          const lines = expected.get(id) ?? new Map<LineKey, number>()
          lines.set(key, (lines.get(key) ?? 0) + 1)
          expected.set(id, lines)
        }
      })
    }
    for (const [id, lines] of expected) {
      const score = scores.get(id)
      if (score) for (const n of lines.values()) score.expected += n
    }
    const markedLines = new Set([...expected.values()].flatMap((lines) => [...lines.keys()]))
    // Fixtures importing OpenZeppelin name node_modules as an include path, as the tests do.
    const { findings } = await analyzeWithFindings(dir, { includePaths: [path.join(ROOT, 'node_modules')] })
    for (const f of findings) {
      bySeverity[f.severity]++
      const score = scores.get(f.detector)
      if (!score) continue
      const key = `${f.file}:${f.lineNumbers[0]}`
      const mine = expected.get(f.detector)
      const left = mine?.get(key) ?? 0
      if (left > 0) {
        mine?.set(key, left - 1)
        score.found++
      } else if ((mine || folder === f.detector) && !markedLines.has(key)) score.falseAlarms.push(`${folder}/${key}`)
      else score.elsewhere++
      if (f.severity === 'high' && !markedLines.has(key)) highOnLookAlikes.push(`${f.detector} ${folder}/${key}`)
    }
  }
  return { scores, bySeverity, highOnLookAlikes, folders: folders.length, ms: performance.now() - start }
}

function solidityFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name)
    return e.isDirectory() ? solidityFiles(full) : e.name.endsWith('.sol') ? [full] : []
  })
}

function severityLine(counts: Record<Severity, number>): string {
  return SEVERITIES.map((s) => `${s} ${counts[s]}`).join(', ')
}

async function main(): Promise<void> {
  const childIndex = process.argv.indexOf('--child')
  if (childIndex >= 0) {
    const tool = process.argv[childIndex + 1]
    const figures = tool === 'tokenrisk' ? await runTokenrisk() : runSolhint()
    console.log(JSON.stringify(figures))
    return
  }
  if (process.argv.includes('--corpus')) {
    await printCorpus()
    return
  }

  const version = (JSON.parse(fs.readFileSync(path.join(TARGET, 'package.json'), 'utf8')) as { version: string }).version
  const ours = child('tokenrisk')
  const theirs = child('solhint')
  console.log(`bench:audit — @openzeppelin/contracts ${version}: ${ours.files} files, ${ours.lines.toLocaleString('en-US')} lines`)
  console.log('')
  const widths = [26, 10, 10, 11, 12, 10, 14]
  console.log(row(['tool', 'time', 'files/s', 'lines/s', 'peak RSS', 'findings', 'process wall'], widths))
  for (const f of [ours, theirs]) {
    console.log(
      row(
        [
          f.tool,
          `${(f.ms / 1000).toFixed(2)} s`,
          (f.files / (f.ms / 1000)).toFixed(0),
          (f.lines / (f.ms / 1000)).toFixed(0),
          `${f.peakRssMb.toFixed(0)} MB`,
          String(f.findings),
          `${(f.wallMs / 1000).toFixed(2)} s`,
        ],
        widths,
      ),
    )
  }
  if (ours.warmMs !== undefined) console.log(row([`tokenrisk (warm, 2nd run)`, `${(ours.warmMs / 1000).toFixed(2)} s`, (ours.files / (ours.warmMs / 1000)).toFixed(0), (ours.lines / (ours.warmMs / 1000)).toFixed(0), '', '', ''], widths))
  console.log('')
  const ratio = theirs.ms / ours.ms
  console.log(`ratio: solhint takes ${ratio.toFixed(1)}× as long as tokenrisk (cold runs, analysis time)`)
  console.log(`target: whole tree under ${TARGET_SECONDS} s — ${ours.ms / 1000 < TARGET_SECONDS ? 'met' : 'MISSED'} (${(ours.ms / 1000).toFixed(2)} s); faster than solhint — ${ratio > 1 ? 'met' : 'MISSED'}`)
  console.log('')
  console.log(`OpenZeppelin findings by severity: ${ours.bySeverity ? severityLine(ours.bySeverity) : ''}`)
  for (const high of ours.highs ?? []) console.log(`  high: ${high}`)
  console.log(`target: no high-severity finding on OpenZeppelin — ${(ours.highs ?? []).length === 0 ? 'met' : 'MISSED'}`)
  console.log('')
  // The largest audit of this bench: every finding listed, far below the audit's size bound.
  const kib = (ours.auditBytes ?? 0) / 1024
  console.log(`largest audit (OpenZeppelin): ${ours.listed} findings listed of ${ours.counted} counted, ${kib.toFixed(0)} KiB of JSON`)
  console.log(
    `  size bound: ${AUDIT_LIMITS.vulnerabilities.toLocaleString('en-US')} findings and ${AUDIT_LIMITS.auditBytes / 1024} KiB — ${(((ours.listed ?? 0) / AUDIT_LIMITS.vulnerabilities) * 100).toFixed(1)}% and ${((kib * 1024 * 100) / AUDIT_LIMITS.auditBytes).toFixed(1)}% of it; target: every finding listed — ${ours.listed === ours.counted ? 'met' : 'MISSED'}`,
  )
  console.log('')
  await printCorpus()
}

async function printCorpus(): Promise<void> {
  const corpus = await runCorpus()
  const scores = [...corpus.scores]
  const expected = scores.reduce((n, [, s]) => n + s.expected, 0)
  const found = scores.reduce((n, [, s]) => n + s.found, 0)
  const falseAlarms = scores.reduce((n, [, s]) => n + s.falseAlarms.length, 0)
  console.log(`fixture corpus — ${corpus.folders} folders, every detector on each (${(corpus.ms / 1000).toFixed(2)} s)`)
  console.log(`findings by severity: ${severityLine(corpus.bySeverity)}`)
  console.log('')
  const widths = [30, 13, 9, 13, 10]
  console.log(row(['detector', 'severity', 'recall', 'false alarms', 'elsewhere'], widths))
  for (const [id, s] of scores) {
    const severity = DETECTORS.find((d) => d.id === id)?.severity ?? ''
    console.log(row([id, severity, `${s.found}/${s.expected}`, String(s.falseAlarms.length), String(s.elsewhere)], widths))
  }
  console.log(row(['all', '', `${found}/${expected}`, String(falseAlarms), ''], widths))
  // The same per detector family (the categories of docs/detectors.md).
  console.log('')
  console.log(row(['detector family', 'detectors', 'recall', 'false alarms', 'elsewhere'], widths))
  for (const category of DETECTOR_CATEGORIES) {
    const family = scores.filter(([id]) => DETECTORS.find((d) => d.id === id)?.category === category).map(([, s]) => s)
    if (family.length === 0) continue
    const sum = (f: (s: DetectorScore) => number): number => family.reduce((n, s) => n + f(s), 0)
    console.log(row([category, String(family.length), `${sum((s) => s.found)}/${sum((s) => s.expected)}`, String(sum((s) => s.falseAlarms.length)), String(sum((s) => s.elsewhere))], widths))
  }
  for (const [id, s] of scores) for (const where of s.falseAlarms) console.log(`  false alarm: ${id} ${where}`)
  for (const where of corpus.highOnLookAlikes) console.log(`  high on a look-alike: ${where}`)
  console.log('')
  console.log(`target: every marked bug found — ${found === expected ? 'met' : 'MISSED'} (${found}/${expected}); no false alarm in a detector's own fixtures — ${falseAlarms === 0 ? 'met' : 'MISSED'} (${falseAlarms})`)
  console.log(`target: no high-severity finding on the look-alikes — ${corpus.highOnLookAlikes.length === 0 ? 'met' : 'MISSED'} (${corpus.highOnLookAlikes.length})`)
}

await main()
