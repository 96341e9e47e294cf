import { sendsEth } from '../../analyses/syntax.ts'
import type { Analyses } from '../../analyses/analyses.ts'
import type { DispatchContext } from '../../analyses/dispatch.ts'
import type { LockKey } from '../../analyses/locks.ts'
import { readIsDecidedOn } from '../../analyses/value-flow.ts'
import type { CallIr, ContractIr, FunctionIr, SourceFileIr, SourceNode, StateVariableIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { canReenter, enumerate, functionLabel } from '../helpers.ts'
import { lineIn, reentrantCallsOf, type ReentrantCall } from './reentrancy-paths.ts'

/** Library and token functions that move value (OpenZeppelin SafeERC20 and Address, ERC-20/721 calls). */
const VALUE_FUNCTION = /^(safeTransfer|safeTransferFrom|transfer|transferFrom|sendValue|mint|burn|safeMint)$/

/** Where another function reads the variable and decides on it. */
interface DecidingRead {
  node: SourceNode
  file: SourceFileIr
}

/** How many other functions a finding names. */
const MAX_NAMED_FUNCTIONS = 3

export const reentrancyCrossFunction = defineDetector({
  id: 'reentrancy-cross-function',
  title: 'Cross-function reentrancy',
  category: 'reentrancy',
  severity: 'high',
  confidence: 'medium',
  explanation:
    'The function reads state, hands control to another contract, and only then updates that state; another function of the contract decides on the same state. The callee can call that other function back and it acts on the old value (the classic case: transferring a balance that the first function is about to clear). A reentrancy lock on the first function alone does not prevent this. Calls to a callee fixed by the deployment (a constant, an immutable, this contract, or a state variable only restricted functions or the constructor set) are left to the medium and low reentrancy detectors.',
  recommendation:
    'Write all state before the external call (checks-effects-interactions), or put the same reentrancy lock (e.g. OpenZeppelin ReentrancyGuard `nonReentrant`) on every function that reads or writes this state.',
  detect({ analyses, report }) {
    const decisions = new Map<FunctionIr, Map<DispatchContext, Map<StateVariableIr, DecidingRead | null>>>()
    const decides = (g: FunctionIr, deployed: ContractIr, variable: StateVariableIr): DecidingRead | null => {
      const context = analyses.dispatch.representative(g, deployed)
      const byContext = decisions.get(g) ?? new Map<DispatchContext, Map<StateVariableIr, DecidingRead | null>>()
      decisions.set(g, byContext)
      const byVariable = byContext.get(context) ?? new Map<StateVariableIr, DecidingRead | null>()
      byContext.set(context, byVariable)
      if (!byVariable.has(variable)) byVariable.set(variable, decidingRead(analyses, g, context, variable))
      return byVariable.get(variable) ?? null
    }
    for (const deployed of analyses.dispatch.deployedContracts()) {
      const entries = analyses.dispatch.entryPoints(deployed)
      for (const f of entries) {
        for (const r of reentrantCallsOf(analyses, { fn: f, context: deployed })) {
          // A callee the deployment fixed (the contract's own asset, its timelock) is not a contract
          // a caller wrote; the same-function detectors still show what such a call could reach.
          if (r.fixedCallee) continue
          const fLocks = analyses.locks.reentrancyLocks(f, deployed)
          for (const write of r.writesAfter) {
            // Only state the function decided on before the call is stale during it: a write
            // that merely adds to a value (`x += v`) or follows a fresh read leaves nothing half done.
            // A write that only adds to the value, or that follows a fresh read made after the
            // call, keeps whatever the reentrant call did.
            if (write.releasesLock || !write.readBefore || write.settledAfter) continue
            const readers: ({ fn: FunctionIr } & DecidingRead)[] = []
            for (const g of entries) {
              if (g === f || g.mutability === 'view' || g.mutability === 'pure' || analyses.access.isProtected(g, deployed)) continue
              if (sharesLock(fLocks, analyses.locks.reentrancyLocks(g, deployed))) continue
              const read = decides(g, deployed, write.variable)
              if (read) readers.push({ fn: g, ...read })
            }
            if (readers.length > 0) reportFinding(r, write, readers, deployed)
          }
        }
      }
    }

    function reportFinding(r: ReentrantCall, write: ReentrantCall['writesAfter'][number], readers: ({ fn: FunctionIr } & DecidingRead)[], deployed: ContractIr): void {
      const list = enumerate(
        readers.map((g) => `${functionLabel(g.fn)} (${lineIn(g.node, g.file, r.at.file)})`),
        MAX_NAMED_FUNCTIONS,
      )
      const f = r.entryPoint.fn
      report(
        r.at.node,
        r.at.file,
        `${functionLabel(f)} calls ${r.callDescription} before it writes \`${write.variable.name}\` (${lineIn(write.node, write.file, r.at.file)}); meanwhile the callee can call ${list}, which decide${readers.length === 1 ? 's' : ''} on the old \`${write.variable.name}\`.`,
        { foundIn: [{ fn: f, context: analyses.dispatch.representative(f, deployed) }], evidence: [{ node: write.node, file: write.file }, ...(write.readAt ? [write.readAt] : []), ...readers.map((g) => ({ node: g.node, file: g.file }))] },
      )
    }
  },
})

/** Whether two functions hold one lock in common. */
function sharesLock(a: ReadonlySet<LockKey>, b: ReadonlySet<LockKey>): boolean {
  for (const key of a) if (b.has(key)) return true
  return false
}

/** Whether a call moves value or hands it to another contract: sends ETH, transfers tokens, or calls out with a state-changing call. */
function movesValue(call: CallIr): boolean {
  return sendsEth(call) || canReenter(call) || ((call.kind === 'library' || call.kind === 'external') && VALUE_FUNCTION.test(call.name))
}

/**
 * Where `g`, as `context` runs it, reads `variable` and decides on it: the read (not a mere
 * `x += 1`) feeds a condition (require, if, loop, `?:`) of a function that then writes state or
 * moves value, or its value flows (through locals and returns of helpers) into a state write, an
 * index of one, a value-moving call or a helper that writes state or moves value. Null when `g`
 * only reads it to return, emit or discard it.
 */
function decidingRead(analyses: Analyses, g: FunctionIr, context: DispatchContext, variable: StateVariableIr): DecidingRead | null {
  const effects = analyses.effects.flatEffects(g, context)
  const acts =
    effects.some((e) => (e.effect.kind === 'write' && e.owner.kind !== 'modifier') || (e.effect.kind === 'call' && movesValue(e.effect.call))) ||
    analyses.dispatch.reachableFunctions(g, context).some((fn) => fn.facts.calls.some((c) => c.kind === 'library' && VALUE_FUNCTION.test(c.name)))
  for (const e of effects) {
    if (e.effect.kind !== 'read' || e.effect.access.variable !== variable || e.effect.access.compound) continue
    if (readIsDecidedOn(analyses, context, e, acts, movesValue)) return { node: e.effect.access.node, file: e.owner.file }
  }
  return null
}
