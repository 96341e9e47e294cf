import type * as AST from '../parse/ast.ts'
import { addArithmeticFacts } from './arithmetic.ts'
import { addComparisonFacts } from './comparisons.ts'
import { logicOf } from './logic.ts'
import type { ProjectScope } from './scope.ts'
import { typeOf } from './typing.ts'
import type {
  AssignmentIr,
  BranchPath,
  CallIr,
  CallKind,
  Effect,
  FunctionFacts,
  FunctionIr,
  LocalVariable,
  LoopIr,
  NodeInfo,
  StateAccess,
  StateVariableIr,
  TypeRef,
} from './types.ts'

/*
 * The one walk of a function body that computes its facts (calls classified with their options,
 * state reads and writes, guards, loops, locals and their types, the ordered effect sequence,
 * calls made in inline assembly; then the arithmetic, comparisons and conditions, see
 * arithmetic.ts and comparisons.ts).
 * Why it is long: it is one pass: every statement and expression kind is visited once, in evaluation order, with the walk's state (enclosing loops,
 * branch path, the assignment being written) shared by all of them; splitting it by node kind
 * would scatter that state without making any part shorter to follow.
 */

/** What the walker shares across functions. */
export interface WalkContext {
  scope: ProjectScope
  info: Map<AST.BaseASTNode, NodeInfo>
  nextBranchId(): number
}

const UNKNOWN: TypeRef = { kind: 'unknown' }

const LOW_LEVEL: ReadonlySet<string> = new Set(['call', 'delegatecall', 'staticcall', 'callcode'])

const BUILTIN_FUNCTIONS: ReadonlySet<string> = new Set([
  'require', 'assert', 'revert', 'keccak256', 'sha3', 'sha256', 'ripemd160', 'ecrecover', 'addmod', 'mulmod',
  'selfdestruct', 'suicide', 'blockhash', 'gasleft', 'type',
])

const MAGIC_OBJECTS: ReadonlySet<string> = new Set(['abi', 'block', 'msg', 'tx', 'bytes', 'string'])

/** Call kinds that run code of this or another contract, and so appear in the effect sequence. */
const EFFECT_CALL_KINDS: ReadonlySet<CallKind> = new Set<CallKind>([
  'internal', 'library', 'external', 'external-self', 'low-level', 'send', 'transfer', 'creation',
])

/**
 * Yul instructions recorded as calls: their kind, arity, and which argument is the address and
 * which the ETH value (-1 when none).
 */
const YUL_CALLS: ReadonlyMap<string, { kind: CallKind; lowLevel: CallIr['lowLevel']; arity: number; target: number; value: number }> = new Map([
  ['call', { kind: 'low-level', lowLevel: 'call', arity: 7, target: 1, value: 2 }],
  ['callcode', { kind: 'low-level', lowLevel: 'callcode', arity: 7, target: 1, value: 2 }],
  ['delegatecall', { kind: 'low-level', lowLevel: 'delegatecall', arity: 6, target: 1, value: -1 }],
  ['staticcall', { kind: 'low-level', lowLevel: 'staticcall', arity: 6, target: 1, value: -1 }],
  ['create', { kind: 'creation', lowLevel: null, arity: 3, target: -1, value: 0 }],
  ['create2', { kind: 'creation', lowLevel: null, arity: 4, target: -1, value: 0 }],
  ['selfdestruct', { kind: 'builtin', lowLevel: null, arity: 1, target: 0, value: -1 }],
])

/** Whether a Yul expression is the literal 0. */
function isYulZero(node: AST.AssemblyExpression): boolean {
  return (node.type === 'DecimalNumber' || node.type === 'HexNumber') && /^(0x)?0+$/i.test((node as AST.DecimalNumber).value)
}

type Mode = 'read' | 'write' | 'readwrite'

/**
 * Walks one function or modifier body once, in evaluation order, and fills its facts: every node
 * indexed by type, calls classified, state accesses, guards, loops, and the ordered effects with
 * the branch path that reaches each.
 */
export class FunctionWalker {
  private path: (readonly [number, number])[] = []
  private readonly loops: LoopIr[] = []
  private unchecked = 0
  private readonly parents: AST.BaseASTNode[] = []
  /** Per entry of `parents`: the node info its children last got, shared by siblings alike (one object per parent, not per node). */
  private readonly childInfo: (NodeInfo | null)[] = []
  readonly facts: FunctionFacts = emptyFacts()
  /** The statement (or expression) being assigned when walking a write target. */
  private writeStatement: AST.BaseASTNode | null = null
  private readonly callByNode = new Map<AST.FunctionCall, CallIr>()
  private readonly assignmentByNode = new Map<AST.BaseASTNode, AssignmentIr>()
  /** Depth of Yul `for` loops around the node being walked. */
  private yulLoops = 0
  /** Calls made in assembly whose result is stored in variables: checked once the whole body is known. */
  private readonly pendingAssemblyResults: { call: CallIr; names: string[] }[] = []

  constructor(
    private readonly ctx: WalkContext,
    private readonly fn: FunctionIr,
  ) {}

