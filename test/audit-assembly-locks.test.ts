import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildIr } from '../src/audit/ir/build-ir.ts'
import { createAnalyses, type Analyses } from '../src/audit/analyses/analyses.ts'
import type { ContractIr, FunctionIr } from '../src/audit/ir/types.ts'
import { loadProject } from '../src/audit/load/load-project.ts'
import type * as AST from '../src/audit/parse/ast.ts'
import { sendsEth } from '../src/audit/analyses/syntax.ts'
import { canReenter, resultChecked } from '../src/audit/detectors/helpers.ts'
import { NODE_MODULES } from './helpers/paths.ts'

/**
 * Calls made in inline assembly are calls of the IR (kind, value, target, whether success is
 * checked), and hand-written locks in a function body count as reentrancy locks, with the same
 * identity as a lock modifier on the same variable.
 */
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'audit', 'assembly-locks')

async function load(): Promise<{ analyses: Analyses; contract: ContractIr; fn: (name: string) => FunctionIr }> {
  const { ir, scope } = buildIr(await loadProject(FIXTURE, { includePaths: [NODE_MODULES] }))
  const contract = ir.contracts.find((c) => c.name === 'Calls')
  if (!contract) throw new Error('fixture contract missing')
  const fn = (name: string): FunctionIr => {
    const found = contract.functions.find((f) => f.name === name)
    if (!found) throw new Error(`no function ${name}`)
    return found
  }
  return { analyses: createAnalyses(ir, scope), contract, fn }
}

describe('calls made in inline assembly', () => {
  it('are recorded with their kind, value, target and whether their success is checked', async () => {
    const { analyses, fn } = await load()
    const kinds = fn('kinds')
    const calls = kinds.facts.calls.filter((c) => c.assembly !== null)
    const summary = calls.map((c) => ({
      name: c.name,
      kind: c.kind,
      sendsEth: sendsEth(c),
      target: c.target ? (c.target.type === 'Identifier' ? (c.target as AST.Identifier).name : `${((c.target as AST.MemberAccess).expression as AST.Identifier).name}.${(c.target as AST.MemberAccess).memberName}`) : null,
      checked: resultChecked(analyses, kinds, c),
      canReenter: canReenter(c),
    }))
    expect(summary).toEqual([
      { name: 'call', kind: 'low-level', sendsEth: true, target: 'to', checked: false, canReenter: true },
      { name: 'call', kind: 'low-level', sendsEth: false, target: 'msg.sender', checked: false, canReenter: true },
      { name: 'staticcall', kind: 'low-level', sendsEth: false, target: 'REGISTRY', checked: true, canReenter: false },
      { name: 'delegatecall', kind: 'low-level', sendsEth: false, target: 'to', checked: true, canReenter: true },
      // The address `c` it returns is used afterwards.
      { name: 'create2', kind: 'creation', sendsEth: true, target: null, checked: true, canReenter: false },
      // `c` is a Yul variable: the address is not known.
      { name: 'call', kind: 'low-level', sendsEth: true, target: null, checked: false, canReenter: true },
    ])
    expect(calls[0].value?.type).toBe('Identifier')
    expect(calls[4].value?.type).toBe('MemberAccess')
    expect(calls[5].value?.type).toBe('DecimalNumber')
    // The target is the function's own parameter, so parameter-derived checks see it.
    expect(analyses.taint.dependsOnParameters(calls[0].target as AST.Expression, kinds)).toBe(true)
    expect(analyses.access.isSender(calls[1].target, kinds)).toBe(true)
    // In order among the effects, so the reentrancy detectors see them.
    expect(analyses.effects.flatEffects(kinds).filter((e) => e.effect.kind === 'call').map((e) => (e.effect.kind === 'call' ? e.effect.call.name : ''))).toEqual([
      'call', 'call', 'staticcall', 'delegatecall', 'create2', 'call',
    ])
  })
})

describe('inline reentrancy locks', () => {
  it('share the identity of a lock modifier on the same variable', async () => {
    const { analyses, contract, fn } = await load()
    const busy = contract.stateVariables.find((v) => v.name === 'busy')
    expect([...analyses.locks.reentrancyLocks(fn('viaModifier'))]).toEqual([busy])
    expect([...analyses.locks.reentrancyLocks(fn('inline'))]).toEqual([busy])
  })

  it('are recognised in internal helpers called first and last', async () => {
    const { analyses, contract, fn } = await load()
    expect([...analyses.locks.reentrancyLocks(fn('viaHelpers'))]).toEqual([contract.stateVariables.find((v) => v.name === 'gate')])
  })

  it('do not include a flag that is never reset', async () => {
    const { analyses, fn } = await load()
    expect(analyses.locks.hasReentrancyLock(fn('oneShot'))).toBe(false)
  })

  it('include OpenZeppelin ReentrancyGuardTransient nonReentrant, keyed by its contract', async () => {
    const { analyses, fn } = await load()
    const keys = [...analyses.locks.reentrancyLocks(fn('transient'))]
    expect(keys.map((k) => (typeof k === 'string' ? k : k.name))).toEqual(['ReentrancyGuardTransient'])
  })
})
