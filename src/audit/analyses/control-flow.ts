import type { Analyses } from './analyses.ts'
import type { FunctionIr } from '../ir/types.ts'
import { terminates } from '../ir/walk-function.ts'
import type * as AST from '../parse/ast.ts'
import { nodesOf } from './syntax.ts'

/*
 * Control-flow questions about modifier bodies: whether a statement always leaves (reverts or
 * returns, also through a final call to a helper that does), and which `if` lets a modifier
 * return without executing `_`.
 */

/**
 * The `if` statements around a modifier's `_` on whose other branch the modifier neither executes
 * `_` nor leaves, when nothing after them in their block leaves either: the modifier returns
 * silently there, skipping the function. One per `_` (the outermost such `if`).
 */
export function placeholderSkips(analyses: Analyses, fn: FunctionIr): AST.IfStatement[] {
  const { ir } = analyses
  const leaves = (node: AST.BaseASTNode | null): boolean => alwaysLeaves(node, analyses, 0)
  const skips: AST.IfStatement[] = []
  const placeholders = nodesOf(fn, 'ExpressionStatement').filter((s) => s.expression?.type === 'Identifier' && s.expression.name === '_')
  for (const placeholder of placeholders) {
    let child: AST.BaseASTNode = placeholder
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
    if (skippable) skips.push(skippable)
  }
  return skips
}

/** Whether the statements after `statement` in its block always leave (e.g. end in a revert). */
function restTerminates(block: AST.BaseASTNode | null, statement: AST.BaseASTNode, leaves: (n: AST.BaseASTNode | null) => boolean): boolean {
  if (!block || block.type !== 'Block') return false
  const statements = (block as AST.Block).statements
  const index = statements.indexOf(statement)
  return statements.slice(index + 1).some((s) => leaves(s))
}

/** How deep calls to helpers that always revert or return (proxy `_fallback()`) are followed. */
const MAX_LEAVING_DEPTH = 4

/** `terminates`, also through a final call to an internal helper that always leaves. */
export function alwaysLeaves(node: AST.BaseASTNode | null, analyses: Analyses, depth: number): boolean {
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
