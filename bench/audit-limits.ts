/**
 * bench:audit-limits — the analyzer on inputs at and past its bounds, each in a fresh Node process
 * (so that peak memory is its own): generated projects filling the syntax budget
 * (`MAX_PROJECT_TOKENS`, what bounds an analysis's memory) with two shapes of code —
 * findings-heavy contracts and long expressions (the most syntax per byte) — long expressions at
 * twice the budget, and one generated 5 MB file, audited whole (it fits in the file limit
 * `MAX_SOURCE_BYTES`, the code budget and the syntax budget). Printed per run: time, peak RSS,
 * files analysed and not, findings counted and listed (every finding, up to the audit's size bound
 * of `AUDIT_LIMITS.vulnerabilities` findings and `AUDIT_LIMITS.auditBytes` of JSON; past it, what
 * was not listed is summed up per detector, severity and file), the stored audit's JSON, the first
 * report page and a history page of ten such audits.
 *
 * Target: every run under 1 GB of peak RSS; the 5 MB file audited, not refused.
 *
 *   npm run bench:audit-limits
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { analyzeProject } from '../src/audit/analyze.ts'
import { MAX_PROJECT_TOKENS, MAX_SOURCE_BYTES } from '../src/audit/load/load-project.ts'
import { tokenize } from '../src/audit/parse/lexer.ts'
import { FINDINGS_PER_PAGE, renderReportPage } from '../src/audit/report/page.ts'
import { AUDIT_LIMITS } from '../src/contract/audit-history.ts'
import { HISTORY_PAGE_MAX_BYTES, serializeAudit } from '../src/store/repositories/audits.ts'
import { generateSolidity, vaultContract } from '../test/helpers/big-solidity.ts'

const TARGET_RSS_MB = 1024
const MB = 1024 * 1024

/** Long expressions: the most syntax tree per byte of code. */
function expressionContract(i: number): string {
  const terms = Array.from({ length: 40 }, (_, k) => `a${k % 8} * ${k + 1}`).join(' + ')
  const fns = Array.from({ length: 6 }, (_, f) => `  function f${f}(uint256 a0, uint256 a1, uint256 a2, uint256 a3, uint256 a4, uint256 a5, uint256 a6, uint256 a7) public { total = ${terms}; }`)
  return `\ncontract Expr${i} {\n  uint256 public total;\n${fns.join('\n')}\n}\n`
}

/** Tokens of a piece of source as the loader counts them (without the end-of-file token). */
function tokensOf(source: string): number {
  return tokenize(source).length - 1
}

/** Files of about `fileBytes` each, as many whole contracts as fit in `tokens` tokens (each file's end-of-file token counted). */
function writeProject(dir: string, tokens: number, fileBytes: number, make: (i: number) => string): void {
  fs.mkdirSync(dir, { recursive: true })
  const header = 'pragma solidity ^0.8.0;\n'
  let spent = 0
  let contract = 0
  let full = false
  for (let f = 0; !full; f++) {
    let source = header
    spent += tokensOf(header) + 1
    while (source.length < fileBytes) {
      const next = make(contract)
      const n = tokensOf(next)
      if (spent + n > tokens) {
        full = true
        break
      }
      source += next
      spent += n
      contract++
    }
    fs.writeFileSync(path.join(dir, `F${String(f).padStart(3, '0')}.sol`), source)
  }
}

interface ChildFigures {
  ms: number
  peakRssMb: number
  error?: string
  counted?: number
  listed?: number
  unlisted?: number
  unlistedGroups?: number
  skipped?: number
  files?: number
  auditJsonBytes?: number
  pageHtmlBytes?: number
  historyBytes?: number
}

async function child(target: string): Promise<ChildFigures> {
  const started = performance.now()
  try {
    const result = await analyzeProject(target)
    const ms = performance.now() - started
    const audit = { totalLines: result.totalLines, securityScore: result.securityScore, vulnerabilityCount: result.vulnerabilityCount, vulnerabilities: result.vulnerabilities }
    const json = serializeAudit(audit).json
    const page = renderReportPage({
      projectId: 'bench',
      projectName: 'bench',
      createdAt: new Date().toISOString(),
      audit: { ...audit, vulnerabilities: result.vulnerabilities.slice(0, FINDINGS_PER_PAGE), projectReportLink: 'https://x/reports/y' },
      skipped: result.skipped,
      unlisted: result.unlisted,
      paging: { offset: 0, listedCount: result.vulnerabilities.length, page: 1, pages: Math.ceil(result.vulnerabilities.length / FINDINGS_PER_PAGE), href: (n) => `?page=${n}` },
    })
    return {
      ms,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      counted: Object.values(result.vulnerabilityCount).reduce((a, b) => a + b, 0),
      listed: result.vulnerabilities.length,
      unlisted: result.unlisted.reduce((a, u) => a + u.count, 0),
      unlistedGroups: result.unlisted.length,
      skipped: result.skipped.length,
      files: result.files.length,
      auditJsonBytes: json.length,
      pageHtmlBytes: Buffer.byteLength(page),
      // A history page of ten such audits, before the page bound cuts it.
      historyBytes: 10 * json.length,
    }
  } catch (error) {
    return { ms: performance.now() - started, peakRssMb: process.resourceUsage().maxRSS / 1024, error: (error as Error).message.slice(0, 160) }
  }
}

