import type * as AST from '../parse/ast.ts'
import type { BranchPath, CallIr, ContractIr, FunctionIr, ProjectIr, SourceFileIr } from '../ir/types.ts'
import { isVarDeclaration } from '../ir/walk-function.ts'

/**
 * Small questions about syntax shared by the analyses and the detectors: parentheses stripped,
 * names of callees and identifiers, literals and constants, conversions, what receives a value,
 * how an occurrence of a name is used, walking and searching an expression tree. Detectors ask
 * these (or read IR facts) rather than testing node kinds themselves.
 */

/** Strips parentheses. Returns the node typed as the union of node types, so `n.type === 'MemberAccess'` narrows it. */
export function unwrap(node: AST.BaseASTNode): AST.ASTNode {
  let current = node as AST.ASTNode
  while (current.type === 'TupleExpression') {
    if (current.isArray || current.components.length !== 1 || !current.components[0]) break
    current = current.components[0] as AST.ASTNode
  }
  return current
}

/** The nodes of one type in a function's body, in source order, typed as that node type. */
export function nodesOf<T extends AST.ASTNode['type']>(fn: FunctionIr, type: T): Extract<AST.ASTNode, { type: T }>[] {
  return (fn.facts.nodes.get(type) ?? []) as Extract<AST.ASTNode, { type: T }>[]
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


/** The name of an identifier (parentheses stripped); null for any other expression. */
export function identifierName(node: AST.BaseASTNode | null | undefined): string | null {
  if (!node) return null
  const n = unwrap(node)
  return n.type === 'Identifier' ? n.name : null
}

/**
 * The name of the variable an index or member access reaches into: `p` in `p.owner`, `p[0].x`;
 * null for a bare identifier and for an access rooted in anything but a name.
 */
export function accessedName(node: AST.BaseASTNode): string | null {
  let root = node as AST.ASTNode
  while (root.type === 'MemberAccess' || root.type === 'IndexAccess') root = root.type === 'MemberAccess' ? root.expression : root.base
  return root !== node && root.type === 'Identifier' ? root.name : null
}

/** The expression inside any calls of one argument (conversions, wrappers): `x` in `IERC20(address(x))`. */
export function insideSingleArgumentCalls(node: AST.BaseASTNode): AST.ASTNode {
  let current = unwrap(node)
  while (current.type === 'FunctionCall' && current.arguments.length === 1) current = unwrap(current.arguments[0])
  return current
}

/** Whether an expression is a `new` call: `new C(…)`, `new uint256[](n)` (parentheses allowed). */
export function isNewCall(node: AST.BaseASTNode): boolean {
  const n = unwrap(node)
  return n.type === 'FunctionCall' && unwrap(n.expression).type === 'NewExpression'
}

/** Whether an expression deploys a contract: `new C(…)`, also inside conversions (`address(new C())`). */
export function isContractCreation(node: AST.BaseASTNode | null | undefined): boolean {
  if (!node) return false
  let current = unwrap(node)
  while (current.type === 'FunctionCall' && current.expression.type !== 'NewExpression' && current.arguments.length === 1) current = unwrap(current.arguments[0])
  return current.type === 'FunctionCall' && unwrap(current.expression).type === 'NewExpression'
}

/** The name and arguments of a call of a plain name (`keccak256(…)`); null for member calls and anything else. */
export function namedCall(node: AST.BaseASTNode): { name: string; args: AST.Expression[] } | null {
  const n = node as AST.ASTNode
  return n.type === 'FunctionCall' && n.expression.type === 'Identifier' ? { name: n.expression.name, args: n.arguments } : null
}

/** The array whose length an expression is: `a` in `a.length` (parentheses stripped); null for anything else. */
export function lengthOf(node: AST.BaseASTNode): AST.Expression | null {
  const n = unwrap(node)
  return n.type === 'MemberAccess' && n.memberName === 'length' ? n.expression : null
}

/** The index of an index access: `i` in `a[i]` (parentheses stripped); null for anything else and for `a[]`. */
export function indexOf(node: AST.BaseASTNode): AST.Expression | null {
  const n = unwrap(node)
  return n.type === 'IndexAccess' ? (n.index ?? null) : null
}

/** Whether a call is made on a member: `x.f(…)`, `block.blockhash(…)`, not `f(…)`. */
export function isMemberCall(node: AST.BaseASTNode): boolean {
  const n = node as AST.ASTNode
  return n.type === 'FunctionCall' && n.expression.type === 'MemberAccess'
}

/** Whether a declaration statement declares a variable with `var`. */
export function declaresWithVar(statement: AST.VariableDeclarationStatement): boolean {
  return statement.variables.some((v) => v !== null && isVarDeclaration(v as AST.VariableDeclaration))
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
export function walkNodes(node: AST.BaseASTNode | null | undefined, visit: (n: AST.ASTNode) => boolean | void): void {
  if (!node || typeof node !== 'object') return
  if (visit(node as AST.ASTNode) === false) return
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
  return someNode(haystack, (n) => n === needle)
}

/** Whether `node` or one of its descendants passes `test`; the walk stops at the first that does. */
export function someNode(node: AST.BaseASTNode, test: (n: AST.ASTNode) => boolean): boolean {
  let found = false
  walkNodes(node, (n) => {
    if (found) return false
    if (test(n)) found = true
    return !found
  })
  return found
}

/** Whether an expression mentions an identifier from `names`. */
export function mentionsAny(node: AST.BaseASTNode, names: ReadonlySet<string>): boolean {
  return someNode(node, (n) => n.type === 'Identifier' && names.has(n.name))
}

/** Whether two branch paths can both execute in one run (they take no `if` two ways). */
export function pathsCompatible(a: BranchPath, b: BranchPath): boolean {
  for (const [idA, sideA] of a) for (const [idB, sideB] of b) if (idA === idB && sideA !== sideB) return false
  return true
}

/** Whether an expression is `msg.value`. */
export function isMsgValue(node: AST.BaseASTNode): boolean {
  const n = unwrap(node)
  return n.type === 'MemberAccess' && n.memberName === 'value' && n.expression.type === 'Identifier' && n.expression.name === 'msg'
}

/** Whether an expression is `msg.data`. */
export function isMsgData(node: AST.BaseASTNode): boolean {
  const n = unwrap(node)
  return n.type === 'MemberAccess' && n.memberName === 'data' && n.expression.type === 'Identifier' && n.expression.name === 'msg'
}

/** Whether an expression is `address(this)` or `this`. */
export function isThis(node: AST.BaseASTNode): boolean {
  const n = unwrap(node)
  if (n.type === 'Identifier') return n.name === 'this'
  if (n.type === 'FunctionCall') {
    const call = n
    const callee = call.expression
    const name = callee.type === 'Identifier' ? callee.name : callee.type === 'ElementaryTypeName' ? callee.name : ''
    return (name === 'address' || name === 'payable') && call.arguments.length === 1 && isThis(call.arguments[0])
  }
  return false
}

/** Whether a call sends ETH (a non-zero value option, send or transfer). */
export function sendsEth(call: CallIr): boolean {
  if (call.value === null) return false
  const v = unwrap(call.value)
  return !(v.type === 'NumberLiteral' && Number(v.number) === 0)
}

/** Whether a node is a zero literal or `address(0)`. */
export function isZero(node: AST.BaseASTNode): boolean {
  const n = unwrap(node)
  if (n.type === 'NumberLiteral') return /^0+$|^0x0*$/.test(n.number)
  if (n.type === 'FunctionCall') {
    const call = n
    const callee = call.expression
    const name = callee.type === 'Identifier' ? callee.name : callee.type === 'ElementaryTypeName' ? callee.name : ''
    return (name === 'address' || name === 'payable') && call.arguments.length === 1 && isZero(call.arguments[0])
  }
  return false
}

/** Whether an expression reads a block value usable as (bad) randomness or a clock. */
export function blockValue(node: AST.BaseASTNode): 'timestamp' | 'number' | 'difficulty' | 'coinbase' | 'blockhash' | 'gaslimit' | null {
  const n = unwrap(node)
  if (n.type === 'Identifier' && n.name === 'now') return 'timestamp'
  if (n.type === 'MemberAccess') {
    const m = n
    if (m.expression.type === 'Identifier' && m.expression.name === 'block') {
      switch (m.memberName) {
        case 'timestamp':
          return 'timestamp'
        case 'number':
          return 'number'
        case 'difficulty':
        case 'prevrandao':
          return 'difficulty'
        case 'coinbase':
          return 'coinbase'
        case 'gaslimit':
          return 'gaslimit'
      }
    }
  }
  if (n.type === 'FunctionCall') {
    const call = n
    const callee = call.expression
    if (callee.type === 'Identifier' && callee.name === 'blockhash') return 'blockhash'
    if (callee.type === 'MemberAccess' && callee.memberName === 'blockhash' && callee.expression.type === 'Identifier' && callee.expression.name === 'block') return 'blockhash'
  }
  return null
}

/** Normalised source text of an expression (parentheses stripped, no whitespace), for comparing two occurrences. */
export function normalised(file: SourceFileIr, node: AST.BaseASTNode): string {
  const n = unwrap(node)
  if (!n.range) return ''
  return file.source.slice(n.range[0], n.range[1] + 1).replace(/\s+/g, '')
}

/**
 * The variable a call's result (a success flag) is stored in: the first variable of the
 * declaration or assignment it is the value of (`bool ok = a.send(v)`, `(ok, ) = a.call(…)`);
 * null when it is not stored by name.
 */
export function resultStoredIn(ir: ProjectIr, call: CallIr): string | null {
  let parent = ir.info(call.node)?.parent ?? null
  while (parent && parent.type === 'TupleExpression' && parent.components.length === 1) parent = ir.info(parent)?.parent ?? null
  if (parent?.type === 'VariableDeclarationStatement') return (parent.variables[0] as AST.VariableDeclaration | null)?.name ?? null
  if (parent?.type === 'BinaryOperation' && parent.operator === '=') {
    const left = unwrap(parent.left)
    const first = left.type === 'TupleExpression' ? left.components[0] : left
    return first?.type === 'Identifier' ? (first as AST.Identifier).name : null
  }
  return null
}

/**
 * How an occurrence of a name is used: `assignment` (`x = …`, `(x, y) = …`), `update` (`x += …`,
 * `x++`, `delete x`) or `read` (anything else, `x[i] = …` included: that reads `x`).
 */
export function identifierUse(ir: ProjectIr, use: AST.BaseASTNode): 'assignment' | 'update' | 'read' {
  const parent = ir.info(use)?.parent
  if (parent?.type === 'TupleExpression') {
    const grand = ir.info(parent)?.parent
    if (grand?.type === 'BinaryOperation' && grand.operator === '=' && grand.left === parent) return 'assignment'
    return 'read'
  }
  if (parent?.type === 'UnaryOperation' && ['++', '--', 'delete'].includes(parent.operator)) return 'update'
  if (parent?.type === 'BinaryOperation' && unwrap(parent.left) === use) {
    const op = parent.operator
    if (op === '=') return 'assignment'
    if (op.endsWith('=') && !['==', '!=', '<=', '>='].includes(op)) return 'update'
  }
  return 'read'
}

const LOOP_STATEMENTS: ReadonlySet<string> = new Set(['ForStatement', 'WhileStatement', 'DoWhileStatement'])

/** The innermost loop statement around `node` that is inside `scope` (climbing no higher than it); null when none is. */
export function loopWithin(ir: ProjectIr, node: AST.BaseASTNode, scope: AST.BaseASTNode | null): AST.BaseASTNode | null {
  let current = ir.info(node)?.parent ?? null
  while (current && current !== scope) {
    if (LOOP_STATEMENTS.has(current.type)) return current
    current = ir.info(current)?.parent ?? null
  }
  return null
}

/**
 * What receives the value of an expression: the (first) local of the declaration it initialises,
 * or the left side of the `=` it is the right side of; null when it is neither.
 */
export function receiverOf(ir: ProjectIr, node: AST.BaseASTNode): { local: AST.VariableDeclaration | null } | { target: AST.Expression } | null {
  const parent = ir.info(node)?.parent
  if (parent?.type === 'VariableDeclarationStatement') return { local: parent.variables[0] as AST.VariableDeclaration | null }
  if (parent?.type === 'BinaryOperation' && parent.operator === '=') return { target: parent.left }
  return null
}

/** What holds a call's result: the local its declaration initialises, the expression it is assigned to, else the call itself. */
export function resultHolder(ir: ProjectIr, call: CallIr): AST.BaseASTNode {
  const receiver = receiverOf(ir, call.node)
  if (receiver && 'local' in receiver) return receiver.local?.identifier ?? call.node
  return receiver ? receiver.target : call.node
}

/** The normalised source text (see `normalised`) of an expression and of every expression inside it. */
export function subexpressionTexts(file: SourceFileIr, node: AST.BaseASTNode): string[] {
  const texts: string[] = []
  walkNodes(node, (n) => {
    texts.push(normalised(file, n))
  })
  return texts
}

/**
 * Whether an expression is made of literals and constant state variables of `fn`'s contract only
 * (no local, parameter, call, member or index access).
 */
export function usesOnlyConstants(node: AST.BaseASTNode, fn: FunctionIr): boolean {
  let constant = true
  walkNodes(node, (n) => {
    if (!constant) return false
    if (n.type === 'Identifier') {
      const name = n.name
      const variable = fn.contract && !fn.facts.locals.has(name) ? fn.contract.linearization.flatMap((c) => c.stateVariables).find((v) => v.name === name) : undefined
      if (!variable?.isConstant) constant = false
    }
    if (n.type === 'FunctionCall' || n.type === 'MemberAccess' || n.type === 'IndexAccess') constant = false
    return constant
  })
  return constant
}

/** An expression without one conversion around it: `p` in `payable(p)`, `address(p)`, `uint160(p)` (parentheses stripped). */
export function withoutConversion(node: AST.BaseASTNode): AST.ASTNode {
  const n = unwrap(node)
  if (n.type !== 'FunctionCall' || n.arguments.length !== 1) return n
  const callee = n.expression
  const converts = (callee.type === 'Identifier' && (callee.name === 'payable' || callee.name === 'address')) || callee.type === 'ElementaryTypeName'
  return converts ? unwrap(n.arguments[0]) : n
}

/** Whether an expression is a string or hex string literal (parentheses allowed). */
export function isStringLiteral(node: AST.BaseASTNode): boolean {
  const n = unwrap(node)
  return n.type === 'StringLiteral' || n.type === 'HexLiteral'
}

/** The number literals of an expression tree, in source order. */
export function numberLiteralsIn(node: AST.BaseASTNode | null | undefined): AST.NumberLiteral[] {
  const found: AST.NumberLiteral[] = []
  walkNodes(node, (n) => {
    if (n.type === 'NumberLiteral') found.push(n)
  })
  return found
}

/** The member names an expression tree reads: `balanceOf` and `decimals` in `t.balanceOf(a) * t.decimals()`. */
export function memberNamesIn(node: AST.BaseASTNode | null | undefined): string[] {
  const found: string[] = []
  walkNodes(node, (n) => {
    if (n.type === 'MemberAccess') found.push(n.memberName)
  })
  return found
}

/** The names an expression tree or assembly block mentions: identifiers, and the Yul functions it calls. */
export function namesIn(node: AST.BaseASTNode | null | undefined): string[] {
  const found: string[] = []
  walkNodes(node, (n) => {
    if (n.type === 'AssemblyCall') found.push(n.functionName)
    if (n.type === 'Identifier') found.push(n.name)
  })
  return found
}

/** Calls whose result is known at compile time when their arguments are. */
const PURE_BUILTINS: ReadonlySet<string> = new Set(['keccak256', 'sha256', 'ripemd160', 'type', 'uint256', 'bytes32', 'address'])

/** Whether an initial value is a compile-time constant (literals, constants, pure built-ins of those). */
export function isCompileTimeConstant(node: AST.BaseASTNode, contract: ContractIr): boolean {
  let constant = true
  walkNodes(node, (n) => {
    if (!constant) return false
    switch (n.type) {
      case 'Identifier': {
        const name = n.name
        const variable = contract.linearization.flatMap((c) => c.stateVariables).find((v) => v.name === name)
        if (!variable?.isConstant) constant = false
        return false
      }
      case 'FunctionCall': {
        const callee = n.expression
        const name = callee.type === 'Identifier' || callee.type === 'ElementaryTypeName' ? callee.name : ''
        if (!PURE_BUILTINS.has(name) && callee.type !== 'ElementaryTypeName') constant = false
        for (const arg of n.arguments) if (!isCompileTimeConstant(arg, contract)) constant = false
        return false
      }
      case 'MemberAccess': {
        // type(uint256).max
        const base = n.expression
        if (!(base.type === 'FunctionCall' && base.expression.type === 'Identifier' && base.expression.name === 'type')) constant = false
        return false
      }
      case 'IndexAccess':
      case 'NewExpression':
      case 'TupleExpression':
        if (n.type !== 'TupleExpression' || n.isArray) constant = false
        return constant
      default:
        return true
    }
  })
  return constant
}
