import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createAnalyses, type Analyses } from '../src/audit/analyses/analyses.ts'
import { buildIr } from '../src/audit/ir/build-ir.ts'
import type { ContractIr, FunctionIr } from '../src/audit/ir/types.ts'
import { loadProject } from '../src/audit/load/load-project.ts'
import type * as AST from '../src/audit/parse/ast.ts'
import { NODE_MODULES } from './helpers/paths.ts'

/**
 * The data-flow layer the unchecked-result and reentrancy detectors share: a call's result
 * followed to where it is looked at, and a written value traced back to the reads it comes from.
 */
const DETECTOR_FIXTURES = path.join(import.meta.dirname, 'fixtures', 'audit', 'detectors')

async function load(folder: string, name: string): Promise<{ analyses: Analyses; contract: ContractIr; fn: (n: string) => FunctionIr }> {
  const { ir, scope } = buildIr(await loadProject(path.join(DETECTOR_FIXTURES, folder), { includePaths: [NODE_MODULES] }))
  const contract = ir.contracts.find((c) => c.name === name)
  if (!contract) throw new Error(`fixture contract ${name} missing`)
  const fn = (n: string): FunctionIr => {
    const found = contract.functions.find((f) => f.name === n)
    if (!found) throw new Error(`no function ${n}`)
    return found
  }
  return { analyses: createAnalyses(ir, scope), contract, fn }
}

describe('DataFlowAnalysis.resultUse', () => {
  it('follows a success flag through copies, tuples, helpers and state, and names the callers that drop it', async () => {
    const { analyses, contract } = await load('unchecked-lowlevel', 'FlagFlow')
    const verdicts: Record<string, { checked: boolean; droppedBy: string[] }> = {}
    for (const f of contract.functions) {
      for (const call of f.facts.calls) {
        if (call.kind !== 'low-level') continue
        const use = analyses.dataflow.resultUse(call, f)
        verdicts[f.name] = { checked: use.checked, droppedBy: use.droppedAt.map((d) => d.fn.name) }
      }
    }
    expect(verdicts).toEqual({
      _forward: { checked: true, droppedBy: [] },
      _forwardDropped: { checked: false, droppedBy: ['forwardThroughHelper'] },
      forwardAndRemember: { checked: false, droppedBy: [] },
      forwardCopied: { checked: false, droppedBy: [] },
      forwardBestEffort: { checked: true, droppedBy: [] },
      forwardCopyChecked: { checked: true, droppedBy: [] },
      forwardTuple: { checked: true, droppedBy: [] },
      refund: { checked: true, droppedBy: [] },
    })
  })
})

describe('DataFlowAnalysis.readsOf', () => {
  it('traces a written value to the read it was computed from, an internal getter counting where it is called', async () => {
    const { analyses, contract, fn } = await load('reentrancy-cross-function', 'StaleCopyPool')
    const credit = contract.stateVariables.find((v) => v.name === 'credit')
    if (!credit) throw new Error('no credit')
    const lineOfOrigins = (name: string): number[] => {
      const f = fn(name)
      const writes = f.facts.stateWrites.filter((w) => w.variable === credit && w.statement?.type === 'BinaryOperation' && (w.statement as AST.BinaryOperation).operator === '=')
      return writes.flatMap((w) => analyses.dataflow.origins((w.statement as AST.BinaryOperation).right, f, analyses.dataflow.readsOf(credit)).map((o) => o.node.loc?.start.line ?? 0))
    }
    // `credit[msg.sender] = before - 1`: from the read into `before`, not from the fresh read in the event.
    expect(lineOfOrigins('withdrawOne')).toEqual([30])
    // `credit[msg.sender] = held - 10`: from the call of `_creditOf` that filled `held`.
    expect(lineOfOrigins('redeemPoints')).toEqual([38])
    // `credit[msg.sender] = current - 1`: from the read made after the hook.
    expect(lineOfOrigins('withdrawFresh')).toEqual([51])
  })
})

describe('BlockDataAnalysis', () => {
  it('says which remainders, indexes and payments block data decides, through storage, helpers and hashes, and where a deadline was set', async () => {
    const { analyses, fn } = await load('weak-prng', 'Raffle')
    const decided = (name: string): string[] =>
      analyses.blockData.decisions(fn(name)).map((d) => `${d.role}:${d.node.loc?.start.line}:${d.entropy.length > 0 ? 'entropy' : ''}${d.clock.length > 0 ? 'clock' : ''}${d.timeDivisor ? ':time' : ''}`)
    // `seed = now` stored by enter(), taken modulo by drawFromSeed(): the clock, from another function.
    expect(decided('drawFromSeed')).toEqual(['modulus:26:clock'])
    expect(analyses.blockData.decisions(fn('drawFromSeed'))[0].clock.map((o) => `${o.fn.name}:${o.node.loc?.start.line}`)).toEqual(['enter:16'])
    // A hash of block data mixed with the caller's address, handed back by two helpers, picks the payee.
    expect(decided('drawThroughHelpers')).toEqual(['recipient:51:entropy', 'index:51:entropy'])
    expect(decided('index')).toEqual(['modulus:47:entropy'])
    // The clock modulo a day is time arithmetic; a time elapsed (derived, not the clock) is no draw either.
    expect(decided('dayPhase')).toEqual(['modulus:56:clock:time'])
    // Commit-reveal and an oracle's number decide nothing by block data.
    const { analyses: other, fn: oracle } = await load('weak-prng', 'OracleDraw')
    expect(other.blockData.decisions(oracle('fulfillRandomness'))).toEqual([])
  })

  it('reads the tolerance of a deadline where it was stored, constants resolved', async () => {
    const { analyses, fn } = await load('timestamp', 'Round')
    const windowOf = (name: string): (number | null)[] =>
      fn(name)
        .facts.comparisons.filter((c) => analyses.blockData.isCurrentTime(c.left.expression, fn(name)) || analyses.blockData.isCurrentTime(c.right.expression, fn(name)))
        .map((c) => analyses.blockData.timeWindow(analyses.blockData.isCurrentTime(c.left.expression, fn(name)) ? c.right.expression : c.left.expression, fn(name)))
    expect(windowOf('bid')).toEqual([300])
    expect(windowOf('play')).toEqual([60])
    expect(windowOf('quick')).toEqual([90])
    expect(windowOf('claim')).toEqual([7 * 86400])
  })
})

describe('BoundsAnalysis', () => {
  it('bounds a value by literals, constants, requires, early returns and the branch holding it', async () => {
    const { analyses, fn } = await load('integer-overflow', 'Rewards')
    const boundOf = (name: string, operator: string, side: 'left' | 'right'): bigint | null => {
      const op = fn(name).facts.arithmetic.find((o) => o.operator === operator)
      if (!op) throw new Error(`no ${operator} in ${name}`)
      return analyses.bounds.upperBound(op[side].expression, fn(name))
    }
    expect(boundOf('bonus', '*', 'left')).toBe(1000n)
    expect(boundOf('area', '*', 'left')).toBe(1000n)
    expect(boundOf('area', '*', 'right')).toBe(1000n)
    expect(boundOf('boost', '*', 'left')).toBe(99n)
    // Nothing bounds a parameter no guard compares, or a rate anyone sets.
    expect(boundOf('reward', '*', 'left')).toBeNull()
    expect(boundOf('accrue', '*', 'right')).toBeNull()
  })
})
