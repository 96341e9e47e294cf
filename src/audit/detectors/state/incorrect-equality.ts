import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

export const incorrectEquality = defineDetector({
  id: 'incorrect-equality',
  title: 'Strict equality on a balance',
  category: 'state',
  severity: 'medium',
  confidence: 'high',
  explanation:
    'Anyone can change a balance from outside (sending ETH with selfdestruct or to a precomputed address, transferring tokens), so a condition requiring a balance to equal an exact value can be broken or made permanently false.',
  recommendation: 'Compare balances with >= or <=, and track expected amounts in the contract’s own accounting.',
  detect({ functions, report }) {
    for (const fn of functions) {
      for (const { node: op, operator, left, right } of fn.facts.comparisons) {
        if (operator !== '==' && operator !== '!=') continue
        // This contract's own balance: anyone can raise it from outside.
        if (!left.reads.ownBalance && !right.reads.ownBalance) continue
        report(op, fn.file, `${functionLabel(fn)} tests its own balance for strict equality: ${code(fn.file, op)}.`)
      }
    }
  },
})