  run(): FunctionFacts {
    const { fn } = this
    fn.params.forEach((p, index) => this.declareLocal(p, true, false, index))
    for (const r of fn.returns) this.declareLocal(r, false, true, -1)
    if (fn.body) this.statement(fn.body)
    for (const { call, names } of this.pendingAssemblyResults) if (call.assembly) call.assembly.successChecked = this.storedResultRead(call, names)
    addComparisonFacts(this.facts, this.ctx.info, addArithmeticFacts(this.facts, this.fn.file.source))
    return this.facts
  }

  // ---------------------------------------------------------------- bookkeeping

  private enter(node: AST.BaseASTNode): void {
    // Every node the walk visits is one of the parser's node types.
    const top = this.parents.length - 1
    const parent = top >= 0 ? (this.parents[top] as AST.ASTNode) : null
    const loop = this.loops.length > 0 ? this.loops[this.loops.length - 1] : null
    const unchecked = this.unchecked > 0
    let info = top >= 0 ? this.childInfo[top] : null
    if (!info || info.loop !== loop || info.unchecked !== unchecked) {
      info = { parent, loop, unchecked, function: this.fn }
      if (top >= 0) this.childInfo[top] = info
    }
    this.ctx.info.set(node, info)
    const list = this.facts.nodes.get(node.type)
    if (list) list.push(node)
    else this.facts.nodes.set(node.type, [node])
    this.parents.push(node)
    this.childInfo.push(null)
  }

  private leave(): void {
    this.parents.pop()
    this.childInfo.pop()
  }

  private recordIdentifier(id: AST.Identifier): void {
    const list = this.facts.identifiers.get(id.name)
    if (list) list.push(id)
    else this.facts.identifiers.set(id.name, [id])
  }

  private recordAssignment(assignment: AssignmentIr): void {
    this.facts.assignments.push(assignment)
    this.assignmentByNode.set(assignment.node, assignment)
  }

  private currentPath(): BranchPath {
    return this.path.slice()
  }

  private declareLocal(node: AST.VariableDeclaration, isParameter: boolean, isReturn: boolean, parameterIndex: number): LocalVariable | null {
    if (!node.name) return null
    const type = node.typeName ? this.ctx.scope.resolveTypeName(node.typeName, this.fn.contract, this.fn.file) : UNKNOWN
    const local: LocalVariable = { name: node.name, node, type, isParameter, isReturn, parameterIndex, statement: null }
    this.facts.locals.set(node.name, local)
    return local
  }

  private stateVariable(name: string): StateVariableIr | null {
    if (this.facts.locals.has(name)) return null
    const contract = this.fn.contract
    return contract ? this.ctx.scope.stateVariable(contract, name) : null
  }

  private access(kind: 'read' | 'write', variable: StateVariableIr, node: AST.BaseASTNode, compound = false): void {
    const statement = kind === 'write' ? (this.writeStatement as AST.ASTNode | null) : null
    const access: StateAccess = { variable, node, statement, assignment: statement ? (this.assignmentByNode.get(statement) ?? null) : null, compound }
    if (kind === 'read') this.facts.stateReads.push(access)
    else this.facts.stateWrites.push(access)
    this.facts.effects.push({ kind, access, path: this.currentPath() } as Effect)
  }

  // ---------------------------------------------------------------- statements

  private statement(node: AST.BaseASTNode | null): void {
    if (!node) return
    this.enter(node)
    switch (node.type) {
      case 'Block':
        this.block(node as AST.Block)
        break
      case 'UncheckedStatement':
        this.unchecked++
        this.statement((node as AST.UncheckedStatement).block)
        this.unchecked--
        break
      case 'ExpressionStatement': {
        const expression = (node as AST.ExpressionStatement).expression
        if (expression && expression.type === 'Identifier' && expression.name === '_') {
          this.enter(expression)
          this.leave()
          this.facts.hasPlaceholder = true
          this.facts.effects.push({ kind: 'placeholder', path: this.currentPath() })
        } else if (expression) this.expression(expression, 'read')
        break
      }
      case 'VariableDeclarationStatement':
        this.variableDeclaration(node as AST.VariableDeclarationStatement)
        break
      case 'IfStatement':
        this.ifStatement(node as AST.IfStatement)
        break
      case 'ForStatement': {
        const loopNode = node as AST.ForStatement
        if (loopNode.initExpression) this.statement(loopNode.initExpression)
        const loop: LoopIr = { node: loopNode, condition: loopNode.conditionExpression ?? null, body: loopNode.body, init: loopNode.initExpression ?? null, increment: loopNode.loopExpression?.expression ?? null }
        this.facts.loops.push(loop)
        this.loops.push(loop)
        if (loopNode.conditionExpression) this.expression(loopNode.conditionExpression, 'read')
        this.statement(loopNode.body)
        if (loopNode.loopExpression?.expression) this.expression(loopNode.loopExpression.expression, 'read')
        this.loops.pop()
        break
      }
      case 'WhileStatement':
      case 'DoWhileStatement': {
        const loopNode = node as AST.WhileStatement | AST.DoWhileStatement
        const loop: LoopIr = { node: loopNode, condition: loopNode.condition, body: loopNode.body, init: null, increment: null }
        this.facts.loops.push(loop)
        this.loops.push(loop)
        if (node.type === 'WhileStatement') this.expression(loopNode.condition, 'read')
        this.statement(loopNode.body)
        if (node.type === 'DoWhileStatement') this.expression(loopNode.condition, 'read')
        this.loops.pop()
        break
      }
      case 'ReturnStatement': {
        const ret = node as AST.ReturnStatement
        this.facts.returnStatements.push(ret)
        if (ret.expression) this.expression(ret.expression, 'read')
        break
      }
      case 'EmitStatement': {
        const emit = node as AST.EmitStatement
        this.facts.emits.push(emit)
        this.enter(emit.eventCall)
        for (const arg of emit.eventCall.arguments) this.expression(arg, 'read')
        this.pushCall(emit.eventCall, { kind: 'event', name: calleeName(emit.eventCall.expression) })
        this.leave()
        this.facts.effects.push({ kind: 'emit', node: emit, path: this.currentPath() })
        break
      }
      case 'RevertStatement': {
        const call = (node as AST.RevertStatement).revertCall
        this.enter(call)
        for (const arg of call.arguments) this.expression(arg, 'read')
        this.pushCall(call, { kind: 'error', name: calleeName(call.expression) })
        this.leave()
        break
      }
      case 'InlineAssemblyStatement':
        this.facts.assembly.push(node as AST.InlineAssemblyStatement)
        this.assembly((node as AST.InlineAssemblyStatement).body)
        break
      case 'TryStatement': {
        const tryNode = node as AST.TryStatement
        this.expression(tryNode.expression, 'read')
        for (const r of tryNode.returnParameters ?? []) this.declareLocal(r, false, false, -1)
        this.statement(tryNode.body)
        for (const clause of tryNode.catchClauses) {
          this.enter(clause)
          for (const p of clause.parameters ?? []) this.declareLocal(p, false, false, -1)
          this.statement(clause.body)
          this.leave()
        }
        break
      }
      default:
        // Throw, Break, Continue and anything without children.
        break
    }
    this.leave()
  }

