import type { ArithmeticIr, TermIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

/** The division a term is (directly, or through a local declared with it and not assigned again), or null. */
function divisionBehind(term: TermIr): ArithmeticIr | null {
  if (term.operation?.operator === '/') return term.operation
  return term.definition?.operator === '/' ? term.definition : null
}

/** A rounding loss below this many base units (divisor × multiplier) is not worth a finding. */
const NEGLIGIBLE_LOSS = 1_000

/** The value of a number literal without a unit, or null. */
function literalValue(term: TermIr): number | null {
  return term.number !== null && term.number.unit === null ? term.number.value : null
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
      const operations = fn.facts.arithmetic
      if (!operations.some((o) => o.operator === '/')) continue
      for (const { node: op, operator, left, right } of operations) {
        if (operator !== '*' && operator !== '*=') continue
        const pairs: [TermIr, TermIr][] = [[left, right], [right, left]]
        for (const [operand, factor] of pairs) {
          const division = divisionBehind(operand)
          if (!division) continue
          // `(x / unit) * unit` rounds down to a multiple of `unit` on purpose.
          if (division.right.text === factor.text) continue
          // Small literal ratios (`(len + 2) / 3 * 4`) lose less than their product: block-size arithmetic.
          const d = literalValue(division.right)
          const m = literalValue(factor)
          if (d !== null && m !== null && d * m < NEGLIGIBLE_LOSS) continue
          report(op, fn.file, `${functionLabel(fn)} multiplies the result of ${code(fn.file, division.node)}: ${code(fn.file, op)}.`)
          break
        }
      }
    }
  },
})
