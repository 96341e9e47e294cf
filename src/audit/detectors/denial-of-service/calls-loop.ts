import type { CallIr } from '../../ir/types.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel, reachableFunctions } from '../helpers.ts'

/** Whether a call can fail because of the callee (a revert, a rejecting recipient, out of gas). */
function isOutgoing(call: CallIr): boolean {
  if (call.kind === 'send' || call.kind === 'transfer') return true
  if (call.kind === 'low-level') return call.lowLevel !== 'staticcall'
  if (call.kind === 'external') return !(call.callee !== null && (call.callee.mutability === 'view' || call.callee.mutability === 'pure'))
  return false
}

export const callsLoop = defineDetector({
  id: 'calls-loop',
  title: 'External call inside a loop',
  category: 'denial-of-service',
  severity: 'low',
  confidence: 'medium',
  explanation:
    'One failing or gas-hungry callee in the loop (a recipient that reverts, a token that blocks an address) makes the whole transaction fail, and everyone after it in the list is blocked too.',
  recommendation: 'Prefer pull over push: record what each party is owed and let them withdraw, or skip failed items instead of reverting.',
  detect({ functions, report }) {
    for (const fn of functions) {
      for (const call of fn.facts.calls) {
        if (!call.inLoop) continue
        let outgoing = isOutgoing(call)
        if (!outgoing && (call.kind === 'internal' || call.kind === 'library') && call.callee) {
          // Through helpers, including those that call in assembly (OpenZeppelin SafeERC20).
          outgoing = reachableFunctions(call.callee).some(
            (f) => f.facts.calls.some(isOutgoing) || ((f.facts.nodes.get('AssemblyCall') ?? []) as AST.AssemblyCall[]).some((c) => c.functionName === 'call'),
          )
        }
        if (!outgoing) continue
        report(call.node, fn.file, `${functionLabel(fn)} calls ${code(fn.file, call.node)} once per iteration of a loop.`)
      }
    }
  },
})