  private block(node: AST.Block): void {
    const pushed = this.path.length
    for (const statement of node.statements) {
      this.statement(statement)
      if (statement.type === 'IfStatement') {
        // Past an `if` whose one branch always leaves, only the other branch was taken.
        const ifNode = statement as AST.IfStatement
        const id = branchIds.get(ifNode)
        if (id === undefined) continue
        const trueLeaves = terminates(ifNode.trueBody)
        const falseLeaves = ifNode.falseBody ? terminates(ifNode.falseBody) : false
        if (trueLeaves && !falseLeaves) this.path.push([id, 1])
        else if (falseLeaves && !trueLeaves) this.path.push([id, 0])
      }
    }
    this.path.length = pushed
  }

  private ifStatement(node: AST.IfStatement): void {
    this.expression(node.condition, 'read')
    const leaving = terminatingKind(node.trueBody)
    if (leaving) this.facts.guards.push({ condition: node.condition, node, kind: leaving, negated: true, logic: logicOf(node.condition) })
    const id = this.ctx.nextBranchId()
    branchIds.set(node, id)
    this.path.push([id, 0])
    this.statement(node.trueBody)
    this.path.pop()
    if (node.falseBody) {
      this.path.push([id, 1])
      this.statement(node.falseBody)
      this.path.pop()
    }
  }

  private variableDeclaration(node: AST.VariableDeclarationStatement): void {
    if (node.initialValue) this.expression(node.initialValue, 'read')
    for (const variable of node.variables) {
      if (!variable || variable.type !== 'VariableDeclaration') continue
      const declaration = variable as AST.VariableDeclaration
      this.enter(declaration)
      this.leave()
      const local = this.declareLocal(declaration, false, false, -1)
      if (!local) continue
      local.statement = node
      if (isVarDeclaration(declaration) && node.initialValue) local.type = this.varType(node, declaration, node.initialValue)
      if (node.variables.length === 1 && node.initialValue && this.isStoragePointer(declaration, local.type)) {
        const root = this.rootStateVariable(node.initialValue)
        if (root) this.facts.storageAliases.set(local.name, root)
      }
    }
  }

  /**
   * The type a 0.4 `var` local takes from its initializer: the initializer's type, or for a tuple
   * (`var (a, b) = (x, f())`, `var (ok, data) = g()`) the type of its component or of the callee's
   * return value at the variable's place. A number literal gives the smallest unsigned type that
   * holds it (`var i = 0` is a `uint8`), as the compiler does.
   */
  private varType(node: AST.VariableDeclarationStatement, declaration: AST.VariableDeclaration, init: AST.Expression): TypeRef {
    const index = node.variables.indexOf(declaration)
    if (node.variables.length === 1) {
      if (init.type === 'NumberLiteral' && !init.subdenomination) return smallestUnsigned(init.number)
      return this.typeOf(init)
    }
    if (init.type === 'TupleExpression' && !init.isArray) {
      const component = init.components[index]
      return component ? this.typeOf(component) : UNKNOWN
    }
    if (init.type === 'FunctionCall') {
      const callee = this.callByNode.get(init)?.callee ?? null
      const returned = callee?.returns[index]
      if (callee && returned?.typeName) return this.ctx.scope.resolveTypeName(returned.typeName, callee.contract, callee.file)
    }
    return UNKNOWN
  }

  private isStoragePointer(declaration: AST.VariableDeclaration, type: TypeRef): boolean {
    if (declaration.storageLocation === 'storage') return true
    if (declaration.storageLocation !== null) return false
    // Before 0.5, local structs, arrays and mappings without a location are storage pointers.
    const compiler = this.fn.file.compiler
    const legacy = compiler !== null && compiler.min < 5_000
    return legacy && (type.kind === 'struct' || type.kind === 'mapping' || (type.kind === 'array' && type.dynamic))
  }

