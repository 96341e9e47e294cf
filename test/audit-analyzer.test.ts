import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parse as parseWithAntlr } from '@solidity-parser/parser'
import { Value } from '@sinclair/typebox/value'
import { describe, expect, it } from 'vitest'
import { InputError } from '../src/errors.ts'
import { Audit, SEVERITIES } from '../src/contract/audit-history.ts'
import { analyzeProject, analyzeWithFindings } from '../src/audit/analyze.ts'
import { defineDetector } from '../src/audit/detectors/define-detector.ts'
import { DETECTORS } from '../src/audit/detectors/registry.ts'
import { MAX_SOURCE_BYTES } from '../src/audit/load/load-project.ts'
import { parseSource } from '../src/audit/parse/parse-source.ts'
import { parseSolidity } from '../src/audit/parse/parser.ts'
import { SEVERITY_WEIGHT, securityScore } from '../src/audit/score.ts'
import { NODE_MODULES } from './helpers/paths.ts'

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'audit')
const OPENZEPPELIN = path.join(import.meta.dirname, '..', 'node_modules', '@openzeppelin', 'contracts')

/** The tree without positions, keys sorted: what two parsers must agree on. */
function shape(node: unknown): string {
  return JSON.stringify(node, (key, value) =>
    key === 'loc' || key === 'range'
      ? undefined
      : value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
        : value,
  )
}

function solidityFiles(dir: string): string[] {
  const found: string[] = []
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) found.push(...solidityFiles(full))
    else if (entry.name.endsWith('.sol')) found.push(full)
  }
  return found.sort()
}

/** Files where the ANTLR grammar itself mis-associates (`a = b = c`, `c ? x += 1 : y -= 1`); tokenrisk follows solc. */
const ANTLR_ASSOCIATIVITY_QUIRKS = ['GovernorCountingFractional.sol', 'MultiSignerERC7913Weighted.sol']

describe('parser', () => {
  it('parses 0.4-era and 0.8 syntax exactly like the reference ANTLR parser', () => {
    for (const file of solidityFiles(path.join(FIXTURES, 'parser'))) {
      const source = fs.readFileSync(file, 'utf8')
      expect(shape(parseSolidity(source)), file).toBe(shape(parseWithAntlr(source, { loc: true, range: true })))
    }
  })

  it('agrees with the reference parser on a sample of OpenZeppelin', () => {
    const sample = solidityFiles(OPENZEPPELIN).filter((_, i) => i % 8 === 0).filter((f) => !ANTLR_ASSOCIATIVITY_QUIRKS.some((q) => f.endsWith(q)))
    expect(sample.length).toBeGreaterThan(25)
    for (const file of sample) {
      const source = fs.readFileSync(file, 'utf8')
      expect(shape(parseSolidity(source)), file).toBe(shape(parseWithAntlr(source, { loc: true, range: true })))
    }
  })

  it('keeps positions: 1-based lines and inclusive ranges', () => {
    const source = 'pragma solidity ^0.8.0;\n\ncontract A {\n  function f() external {}\n}\n'
    const ast = parseSolidity(source)
    const contract = ast.children[1]
    // `loc` is stored as four numbers; its start and end read as the reference parser's.
    expect({ start: contract.loc!.start, end: contract.loc!.end }).toEqual({ start: { line: 3, column: 0 }, end: { line: 5, column: 0 } })
    expect(JSON.parse(JSON.stringify(contract.loc))).toEqual({ start: { line: 3, column: 0 }, end: { line: 5, column: 0 } })
    expect(source.slice(contract.range![0], contract.range![1] + 1)).toBe('contract A {\n  function f() external {}\n}')
  })

  it('reports a syntax error with its position when no parser accepts the file', () => {
    const result = parseSource('contract A {\n  function f( external {}\n}\n')
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.message).toMatch(/line 2/)
  })
})

