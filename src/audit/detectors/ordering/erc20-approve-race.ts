import { isZero, unwrap, walkNodes } from '../../analyses/syntax.ts'
import type * as AST from '../../parse/ast.ts'
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
      const requiresZeroFirst = approve.facts.guards.some((g) => {
        let zeroTest = false
        walkNodes(g.condition, (n) => {
          if (n.type === 'BinaryOperation' && n.operator === '==') {
            const { left, right } = n
            if (isZero(right) && unwrap(left).type !== 'Identifier') zeroTest = true
            if (isZero(left) && unwrap(right).type !== 'Identifier') zeroTest = true
            if ((isZero(right) && (unwrap(left) as AST.Identifier).name === valueName) || (isZero(left) && (unwrap(right) as AST.Identifier).name === valueName)) zeroTest = true
          }
          return !zeroTest
        })
        return zeroTest
      })
      if (requiresZeroFirst) continue
      report(approve.node, contract.file, `${functionLabel(approve)} overwrites the allowance and \`${contract.name}\` offers no increaseAllowance/decreaseAllowance.`, { header: true })
    }
  },
})