  /** The state variable an lvalue-like expression is rooted in (`x`, `x[i].f`, alias pointers). */
  rootStateVariable(expression: AST.Expression): StateVariableIr | null {
    let node: AST.Expression = expression
    for (;;) {
      if (node.type === 'IndexAccess') node = node.base
      else if (node.type === 'MemberAccess') node = node.expression
      else if (node.type === 'TupleExpression' && node.components.length === 1 && node.components[0]) node = node.components[0] as AST.Expression
      else break
    }
    if (node.type !== 'Identifier') return null
    return this.stateVariable(node.name) ?? this.facts.storageAliases.get(node.name) ?? null
  }

  // ---------------------------------------------------------------- expressions

  private expression(node: AST.BaseASTNode | null | undefined, mode: Mode, through = false): void {
    if (!node) return
    this.enter(node)
    switch (node.type) {
      case 'Identifier': {
        const id = node as AST.Identifier
        this.recordIdentifier(id)
        const variable = this.stateVariable(id.name)
        if (variable) {
          if (mode !== 'write') this.access('read', variable, id, mode === 'readwrite')
          if (mode !== 'read') this.access('write', variable, id)
        } else if (through && mode !== 'read') {
          const aliased = this.facts.storageAliases.get(id.name)
          if (aliased) this.access('write', aliased, id)
        } else if (mode === 'write' && this.facts.storageAliases.has(id.name)) {
          this.facts.storageAliases.delete(id.name)
        }
        break
      }
      case 'BinaryOperation': {
        const op = node as AST.BinaryOperation
        if (isAssignment(op.operator)) {
          this.recordAssignment({ node: op, operator: op.operator, target: op.left, value: op.right })
          this.expression(op.right, 'read')
          const previous = this.writeStatement
          this.writeStatement = op
          this.expression(op.left, op.operator === '=' ? 'write' : 'readwrite')
          this.writeStatement = previous
        } else {
          this.expression(op.left, 'read')
          this.expression(op.right, 'read')
        }
        break
      }
      case 'UnaryOperation': {
        const op = node as AST.UnaryOperation
        if (op.operator === '++' || op.operator === '--' || op.operator === 'delete') {
          this.recordAssignment({ node: op, operator: op.operator, target: op.subExpression, value: null })
          const previous = this.writeStatement
          this.writeStatement = op
          this.expression(op.subExpression, op.operator === 'delete' ? 'write' : 'readwrite')
          this.writeStatement = previous
        } else this.expression(op.subExpression, 'read')
        break
      }
      case 'MemberAccess': {
        const member = node as AST.MemberAccess
        // A write to `s.f` or `a.length` is a write to `s` / `a`.
        this.expression(member.expression, mode, true)
        break
      }
      case 'IndexAccess': {
        const index = node as AST.IndexAccess
        this.expression(index.base, mode, true)
        const previous = this.writeStatement
        this.writeStatement = null
        this.expression(index.index, 'read')
        this.writeStatement = previous
        break
      }
      case 'IndexRangeAccess': {
        const range = node as AST.IndexRangeAccess
        this.expression(range.base, 'read')
        this.expression(range.indexStart, 'read')
        this.expression(range.indexEnd, 'read')
        break
      }
      case 'TupleExpression':
        for (const component of (node as AST.TupleExpression).components) this.expression(component, mode)
        break
      case 'Conditional': {
        const conditional = node as AST.Conditional
        this.expression(conditional.condition, 'read')
        const id = this.ctx.nextBranchId()
        this.path.push([id, 0])
        this.expression(conditional.trueExpression, mode)
        this.path[this.path.length - 1] = [id, 1]
        this.expression(conditional.falseExpression, mode)
        this.path.pop()
        break
      }
      case 'FunctionCall':
        this.call(node as AST.FunctionCall)
        break
      case 'NameValueExpression': {
        const nv = node as AST.NameValueExpression
        this.expression(nv.expression, 'read')
        for (const arg of nv.arguments.arguments) this.expression(arg, 'read')
        break
      }
      default:
        // Literals, type names, `new T`: nothing to evaluate.
        break
    }
    this.leave()
  }

  // ---------------------------------------------------------------- calls

