import type * as AST from '../parse/ast.ts'
import type { ArithmeticTerms } from './arithmetic.ts'
import type {
  ComparisonIr,
  ComparisonOperator,
  ConditionIr,
  ConditionKind,
  EnvironmentValue,
  FunctionFacts,
  LiteralValue,
  LocalVariable,
  NodeInfo,
  OperandIr,
  StateVariableIr,
  ValueReads,
} from './types.ts'

/*
 * The comparison and condition facts of a function, computed from its walked facts (the nodes by
 * type, the calls, the loops, the state reads, the arithmetic terms) once the walk is done, so that detectors read
 * "a comparison of a uint against 0 inside a require" instead of walking syntax themselves.
 */

const COMPARISON_OPERATORS: ReadonlySet<string> = new Set<ComparisonOperator>(['==', '!=', '<', '>', '<=', '>='])

const ENVIRONMENT_OBJECTS: ReadonlySet<string> = new Set(['block', 'msg', 'tx'])

/** Fills `facts.conditions`, `facts.comparisons` and `facts.environment`; `info` gives each body node's parent. */
export function addComparisonFacts(facts: FunctionFacts, info: ReadonlyMap<AST.BaseASTNode, NodeInfo>, terms: ArithmeticTerms): void {
  const stateByNode = new Map<AST.BaseASTNode, StateVariableIr>()
  for (const access of facts.stateReads) stateByNode.set(access.node, access.variable)
  for (const access of facts.stateWrites) if (!stateByNode.has(access.node)) stateByNode.set(access.node, access.variable)
  const readsOf = (node: AST.BaseASTNode): ValueReads => valueReads(node, facts.locals, stateByNode)

  const byNode = new Map<AST.BaseASTNode, ConditionIr>()
  const addCondition = (node: AST.Expression | null | undefined, kind: ConditionKind, owner: AST.BaseASTNode): void => {
    if (!node || byNode.has(node)) return
    byNode.set(node, { node, kind, owner, reads: readsOf(node), comparisons: [] })
  }
  for (const call of facts.calls) {
    if (call.kind !== 'builtin' || (call.name !== 'require' && call.name !== 'assert') || call.node.type !== 'FunctionCall') continue
    addCondition(call.args[0], call.name, call.node)
  }
  for (const node of nodes(facts, 'IfStatement')) addCondition(node.condition, 'if', node)
  for (const loop of facts.loops) {
    const kind: ConditionKind = loop.node.type === 'ForStatement' ? 'for' : loop.node.type === 'WhileStatement' ? 'while' : 'do-while'
    addCondition(loop.condition, kind, loop.node)
  }
  for (const node of nodes(facts, 'Conditional')) addCondition(node.condition, 'ternary', node)
  for (const node of [...nodes(facts, 'MemberAccess'), ...nodes(facts, 'Identifier')]) {
    const value = environmentValue(node)
    if (value) facts.environment.push({ value, node })
  }
  facts.conditions = [...byNode.values()].sort((a, b) => start(a.node) - start(b.node))

  for (const node of nodes(facts, 'BinaryOperation')) {
    if (!COMPARISON_OPERATORS.has(node.operator)) continue
    const around = enclosingConditions(node, byNode, info)
    const comparison: ComparisonIr = {
      node,
      operator: node.operator as ComparisonOperator,
      left: operand(node.left, readsOf, terms),
      right: operand(node.right, readsOf, terms),
      condition: around[0] ?? null,
      direct: around.length > 0 && isDirectPart(node, around[0].node, info),
    }
    facts.comparisons.push(comparison)
    for (const condition of around) condition.comparisons.push(comparison)
  }
}

function nodes<T extends AST.ASTNode['type']>(facts: FunctionFacts, type: T): Extract<AST.ASTNode, { type: T }>[] {
  return (facts.nodes.get(type) ?? []) as Extract<AST.ASTNode, { type: T }>[]
}

function start(node: AST.BaseASTNode): number {
  return node.range?.[0] ?? 0
}

/** The conditions `node` is part of, innermost first, climbing its parents. */
function enclosingConditions(node: AST.BaseASTNode, conditions: ReadonlyMap<AST.BaseASTNode, ConditionIr>, info: ReadonlyMap<AST.BaseASTNode, NodeInfo>): ConditionIr[] {
  const around: ConditionIr[] = []
  let current: AST.BaseASTNode | null = node
  while (current) {
    const condition = conditions.get(current)
    if (condition) around.push(condition)
    current = info.get(current)?.parent ?? null
  }
  return around
}

/** Whether `node` is `condition` or reached from it only through `&&`, `||`, `!` and parentheses. */
function isDirectPart(node: AST.BaseASTNode, condition: AST.BaseASTNode, info: ReadonlyMap<AST.BaseASTNode, NodeInfo>): boolean {
  let current: AST.BaseASTNode = node
  while (current !== condition) {
    const parent = info.get(current)?.parent
    if (!parent) return false
    const joins =
      (parent.type === 'BinaryOperation' && (parent.operator === '&&' || parent.operator === '||')) ||
      (parent.type === 'UnaryOperation' && parent.operator === '!') ||
      (parent.type === 'TupleExpression' && !parent.isArray && parent.components.length === 1)
    if (!joins) return false
    current = parent
  }
  return true
}

