import { stripConversion } from '../../analyses/owner-variables.ts'
import type { Analyses } from '../../analyses/analyses.ts'
import { contains, resultStoredIn, sendsEth } from '../../analyses/syntax.ts'
import type { AssignmentIr, CallIr, FunctionIr } from '../../ir/types.ts'
import { isAddressType } from '../../ir/typing.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

export const pushPaymentToLeader = defineDetector({
  id: 'push-payment-to-leader',
  title: 'Payment pushed to the account being replaced',
  category: 'denial-of-service',
  severity: 'medium',
  confidence: 'medium',
  explanation:
    'The function pays the account it is about to replace with the caller (the previous leader, highest bidder or king), and a failed payment reverts the whole call. A leader that is a contract rejecting ETH makes every later call fail: nobody can take its place again, and whatever the place earns stays with it.',
  recommendation: "Record what the previous leader is owed (`pendingReturns[leader] += amount`) and let it withdraw, instead of sending in the same transaction; or don't revert when the payment fails.",
  detect({ analyses, entryPoints, report }) {
    for (const { fn, context } of entryPoints) {
      if (fn.mutability === 'view' || fn.mutability === 'pure' || analyses.access.isProtected(fn, context)) continue
      const effects = analyses.effects.flatEffects(fn, context)
      for (const e of effects) {
        if (e.effect.kind !== 'call') continue
        const call = e.effect.call
        const isEthSend = call.kind === 'send' || call.kind === 'transfer' || (call.kind === 'low-level' && call.lowLevel === 'call')
        if (!isEthSend || call.assembly || !sendsEth(call) || !call.target) continue
        const holder = e.owner
        const target = stripConversion(call.target)
        const read = holder.facts.stateReads.find((r) => r.node === target)
        if (!read || read.variable.isConstant || read.variable.isImmutable || !(isAddressType(read.variable.type) || read.variable.type.kind === 'contract')) continue
        if (!failureReverts(analyses, holder, call)) continue
        const replacement = effects.find((w) => w.effect.kind === 'write' && w.effect.access.variable === read.variable && replacesWithCaller(analyses, w.owner, w.effect.access.assignment))
        if (!replacement || replacement.effect.kind !== 'write') continue
        const statement = replacement.effect.access.statement
        if (!statement || !holder.file.own) continue
        report(call.node, holder.file, `${functionLabel(fn)} pays the current \`${read.variable.name}\` with ${code(holder.file, call.node)} and replaces it with the caller (${code(replacement.owner.file, statement)}); a failed payment reverts the call.`, {
          foundIn: [{ fn, context }],
          evidence: [{ node: call.node, file: holder.file }, { node: statement, file: replacement.owner.file }],
        })
      }
    }
  },
})

/**
 * Whether a failed payment reverts: `transfer`, or a `send` / `call` whose result a reverting
 * guard checks (`require(leader.send(v))`, `(bool ok, ) = leader.call{…}(""); require(ok)`).
 */
function failureReverts(analyses: Analyses, fn: FunctionIr, call: CallIr): boolean {
  if (call.kind === 'transfer') return true
  const reverting = fn.facts.guards.filter((g) => g.kind !== 'if-return')
  if (reverting.some((g) => contains(g.condition, call.node))) return true
  const stored = resultStoredIn(analyses.ir, call)
  return stored !== null && reverting.some((g) => (fn.facts.identifiers.get(stored) ?? []).some((id) => contains(g.condition, id)))
}

/** Whether a write sets the variable to the caller (`leader = msg.sender`, `king = payable(msg.sender)`). */
function replacesWithCaller(analyses: Analyses, fn: FunctionIr, assignment: AssignmentIr | null): boolean {
  if (assignment?.operator !== '=' || assignment.value === null) return false
  return analyses.access.isSender(stripConversion(assignment.value), fn)
}
