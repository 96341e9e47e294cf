import { unwrap } from '../../ir/queries.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel, isMsgValue, isThis, sendsEth } from '../helpers.ts'

export const arbitrarySendEth = defineDetector({
  id: 'arbitrary-send-eth',
  title: 'ETH sent to an arbitrary address',
  category: 'calls',
  severity: 'high',
  confidence: 'medium',
  explanation:
    "Anyone can call this function and choose where the contract's ETH goes: nothing restricts the caller, the destination comes from the function's arguments, and the amount is not the caller's own deposit.",
  recommendation: 'Restrict the function to authorised callers, send only to msg.sender, or pay only amounts recorded for the caller.',
  detect({ queries, entryPoints, report }) {
    for (const { fn, context } of entryPoints) {
      if (queries.isProtected(fn, context)) continue
      // Paying out of the caller's own record (`balances[msg.sender]`) is a withdrawal, not theft.
      const readsCallerRecord = ((fn.facts.nodes.get('IndexAccess') ?? []) as AST.IndexAccess[]).some((i) => queries.isSender(unwrap(i.index), fn))
      if (readsCallerRecord) continue
      for (const call of fn.facts.calls) {
        const isEthSend = call.kind === 'send' || call.kind === 'transfer' || (call.kind === 'low-level' && call.lowLevel === 'call')
        if (!isEthSend || !sendsEth(call) || !call.target || !call.value) continue
        if (isMsgValue(call.value) || queries.isSender(unwrap(call.target), fn) || isThis(call.target)) continue
        if (!queries.dependsOnParameters(call.target, fn)) continue
        report(call.node, fn.file, `${functionLabel(fn)} lets any caller send ETH to ${code(fn.file, call.target)} with ${code(fn.file, call.node)}.`, { foundIn: [{ fn, context }] })
      }
    }
  },
})
