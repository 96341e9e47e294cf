import type { SourceNode } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

/** The conditions that decide whether a function goes on: `require`, `assert` and `if`. */
const DECIDING_CONDITIONS: ReadonlySet<string> = new Set(['require', 'assert', 'if'])

export const txOrigin = defineDetector({
  id: 'tx-origin',
  title: 'Authorization through tx.origin',
  category: 'access-control',
  severity: 'medium',
  confidence: 'high',
  explanation:
    'tx.origin is the account that started the transaction, not the immediate caller. A contract the owner interacts with can call this contract on their behalf and pass the check (phishing through an intermediate contract).',
  recommendation: 'Use msg.sender for authorization. Comparing tx.origin with msg.sender to reject contract callers is fine.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      const reported = new Set<SourceNode>()
      for (const condition of fn.facts.conditions) {
        if (!DECIDING_CONDITIONS.has(condition.kind) || reported.has(condition.node)) continue
        const authorizes =
          condition.reads.keys.includes('tx.origin') ||
          condition.comparisons.some(({ operator, left, right }) => {
            if (operator !== '==' && operator !== '!=') return false
            const other = left.environment === 'tx.origin' ? right : right.environment === 'tx.origin' ? left : null
            return other !== null && !analyses.access.isSender(other.expression, fn)
          })
        if (!authorizes) continue
        reported.add(condition.node)
        report(condition.node, fn.file, `${functionLabel(fn)} authorizes with ${code(fn.file, condition.node)}.`)
      }
    }
  },
})
