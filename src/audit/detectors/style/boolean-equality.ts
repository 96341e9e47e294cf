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
      for (const { node: op, operator, left, right } of fn.facts.comparisons) {
        if (operator !== '==' && operator !== '!=') continue
        if (left.literal?.kind !== 'bool' && right.literal?.kind !== 'bool') continue
        report(op, fn.file, `${functionLabel(fn)} compares with a boolean literal: ${code(fn.file, op)}.`)
      }
    }
  },
})
