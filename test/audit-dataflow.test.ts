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
