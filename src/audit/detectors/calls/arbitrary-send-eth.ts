import { authorizationOf, hasGatedPlaceholder } from '../../analyses/authorization.ts'
import { paysCallersOwn, readsCallerEntry } from '../../analyses/caller-funds.ts'
import { stripConversion } from '../../analyses/owner-variables.ts'
import type { Analyses } from '../../analyses/analyses.ts'
import { isMsgValue, isThis, normalised, sendsEth, unwrap } from '../../analyses/syntax.ts'
import type { FunctionIr, SourceNode } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

export const arbitrarySendEth = defineDetector({
  id: 'arbitrary-send-eth',
  title: 'ETH sent to an arbitrary address',
  category: 'calls',
  severity: 'high',
  confidence: 'medium',
  explanation:
    "Anyone can call this function and choose where the contract's ETH goes: nothing restricts the caller (no check on msg.sender, no signature of a signer the contract keeps, no approvals only restricted accounts record, as a multisig's confirmations), the destination comes from the function's arguments, and the amount is not the caller's own deposit.",
  recommendation: 'Restrict the function to authorised callers, send only to msg.sender, or pay only amounts recorded for the caller.',
  detect({ analyses, entryPoints, report }) {
    for (const { fn, context } of entryPoints) {
      if (analyses.access.isProtected(fn, context) || hasGatedPlaceholder(analyses, fn, context)) continue
      for (const call of fn.facts.calls) {
        const isEthSend = call.kind === 'send' || call.kind === 'transfer' || (call.kind === 'low-level' && call.lowLevel === 'call')
        if (!isEthSend || !sendsEth(call) || !call.target || !call.value) continue
        if (isMsgValue(call.value) || analyses.access.isSender(unwrap(call.target), fn) || isThis(call.target)) continue
        if (!analyses.taint.dependsOnParameters(call.target, fn)) continue
        if (paysCallersOwn(analyses, fn, call.value) || approvedByCaller(analyses, fn, call.target)) continue
        // A multisig's confirmations or a signature of the contract's signer decided this payment.
        if (analyses.access.isSenderGated(call.node, fn) || authorizationOf(analyses, fn, context, call.node)) continue
        report(call.node, fn.file, `${functionLabel(fn)} lets any caller send ETH to ${code(fn.file, call.target)} with ${code(fn.file, call.node)}.`, { foundIn: [{ fn, context }] })
      }
    }
  },
})

/**
 * Whether the destination must be one the caller approved in an entry kept for them: a guard of
 * `fn` admits only that address (`require(payees[msg.sender][to])`, `require(to == payoutOf[msg.sender])`).
 * An allow-list kept for everyone (`require(whitelist[to])`) is not the caller's choice.
 */
function approvedByCaller(analyses: Analyses, fn: FunctionIr, target: SourceNode): boolean {
  const destination = normalised(fn.file, stripConversion(target))
  if (!destination) return false
  const isDestination = (e: SourceNode): boolean => normalised(fn.file, stripConversion(e)) === destination
  return fn.facts.guards.some((g) =>
    analyses.access.restrictingParts(g.condition, fn, isDestination, !g.negated).some((part) => readsCallerEntry(analyses, fn, part)),
  )
}