if (process.argv[2] === '--child') {
  process.stdout.write(JSON.stringify(await child(process.argv[3])))
  process.exit(0)
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenrisk-audit-limits-'))
try {
  const runs: { label: string; target: string }[] = []
  const budget = `${(MAX_PROJECT_TOKENS / 1e6).toFixed(1)} million tokens`
  const vaults = path.join(dir, 'vaults')
  writeProject(vaults, MAX_PROJECT_TOKENS, 256 * 1024, vaultContract)
  runs.push({ label: `findings-heavy contracts, ${budget} (the syntax budget)`, target: vaults })
  const exprs = path.join(dir, 'expressions')
  writeProject(exprs, MAX_PROJECT_TOKENS, 256 * 1024, expressionContract)
  runs.push({ label: `long expressions, ${budget} (the syntax budget)`, target: exprs })
  const over = path.join(dir, 'over-budget')
  writeProject(over, 2 * MAX_PROJECT_TOKENS, 512 * 1024, expressionContract)
  runs.push({ label: `long expressions, twice the syntax budget`, target: over })
  const huge = path.join(dir, 'huge')
  fs.mkdirSync(huge)
  const hugeSource = generateSolidity(5 * MB)
  fs.writeFileSync(path.join(huge, 'Huge.sol'), hugeSource)
  runs.push({ label: `one 5 MB file of findings-heavy contracts, ${(tokenize(hugeSource).length / 1e6).toFixed(2)} million tokens (file limit ${(MAX_SOURCE_BYTES / MB).toFixed(0)} MiB, syntax budget ${budget})`, target: huge })

  console.log('tokenrisk analyzer at and past its bounds (each run in a fresh process)')
  let worst = 0
  let hugeAudited = false
  for (const run of runs) {
    const out = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', run.target], { encoding: 'utf8', maxBuffer: 16 * MB })
    if (out.status !== 0) throw new Error(`child failed: ${out.stderr}`)
    const f = JSON.parse(out.stdout) as ChildFigures
    worst = Math.max(worst, f.peakRssMb)
    console.log(`\n${run.label}`)
    console.log(`  time ${(f.ms / 1000).toFixed(1)} s, peak RSS ${f.peakRssMb.toFixed(0)} MB`)
    if (f.error) {
      console.log(`  refused: ${f.error}`)
      continue
    }
    console.log(`  files analysed ${f.files}, not analysed ${f.skipped}`)
    if (run.target === huge) hugeAudited = (f.files ?? 0) === 1
    console.log(`  findings counted ${f.counted}, listed ${f.listed}, counted but not listed ${f.unlisted}${f.unlisted ? ` (said exactly: ${f.unlistedGroups} groups by detector, severity and file, with their lines)` : ''}`)
    console.log(`  stored audit ${((f.auditJsonBytes ?? 0) / 1024).toFixed(0)} KiB of JSON (limit ${AUDIT_LIMITS.auditBytes / 1024} KiB)`)
    console.log(`  report page 1: ${((f.pageHtmlBytes ?? 0) / 1024).toFixed(0)} KiB of HTML (${FINDINGS_PER_PAGE} findings a page)`)
    const history = f.historyBytes ?? 0
    console.log(`  history page of ten such audits: ${(history / 1024).toFixed(0)} KiB${history > HISTORY_PAGE_MAX_BYTES ? `, served cut to the page limit of ${HISTORY_PAGE_MAX_BYTES / 1024} KiB` : ''}`)
  }
  console.log(`\ntarget: peak RSS < ${TARGET_RSS_MB} MB in every run: worst ${worst.toFixed(0)} MB ${worst < TARGET_RSS_MB ? 'MET' : 'MISSED'}`)
  console.log(`target: the 5 MB file audited, not refused: ${hugeAudited ? 'MET' : 'MISSED'}`)
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