describe('loading a project', () => {
  const foundry = path.join(FIXTURES, 'projects', 'foundry')

  it('analyses own files only, resolves foundry.toml and lib/ remappings, and reports broken files and missing imports', async () => {
    const { result, findings } = await analyzeWithFindings(foundry)
    expect(result.files.map((f) => f.path)).toEqual(['src/Helper.sol', 'src/Missing.sol', 'src/Token.sol'])
    const expectedLines = result.files.reduce((sum, f) => {
      const text = fs.readFileSync(path.join(foundry, f.path), 'utf8')
      return sum + text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
    }, 0)
    expect(result.totalLines).toBe(expectedLines)
    expect(result.errors).toEqual([
      { file: 'src/Broken.sol', message: expect.stringMatching(/syntax error.*line 5/) },
      { file: 'src/Missing.sol', message: 'line 4: import "@nowhere/Nothing.sol" not found' },
    ])
    // Guards in dependency base contracts count; the dependency's own unprotected selfdestruct is not reported.
    const selfdestructs = findings.filter((f) => f.detector === 'unprotected-selfdestruct').map((f) => `${f.file}:${f.lineNumbers[0]}`)
    expect(selfdestructs).toEqual(['src/Missing.sol:8', 'src/Token.sol:18'])
    expect(findings.every((f) => f.file.startsWith('src/'))).toBe(true)
  })

  it('analyses a single file from its project root', async () => {
    const result = await analyzeProject(path.join(foundry, 'src', 'Token.sol'))
    expect(result.files.map((f) => f.path)).toEqual(['src/Token.sol'])
    expect(result.errors).toEqual([])
    expect(result.vulnerabilities.every((v) => v.file === 'src/Token.sol')).toBe(true)
  })

  it('uses remappings.txt, remappings given as options and include paths', async () => {
    const project = path.join(FIXTURES, 'projects', 'remapped')
    const without = await analyzeProject(project)
    // OpenZeppelin lies in a node_modules above the project: not read without an include path.
    expect(without.errors).toEqual([
      { file: 'contracts/Vault.sol', message: 'line 5: import "other/Pausable.sol" not found' },
      { file: 'contracts/Vault.sol', message: 'line 6: import "@openzeppelin/contracts/access/Ownable.sol" not found' },
    ])
    const { result, findings } = await analyzeWithFindings(project, { remappings: ['other/=vendor/other/'], includePaths: [NODE_MODULES] })
    expect(result.errors).toEqual([])
    expect(result.files.map((f) => f.path)).toEqual(['contracts/Vault.sol'])
    // The guard of Vault.close is in a remapped dependency; OzVault's in OpenZeppelin from the include path.
    expect(findings.filter((f) => f.detector === 'unprotected-selfdestruct').map((f) => f.lineNumbers[0])).toEqual([23])
  })

  it('answers hostile input with errors, not a crash or a hang: deep nesting, huge files', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenrisk-audit-'))
    try {
      const terms = Array.from({ length: 60_000 }, () => 'x').join(' + ')
      fs.writeFileSync(path.join(dir, 'Deep.sol'), `pragma solidity 0.8.24;\ncontract Deep {\n  uint x;\n  function f() external view returns (uint) { return ${terms}; }\n  function g() external { selfdestruct(payable(msg.sender)); }\n}\n`)
      fs.writeFileSync(path.join(dir, 'Parens.sol'), `pragma solidity 0.8.24;\ncontract Parens { function f() external pure returns (uint) { return ${'('.repeat(20_000)}1${')'.repeat(20_000)}; } }\n`)
      fs.writeFileSync(path.join(dir, 'Huge.sol'), `// ${'x'.repeat(MAX_SOURCE_BYTES)}\ncontract Huge {}\n`)
      const started = performance.now()
      const result = await analyzeProject(dir)
      expect(performance.now() - started).toBeLessThan(10_000)
      expect(result.errors).toEqual([
        { file: 'Huge.sol', message: expect.stringMatching(/larger than the \d+-byte limit/) },
        { file: 'Parens.sol', message: 'syntax error: the code is nested too deeply to analyse' },
        { file: 'Deep.sol', message: expect.stringMatching(/^line 4: Deep\.f could not be analysed/) },
      ])
      // The rest of the file is still analysed.
      expect(result.vulnerabilities.some((v) => v.name === 'Unprotected selfdestruct' && v.file === 'Deep.sol')).toBe(true)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses a path that does not exist, holds no Solidity, or is not Solidity', async () => {
    await expect(analyzeProject(path.join(FIXTURES, 'no-such-folder'))).rejects.toBeInstanceOf(InputError)
    await expect(analyzeProject(path.join(FIXTURES, 'slither', 'results.json'))).rejects.toThrow(/not a Solidity file/)
    // Only Foundry tests in there: nothing of the project's own to analyse.
    await expect(analyzeProject(path.join(FIXTURES, 'projects', 'foundry', 'test'))).rejects.toThrow(/no Solidity files/)
  })
})

