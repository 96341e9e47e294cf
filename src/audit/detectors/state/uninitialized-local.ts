import { contains, identifierUse, loopWithin } from '../../analyses/syntax.ts'
import type { ProjectIr, SourceNode } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

export const uninitializedLocal = defineDetector({
  id: 'uninitialized-local',
  title: 'Local variable read before assignment',
  category: 'state',
  severity: 'low',
  confidence: 'medium',
  explanation:
    'The local variable is read before anything is assigned to it, so it holds its zero value; this usually means an assignment was forgotten.',
  recommendation: 'Initialise the variable where it is declared, or assign it before reading it.',
  detect({ ir, functions, report }) {
    for (const fn of functions) {
      if (fn.facts.assembly.length > 0) continue
      for (const local of fn.facts.locals.values()) {
        const { statement, node: declaration } = local
        if (!statement || statement.initialValue || statement.variables.length !== 1) continue
        // `for (uint256 i; …)` relies on the zero value on purpose.
        if (fn.facts.loops.some((loop) => loop.init === statement)) continue
        if (declaration.storageLocation !== null || local.type.kind !== 'elementary') continue
        const scope = ir.info(statement)?.parent ?? null
        const end = statement.range?.[1] ?? 0
        const uses = (fn.facts.identifiers.get(local.name) ?? []).filter((id) => (id.range?.[0] ?? 0) > end)
        // Only a read that nothing before it assigns: a conditional assignment relying on the zero
        // default (`bool found; if (…) found = true;`) is a common, deliberate idiom.
        let unassignedRead: SourceNode | null = null
        for (const use of uses) {
          if (identifierUse(ir, use) !== 'read') break
          // In a loop, an assignment later in the body reaches this read on the next iteration.
          if (assignedLaterInLoop(ir, use, uses, scope)) continue
          unassignedRead = use
          break
        }
        if (!unassignedRead) continue
        report(unassignedRead, fn.file, `${functionLabel(fn)} may read \`${local.name}\` before assigning it.`)
      }
    }
  },
})

/** Whether a loop inside `scope` around `use` assigns or updates the variable later in its body (reaching `use` on the next iteration). */
function assignedLaterInLoop(ir: ProjectIr, use: SourceNode, uses: readonly SourceNode[], scope: SourceNode | null): boolean {
  const loop = loopWithin(ir, use, scope)
  return loop !== null && uses.some((u) => u !== use && (u.range?.[0] ?? 0) > (use.range?.[0] ?? 0) && contains(loop, u) && identifierUse(ir, u) !== 'read')
}
