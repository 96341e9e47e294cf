import { unsignedBits } from '../../ir/typing.ts'
import type { ComparisonOperator } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

/** Mirror of a comparison operator when its operands swap sides. */
const FLIPPED: Partial<Record<ComparisonOperator, ComparisonOperator>> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=' }

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
      for (const comparison of fn.facts.comparisons) {
        const flipped = FLIPPED[comparison.operator]
        if (!flipped) continue
        const { left, right } = comparison
        const number = (side: typeof left): bigint | null => (side.literal?.kind === 'number' ? side.literal.value : null)
        const rightValue = number(right)
        const value = rightValue ?? number(left)
        const operator = rightValue !== null ? comparison.operator : flipped
        const subject = rightValue !== null ? left : right
        if (value === null || number(subject) !== null) continue
        const op = comparison.node
        const bits = unsignedBits(analyses.dispatch.typeOf(subject.node, fn))
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