  private call(node: AST.FunctionCall): void {
    let callee: AST.Expression = node.expression
    let value: AST.Expression | null = null
    let gas: AST.Expression | null = null
    // Unwrap call options: `{value: v}` and the 0.4 `.value(v)` / `.gas(g)`.
    for (;;) {
      if (callee.type === 'NameValueExpression') {
        this.enter(callee)
        const list = callee.arguments
        list.names.forEach((name, i) => {
          this.expression(list.arguments[i], 'read')
          if (name === 'value') value = list.arguments[i]
          if (name === 'gas') gas = list.arguments[i]
        })
        this.leave()
        callee = callee.expression
        continue
      }
      if (callee.type === 'FunctionCall' && this.isCallOption(callee.expression, true)) {
        const option = callee
        this.enter(option)
        for (const arg of option.arguments) this.expression(arg, 'read')
        if ((option.expression as AST.MemberAccess).memberName === 'value') value ??= option.arguments[0] ?? null
        if ((option.expression as AST.MemberAccess).memberName === 'gas') gas ??= option.arguments[0] ?? null
        this.pushCall(option, { kind: 'option', name: (option.expression as AST.MemberAccess).memberName })
        this.leave()
        callee = (option.expression as AST.MemberAccess).expression
        continue
      }
      break
    }

    // `a.call.value(v);` alone sets an option and calls nothing (the final `()` is missing).
    if (this.isCallOption(callee, false)) {
      this.expression(callee, 'read')
      for (const arg of node.arguments) this.expression(arg, 'read')
      this.pushCall(node, { kind: 'option', name: (callee as AST.MemberAccess).memberName })
      return
    }

    const classified = this.classify(node, callee)
    // push/pop and library functions taking `storage` self modify their receiver.
    const modifiesReceiver =
      (classified.kind === 'builtin' && (classified.name === 'push' || classified.name === 'pop')) ||
      (classified.kind === 'library' &&
        classified.target != null &&
        classified.callee != null &&
        classified.callee.params[0]?.storageLocation === 'storage' &&
        classified.callee.mutability !== 'view' &&
        classified.callee.mutability !== 'pure')
    // Evaluate the receiver, then the arguments, then the call itself.
    if (callee.type === 'MemberAccess') {
      this.enter(callee)
      const previous = this.writeStatement
      if (modifiesReceiver) this.writeStatement = node
      this.expression(callee.expression, modifiesReceiver ? 'write' : 'read', true)
      this.writeStatement = previous
      this.leave()
    } else if (callee.type !== 'Identifier') this.expression(callee, 'read')
    else {
      this.enter(callee)
      this.recordIdentifier(callee)
      this.leave()
    }
    for (const arg of node.arguments) this.expression(arg, 'read')

    if (classified.kind === 'send' || classified.kind === 'transfer') value = node.arguments[0] ?? null
    const call = this.pushCall(node, { ...classified, value, gas })

    if (call.kind === 'builtin' && (call.name === 'require' || call.name === 'assert') && node.arguments[0]) {
      this.facts.guards.push({ condition: node.arguments[0], node, kind: call.name, negated: false, logic: logicOf(node.arguments[0]) })
    }
  }

  /**
   * Whether an expression is a 0.4 call option, `.value` or `.gas` of a function: of a low-level
   * call (`a.call.value`), of an external function (`token.deposit.value`), or chained after
   * another option (`a.call.value(v).gas`, `a.call.gas(g).value`). `called`: the option's result
   * is itself called (`….value(v)(…)`), which only an option's result can be, so any member's
   * `.value` / `.gas` counts even when the receiver's type is not known.
   */
  private isCallOption(node: AST.Expression, called: boolean): boolean {
    if (node.type !== 'MemberAccess' || (node.memberName !== 'value' && node.memberName !== 'gas')) return false
    const base = node.expression
    if (base.type === 'FunctionCall') return this.isCallOption(base.expression, true)
    if (base.type !== 'MemberAccess') return false
    return called || LOW_LEVEL.has(base.memberName) || this.typeOf(base).kind === 'function'
  }

  private pushCall(node: AST.FunctionCall, partial: Partial<CallIr> & { kind: CallKind; name: string }): CallIr {
    const call: CallIr = {
      node,
      kind: partial.kind,
      name: partial.name,
      target: partial.target ?? null,
      lowLevel: partial.lowLevel ?? null,
      value: partial.value ?? null,
      gas: partial.gas ?? null,
      callee: partial.callee ?? null,
      dispatch: partial.dispatch ?? 'static',
      args: node.arguments,
      resultUsed: true,
      inLoop: this.loops.length > 0,
      targetType: partial.targetType ?? null,
      assembly: null,
    }
    this.facts.calls.push(call)
    this.callByNode.set(node, call)
    if (EFFECT_CALL_KINDS.has(call.kind)) this.facts.effects.push({ kind: 'call', call, path: this.currentPath() })
    else if (call.kind === 'event' && node.expression.type === 'Identifier' && !this.isEmitted()) {
      this.facts.effects.push({ kind: 'emit', node, path: this.currentPath() })
    }
    return call
  }

  /** Whether the call being recorded is the event call of an `emit` (its parent on the walk stack). */
  private isEmitted(): boolean {
    const parent = this.parents[this.parents.length - 2]
    return parent?.type === 'EmitStatement'
  }

