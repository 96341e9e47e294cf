import { nodesOf } from '../../analyses/syntax.ts'
import type * as AST from '../../parse/ast.ts'
import type { SourceNode } from '../../ir/types.ts'
import type { Analyses } from '../../analyses/analyses.ts'
import { terminates } from '../../ir/walk-function.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

export const incorrectModifier = defineDetector({
  id: 'incorrect-modifier',
  title: 'Modifier that can skip the function silently',
  category: 'access-control',
  severity: 'low',
  confidence: 'high',
  explanation:
    'A modifier that neither executes `_` nor reverts on some path makes the function return default values without running, so callers believe it succeeded (a failed check that does not revert).',
  recommendation: 'Make every path of the modifier either execute `_` or revert.',
  detect({ ir, analyses, functions, report }) {
    const leaves = (node: SourceNode | null): boolean => alwaysLeaves(node, analyses, 0)
    for (const fn of functions) {
      if (fn.kind !== 'modifier' || !fn.body) continue
      if (!fn.facts.hasPlaceholder) {
        report(fn.node, fn.file, `${functionLabel(fn)} never executes \`_\`, so functions using it never run.`, { header: true })
        continue
      }
      const placeholders = (nodesOf(fn, 'ExpressionStatement')).filter(
        (s) => s.expression?.type === 'Identifier' && s.expression.name === '_',
      )
      for (const placeholder of placeholders) {
        let child: SourceNode = placeholder
        let parent = ir.info(child)?.parent ?? null
        let skippable: AST.IfStatement | null = null
        while (parent && parent !== fn.body) {
          if (parent.type === 'IfStatement') {
            const ifNode = parent
            const other = ifNode.trueBody === child ? ifNode.falseBody : ifNode.trueBody
            if (!leaves(other) && !restTerminates(ir.info(ifNode)?.parent ?? null, ifNode, leaves)) skippable = ifNode
          }
          child = parent
          parent = ir.info(child)?.parent ?? null
        }
        if (skippable) report(skippable, fn.file, `${functionLabel(fn)} executes \`_\` only when its condition holds and returns silently otherwise.`, { header: false })
      }
    }
  },
})

/** Whether the statements after `statement` in its block always leave (e.g. end in a revert). */
function restTerminates(block: SourceNode | null, statement: SourceNode, leaves: (n: SourceNode | null) => boolean): boolean {
  if (!block || block.type !== 'Block') return false
  const statements = (block as AST.Block).statements
  const index = statements.indexOf(statement)
  return statements.slice(index + 1).some((s) => leaves(s))
}

/** How deep calls to helpers that always revert or return (proxy `_fallback()`) are followed. */
const MAX_LEAVING_DEPTH = 4

/** `terminates`, also through a final call to an internal helper that always leaves. */
function alwaysLeaves(node: SourceNode | null, analyses: Analyses, depth: number): boolean {
  if (!node) return false
  if (terminates(node)) return true
  if (depth >= MAX_LEAVING_DEPTH) return false
  const statements = node.type === 'Block' ? (node as AST.Block).statements : [node]
  const last = statements[statements.length - 1]
  if (!last || last.type !== 'ExpressionStatement') return false
  const expression = (last as AST.ExpressionStatement).expression
  if (!expression || expression.type !== 'FunctionCall') return false
  const callee = analyses.dispatch.callOf(expression)?.callee
  return callee?.body ? alwaysLeaves(callee.body, analyses, depth + 1) : false
}
