import { authorizationOf, hasGatedPlaceholder } from '../../analyses/authorization.ts'
import { callerEntriesPaid, isCallerEntry, paysCallersOwn, readsCallerEntry } from '../../analyses/caller-funds.ts'
import { stripConversion } from '../../analyses/owner-variables.ts'
import type { Analyses } from '../../analyses/analyses.ts'
import type { FlatEffect } from '../../analyses/effects.ts'
import { identifierName, isLiteral, isMsgValue, isTxOrigin, namedCall, sendsEth, someNode } from '../../analyses/syntax.ts'
import type { ContractIr, FunctionIr, SourceNode } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

const HASHES: ReadonlySet<string> = new Set(['keccak256', 'sha3', 'sha256'])

export const unprotectedEtherWithdrawal = defineDetector({
  id: 'unprotected-ether-withdrawal',
  title: 'Anyone can withdraw ETH',
  category: 'access-control',
  severity: 'high',
  confidence: 'medium',
  explanation:
    "A public function sends ETH to its caller, nothing restricts who calls it (no check on msg.sender, no signature, no approvals), and the amount is not the caller's own: not msg.value, not read from or debited against an entry kept for the caller. Any caller can take the contract's ETH, again and again. Paying the caller their own entry (`deposits[msg.sender]`) without ever debiting it counts too: the same entry pays on every call. Payments that need a secret (a preimage, reported by front-running-reward), a stake in msg.value (a game) or a fixed amount once per caller (a faucet) are left out.",
  recommendation: 'Restrict the function to the owner, or pay only what the contract records as owed to the caller and debit it before sending.',
  detect({ analyses, entryPoints, report }) {
    for (const { fn, context } of entryPoints) {
      if (fn.mutability === 'view' || fn.mutability === 'pure' || analyses.access.isProtected(fn, context) || hasGatedPlaceholder(analyses, fn, context)) continue
      const reached = analyses.dispatch.reachableFunctions(fn, context)
      if (reached.some((f) => f.facts.guards.some((g) => hashesInput(analyses, f, g.condition) || someNode(g.condition, isMsgValue)))) continue
      for (const e of analyses.effects.flatEffects(fn, context)) {
        if (e.effect.kind !== 'call') continue
        const call = e.effect.call
        const isEthSend = call.kind === 'send' || call.kind === 'transfer' || (call.kind === 'low-level' && call.lowLevel === 'call')
        if (!isEthSend || call.assembly || !sendsEth(call) || !call.target || !call.value) continue
        const holder = e.owner
        if (!paysCaller(analyses, e, holder, call.target)) continue
        const value = call.value
        if (isMsgValue(value) || (holder !== fn && passedFromCallersOwn(analyses, e, holder, value))) continue
        if (paysCallersOwn(analyses, holder, value)) {
          // The caller's own balance, paid and never debited: the same balance pays again on the next call.
          const entries = callerEntriesPaid(analyses, holder, value)
          if (entries.size === 0 || analyses.effects.flatEffects(fn, context).some((w) => w.effect.kind === 'write' && entries.has(w.effect.access.variable))) continue
          if (analyses.access.isSenderGated(call.node, holder) || authorizationOf(analyses, fn, context, holder === fn ? call.node : e.via[0]?.node)) continue
          const names = [...entries].map((v) => `\`${v.name}\``).join(', ')
          report(call.node, holder.file, `${functionLabel(fn)} sends the caller's ${names} entry with ${code(holder.file, call.node)} and never debits it: any caller with an entry withdraws it again and again.`, {
            foundIn: [{ fn, context }],
            evidence: [{ node: fn.node, file: fn.file }, { node: call.node, file: holder.file }],
          })
          continue
        }
        if (analyses.access.isSenderGated(call.node, holder) || e.via.some((v) => analyses.access.isSenderGated(v.node, analyses.ir.info(v.node)?.function ?? fn))) continue
        if (authorizationOf(analyses, fn, context, holder === fn ? call.node : e.via[0]?.node)) continue
        // A fixed amount once per caller (a faucet or an airdrop): the caller's entry is checked and recorded.
        if (isFixedAmount(value, context) && recordsCaller(analyses, reached)) continue
        const at = holder.file.own ? { node: call.node, file: holder.file } : { node: e.via[0]?.node ?? fn.node, file: fn.file }
        report(at.node, at.file, `${functionLabel(fn)} sends ${code(holder.file, value)} to its caller with ${code(holder.file, call.node)}, and any caller can run it.`, {
          foundIn: [{ fn, context }],
          evidence: [{ node: fn.node, file: fn.file }, { node: call.node, file: holder.file }],
        })
      }
    }
  },
})

/** Whether the call pays the caller: `msg.sender`, `tx.origin`, or a helper's parameter its caller passes one to. */
function paysCaller(analyses: Analyses, e: FlatEffect, holder: FunctionIr, target: SourceNode): boolean {
  const to = stripConversion(target)
  if (analyses.access.isSender(to, holder) || isTxOrigin(to)) return true
  const argument = passedArgument(analyses, e, holder, to)
  return argument !== null && (analyses.access.isSender(stripConversion(argument.node), argument.fn) || isTxOrigin(stripConversion(argument.node)))
}

/** For a parameter of the helper holding the call, the argument the internal call into it passes, in its caller. */
function passedArgument(analyses: Analyses, e: FlatEffect, holder: FunctionIr, node: SourceNode): { node: SourceNode; fn: FunctionIr } | null {
  const name = identifierName(node)
  if (name === null || e.via.length === 0) return null
  const local = holder.facts.locals.get(name)
  if (!local?.isParameter) return null
  const into = e.via[e.via.length - 1]
  const caller = analyses.ir.info(into.node)?.function
  const arg = into.args[local.parameterIndex]
  return caller && arg ? { node: arg, fn: caller } : null
}

function passedFromCallersOwn(analyses: Analyses, e: FlatEffect, holder: FunctionIr, value: SourceNode): boolean {
  const argument = passedArgument(analyses, e, holder, value)
  return argument !== null && (isMsgValue(argument.node) || paysCallersOwn(analyses, argument.fn, argument.node))
}

/** A literal or a constant of the contract. */
function isFixedAmount(value: SourceNode, context: ContractIr): boolean {
  if (isLiteral(value)) return true
  const name = identifierName(value)
  return name !== null && context.linearization.some((c) => c.stateVariables.some((v) => v.name === name && (v.isConstant || v.isImmutable)))
}

/** Whether what runs checks an entry kept for the caller in a guard and writes one (`require(!claimed[msg.sender]); claimed[msg.sender] = true`). */
function recordsCaller(analyses: Analyses, reached: readonly FunctionIr[]): boolean {
  const checks = reached.some((f) => f.facts.guards.some((g) => g.kind !== 'if-return' && readsCallerEntry(analyses, f, g.condition)))
  // What is written: the target of an assignment or update (`x[k]` in `x[k] = v`, `x[k]++`), else the statement (`push`).
  const writes = reached.some((f) => f.facts.stateWrites.some((w) => w.statement !== null && isCallerEntry(analyses, f, w.assignment?.target ?? w.statement)))
  return checks && writes
}

/** Whether a condition compares a hash of the function's input (a secret's preimage). */
function hashesInput(analyses: Analyses, fn: FunctionIr, condition: SourceNode): boolean {
  return someNode(condition, (n) => HASHES.has(namedCall(n)?.name ?? '') && analyses.taint.dependsOnParameters(n, fn))
}