function operand(node: AST.Expression, readsOf: (node: AST.BaseASTNode) => ValueReads, terms: ArithmeticTerms): OperandIr {
  const expression = stripParentheses(node)
  return { node, expression, literal: literalValue(expression), environment: environmentValue(expression), zero: isZero(expression), reads: readsOf(node), term: terms.termOf(node) }
}

/** Whether an expression is the literal 0 (any unit) or `address(0)` / `payable(0)`, parentheses allowed. */
function isZero(node: AST.Expression): boolean {
  const n = stripParentheses(node)
  if (n.type === 'NumberLiteral') return /^0+$|^0x0*$/.test(n.number)
  if (n.type === 'FunctionCall') {
    const callee = n.expression
    const name = callee.type === 'Identifier' ? callee.name : callee.type === 'ElementaryTypeName' ? callee.name : ''
    return (name === 'address' || name === 'payable') && n.arguments.length === 1 && isZero(n.arguments[0])
  }
  return false
}

/** The expression inside any parentheses. */
export function stripParentheses(node: AST.Expression): AST.Expression {
  let current = node
  while (current.type === 'TupleExpression' && !current.isArray && current.components.length === 1 && current.components[0]) {
    current = current.components[0] as AST.Expression
  }
  return current
}

function literalValue(node: AST.Expression): LiteralValue | null {
  if (node.type === 'BooleanLiteral') return { kind: 'bool', value: node.value }
  if (node.type !== 'NumberLiteral' || node.subdenomination) return null
  const text = node.number.replace(/_/g, '')
  return /^(0x[0-9a-fA-F]+|\d+)$/.test(text) ? { kind: 'number', value: BigInt(text) } : null
}

/** The block, message or transaction value an expression is (`now` is `block.timestamp`). */
function environmentValue(node: AST.BaseASTNode): EnvironmentValue | null {
  const n = node as AST.ASTNode
  if (n.type === 'Identifier') return n.name === 'now' ? 'block.timestamp' : null
  if (n.type === 'MemberAccess' && n.expression.type === 'Identifier' && ENVIRONMENT_OBJECTS.has(n.expression.name)) {
    return `${n.expression.name as 'block' | 'msg' | 'tx'}.${n.memberName}`
  }
  return null
}

/** Whether an expression is `this`, `address(this)` or `payable(this)` (parentheses allowed). */
function isThis(node: AST.Expression): boolean {
  const n = stripParentheses(node)
  if (n.type === 'Identifier') return n.name === 'this'
  if (n.type === 'FunctionCall') {
    const callee = n.expression
    const name = callee.type === 'Identifier' ? callee.name : callee.type === 'ElementaryTypeName' ? callee.name : ''
    return (name === 'address' || name === 'payable') && n.arguments.length === 1 && isThis(n.arguments[0])
  }
  return false
}

function valueReads(root: AST.BaseASTNode, locals: ReadonlyMap<string, LocalVariable>, stateByNode: ReadonlyMap<AST.BaseASTNode, StateVariableIr>): ValueReads {
  const state = new Set<StateVariableIr>()
  const params = new Set<LocalVariable>()
  const localReads = new Set<LocalVariable>()
  const environment = new Set<EnvironmentValue>()
  const keys = new Set<EnvironmentValue>()
  const lengths = new Set<StateVariableIr>()
  let ownBalance = false
  eachNode(root, (n) => {
    const variable = stateByNode.get(n)
    if (variable) state.add(variable)
    else if (n.type === 'Identifier') {
      const local = locals.get(n.name)
      if (local) (local.isParameter ? params : localReads).add(local)
    }
    const env = environmentValue(n)
    if (env) environment.add(env)
    if (n.type === 'MemberAccess' && n.memberName === 'length') {
      const array = stateByNode.get(stripParentheses(n.expression))
      if (array && array.type.kind === 'array') lengths.add(array)
    }
    if (n.type === 'IndexAccess' && n.index) {
      const key = environmentValue(stripParentheses(n.index))
      if (key) keys.add(key)
    }
    if (n.type === 'MemberAccess' && n.memberName === 'balance' && isThis(n.expression)) ownBalance = true
    if (n.type === 'FunctionCall' && n.expression.type === 'MemberAccess' && n.expression.memberName === 'balanceOf' && n.arguments.length === 1 && isThis(n.arguments[0])) ownBalance = true
  })
  return { state: [...state], params: [...params], locals: [...localReads], environment: [...environment], keys: [...keys], lengths: [...lengths], ownBalance }
}

/** Calls `visit` on every node of an expression tree, pre-order. */
function eachNode(node: AST.BaseASTNode, visit: (n: AST.ASTNode) => void): void {
  visit(node as AST.ASTNode)
  for (const key in node) {
    if (key === 'loc' || key === 'range' || key === 'type') continue
    const value = (node as unknown as Record<string, unknown>)[key]
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof item === 'object' && 'type' in item) eachNode(item as AST.BaseASTNode, visit)
    } else if (value && typeof value === 'object' && 'type' in value) eachNode(value as AST.BaseASTNode, visit)
  }
}
