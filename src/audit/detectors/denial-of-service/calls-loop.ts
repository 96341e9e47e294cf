import type { DispatchContext } from '../../analyses/dispatch.ts'
import type { CallIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

/** Whether a call can fail because of the callee (a revert, a rejecting recipient, out of gas). */
function isOutgoing(call: CallIr): boolean {
  if (call.kind === 'send' || call.kind === 'transfer') return true
  // A delegatecall runs code the contract chose to run as its own (an implementation, itself: a multicall).
  if (call.kind === 'low-level') return call.lowLevel === 'call' || call.lowLevel === 'callcode'
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
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      for (const call of fn.facts.calls) {
        if (!call.inLoop) continue
        let foundIn: DispatchContext[] = []
        if (!isOutgoing(call)) {
          if (call.kind !== 'internal' && call.kind !== 'library') continue
          // Through helpers, including those that call in assembly (OpenZeppelin SafeERC20), as
          // the contracts deploying this code run them (an override can add or remove the call).
          foundIn = analyses.dispatch.contextsOf(fn).filter((context) => {
            const callee = analyses.dispatch.calleeIn(call, fn, context)
            return callee !== null && analyses.dispatch.reachableFunctions(callee, context).some((f) => f.facts.calls.some(isOutgoing))
          })
          if (foundIn.length === 0) continue
        }
        report(call.node, fn.file, `${functionLabel(fn)} calls ${code(fn.file, call.node)} once per iteration of a loop.`, { foundIn: foundIn.map((context) => ({ fn, context })) })
      }
    }
  },
})
