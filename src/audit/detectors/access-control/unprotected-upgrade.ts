import type { Analyses } from '../../analyses/analyses.ts'
import { MAX_CALL_DEPTH, type DispatchContext } from '../../analyses/dispatch.ts'
import type { FlatEffect } from '../../analyses/effects.ts'
import type { FunctionIr, SourceNode } from '../../ir/types.ts'
import { isAddressType } from '../../ir/typing.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

/** State that names an implementation contract. */
const IMPLEMENTATION_VARIABLE = /implementation|logic|^_?impl$/i
/** Functions that switch implementation (OpenZeppelin ERC1967 and common hand-written names). */
const UPGRADE_FUNCTION = /^_?(upgradeTo|upgradeToAndCall|setImplementation|upgradeToAndCallUUPS)$/

/**
 * Whether `fn`, as `context` runs it, reaches an upgrade function through internal calls that no
 * check on the caller gates (`if (msg.sender == admin) _upgradeTo(…)` is gated).
 */
function reachesUpgrade(analyses: Analyses, fn: FunctionIr, context: DispatchContext, depth: number, seen: Set<FunctionIr>): boolean {
  const next: FunctionIr[] = []
  for (const m of fn.modifierCalls) {
    const modifier = analyses.dispatch.modifierIn(m, fn, context)
    if (modifier) next.push(modifier)
  }
  for (const call of fn.facts.calls) {
    if (call.kind !== 'internal' && call.kind !== 'library') continue
    const callee = analyses.dispatch.calleeIn(call, fn, context)
    if (!callee || analyses.access.isSenderGated(call.node, fn)) continue
    if (UPGRADE_FUNCTION.test(callee.name) && !seen.has(callee)) return true
    next.push(callee)
  }
  for (const callee of next) {
    if (seen.has(callee) || depth >= MAX_CALL_DEPTH) continue
    seen.add(callee)
    if (reachesUpgrade(analyses, callee, context, depth + 1, seen)) return true
  }
  return false
}

/** Whether an effect runs only for some callers: it, or a call leading to it, sits in a branch gated by a check on the caller. */
function isGated(analyses: Analyses, effect: FlatEffect): boolean {
  const nodes: SourceNode[] = effect.via.map((call) => call.node)
  if (effect.effect.kind === 'write') nodes.push(effect.effect.access.node)
  return nodes.some((node) => {
    const holder = analyses.ir.info(node)?.function
    return holder !== undefined && analyses.access.isSenderGated(node, holder)
  })
}

export const unprotectedUpgrade = defineDetector({
  id: 'unprotected-upgrade',
  title: 'Unprotected upgrade',
  category: 'access-control',
  severity: 'high',
  confidence: 'medium',
  explanation:
    'Whoever controls the implementation of an upgradeable contract controls all of its state and funds. Here the upgrade path has no access control, so anyone can replace the code.',
  recommendation: 'Restrict upgrades to an owner, multisig or governance: put access control in `_authorizeUpgrade` (UUPS) or in the function that sets the implementation.',
  detect({ analyses, functions, entryPoints, report }) {
    for (const fn of functions) {
      if (fn.name !== '_authorizeUpgrade' || fn.body === null || fn.contract?.kind === 'interface') continue
      // The hook as each deployed contract runs it: an override of a check it calls can remove it.
      for (const context of analyses.dispatch.contextsOf(fn)) {
        if (!analyses.access.isProtected(fn, context)) report(fn.node, fn.file, `${functionLabel(fn)} lets every caller upgrade the contract.`, { header: true, foundIn: [{ fn, context }] })
      }
    }
    for (const { fn, context } of entryPoints) {
      if (fn.name === '_authorizeUpgrade' || analyses.access.isProtected(fn, context)) continue
      const writesImplementation = analyses.effects
        .flatEffects(fn, context)
        .some(
          (e) =>
            e.effect.kind === 'write' &&
            IMPLEMENTATION_VARIABLE.test(e.effect.access.variable.name) &&
            (isAddressType(e.effect.access.variable.type) || e.effect.access.variable.type.kind === 'contract') &&
            !isGated(analyses, e),
        )
      const callsUpgrade = reachesUpgrade(analyses, fn, context, 0, new Set([fn]))
      if (!writesImplementation && !callsUpgrade) continue
      report(fn.node, fn.file, `${functionLabel(fn)} changes the implementation and any caller can run it.`, { header: true, foundIn: [{ fn, context }] })
    }
  },
})
