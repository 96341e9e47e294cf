import { isTxOrigin, unwrap, walkNodes } from '../../analyses/syntax.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

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
      const conditions: AST.BaseASTNode[] = fn.facts.guards.map((g) => g.condition)
      for (const node of (fn.facts.nodes.get('IfStatement') ?? []) as AST.IfStatement[]) conditions.push(node.condition)
      const reported = new Set<AST.BaseASTNode>()
      for (const condition of conditions) {
        if (reported.has(condition)) continue
        let authorizes = false
        walkNodes(condition, (n) => {
          if (n.type === 'BinaryOperation' && ['==', '!='].includes((n as AST.BinaryOperation).operator)) {
            const { left, right } = n as AST.BinaryOperation
            const other = isTxOrigin(left) ? right : isTxOrigin(right) ? left : null
            if (other && !analyses.access.isSender(unwrap(other), fn)) authorizes = true
          }
          if (n.type === 'IndexAccess' && isTxOrigin((n as AST.IndexAccess).index)) authorizes = true
        })
        if (!authorizes) continue
        reported.add(condition)
        report(condition, fn.file, `${functionLabel(fn)} authorizes with ${code(fn.file, condition)}.`)
      }
    }
  },
})
