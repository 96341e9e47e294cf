import { identifierName } from '../../analyses/syntax.ts'
import type { OperandIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

/** Functions that let holders change an allowance without the approve race. */
const SAFE_ALLOWANCE_FUNCTIONS: ReadonlySet<string> = new Set(['increaseAllowance', 'decreaseAllowance', 'increaseApproval', 'decreaseApproval'])

export const erc20ApproveRace = defineDetector({
  id: 'erc20-approve-race',
  title: 'ERC-20 approve race condition',
  category: 'ordering',
  severity: 'low',
  confidence: 'medium',
  explanation:
    "`approve` overwrites an allowance. When a holder changes an allowance from N to M, the spender can front-run the change, spend N, and then spend M as well.",
  recommendation: 'Offer increaseAllowance/decreaseAllowance, or require the allowance to be set to zero before a new non-zero value.',
  detect({ contracts, report }) {
    for (const contract of contracts) {
      if (contract.kind !== 'contract' && contract.kind !== 'abstract') continue
      const approve = contract.functions.find((f) => f.name === 'approve' && f.params.length === 2 && f.body !== null)
      if (!approve || approve.facts.stateWrites.length === 0) continue
      const hasSafeAlternative = contract.linearization.some((c) => c.functions.some((f) => SAFE_ALLOWANCE_FUNCTIONS.has(f.name)))
      if (hasSafeAlternative) continue
      const valueName = approve.params[1].name
      // A guard comparing with zero something other than a local (the current allowance), or the new value itself.
      const guarded = new Set(approve.facts.guards.map((g) => g.condition))
      const requiresZeroFirst = approve.facts.conditions.some(
        (c) =>
          guarded.has(c.node) &&
          c.comparisons.some(({ operator, left, right }) => {
            if (operator !== '==') return false
            const notALocal = (side: OperandIr): boolean => {
              const name = identifierName(side.expression)
              return name === null || name === valueName
            }
            return (right.zero && notALocal(left)) || (left.zero && notALocal(right))
          }),
      )
      if (requiresZeroFirst) continue
      report(approve.node, contract.file, `${functionLabel(approve)} overwrites the allowance and \`${contract.name}\` offers no increaseAllowance/decreaseAllowance.`, { header: true })
    }
  },
})