  private classify(node: AST.FunctionCall, callee: AST.Expression): Partial<CallIr> & { kind: CallKind; name: string } {
    const { scope } = this.ctx
    const { fn } = this
    const contract = fn.contract
    const argc = node.arguments.length
    switch (callee.type) {
      case 'Identifier': {
        const name = callee.name
        if (this.facts.locals.has(name)) return { kind: 'unknown', name }
        if (name === 'payable' || name === 'address') return { kind: 'conversion', name }
        if (BUILTIN_FUNCTIONS.has(name)) return { kind: 'builtin', name }
        if (contract) {
          const internal = scope.resolveFunction(contract, name, argc)
          if (internal) return { kind: 'internal', name, callee: internal, dispatch: 'virtual' }
          if (scope.event(contract, name)) return { kind: 'event', name }
        }
        const free = scope.freeFunctions(name).find((f) => f.params.length === argc) ?? scope.freeFunctions(name)[0]
        if (free) return { kind: 'internal', name, callee: free }
        const type = scope.resolveUserType(name, contract, fn.file)
        if (type.kind === 'struct' || (type.kind === 'contract' && type.contract !== null) || type.kind === 'enum' || type.kind === 'elementary') {
          return { kind: 'conversion', name }
        }
        return { kind: 'unknown', name }
      }
      case 'ElementaryTypeName':
        return { kind: 'conversion', name: callee.name }
      case 'NewExpression':
        return { kind: 'creation', name: 'new' }
      case 'MemberAccess': {
        const member = callee.memberName
        const base = callee.expression
        if (base.type === 'ElementaryTypeName') return { kind: 'builtin', name: `${base.name}.${member}` }
        if (base.type === 'Identifier') {
          if (base.name === 'super') {
            const declaring = fn.contract
            const target = declaring ? scope.resolveSuper(declaring, declaring, member, argc) : null
            return { kind: 'internal', name: member, callee: target, dispatch: 'super' }
          }
          if (base.name === 'this' && !this.facts.locals.has('this')) {
            const target = contract ? scope.resolveFunction(contract, member, argc) : null
            return { kind: 'external-self', name: member, callee: target, target: base }
          }
          if (MAGIC_OBJECTS.has(base.name) && !this.facts.locals.has(base.name) && !this.stateVariable(base.name)) {
            return { kind: 'builtin', name: base.name === 'block' && member === 'blockhash' ? 'blockhash' : `${base.name}.${member}` }
          }
          if (!this.facts.locals.has(base.name) && !this.stateVariable(base.name)) {
            const named = scope.resolveContract(base.name, fn.file)
            if (named) {
              const target = scope.resolveFunction(named, member, argc)
              if (named.kind === 'library') return { kind: 'library', name: member, callee: target }
              if (contract && contract.linearization.includes(named)) return { kind: 'internal', name: member, callee: target }
              return { kind: 'unknown', name: member, callee: target }
            }
          }
        }
        const targetType = this.typeOf(base)
        if (LOW_LEVEL.has(member) && !(targetType.kind === 'contract')) {
          return { kind: 'low-level', name: member, lowLevel: member as CallIr['lowLevel'], target: base, targetType }
        }
        const isAddress = targetType.kind === 'elementary' && targetType.name.startsWith('address')
        if (member === 'send' && (isAddress || targetType.kind === 'unknown') && argc === 1) return { kind: 'send', name: member, target: base, targetType }
        if (member === 'transfer' && (isAddress || (targetType.kind === 'unknown' && argc === 1))) {
          return { kind: 'transfer', name: member, target: base, targetType }
        }
        for (const library of scope.usingLibraries(contract, fn.file)) {
          const target = scope.resolveFunction(library, member, argc + 1)
          if (target && target.params.length === argc + 1) return { kind: 'library', name: member, callee: target, target: base, targetType }
        }
        if ((member === 'push' || member === 'pop') && (targetType.kind === 'array' || (targetType.kind === 'elementary' && targetType.name === 'bytes') || targetType.kind === 'unknown')) {
          return { kind: 'builtin', name: member, target: base, targetType }
        }
        if (targetType.kind === 'contract') {
          const target = targetType.contract ? scope.resolveFunction(targetType.contract, member, argc) : null
          return { kind: 'external', name: member, callee: target, target: base, targetType }
        }
        if (targetType.kind === 'unknown') return { kind: 'external', name: member, target: base, targetType }
        if (targetType.kind === 'type') return { kind: 'builtin', name: member }
        return { kind: 'unknown', name: member, target: base, targetType }
      }
      default:
        return { kind: 'unknown', name: '' }
    }
  }

  // ---------------------------------------------------------------- typing

  /** The static type of an expression, with the locals declared so far. */
  typeOf(node: AST.BaseASTNode): TypeRef {
    return typeOf(node, {
      fn: this.fn,
      scope: this.ctx.scope,
      locals: this.facts.locals,
      resolveCallee: (call) => this.callByNode.get(call)?.callee ?? this.peekCallee(call),
    })
  }

  /** The function a call reaches, for typing calls not yet classified. */
  private peekCallee(call: AST.FunctionCall): FunctionIr | null {
    let callee = call.expression
    while (callee.type === 'NameValueExpression') callee = callee.expression
    const classified = this.classify(call, callee)
    return classified.callee ?? null
  }

  // ---------------------------------------------------------------- assembly

