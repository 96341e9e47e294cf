import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { analyzeWithFindings } from '../src/audit/analyze.ts'
import { DETECTORS } from '../src/audit/detectors/registry.ts'
import { buildIr } from '../src/audit/ir/build-ir.ts'
import { createAnalyses, type Analyses } from '../src/audit/analyses/analyses.ts'
import type { ContractIr, FunctionIr } from '../src/audit/ir/types.ts'
import { loadProject } from '../src/audit/load/load-project.ts'
import { NODE_MODULES } from './helpers/paths.ts'

/**
 * Virtual dispatch: a deployed contract runs its own overrides of what its bases call, `super`
 * walks its linearisation, and its overrides of a check or a modifier decide who may call an
 * inherited function. The test contracts in test/fixtures/audit/dispatch/ mark the lines that
 * must be flagged (`// expect: <id>`) and the look-alikes (`// ok:`), as the detector fixtures do.
 */
const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'audit', 'dispatch')

/** The detectors that follow internal calls and modifiers, which the fixtures exercise. */
const FOLLOWING = [
  'reentrancy-eth',
  'reentrancy-no-eth',
  'reentrancy-cross-function',
  'unprotected-selfdestruct',
  'unprotected-upgrade',
  'arbitrary-send-eth',
  'calls-loop',
  'locked-ether',
]

function markedLines(): string[] {
  const expected: string[] = []
  for (const name of fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.sol')).sort()) {
    fs.readFileSync(path.join(FIXTURES, name), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const marker = /\/\/\s*expect:\s*([a-z0-9-, ]+)/.exec(line)
        for (const id of marker ? marker[1].split(',').map((s) => s.trim()) : []) expected.push(`${id} ${name}:${i + 1}`)
      })
  }
  return expected.sort()
}

async function analyse(): Promise<Awaited<ReturnType<typeof analyzeWithFindings>>> {
  return analyzeWithFindings(FIXTURES, { includePaths: [NODE_MODULES], detectors: DETECTORS.filter((d) => FOLLOWING.includes(d.id)) })
}

async function analysesOf(folder: string): Promise<{ analyses: Analyses; contract(name: string): ContractIr; fn(contract: string, name: string): FunctionIr }> {
  const { ir, scope } = buildIr(await loadProject(folder, { includePaths: [NODE_MODULES] }))
  const analyses = createAnalyses(ir, scope)
  const contract = (name: string): ContractIr => {
    const found = ir.contracts.find((c) => c.name === name)
    if (!found) throw new Error(`no contract ${name}`)
    return found
  }
  const fn = (owner: string, name: string): FunctionIr => {
    const found = contract(owner).functions.find((f) => f.name === name)
    if (!found) throw new Error(`no function ${owner}.${name}`)
    return found
  }
  return { analyses, contract, fn }
}

