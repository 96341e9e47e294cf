import { contains, nodesOf, unwrap } from '../../analyses/syntax.ts'
import type { ProjectIr, SourceNode } from '../../ir/types.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

const LOOPS: ReadonlySet<string> = new Set(['ForStatement', 'WhileStatement', 'DoWhileStatement'])

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
      for (const statement of nodesOf(fn, 'VariableDeclarationStatement')) {
        if (statement.initialValue || statement.variables.length !== 1) continue
        // `for (uint256 i; …)` relies on the zero value on purpose.
        if (ir.info(statement)?.parent?.type === 'ForStatement') continue
        const declaration = statement.variables[0] as AST.VariableDeclaration | null
        if (!declaration?.name || declaration.storageLocation !== null) continue
        const local = fn.facts.locals.get(declaration.name)
        if (!local || local.node !== declaration || local.type.kind !== 'elementary') continue
        const scope = ir.info(statement)?.parent ?? null
        const end = statement.range?.[1] ?? 0
        const uses = (fn.facts.identifiers.get(declaration.name) ?? []).filter((id) => (id.range?.[0] ?? 0) > end)
        // Only a read that nothing before it assigns: a conditional assignment relying on the zero
        // default (`bool found; if (…) found = true;`) is a common, deliberate idiom.
        let unassignedRead: AST.Identifier | null = null
        for (const use of uses) {
          if (useKind(ir, use) !== 'read') break
          // In a loop, an assignment later in the body reaches this read on the next iteration.
          if (assignedLaterInLoop(ir, use, uses, scope)) continue
          unassignedRead = use
          break
        }
        if (!unassignedRead) continue
        report(unassignedRead, fn.file, `${functionLabel(fn)} may read \`${declaration.name}\` before assigning it.`)
      }
    }
  },
})

function useKind(ir: ProjectIr, use: AST.Identifier): 'assignment' | 'update' | 'read' {
  const parent = ir.info(use)?.parent
  if (parent?.type === 'TupleExpression') {
    const grand = ir.info(parent)?.parent
    if (grand?.type === 'BinaryOperation' && grand.operator === '=' && grand.left === parent) return 'assignment'
    return 'read'
  }
  if (parent?.type === 'UnaryOperation' && ['++', '--', 'delete'].includes(parent.operator)) return 'update'
  if (parent?.type === 'BinaryOperation' && unwrap(parent.left) === use) {
    const op = parent.operator
    if (op === '=') return 'assignment'
    if (op.endsWith('=') && !['==', '!=', '<=', '>='].includes(op)) return 'update'
  }
  return 'read'
}

function assignedLaterInLoop(ir: ProjectIr, use: AST.Identifier, uses: readonly AST.Identifier[], scope: SourceNode | null): boolean {
  let node = ir.info(use)?.parent ?? null
  while (node && node !== scope) {
    if (LOOPS.has(node.type)) {
      const loop = node
      return uses.some((u) => u !== use && (u.range?.[0] ?? 0) > (use.range?.[0] ?? 0) && contains(loop, u) && useKind(ir, u) !== 'read')
    }
    node = ir.info(node)?.parent ?? null
  }
  return false
}