  /**
   * Walks a Yul block: every node indexed, `if` and `switch` branches on the branch path, `for`
   * bodies counted as loops, and the instructions that call, create or self-destruct recorded as
   * calls (see `assemblyCall`). The body of a Yul function counts where it is defined.
   */
  private assembly(node: AST.BaseASTNode | null | undefined): void {
    if (!node || typeof node !== 'object') return
    this.enter(node)
    switch (node.type) {
      case 'AssemblyIf': {
        const ifNode = node as AST.AssemblyIf
        this.assembly(ifNode.condition)
        this.path.push([this.ctx.nextBranchId(), 0])
        this.assembly(ifNode.body)
        this.path.pop()
        break
      }
      case 'AssemblySwitch': {
        const switchNode = node as AST.AssemblySwitch
        this.assembly(switchNode.expression)
        const id = this.ctx.nextBranchId()
        switchNode.cases.forEach((c, side) => {
          this.path.push([id, side])
          this.assembly(c)
          this.path.pop()
        })
        break
      }
      case 'AssemblyFor': {
        const forNode = node as AST.AssemblyFor
        this.assembly(forNode.pre)
        this.yulLoops++
        this.assembly(forNode.condition)
        this.assembly(forNode.body)
        this.assembly(forNode.post)
        this.yulLoops--
        break
      }
      default:
        for (const key in node) {
          if (key === 'loc' || key === 'range' || key === 'type') continue
          const value = (node as unknown as Record<string, unknown>)[key]
          if (Array.isArray(value)) {
            for (const item of value) if (item && typeof item === 'object' && 'type' in item) this.assembly(item as AST.BaseASTNode)
          } else if (value && typeof value === 'object' && 'type' in value) this.assembly(value as AST.BaseASTNode)
        }
        // Arguments first: a Yul instruction runs after its arguments are evaluated.
        if (node.type === 'AssemblyCall') this.assemblyCall(node as AST.AssemblyCall)
    }
    this.leave()
  }

  /** Records a Yul instruction that hands control to other code (or creates, or self-destructs) as a call. */
  private assemblyCall(node: AST.AssemblyCall): void {
    const shape = YUL_CALLS.get(node.functionName)
    if (!shape || node.arguments.length !== shape.arity) return
    const targetArg = shape.target >= 0 ? node.arguments[shape.target] : undefined
    const valueArg = shape.value >= 0 ? node.arguments[shape.value] : undefined
    const target = targetArg ? this.solidityEquivalent(targetArg) : null
    const value = valueArg === undefined || isYulZero(valueArg) ? null : (this.solidityEquivalent(valueArg) ?? valueArg)
    const use = this.assemblyResultUse(node)
    const call: CallIr = {
      node,
      kind: shape.kind,
      name: node.functionName,
      target,
      lowLevel: shape.lowLevel,
      value,
      gas: null,
      callee: null,
      dispatch: 'static',
      args: [],
      resultUsed: use !== 'dropped',
      inLoop: this.loops.length > 0 || this.yulLoops > 0,
      targetType: target ? this.typeOf(target) : null,
      assembly: { successChecked: use === 'checked', storedIn: Array.isArray(use) ? use : [] },
    }
    if (Array.isArray(use)) this.pendingAssemblyResults.push({ call, names: use })
    this.facts.calls.push(call)
    if (EFFECT_CALL_KINDS.has(call.kind)) this.facts.effects.push({ kind: 'call', call, path: this.currentPath() })
  }

  /**
   * What the code does with a Yul call's result: `checked` when it decides a condition (or is
   * handed on to an instruction other than `pop`), `dropped` when it is popped or left alone,
   * else the variables it is stored in (checked when one of them is read afterwards).
   */
  private assemblyResultUse(node: AST.AssemblyCall): 'checked' | 'dropped' | string[] {
    let child: AST.BaseASTNode = node
    // The walk stack holds the call itself on top, then its ancestors.
    for (let i = this.parents.length - 2; i >= 0; i--) {
      const parent = this.parents[i]
      switch (parent.type) {
        case 'AssemblyCall':
          if ((parent as AST.AssemblyCall).functionName === 'pop') return 'dropped'
          child = parent
          continue
        case 'AssemblyIf':
        case 'AssemblyFor':
          return (parent as AST.AssemblyIf | AST.AssemblyFor).condition === child ? 'checked' : 'dropped'
        case 'AssemblySwitch':
          return (parent as AST.AssemblySwitch).expression === child ? 'checked' : 'dropped'
        case 'AssemblyLocalDefinition':
        case 'AssemblyAssignment':
          return ((parent as AST.AssemblyLocalDefinition).names as AST.BaseASTNode[]).filter((n) => n.type === 'Identifier').map((n) => (n as AST.Identifier).name)
        default:
          // A statement of its own: the call's result is dropped unless an instruction consumed it.
          return child === node ? 'dropped' : 'checked'
      }
    }
    return 'dropped'
  }

  /** Whether a Yul call result stored in one of `names` is read after the call, or handed back through a named return variable. */
  private storedResultRead(call: CallIr, names: readonly string[]): boolean {
    const end = call.node.range?.[1] ?? 0
    return names.some((name) => {
      if (this.facts.locals.get(name)?.isReturn) return true
      const yulReads = ((this.facts.nodes.get('AssemblyCall') ?? []) as AST.AssemblyCall[]).some(
        (n) => n.functionName === name && n.arguments.length === 0 && (n.range?.[0] ?? 0) > end,
      )
      return yulReads || (this.facts.identifiers.get(name) ?? []).some((id) => (id.range?.[0] ?? 0) > end)
    })
  }

