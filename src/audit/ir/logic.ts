import type * as AST from '../parse/ast.ts'
import { stripParentheses } from './comparisons.ts'
import type { LogicIr } from './types.ts'

/*
 * A condition as its boolean structure: the `!`, `&&` and `||` joining its other parts. Guards
 * carry theirs (`GuardIr.logic`), built when the function is walked; analyses that weigh which
 * value of each part lets execution continue (who may call, see AccessAnalysis) read the tree,
 * with the polarity the guard gives, instead of walking the syntax themselves.
 */

const known = new WeakMap<AST.BaseASTNode, LogicIr>()

/** The boolean structure of an expression (parentheses stripped); computed once per node. */
export function logicOf(expression: AST.Expression): LogicIr {
  const cached = known.get(expression)
  if (cached) return cached
  const node = stripParentheses(expression)
  let logic: LogicIr
  if (node.type === 'UnaryOperation' && node.operator === '!') logic = { kind: 'not', node, operand: logicOf(node.subExpression) }
  else if (node.type === 'BinaryOperation' && (node.operator === '&&' || node.operator === '||')) {
    logic = { kind: node.operator === '&&' ? 'and' : 'or', node, left: logicOf(node.left), right: logicOf(node.right) }
  } else logic = { kind: 'part', node }
  known.set(expression, logic)
  return logic
}
