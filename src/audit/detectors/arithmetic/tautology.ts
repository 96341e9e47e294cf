import { nodesOf, unwrap } from '../../analyses/syntax.ts'
import { unsignedBits } from '../../ir/typing.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

function literal(node: AST.BaseASTNode): bigint | null {
  const n = unwrap(node)
  if (n.type !== 'NumberLiteral' || n.subdenomination) return null
  const text = n.number.replace(/_/g, '')
  if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(text)) return null
  return BigInt(text)
}

/** Mirror of a comparison operator when its operands swap sides. */
const FLIPPED: Record<string, string> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=' }

export const tautology = defineDetector({
  id: 'tautology',
  title: 'Comparison that is always true or always false',
  category: 'arithmetic',
  severity: 'low',
  confidence: 'high',
  explanation:
    "An unsigned value compared with a bound it can never cross (`x >= 0`, `x < 0`, a uint8 against 255) always gives the same answer; the check the author meant to write is missing.",
  recommendation: 'Fix the comparison (often `> 0` was meant, or a wider type), or remove it.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      for (const op of nodesOf(fn, 'BinaryOperation')) {
        if (!FLIPPED[op.operator]) continue
        let value = literal(op.right)
        let operator: string = op.operator
        let subject: AST.BaseASTNode = op.left
        if (value === null) {
          value = literal(op.left)
          operator = FLIPPED[op.operator]
          subject = op.right
        }
        if (value === null || literal(subject) !== null) continue
        const bits = unsignedBits(analyses.dispatch.typeOf(subject, fn))
        if (bits === null) continue
        const max = (1n << BigInt(bits)) - 1n
        let verdict: string | null = null
        if (value === 0n && operator === '>=') verdict = 'always true'
        else if (value === 0n && operator === '<') verdict = 'always false'
        else if (bits < 256 && ((operator === '<=' && value >= max) || (operator === '<' && value > max))) verdict = 'always true'
        else if (bits < 256 && ((operator === '>' && value >= max) || (operator === '>=' && value > max))) verdict = 'always false'
        if (!verdict) continue
        report(op, fn.file, `${functionLabel(fn)} compares a uint${bits} in ${code(fn.file, op)}, which is ${verdict}.`)
      }
    }
  },
})
