import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { analyzeWithFindings } from '../src/audit/analyze.ts'
import { DETECTORS } from '../src/audit/detectors/registry.ts'
import { NODE_MODULES } from './helpers/paths.ts'

/**
 * Severity that means something: `high` only where the finding states how funds are gained or
 * lost. Every folder of detector fixtures is analysed with every detector; a high finding must
 * sit on a line some `// expect:` marker names as a bug (never on a look-alike), and findings
 * whose severity depends on what is at stake carry the lower one when nothing is.
 */
const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'audit', 'detectors')

function markedLines(dir: string): Set<string> {
  const marked = new Set<string>()
  const walk = (d: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.name.endsWith('.sol')) {
        fs.readFileSync(full, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (/\/\/\s*expect:/.test(line)) marked.add(`${path.relative(dir, full).split(path.sep).join('/')}:${i + 1}`)
          })
      }
    }
  }
  walk(dir)
  return marked
}

async function findingsOf(folder: string, ids?: string[]) {
  const dir = path.join(FIXTURES, folder)
  return (await analyzeWithFindings(dir, { includePaths: [NODE_MODULES], ...(ids ? { detectors: DETECTORS.filter((d) => ids.includes(d.id)) } : {}) })).findings
}

describe('severity of findings', () => {
  it('no high-severity finding on a look-alike anywhere in the fixture corpus; a finding below its detector is one whose metadata says when', async () => {
    const rank = ['high', 'medium', 'low', 'informational', 'optimization']
    const highs: string[] = []
    const unexplained: string[] = []
    for (const folder of fs.readdirSync(FIXTURES).sort()) {
      const marked = markedLines(path.join(FIXTURES, folder))
      for (const f of await findingsOf(folder)) {
        if (f.severity === 'high' && !marked.has(`${f.file}:${f.lineNumbers[0]}`)) highs.push(`${f.detector} ${folder}/${f.file}:${f.lineNumbers[0]}`)
        const detector = DETECTORS.find((d) => d.id === f.detector)
        expect(rank.indexOf(f.severity)).toBeGreaterThanOrEqual(rank.indexOf(detector?.severity ?? 'high'))
        if (f.severity !== detector?.severity && !detector?.lowered) unexplained.push(f.detector)
      }
    }
    expect(highs).toEqual([])
    expect([...new Set(unexplained)]).toEqual([])
  }, 60_000)

  it('an owner taken over is high when the account controls funds, medium when it only passes checks', async () => {
    const findings = await findingsOf('unprotected-owner-change', ['unprotected-owner-change'])
    const at = (line: string) => findings.find((f) => `${f.file}:${f.lineNumbers[0]}` === line)
    expect(at('Owners.sol:28')?.severity).toBe('high')
    expect(at('Owners.sol:28')?.explanation).toMatch(/`Wallet.withdraw\(\)` admits to move the contract's funds\. Evidence: lines/)
    expect(at('Owners.sol:33')?.severity).toBe('high')
    expect(at('Owners.sol:89')?.severity).toBe('medium')
    expect(at('Renamed.sol:13')?.explanation).toMatch(/named like a contract/)
  })

  it('a constructor typo guarding no funds is medium, one setting the account that drains them high; a proxy to code outside the project is a note', async () => {
    const typos = await findingsOf('constructor-name', ['constructor-name'])
    for (const f of typos.filter((f) => f.file !== 'Keyword.sol')) expect(f.severity).toBe('medium')
    expect(typos.filter((f) => f.file === 'Keyword.sol').map((f) => `${f.lineNumbers[0]} ${f.severity}`)).toEqual(['7 high'])
    const forwarding = await findingsOf('delegatecall-forwarding', ['delegatecall-forwarding'])
    expect(forwarding.map((f) => `${f.file}:${f.lineNumbers[0]} ${f.severity}`).sort()).toEqual(['Proxy.sol:16 informational', 'Wallets.sol:39 high'])
  })

  it('a send or transfer before the write is low, with the stipend noted', async () => {
    const findings = await findingsOf('reentrancy-stipend', ['reentrancy-stipend', 'reentrancy-eth'])
    expect(findings.map((f) => `${f.detector} ${f.severity}`)).toEqual(['reentrancy-stipend low', 'reentrancy-stipend low'])
    expect(findings[0].explanation).toMatch(/2,300-gas stipend/)
  })
})