  /**
   * The Solidity expression a Yul argument stands for, as a node made at its place: a Solidity
   * variable, parameter or constant by name, `caller()` as `msg.sender`, `callvalue()` as
   * `msg.value`, `origin()` as `tx.origin`, `address()` as `this`. Null for anything computed in Yul.
   */
  private solidityEquivalent(node: AST.AssemblyExpression): AST.Expression | null {
    if (node.type !== 'AssemblyCall') return null
    const at = { loc: node.loc, range: node.range }
    const identifier = (name: string): AST.Identifier => ({ type: 'Identifier', name, ...at })
    const member = (object: string, memberName: string): AST.MemberAccess => ({ type: 'MemberAccess', expression: identifier(object), memberName, ...at })
    if (node.arguments.length > 0) return null
    const name = node.functionName
    // Yul builtins cannot be names of variables, so a name the function knows is its variable.
    let made: AST.Expression | null = null
    if (this.facts.locals.has(name) || this.stateVariable(name)?.isConstant) made = identifier(name)
    else if (name === 'caller') made = member('msg', 'sender')
    else if (name === 'callvalue') made = member('msg', 'value')
    else if (name === 'origin') made = member('tx', 'origin')
    else if (name === 'address') made = identifier('this')
    if (made) this.ctx.info.set(made, { parent: node, loop: null, unchecked: false, function: this.fn })
    return made
  }
}

/** Facts of a function with no body walked yet. */
export function emptyFacts(): FunctionFacts {
  return {
    calls: [],
    stateReads: [],
    stateWrites: [],
    assignments: [],
    guards: [],
    locals: new Map(),
    storageAliases: new Map(),
    loops: [],
    emits: [],
    assembly: [],
    hasPlaceholder: false,
    effects: [],
    nodes: new Map(),
    identifiers: new Map(),
    returnStatements: [],
    comparisons: [],
    conditions: [],
    environment: [],
    arithmetic: [],
  }
}

/** Branch ids of `if` statements, so a block can tell which branch it continues after. */
const branchIds = new WeakMap<AST.IfStatement, number>()

/** Whether a binary operator assigns (`=`, `+=`, `<<=`, …). */
export function isAssignment(op: string): boolean {
  return op === '=' || (op.length >= 2 && op.endsWith('=') && op !== '==' && op !== '!=' && op !== '<=' && op !== '>=')
}

function calleeName(expression: AST.Expression): string {
  if (expression.type === 'Identifier') return expression.name
  if (expression.type === 'MemberAccess') return expression.memberName
  return ''
}

/** Whether a statement always leaves the function (return, revert, throw, require(false)). */
export function terminates(node: AST.BaseASTNode | null): boolean {
  return terminatingKind(node) !== null
}

function terminatingKind(node: AST.BaseASTNode | null): 'if-revert' | 'if-return' | null {
  if (!node) return null
  switch (node.type) {
    case 'Block': {
      const statements = (node as AST.Block).statements
      for (const s of statements) {
        const kind = terminatingKind(s)
        if (kind) return kind
      }
      return null
    }
    case 'UncheckedStatement':
      return terminatingKind((node as AST.UncheckedStatement).block)
    case 'ReturnStatement':
      return 'if-return'
    case 'ThrowStatement':
    case 'RevertStatement':
      return 'if-revert'
    case 'ExpressionStatement': {
      const expression = (node as AST.ExpressionStatement).expression
      if (expression?.type !== 'FunctionCall' || expression.expression.type !== 'Identifier') return null
      const name = expression.expression.name
      if (name === 'revert') return 'if-revert'
      const first = expression.arguments[0]
      if ((name === 'require' || name === 'assert') && first?.type === 'BooleanLiteral' && !first.value) return 'if-revert'
      return null
    }
    case 'IfStatement': {
      const ifNode = node as AST.IfStatement
      const a = terminatingKind(ifNode.trueBody)
      const b = terminatingKind(ifNode.falseBody)
      return a && b ? (a === 'if-revert' && b === 'if-revert' ? 'if-revert' : 'if-return') : null
    }
    case 'InlineAssemblyStatement':
      return assemblyLeaves((node as AST.InlineAssemblyStatement).body) ? 'if-revert' : null
    default:
      return null
  }
}

/** Yul instructions that end execution. */
const YUL_EXITS: ReadonlySet<string> = new Set(['revert', 'return', 'stop', 'invalid', 'selfdestruct'])

/** Whether an assembly block always ends execution (its last item exits, or a switch whose every case does). */
function assemblyLeaves(block: AST.AssemblyBlock): boolean {
  const last = block.operations[block.operations.length - 1]
  if (!last) return false
  if (last.type === 'AssemblyCall') return YUL_EXITS.has(last.functionName)
  if (last.type === 'AssemblyBlock') return assemblyLeaves(last)
  if (last.type === 'AssemblySwitch') {
    const cases = (last as AST.AssemblySwitch).cases
    return cases.some((c) => c.default) && cases.every((c) => assemblyLeaves(c.block))
  }
  return false
}

/** Whether a local is declared with 0.4's `var` (its type comes from its initializer). */
/** Whether a variable is declared with `var` (before 0.5: its type comes from its initial value). */
export function isVarDeclaration(declaration: AST.VariableDeclaration): boolean {
  return declaration.typeName === null || (declaration.typeName.type === 'ElementaryTypeName' && declaration.typeName.name === 'var')
}

/** The smallest unsigned integer type holding a number literal (`uint256` when it cannot be read). */
function smallestUnsigned(literal: string): TypeRef {
  let value: bigint
  try {
    value = BigInt(literal.replace(/_/g, ''))
  } catch {
    return { kind: 'elementary', name: 'uint256' }
  }
  let bits = 8
  while (bits < 256 && value >= 1n << BigInt(bits)) bits += 8
  return { kind: 'elementary', name: `uint${bits}` }
}
