import { unwrap } from '../../analyses/syntax.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

/** Solidity 0.6.0 made `.length` of storage arrays read-only. */
const LENGTH_READ_ONLY_SINCE = 6_000

export const arrayLengthAssignment = defineDetector({
  id: 'array-length-assignment',
  title: 'Storage array length changed directly',
  category: 'state',
  severity: 'high',
  confidence: 'medium',
  explanation:
    'Before Solidity 0.6 a storage array length could be assigned or decremented. Decrementing an empty array wraps its length to 2^256-1, after which indexing the array reaches every storage slot, including the owner.',
  recommendation: 'Use push() and pop() (Solidity 0.6 and later), check the length before shrinking, and restrict who can change it.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      const candidates: { node: AST.BaseASTNode; target: AST.BaseASTNode }[] = []
      for (const op of (fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]) {
        if (['=', '-=', '+='].includes(op.operator)) candidates.push({ node: op, target: op.left })
      }
      for (const op of (fn.facts.nodes.get('UnaryOperation') ?? []) as AST.UnaryOperation[]) {
        if (op.operator === '--' || op.operator === '++') candidates.push({ node: op, target: op.subExpression })
      }
      const compiler = fn.file.compiler
      if (compiler !== null && compiler.min >= LENGTH_READ_ONLY_SINCE) continue
      for (const { node, target } of candidates) {
        const t = unwrap(target)
        if (t.type !== 'MemberAccess' || (t as AST.MemberAccess).memberName !== 'length') continue
        // A struct field named `length` is not an array length.
        const baseType = analyses.dispatch.typeOf((t as AST.MemberAccess).expression, fn)
        if (baseType.kind !== 'array' && !(baseType.kind === 'elementary' && baseType.name === 'bytes')) continue
        const written = fn.facts.stateWrites.find((w) => w.statement === node)
        if (!written) continue
        const restricted = analyses.access.isProtected(fn) ? ' (restricted to some callers)' : ''
        report(node, fn.file, `${functionLabel(fn)} changes the length of \`${written.variable.name}\` directly${restricted}: ${code(fn.file, node)}.`)
      }
    }
  },
})
