import { unwrap, walkNodes } from '../../analyses/syntax.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel, isThis } from '../helpers.ts'

/** Whether an expression reads this contract's own ETH or token balance, which outsiders can raise. */
function readsOwnBalance(node: AST.BaseASTNode): boolean {
  let found = false
  walkNodes(unwrap(node), (n) => {
    if (found) return false
    if (n.type === 'MemberAccess' && (n as AST.MemberAccess).memberName === 'balance' && isThis((n as AST.MemberAccess).expression)) found = true
    if (n.type === 'FunctionCall') {
      const call = n as AST.FunctionCall
      if (call.expression.type === 'MemberAccess' && call.expression.memberName === 'balanceOf' && call.arguments.length === 1 && isThis(call.arguments[0])) found = true
    }
    return !found
  })
  return found
}

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
      for (const op of (fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]) {
        if (op.operator !== '==' && op.operator !== '!=') continue
        if (!readsOwnBalance(op.left) && !readsOwnBalance(op.right)) continue
        report(op, fn.file, `${functionLabel(fn)} tests its own balance for strict equality: ${code(fn.file, op)}.`)
      }
    }
  },
})
