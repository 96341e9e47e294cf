import { isThis } from '../../analyses/syntax.ts'
import type { CallIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

/** Library helpers that delegatecall their first argument. */
const DELEGATING_HELPERS: ReadonlySet<string> = new Set(['functionDelegateCall'])

export const controlledDelegatecall = defineDetector({
  id: 'controlled-delegatecall',
  title: 'Delegatecall to a caller-chosen address',
  category: 'access-control',
  severity: 'high',
  confidence: 'medium',
  explanation:
    "delegatecall runs the target's code with this contract's storage and balance. When any caller picks the target, they can run code that overwrites the owner, drains funds or self-destructs the contract.",
  recommendation: 'Delegatecall only to trusted, fixed or owner-set implementations, and restrict who can call the function.',
  detect({ analyses, entryPoints, report }) {
    for (const { fn, context } of entryPoints) {
      if (analyses.access.isProtected(fn, context)) continue
      for (const call of fn.facts.calls) {
        let target: CallIr['target'] = null
        if (call.kind === 'low-level' && (call.lowLevel === 'delegatecall' || call.lowLevel === 'callcode')) target = call.target
        else if (call.kind === 'library' && DELEGATING_HELPERS.has(call.name)) target = call.target ?? call.args[0] ?? null
        if (!target || isThis(target) || !analyses.taint.dependsOnParameters(target, fn)) continue
        const where = call.assembly ? ' in assembly' : ''
        report(call.node, fn.file, `${functionLabel(fn)} delegatecalls ${code(fn.file, target)}${where}, which any caller chooses.`, { foundIn: [{ fn, context }] })
      }
    }
  },
})
