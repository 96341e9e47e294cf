import { unwrap } from '../../analyses/syntax.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

export const booleanEquality = defineDetector({
  id: 'boolean-equality',
  title: 'Comparison with a boolean literal',
  category: 'style',
  severity: 'informational',
  confidence: 'high',
  explanation: 'Comparing a boolean with `true` or `false` is redundant and makes conditions harder to read.',
  recommendation: 'Use the boolean directly (`if (paused)`, `if (!paused)`).',
  detect({ functions, report }) {
    for (const fn of functions) {
      for (const op of (fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]) {
        if (op.operator !== '==' && op.operator !== '!=') continue
        if (unwrap(op.left).type !== 'BooleanLiteral' && unwrap(op.right).type !== 'BooleanLiteral') continue
        report(op, fn.file, `${functionLabel(fn)} compares with a boolean literal: ${code(fn.file, op)}.`)
      }
    }
  },
})