describe('analysis results', () => {
  it('have the shape of the audit contract and findings in severity order', async () => {
    const result = await analyzeProject(path.join(FIXTURES, 'detectors', 'reentrancy-eth'), { includePaths: [NODE_MODULES] })
    const audit = {
      totalLines: result.totalLines,
      securityScore: result.securityScore,
      vulnerabilityCount: result.vulnerabilityCount,
      vulnerabilities: result.vulnerabilities,
      projectReportLink: 'https://tokenrisk.example/reports/x',
    }
    expect([...Value.Errors(Audit, audit)]).toEqual([])
    const ranks = result.vulnerabilities.map((v) => SEVERITIES.indexOf(v.severity))
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b))
    for (const severity of SEVERITIES) {
      expect(result.vulnerabilityCount[severity]).toBe(result.vulnerabilities.filter((v) => v.severity === severity).length)
    }
    const finding = result.vulnerabilities.find((v) => v.name === 'Reentrancy with ETH transfer')
    expect(finding).toMatchObject({ file: 'Bank.sol', lineNumbers: [27, 27], severity: 'high', confidence: 'medium' })
    expect(finding?.snippet).toContain('msg.sender.call{value: amount}("")')
    expect(finding?.explanation).toContain('`Bank.withdraw()`')
  })

  it('name both functions and the variable of a cross-function reentrancy, and report it at the call', async () => {
    const { findings } = await analyzeWithFindings(path.join(FIXTURES, 'detectors', 'reentrancy-cross-function'), { includePaths: [NODE_MODULES] })
    const halfLocked = findings.find((f) => f.detector === 'reentrancy-cross-function' && f.file === 'Ledger.sol' && f.lineNumbers[0] === 44)
    expect(halfLocked?.snippet).toContain('payable(msg.sender).call{value: amount}("")')
    expect(halfLocked?.explanation).toMatch(/^`HalfLockedLedger\.withdrawAll\(\)` calls .* before it writes `credit` \(line 46\); meanwhile the callee can call `HalfLockedLedger\.move\(\)` \(line 50\), which decides on the old `credit`\./)
    // Its own lock keeps the same-function detectors quiet; only the cross-function one speaks.
    expect(findings.filter((f) => f.file === 'Ledger.sol' && f.lineNumbers[0] === 44 && f.detector.startsWith('reentrancy')).map((f) => f.detector)).toEqual(['reentrancy-cross-function'])
    const inherited = findings.find((f) => f.detector === 'reentrancy-cross-function' && f.file === 'Inherited.sol')
    expect(inherited?.explanation).toContain('`StakeBase.unstake()` calls `settlement.settle(account, amount)` (through `_settle()`) before it writes `stake` (line 18)')
    expect(inherited?.explanation).toContain('`TransferableStake.transferStake()` (line 28)')
  })

  it('run every detector over every test project and OpenZeppelin without a detector failing', async () => {
    const folders = fs.readdirSync(path.join(FIXTURES, 'detectors')).map((d) => path.join(FIXTURES, 'detectors', d))
    for (const folder of [...folders, OPENZEPPELIN]) {
      const result = await analyzeProject(folder, { includePaths: [NODE_MODULES] })
      expect(result.errors, folder).toEqual([])
    }
  })

  it('find no high-severity issue in well-audited code (precision guard)', async () => {
    const audited = [OPENZEPPELIN, path.join(OPENZEPPELIN, '..', '..', '@uniswap', 'v2-core', 'contracts'), path.join(OPENZEPPELIN, '..', '..', '@uniswap', 'v3-core', 'contracts')]
    for (const folder of audited) {
      const result = await analyzeProject(folder)
      expect(result.vulnerabilities.filter((v) => v.severity === 'high').map((v) => `${v.name} ${v.file}:${v.lineNumbers[0]}`), folder).toEqual([])
    }
  })
})

