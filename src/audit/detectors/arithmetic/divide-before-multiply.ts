import { unwrap } from '../../analyses/syntax.ts'
import type { FunctionIr } from '../../ir/types.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel, normalised } from '../helpers.ts'

/** The division an operand is (directly, or through a local assigned exactly once), or null. */
function divisionBehind(node: AST.BaseASTNode, divisions: Map<string, AST.BinaryOperation | null>): AST.BinaryOperation | null {
  const n = unwrap(node)
  if (n.type === 'BinaryOperation' && (n as AST.BinaryOperation).operator === '/') return n as AST.BinaryOperation
  if (n.type === 'Identifier') return divisions.get((n as AST.Identifier).name) ?? null
  return null
}

/** Locals whose only assignment is a division. */
function localDivisions(fn: FunctionIr): Map<string, AST.BinaryOperation | null> {
  const result = new Map<string, AST.BinaryOperation | null>()
  const assigned = new Map<string, number>()
  for (const d of (fn.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[]) {
    const v = d.variables[0] as AST.VariableDeclaration | null
    if (d.variables.length !== 1 || !v?.name || !d.initialValue) continue
    const value = unwrap(d.initialValue)
    result.set(v.name, value.type === 'BinaryOperation' && (value as AST.BinaryOperation).operator === '/' ? (value as AST.BinaryOperation) : null)
    assigned.set(v.name, 1)
  }
  for (const a of (fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]) {
    const left = unwrap(a.left)
    if (a.operator.endsWith('=') && !['==', '!=', '<=', '>='].includes(a.operator) && left.type === 'Identifier') {
      const name = (left as AST.Identifier).name
      assigned.set(name, (assigned.get(name) ?? 0) + 1)
    }
  }
  for (const [name, count] of assigned) if (count > 1) result.delete(name)
  return result
}

/** A rounding loss below this many base units (divisor × multiplier) is not worth a finding. */
const NEGLIGIBLE_LOSS = 1_000

function literalValue(node: AST.BaseASTNode): number | null {
  const n = unwrap(node)
  if (n.type !== 'NumberLiteral' || (n as AST.NumberLiteral).subdenomination) return null
  const value = Number((n as AST.NumberLiteral).number.replace(/_/g, ''))
  return Number.isFinite(value) ? value : null
}

export const divideBeforeMultiply = defineDetector({
  id: 'divide-before-multiply',
  title: 'Division before multiplication',
  category: 'arithmetic',
  severity: 'medium',
  confidence: 'medium',
  explanation:
    'Integer division rounds down; multiplying its result afterwards multiplies the rounding error too (fees or rewards rounding to zero, prices off by whole units).',
  recommendation: 'Multiply first and divide last (`a * c / b`), or use a full-precision mulDiv.',
  detect({ functions, report }) {
    for (const fn of functions) {
      const binaries = (fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]
      if (!binaries.some((b) => b.operator === '/')) continue
      const divisions = localDivisions(fn)
      for (const op of binaries) {
        if (op.operator !== '*' && op.operator !== '*=') continue
        const pairs: [AST.BaseASTNode, AST.BaseASTNode][] = [[op.left, op.right], [op.right, op.left]]
        for (const [operand, factor] of pairs) {
          const division = divisionBehind(operand, divisions)
          if (!division) continue
          // `(x / unit) * unit` rounds down to a multiple of `unit` on purpose.
          if (normalised(fn.file, division.right) === normalised(fn.file, factor)) continue
          // Small literal ratios (`(len + 2) / 3 * 4`) lose less than their product: block-size arithmetic.
          const d = literalValue(division.right)
          const m = literalValue(factor)
          if (d !== null && m !== null && d * m < NEGLIGIBLE_LOSS) continue
          report(op, fn.file, `${functionLabel(fn)} multiplies the result of ${code(fn.file, division)}: ${code(fn.file, op)}.`)
          break
        }
      }
    }
  },
})
