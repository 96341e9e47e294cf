import type { ValueSource } from '../../analyses/dataflow.ts'
import { isTxOrigin, unwrap } from '../../analyses/syntax.ts'
import type * as AST from '../../parse/ast.ts'
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
    'tx.origin is the account that started the transaction, not the immediate caller. A contract the owner interacts with can call this contract on their behalf and pass the check (phishing through an intermediate contract). The comparison is followed through locals and internal functions returning it (`require(isOwner())` where `isOwner()` returns `tx.origin == owner`).',
  recommendation: 'Use msg.sender for authorization. Comparing tx.origin with msg.sender to reject contract callers is fine.',
  detect({ analyses, functions, report }) {
    // A comparison of tx.origin with an account other than the caller, followed through locals
    // and the internal functions returning it (`function isOwner() internal view returns (bool) { return tx.origin == owner; }`).
    const originCheck: ValueSource = {
      key: 'tx-origin-check',
      matches: (node, fn) => {
        if (node.type !== 'BinaryOperation' || (node.operator !== '==' && node.operator !== '!=')) return false
        const [left, right] = [unwrap(node.left), unwrap(node.right)]
        const other = isTxOrigin(left) ? right : isTxOrigin(right) ? left : null
        return other !== null && !analyses.access.isSender(other as AST.BaseASTNode, fn)
      },
    }
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
        if (authorizes) {
          reported.add(condition.node)
          report(condition.node, fn.file, `${functionLabel(fn)} authorizes with ${code(fn.file, condition.node)}.`)
          continue
        }
        const through = analyses.dataflow.origins(condition.node, fn, originCheck).find((o) => o.fn !== fn || !o.node.range || !condition.node.range || o.node.range[0] < condition.node.range[0] || o.node.range[1] > condition.node.range[1])
        if (!through) continue
        reported.add(condition.node)
        report(condition.node, fn.file, `${functionLabel(fn)} authorizes with ${code(fn.file, condition.node)}, which compares tx.origin: ${code(through.fn.file, through.node)}${through.fn === fn ? '' : ` in ${functionLabel(through.fn)}`}.`, {
          evidence: [{ node: through.node, file: through.fn.file }],
        })
      }
    }
  },
})
