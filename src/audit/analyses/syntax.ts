import type * as AST from '../parse/ast.ts'
import type { BranchPath } from '../ir/types.ts'

/**
 * Small questions about syntax shared by the analyses and the detectors: parentheses stripped,
 * names of callees, literals, walking and searching an expression tree.
 */

/** Strips parentheses. */
export function unwrap(node: AST.BaseASTNode): AST.BaseASTNode {
  let current = node
  while (current.type === 'TupleExpression') {
    const tuple = current as AST.TupleExpression
    if (tuple.isArray || tuple.components.length !== 1 || !tuple.components[0]) break
    current = tuple.components[0]
  }
  return current
}


/** The name a call is made by: `f` in `f(…)` and `x.f(…)`. */
export function calledName(call: AST.FunctionCall): string {
  const callee = unwrap(call.expression)
  return callee.type === 'MemberAccess' ? (callee as AST.MemberAccess).memberName : nameOf(callee)
}

/** The name of an identifier or elementary type name; empty for anything else. */
export function nameOf(node: AST.BaseASTNode): string {
  return node.type === 'Identifier' ? (node as AST.Identifier).name : node.type === 'ElementaryTypeName' ? (node as AST.ElementaryTypeName).name : ''
}


/** Whether an expression is `tx.origin`. */
export function isTxOrigin(node: AST.BaseASTNode): boolean {
  const n = unwrap(node)
  return n.type === 'MemberAccess' && (n as AST.MemberAccess).memberName === 'origin' && (n as AST.MemberAccess).expression.type === 'Identifier' && ((n as AST.MemberAccess).expression as AST.Identifier).name === 'tx'
}

/** Whether `node` is a literal or `address(0)`-like constant. */
export function isLiteral(node: AST.BaseASTNode): boolean {
  const n = unwrap(node)
  if (n.type === 'NumberLiteral' || n.type === 'BooleanLiteral' || n.type === 'StringLiteral' || n.type === 'HexLiteral') return true
  if (n.type === 'FunctionCall') {
    const call = n as AST.FunctionCall
    const callee = nameOf(call.expression)
    return (callee === 'address' || call.expression.type === 'ElementaryTypeName') && call.arguments.length === 1 && isLiteral(call.arguments[0])
  }
  return false
}

/** Calls `visit` on every node of an expression tree (pre-order). Returning false skips children. */
export function walkNodes(node: AST.BaseASTNode | null | undefined, visit: (n: AST.BaseASTNode) => boolean | void): void {
  if (!node || typeof node !== 'object') return
  if (visit(node) === false) return
  for (const key in node) {
    if (key === 'loc' || key === 'range' || key === 'type') continue
    const value = (node as unknown as Record<string, unknown>)[key]
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof item === 'object' && 'type' in item) walkNodes(item as AST.BaseASTNode, visit)
    } else if (value && typeof value === 'object' && 'type' in value) walkNodes(value as AST.BaseASTNode, visit)
  }
}

/** Whether `needle` is `haystack` or one of its descendants. */
export function contains(haystack: AST.BaseASTNode, needle: AST.BaseASTNode): boolean {
  if (haystack === needle) return true
  if (haystack.range && needle.range) return needle.range[0] >= haystack.range[0] && needle.range[1] <= haystack.range[1] && isDescendant(haystack, needle)
  return isDescendant(haystack, needle)
}

function isDescendant(haystack: AST.BaseASTNode, needle: AST.BaseASTNode): boolean {
  let found = false
  walkNodes(haystack, (n) => {
    if (found) return false
    if (n === needle) found = true
    return !found
  })
  return found
}

/** Whether an expression mentions an identifier from `names`. */
export function mentionsAny(node: AST.BaseASTNode, names: ReadonlySet<string>): boolean {
  let found = false
  walkNodes(node, (n) => {
    if (found) return false
    if (n.type === 'Identifier' && names.has((n as AST.Identifier).name)) found = true
    return !found
  })
  return found
}

/** Whether two branch paths can both execute in one run (they take no `if` two ways). */
export function pathsCompatible(a: BranchPath, b: BranchPath): boolean {
  for (const [idA, sideA] of a) for (const [idB, sideB] of b) if (idA === idB && sideA !== sideB) return false
  return true
}
