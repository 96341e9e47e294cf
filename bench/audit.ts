/**
 * bench:audit — how fast tokenrisk's Solidity analyzer goes through all of @openzeppelin/contracts,
 * against solhint with its security rules over the same files, in the same run.
 *
 * Each tool runs in a fresh Node process (so peak memory is its own and nothing is warm), once
 * cold; tokenrisk then runs a second time in the same process to show the warm figure. Printed:
 * time, files/s, lines/s, peak RSS, and the ratio solhint / tokenrisk.
 *
 * Target: the whole tree in under 5 s, and faster than solhint.
 *
 *   npm run bench:audit
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { analyzeProject } from '../src/audit/analyze.ts'
import { countLines, findOwnSources } from '../src/audit/load/load-project.ts'

const ROOT = path.join(import.meta.dirname, '..')
const TARGET = path.join(ROOT, 'node_modules', '@openzeppelin', 'contracts')
const TARGET_SECONDS = 5

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
}

const require = createRequire(import.meta.url)

async function runTokenrisk(): Promise<RunFigures> {
  const start = performance.now()
  const result = await analyzeProject(TARGET)
  const ms = performance.now() - start
  const warmStart = performance.now()
  await analyzeProject(TARGET)
  const warmMs = performance.now() - warmStart
  return {
    tool: 'tokenrisk',
    ms,
    warmMs,
    files: result.files.length,
    lines: result.totalLines,
    findings: result.vulnerabilities.length,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
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

async function main(): Promise<void> {
  const childIndex = process.argv.indexOf('--child')
  if (childIndex >= 0) {
    const tool = process.argv[childIndex + 1]
    const figures = tool === 'tokenrisk' ? await runTokenrisk() : runSolhint()
    console.log(JSON.stringify(figures))
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
}

await main()