describe('detector registry', () => {
  it('has at least 40 detectors, each in the file its category and id name', () => {
    expect(DETECTORS.length).toBeGreaterThanOrEqual(40)
    for (const d of DETECTORS) {
      expect(fs.existsSync(path.join(import.meta.dirname, '..', 'src', 'audit', 'detectors', d.category, `${d.id}.ts`)), d.id).toBe(true)
    }
  })

  it('covers every item the analyzer must detect', () => {
    const ids = new Set(DETECTORS.map((d) => d.id))
    const required = [
      'reentrancy-eth', 'reentrancy-no-eth', 'reentrancy-events', 'unchecked-lowlevel', 'unchecked-send', 'unchecked-transfer',
      'arbitrary-send-eth', 'arbitrary-send-erc20', 'tx-origin', 'controlled-delegatecall', 'unprotected-selfdestruct',
      'unprotected-initializer', 'unprotected-upgrade', 'weak-prng', 'blockhash-current', 'timestamp', 'integer-overflow',
      'uninitialized-storage', 'uninitialized-state', 'shadowing-state', 'locked-ether', 'incorrect-equality', 'calls-loop',
      'unbounded-loop', 'erc20-approve-race', 'front-running-reward', 'missing-zero-check', 'events-access', 'events-maths',
      'divide-before-multiply', 'unused-return', 'deprecated-constructs', 'pragma-floating', 'pragma-outdated', 'assembly',
      'low-level-calls', 'naming-convention', 'dead-code', 'constable-states', 'immutable-states', 'external-function',
      'storage-read-in-loop', 'cache-array-length', 'costly-loop',
    ]
    expect(required.filter((id) => !ids.has(id))).toEqual([])
  })

  it('rejects malformed detector metadata when it is defined', () => {
    const valid = {
      id: 'example-check',
      title: 'Example',
      category: 'style' as const,
      severity: 'low' as const,
      confidence: 'high' as const,
      explanation: 'Explains.',
      recommendation: 'Recommends.',
      detect() {},
    }
    expect(() => defineDetector(valid)).not.toThrow()
    expect(() => defineDetector({ ...valid, id: 'Not Kebab' })).toThrow(/kebab-case/)
    expect(() => defineDetector({ ...valid, severity: 'critical' as never })).toThrow(/severity/)
    expect(() => defineDetector({ ...valid, confidence: 'certain' as never })).toThrow(/confidence/)
    expect(() => defineDetector({ ...valid, category: 'misc' as never })).toThrow(/category/)
    expect(() => defineDetector({ ...valid, explanation: '' })).toThrow(/explanation/)
  })
})

describe('security score', () => {
  const finding = (name: string, severity: (typeof SEVERITIES)[number], confidence: 'high' | 'medium' | 'low' = 'high') => ({ name, severity, confidence })

  it('is 100 without findings or with optimizations only, and stays within (0, 100]', () => {
    expect(securityScore([])).toBe(100)
    expect(securityScore([finding('gas', 'optimization'), finding('gas2', 'optimization')])).toBe(100)
    const many = Array.from({ length: 200 }, (_, i) => finding(`h${i}`, 'high'))
    expect(securityScore(many)).toBeGreaterThanOrEqual(0)
    expect(securityScore(many)).toBeLessThan(1)
  })

  it('never rises when a finding is added, and ranks severities and confidences', () => {
    const base = [finding('a', 'medium')]
    for (const severity of SEVERITIES) expect(securityScore([...base, finding('b', severity)])).toBeLessThanOrEqual(securityScore(base))
    expect(securityScore([finding('a', 'high')])).toBeLessThan(securityScore([finding('a', 'medium')]))
    expect(securityScore([finding('a', 'medium')])).toBeLessThan(securityScore([finding('a', 'low')]))
    expect(securityScore([finding('a', 'high', 'high')])).toBeLessThan(securityScore([finding('a', 'high', 'low')]))
    expect(SEVERITY_WEIGHT.optimization).toBe(0)
  })

  it('weighs a repeated finding at most twice a single one', () => {
    const once = 100 - securityScore([finding('a', 'high')])
    const repeated = securityScore(Array.from({ length: 50 }, () => finding('a', 'high')))
    const twoDistinct = securityScore([finding('a', 'high'), finding('b', 'high')])
    expect(repeated).toBeGreaterThanOrEqual(twoDistinct)
    expect(100 - repeated).toBeGreaterThan(once)
  })
})