describe('virtual dispatch', () => {
  it('flags exactly the marked lines: overrides followed, super chains and guards as the deployed contract runs them', async () => {
    const { result, findings } = await analyse()
    expect(result.errors).toEqual([])
    expect(findings.map((f) => `${f.detector} ${f.file}:${f.lineNumbers[0]}`).sort()).toEqual(markedLines())
  })

  it('reports a finding caused by an override once, at the base function, naming the contracts that cause it', async () => {
    const { findings } = await analyse()
    const hooked = findings.filter((f) => f.file === 'Hooks.sol')
    expect(hooked).toHaveLength(1)
    expect(hooked[0]).toMatchObject({ detector: 'reentrancy-no-eth', lineNumbers: [14, 14] })
    expect(hooked[0].snippet).toContain('_beforePayout(msg.sender, amount)')
    expect(hooked[0].explanation).toContain('`PayoutBase.claim()` calls `receiver.onPayout(account, amount)` (through `_beforePayout()`)')
    expect(hooked[0].explanation).toContain('This happens in `HookedPayout` and `RenamedPayout`')
    expect(hooked[0].explanation).not.toContain('QuietPayout')

    const shutdown = findings.find((f) => f.detector === 'unprotected-selfdestruct')
    expect(shutdown?.explanation).toContain('through `Administered.shutdown()`. This happens in `OpenShop`')
    expect(shutdown?.explanation).not.toContain('StrictShop')
  })

  it('does not repeat a finding for contracts that merely inherit the function, nor name them', async () => {
    const { findings } = await analyse()
    const bank = findings.filter((f) => f.file === 'Inherited.sol' && f.lineNumbers[0] === 14)
    expect(bank.map((f) => f.detector)).toEqual(['reentrancy-eth'])
    expect(bank[0].explanation).toMatch(/^`Bank\.withdraw\(\)` sends ETH/)
    expect(bank[0].explanation).not.toMatch(/BranchBank|SavingsBank|This happens in/)
  })

  it('resolves internal calls, super and modifiers in the deployed contract', async () => {
    const { analyses, contract, fn } = await analysesOf(FIXTURES)
    const settle = fn('Ledger', 'settle')
    const reached = (context: string): string[] => analyses.dispatch.reachableFunctions(settle, contract(context)).map((f) => `${f.contract?.name}.${f.name}`)
    // FullLedger: FullLedger → CountingLedger → (super) NotifyingLedger → (super) Ledger.
    expect(reached('FullLedger')).toEqual(['Ledger.settle', 'FullLedger._record', 'CountingLedger._record', 'NotifyingLedger._record', 'Ledger._record'])
    // Alone, CountingLedger's super reaches Ledger's empty hook directly.
    expect(reached('CountedLedger')).toEqual(['Ledger.settle', 'CountingLedger._record', 'Ledger._record'])
    // Without a context: the declaring contract's own resolution.
    expect(analyses.dispatch.reachableFunctions(settle).map((f) => `${f.contract?.name}.${f.name}`)).toEqual(['Ledger.settle', 'Ledger._record'])

    const shutdown = fn('Administered', 'shutdown')
    expect(analyses.access.isProtected(shutdown, contract('StrictShop'))).toBe(true)
    expect(analyses.access.isProtected(shutdown, contract('OpenShop'))).toBe(false)
    const upgrade = fn('Upgradeable', 'upgrade')
    expect(analyses.access.isProtected(upgrade, contract('OwnedUpgradeable'))).toBe(true)
    expect(analyses.access.isProtected(upgrade, contract('OpenUpgradeable'))).toBe(false)
    // An unimplemented hook in an abstract base is where deployed contracts put their check.
    expect(analyses.access.isProtected(upgrade)).toBe(true)
  })

  it('deploys concrete contracts and the most derived abstract ones, and lists each entry point once per way of running it', async () => {
    const { analyses, contract, fn } = await analysesOf(FIXTURES)
    const deployed = analyses.dispatch.deployedContracts().map((c) => c.name)
    expect(deployed).toEqual(expect.arrayContaining(['QuietPayout', 'HookedPayout', 'RenamedPayout', 'SilentPayout', 'Bank', 'BranchBank', 'DraftPayer']))
    expect(deployed).not.toContain('PayoutBase')
    expect(deployed).not.toContain('DraftBase')

    const claims = analyses.dispatch.deployedEntryPoints().filter((e) => e.fn === fn('PayoutBase', 'claim'))
    // Quiet runs it as the base does; Hooked and Renamed alike, with Hooked's override.
    expect(claims.map((e) => e.context.name)).toEqual(['PayoutBase', 'HookedPayout'])
    expect(analyses.dispatch.deployedAlike(fn('PayoutBase', 'claim'), contract('HookedPayout')).map((c) => c.name)).toEqual(['HookedPayout', 'RenamedPayout'])
    const withdraws = analyses.dispatch.deployedEntryPoints().filter((e) => e.fn === fn('Bank', 'withdraw'))
    expect(withdraws.map((e) => e.context.name)).toEqual(['Bank'])
    // The base's claim is never an entry point of SilentPayout's as the base resolves it.
    expect(analyses.dispatch.deployedEntryPoints().filter((e) => e.fn === fn('NotifyingBase', 'claim')).map((e) => e.context.name)).toEqual(['SilentPayout'])
  })
})
