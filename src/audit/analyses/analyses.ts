import { AccessAnalysis } from './access.ts'
import { BlockDataAnalysis } from './block-data.ts'
import { BoundsAnalysis } from './bounds.ts'
import { DataFlowAnalysis } from './dataflow.ts'
import { DispatchAnalysis } from './dispatch.ts'
import { EffectAnalysis } from './effects.ts'
import { LockAnalysis } from './locks.ts'
import { TaintAnalysis } from './taint.ts'
import type { ProjectScope } from '../ir/scope.ts'
import type { ProjectIr } from '../ir/types.ts'

/**
 * The analyses detectors ask questions of, built once per project over its IR and memoising
 * their answers: which code runs (dispatch), what it does in order (effects), who may call it
 * (access), which reentrancy locks it holds (locks), which values its caller chooses (taint), where a value comes from (dataflow) and what block data decides (blockData) and how large a value can be (bounds).
 */
export interface Analyses {
  readonly ir: ProjectIr
  readonly scope: ProjectScope
  readonly dispatch: DispatchAnalysis
  readonly effects: EffectAnalysis
  readonly access: AccessAnalysis
  readonly locks: LockAnalysis
  readonly taint: TaintAnalysis
  readonly dataflow: DataFlowAnalysis
  readonly blockData: BlockDataAnalysis
  readonly bounds: BoundsAnalysis
}

/** Builds the analyses of a project (they compute lazily, on the first question). */
export function createAnalyses(ir: ProjectIr, scope: ProjectScope): Analyses {
  const dispatch = new DispatchAnalysis(ir, scope)
  const effects = new EffectAnalysis(dispatch)
  const dataflow = new DataFlowAnalysis(dispatch, effects)
  return {
    ir,
    scope,
    dispatch,
    effects,
    access: new AccessAnalysis(dispatch),
    locks: new LockAnalysis(dispatch, effects),
    taint: new TaintAnalysis(),
    dataflow,
    blockData: new BlockDataAnalysis(dispatch, effects, dataflow),
    bounds: new BoundsAnalysis(dispatch),
  }
}
