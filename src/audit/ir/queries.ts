import type * as AST from '../parse/ast.ts'
import { Dispatch } from './dispatch.ts'
import type { ProjectScope } from './scope.ts'
import type { BranchPath, CallIr, CallKind, ContractIr, Effect, FunctionIr, GuardIr, ModifierCallIr, ProjectIr, StateVariableIr, TypeRef } from './types.ts'
import { typeOf } from './typing.ts'

/** How deep internal calls are followed when expanding effects or guards. */
export const MAX_CALL_DEPTH = 8

/** Modifier names that mean a reentrancy lock when the modifier's body is not available or not recognised. */
const LOCK_MODIFIER_NAME = /reentran|^lock$|^locked$|^mutex$|^noreentry$|^guarded$/i

/** Modifier names that mean access control when the modifier cannot be resolved (a missing dependency). */
const ACCESS_MODIFIER_NAME = /^only|auth|admin|owner|role|restricted|governance|guardian|operator|minter|whitelist/i

/** Unresolved calls taking the caller that read as a question about it (`hasRole`, `isAdmin`, `canCall`). */
const QUERY_FUNCTION_NAME = /^_?(is|has|can)[A-Z_]|^_?(check|only)|auth|admin|owner|role|whitelist|allowed/i

/** Unimplemented internal hooks that mean access control (`_authorizeUpgrade`, `_checkOwner`, `_onlyGovernance`). */
const ACCESS_HOOK_NAME = /auth|^_?check(owner|role|admin|access|caller|sender)|^_?only|admin|owner|governance|guardian|restricted|permission/i

/** Calls that leave the contract (or may: `unknown`). */
const OUTGOING_CALL_KINDS: ReadonlySet<CallKind> = new Set<CallKind>(['external', 'external-self', 'low-level', 'send', 'transfer', 'creation', 'unknown'])

/** Functions that return the sender under meta-transactions. */
const SENDER_FUNCTION_NAME = /^_?msgSender$/

/**
 * The contract whose linearisation decides which function a virtual internal call, a modifier or
 * `super` runs (see `Dispatch`); null for code outside any contract. Every query that follows
 * internal calls takes one and defaults to the function's own contract.
 */
export type DispatchContext = ContractIr | null

/** An externally callable function as a deployed contract runs it. */
export interface EntryPoint {
  fn: FunctionIr
  /**
   * The contract it runs in: its own contract when every deployed contract runs it the same way
   * as that contract would, else (one of) the deployed contract(s) whose overrides change what it
   * does.
   */
  context: ContractIr
}

/** A lock identity: a lock's state variable, the contract declaring a lock modifier, or an unresolved modifier's name. */
export type LockKey = StateVariableIr | ContractIr | string

/** An effect reached from an entry point, with the internal calls that lead to it. */
export interface FlatEffect {
  effect: Exclude<Effect, { kind: 'placeholder' }>
  path: BranchPath
  /** Internal / library / modifier calls from the entry function down to the effect (outermost first). */
  via: CallIr[]
  /** The function (or modifier) whose body holds the effect. */
  owner: FunctionIr
}

/**
 * Questions detectors ask about the IR, answered once and memoised: who may call a function
 * (access control through modifiers, base contracts and internal calls), whether it holds a
 * reentrancy lock, which effects an entry point performs in order, and which values depend on
 * its parameters.
 */
export class Queries {
  private readonly dispatch: Dispatch
  private readonly protectedMemo = new ContextMemo<boolean>()
  private readonly senderParamsMemo = new ContextMemo<Set<number>>()
  private readonly returnsSenderMemo = new Map<FunctionIr, boolean>()
  private readonly returnsSenderCheckMemo: [Map<FunctionIr, boolean>, Map<FunctionIr, boolean>] = [new Map(), new Map()]
  private readonly senderLocalsMemo = new Map<FunctionIr, Set<string>>()
  private readonly taintMemo = new Map<FunctionIr, Set<string>>()
  private readonly effectsMemo = new ContextMemo<FlatEffect[]>()
  private readonly lockMemo = new ContextMemo<boolean>()
  private readonly lockKeysMemo = new ContextMemo<Set<LockKey>>()
  private readonly contextLocksMemo = new Map<DispatchContext, Set<StateVariableIr>>()
  private readonly reachableMemo = new ContextMemo<FunctionIr[]>()
  private readonly dispatchKeyMemo = new ContextMemo<string>()
  private readonly contextsMemo = new Map<FunctionIr, DispatchContext[]>()
  private readonly writersMemo = new Map<StateVariableIr, FunctionIr[]>()
  private readonly ids = new Map<FunctionIr, number>()
  private readonly representativeMemo = new Map<FunctionIr, Map<string, DispatchContext>>()
  private allFunctionsCache: FunctionIr[] | null = null
  private callIndex: Map<AST.BaseASTNode, CallIr> | null = null
  private deployedCache: ContractIr[] | null = null
  private entryPointsCache: EntryPoint[] | null = null

  constructor(
    readonly ir: ProjectIr,
    readonly scope: ProjectScope,
  ) {
    this.dispatch = new Dispatch(scope)
  }

  /** Every function and modifier of every contract, plus free functions. */
  allFunctions(): FunctionIr[] {
    if (!this.allFunctionsCache) {
      const all: FunctionIr[] = []
      for (const c of this.ir.contracts) all.push(...c.functions, ...c.modifiers)
      all.push(...this.ir.freeFunctions)
      this.allFunctionsCache = all
    }
    return this.allFunctionsCache
  }

  /** The classified call of a call expression. */
  callOf(node: AST.BaseASTNode): CallIr | undefined {
    if (!this.callIndex) {
      this.callIndex = new Map()
      for (const fn of this.allFunctions()) for (const call of fn.facts.calls) this.callIndex.set(call.node, call)
    }
    return this.callIndex.get(node)
  }

  /** The static type of an expression inside `fn`. */
  typeOf(node: AST.BaseASTNode, fn: FunctionIr): TypeRef {
    return typeOf(node, { fn, scope: this.scope, locals: fn.facts.locals, resolveCallee: (call) => this.callOf(call)?.callee ?? null })
  }

  /** Whether anyone can call `fn` from outside (a public/external function with a body, not a constructor). */
  isEntryPoint(fn: FunctionIr): boolean {
    if (!fn.contract || fn.contract.kind === 'interface' || fn.contract.kind === 'library') return false
    if (fn.kind === 'constructor' || fn.kind === 'modifier' || fn.body === null) return false
    return fn.visibility === 'public' || fn.visibility === 'external'
  }

  /** Entry points of a contract, including inherited ones that are not overridden. */
  entryPoints(contract: ContractIr): FunctionIr[] {
    const seen = new Set<string>()
    const result: FunctionIr[] = []
    for (const c of contract.linearization) {
      for (const fn of c.functions) {
        const key = fn.kind === 'function' ? `${fn.name}/${fn.params.length}` : fn.kind
        if (seen.has(key)) continue
        seen.add(key)
        if (this.isEntryPoint(fn)) result.push(fn)
      }
    }
    return result
  }

  // ---------------------------------------------------------------- virtual dispatch

  /** The function an internal or library call made in `caller` runs inside `context`. */
  calleeIn(call: CallIr, caller: FunctionIr, context: DispatchContext = caller.contract): FunctionIr | null {
    return this.dispatch.callee(call, caller, context)
  }

  /** The implementation of `fn` that `context` runs: its most derived override there, or `fn` itself. */
  implementationIn(fn: FunctionIr, context: ContractIr): FunctionIr {
    return this.dispatch.implementation(fn, context)
  }

  /** The modifier a modifier invocation of `fn` runs inside `context`. */
  modifierIn(invocation: ModifierCallIr, fn: FunctionIr, context: DispatchContext = fn.contract): FunctionIr | null {
    return this.dispatch.modifier(invocation, fn, context)
  }

  /**
   * The contracts the analysis deploys: every concrete contract of the project's own files, and
   * every own abstract contract that no other own contract inherits (the most derived of a
   * hierarchy meant for others to deploy, as its own code resolves it).
   */
  deployedContracts(): ContractIr[] {
    if (this.deployedCache) return this.deployedCache
    const own = this.ir.contracts.filter((c) => c.file.own && (c.kind === 'contract' || c.kind === 'abstract'))
    const inherited = new Set(own.flatMap((c) => c.linearization.slice(1)))
    this.deployedCache = own.filter((c) => c.kind === 'contract' || !inherited.has(c))
    return this.deployedCache
  }

  /**
   * Every entry point of every deployed contract (inherited ones included), once per distinct
   * way of running it: an entry point that two contracts run alike is listed once, in its own
   * contract when that contract would run it the same way. Entry points running only code of
   * dependencies are left out (nothing there is reported).
   */
  deployedEntryPoints(): EntryPoint[] {
    if (this.entryPointsCache) return this.entryPointsCache
    const result: EntryPoint[] = []
    const seen = new Map<FunctionIr, Set<DispatchContext>>()
    for (const deployed of this.deployedContracts()) {
      for (const fn of this.entryPoints(deployed)) {
        const context = this.representative(fn, deployed) as ContractIr
        const contexts = seen.get(fn) ?? new Set<DispatchContext>()
        seen.set(fn, contexts)
        if (contexts.has(context)) continue
        contexts.add(context)
        if (context === fn.contract && !fn.file.own) continue
        result.push({ fn, context })
      }
    }
    this.entryPointsCache = result
    return result
  }

  /**
   * The context to analyse `fn` in when `context` runs it: `fn`'s own contract when that resolves
   * everything `fn` reaches the same way, else the first context seen that resolves it like
   * `context`. Queries memoise by it, so contracts that merely inherit a function share its answers.
   */
  representative(fn: FunctionIr, context: DispatchContext): DispatchContext {
    if (context === fn.contract || context === null) return context
    const key = this.dispatchKey(fn, context)
    let byKey = this.representativeMemo.get(fn)
    if (!byKey) {
      byKey = new Map()
      this.representativeMemo.set(fn, byKey)
    }
    let chosen = byKey.get(key)
    if (chosen === undefined) {
      chosen = fn.contract !== null && key === this.dispatchKey(fn, fn.contract) ? fn.contract : context
      byKey.set(key, chosen)
    }
    return chosen
  }

  /** The deployed contracts that run `fn` as `context` does: they inherit it and resolve everything it reaches alike. */
  deployedAlike(fn: FunctionIr, context: DispatchContext): ContractIr[] {
    const own = fn.contract
    if (!own) return []
    const target = this.representative(fn, context)
    return this.deployedContracts().filter((c) => c.linearization.includes(own) && this.representative(fn, c) === target)
  }

  /**
   * The distinct contexts `fn`'s code runs in: one per distinct way the deployed contracts that
   * inherit it resolve its calls, its own contract first when one of them resolves them as it
   * does (or when no deployed contract inherits it).
   */
  contextsOf(fn: FunctionIr): DispatchContext[] {
    const known = this.contextsMemo.get(fn)
    if (known) return known
    const own = fn.contract
    let result: DispatchContext[] = [own]
    if (own) {
      const found = new Set<DispatchContext>()
      for (const context of this.deployedContracts()) if (context.linearization.includes(own)) found.add(this.representative(fn, context))
      if (found.size > 0) result = [...found].sort((a, b) => (a === own ? -1 : b === own ? 1 : 0))
    }
    this.contextsMemo.set(fn, result)
    return result
  }

  /**
   * A string that is equal for two contexts exactly when they resolve every virtual call,
   * `super` call and modifier reached from `fn` to the same functions.
   */
  private dispatchKey(fn: FunctionIr, context: DispatchContext): string {
    const known = this.dispatchKeyMemo.get(context, fn)
    if (known !== undefined) return known
    const parts: number[] = []
    this.walkCalls(fn, context, (target, site) => {
      if (site === 'modifier' || site.dispatch !== 'static') parts.push(this.idOf(target))
    })
    const key = parts.join(',')
    this.dispatchKeyMemo.set(context, fn, key)
    return key
  }

  /**
   * Breadth-first over what `fn` runs inside `context` (up to MAX_CALL_DEPTH levels): calls
   * `onEdge` for every modifier and internal or library call resolved there, in a fixed order,
   * and returns the functions reached, `fn` first.
   */
  private walkCalls(fn: FunctionIr, context: DispatchContext, onEdge?: (target: FunctionIr, site: CallIr | 'modifier') => void): FunctionIr[] {
    const seen = new Set<FunctionIr>([fn])
    const queue: { fn: FunctionIr; depth: number }[] = [{ fn, depth: 0 }]
    for (let i = 0; i < queue.length; i++) {
      const { fn: current, depth } = queue[i]
      if (depth >= MAX_CALL_DEPTH) continue
      const next: FunctionIr[] = []
      for (const m of current.modifierCalls) {
        const modifier = this.modifierIn(m, current, context)
        if (!modifier) continue
        onEdge?.(modifier, 'modifier')
        next.push(modifier)
      }
      for (const call of current.facts.calls) {
        if (call.kind !== 'internal' && call.kind !== 'library') continue
        const callee = this.calleeIn(call, current, context)
        if (!callee) continue
        onEdge?.(callee, call)
        next.push(callee)
      }
      for (const n of next) {
        if (seen.has(n)) continue
        seen.add(n)
        queue.push({ fn: n, depth: depth + 1 })
      }
    }
    return [...seen]
  }

  /** A small number naming a function in keys. */
  private idOf(fn: FunctionIr): number {
    let id = this.ids.get(fn)
    if (id === undefined) {
      id = this.ids.size
      this.ids.set(fn, id)
    }
    return id
  }

  /**
   * Functions `fn` runs inside `context`: itself, its modifiers, and the internal and library
   * functions they call, transitively (up to MAX_CALL_DEPTH levels).
   */
  reachableFunctions(fn: FunctionIr, deployed: DispatchContext = fn.contract): FunctionIr[] {
    const context = this.representative(fn, deployed)
    const known = this.reachableMemo.get(context, fn)
    if (known) return known
    const result = this.walkCalls(fn, context)
    this.reachableMemo.set(context, fn, result)
    return result
  }

  // ---------------------------------------------------------------- sender and access control

  /** Whether an expression is the caller's address: `msg.sender`, `_msgSender()`, or a local holding one. */
  isSender(expression: AST.BaseASTNode | null | undefined, fn: FunctionIr): boolean {
    if (!expression) return false
    switch (expression.type) {
      case 'MemberAccess': {
        const member = expression as AST.MemberAccess
        return member.memberName === 'sender' && member.expression.type === 'Identifier' && member.expression.name === 'msg'
      }
      case 'FunctionCall': {
        const call = expression as AST.FunctionCall
        if (call.expression.type === 'Identifier' && SENDER_FUNCTION_NAME.test(call.expression.name)) return true
        if ((call.expression.type === 'Identifier' || call.expression.type === 'ElementaryTypeName') && ['address', 'payable'].includes(nameOf(call.expression)) && call.arguments.length === 1) {
          return this.isSender(call.arguments[0], fn)
        }
        const resolved = this.callOf(call)
        return resolved?.callee ? this.returnsSender(resolved.callee) : false
      }
      case 'TupleExpression': {
        const tuple = expression as AST.TupleExpression
        return tuple.components.length === 1 && this.isSender(tuple.components[0], fn)
      }
      case 'Identifier':
        return this.senderLocals(fn).has((expression as AST.Identifier).name)
      default:
        return false
    }
  }

  private senderLocals(fn: FunctionIr): Set<string> {
    let locals = this.senderLocalsMemo.get(fn)
    if (locals) return locals
    locals = new Set()
    this.senderLocalsMemo.set(fn, locals)
    for (const statement of (fn.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[]) {
      const variable = statement.variables[0] as AST.VariableDeclaration | null
      if (statement.variables.length === 1 && variable?.name && this.isSender(statement.initialValue, fn)) locals.add(variable.name)
    }
    return locals
  }

  /** Whether `fn` returns the caller's address (an `_msgSender()` of some flavour). */
  returnsSender(fn: FunctionIr): boolean {
    const known = this.returnsSenderMemo.get(fn)
    if (known !== undefined) return known
    this.returnsSenderMemo.set(fn, SENDER_FUNCTION_NAME.test(fn.name))
    const returns = fn.facts.returnStatements
    const result = SENDER_FUNCTION_NAME.test(fn.name) || (returns.length > 0 && returns.every((r) => this.isSender(r.expression, fn)))
    this.returnsSenderMemo.set(fn, result)
    return result
  }

  /**
   * Whether `fn` returning `value` means the caller is in an allowed set (OpenZeppelin 2's
   * `isOwner()` returning `msg.sender == owner`, for `value` true).
   */
  private returnsSenderCheck(fn: FunctionIr, value: boolean): boolean {
    const memo = this.returnsSenderCheckMemo[value ? 1 : 0]
    const known = memo.get(fn)
    if (known !== undefined) return known
    memo.set(fn, false)
    const result = fn.facts.returnStatements.some((r) => r.expression !== null && this.restrictsCaller(r.expression, fn, (e) => this.isSender(e, fn), value))
    memo.set(fn, result)
    return result
  }

  /**
   * Whether a guard of `fn` restricts the caller: continuing past it requires its condition to be
   * true (`require`, `assert`) or false (`if (…) revert`), and that value admits only callers in
   * an allowed set (see `restrictsCaller`).
   */
  private isRestrictingGuard(guard: GuardIr, fn: FunctionIr, isSubject: (e: AST.BaseASTNode) => boolean): boolean {
    return this.restrictsCaller(guard.condition, fn, isSubject, !guard.negated)
  }

  /**
   * Whether a condition evaluating to `value` admits only callers in an allowed set: equality with
   * anything but the caller itself or `tx.origin` (`msg.sender == owner`), membership
   * (`isAdmin[msg.sender]`, `hasRole(R, msg.sender)`, `roles[msg.sender] == Role.Admin`), worked
   * through `!`, `!=`, `&&` (it holds when both sides do) and `||` (when either does). A deny-list
   * (`!blacklisted[msg.sender]`, `msg.sender != pair`) admits everyone but a few and does not
   * restrict: a caller no mapping mentions reads its default value (false, zero, the first enum
   * member), so a lookup restricts only when that default fails.
   */
  restrictsCaller(condition: AST.BaseASTNode, fn: FunctionIr, isSubject: (e: AST.BaseASTNode) => boolean, value = true): boolean {
    return this.restrictingParts(condition, fn, isSubject, value).length > 0
  }

  /** `restrictsCaller` for a condition that is not a `!`, `&&` or `||` (those `restrictingParts` takes apart). */
  private operandRestricts(node: AST.BaseASTNode, fn: FunctionIr, isSubject: (e: AST.BaseASTNode) => boolean, value: boolean): boolean {
    switch (node.type) {
      case 'BinaryOperation': {
        const op = node as AST.BinaryOperation
        if (op.operator !== '==' && op.operator !== '!=') return false
        const equal = (op.operator === '==') === value
        const left = unwrap(op.left)
        const right = unwrap(op.right)
        // Equal to one address (`owner`, `pair`, `address(0)`) is a set of one; not equal, everyone else.
        if ((isSubject(left) && this.isOtherAddress(right, fn)) || (isSubject(right) && this.isOtherAddress(left, fn))) return equal
        for (const [side, other] of [
          [left, right],
          [right, left],
        ]) {
          if (!this.isFlagLookup(side, isSubject) && !this.isFlagCall(side, isSubject)) continue
          // `isAdmin[msg.sender] == true` is `isAdmin[msg.sender]`; `… == false` its negation.
          if (other.type === 'BooleanLiteral') return this.restrictsCaller(side, fn, isSubject, (other as AST.BooleanLiteral).value === equal)
          // `roles[msg.sender] == Role.Admin` fails for a caller holding the default; `… != 0` too.
          return equal !== this.isDefaultValue(other, fn)
        }
        return false
      }
      case 'IndexAccess':
      case 'MemberAccess':
        return value && this.isFlagLookup(node, isSubject)
      case 'FunctionCall':
        return this.flagCallRestricts(node as AST.FunctionCall, isSubject, value)
      case 'Identifier':
        return this.localRestricts(node as AST.Identifier, fn, isSubject, value)
      default:
        return false
    }
  }

  /**
   * The parts of a condition evaluating to `value` that restrict the caller (see `restrictsCaller`):
   * the operands of `!`, `&&` and `||` that admit only callers in an allowed set, or none when the
   * whole condition does not (`msg.sender == owner || !blacklisted[msg.sender]` admits everyone
   * the deny-list leaves in). In `require(msg.sender == owner && !blacklisted[msg.sender])` it is
   * `msg.sender == owner`: the deny-list beside it restricts nothing.
   */
  restrictingParts(condition: AST.BaseASTNode, fn: FunctionIr, isSubject: (e: AST.BaseASTNode) => boolean, value = true): AST.BaseASTNode[] {
    const node = unwrap(condition)
    if (node.type === 'UnaryOperation' && (node as AST.UnaryOperation).operator === '!') return this.restrictingParts((node as AST.UnaryOperation).subExpression, fn, isSubject, !value)
    if (node.type === 'BinaryOperation' && ((node as AST.BinaryOperation).operator === '&&' || (node as AST.BinaryOperation).operator === '||')) {
      const op = node as AST.BinaryOperation
      const left = this.restrictingParts(op.left, fn, isSubject, value)
      const right = this.restrictingParts(op.right, fn, isSubject, value)
      // `a && b` is true when both sides are and false when either is; `a || b` the other way round.
      // One restricting side is enough where either side decides; both are needed where both do.
      const eitherDecides = (op.operator === '&&') === value
      return eitherDecides || (left.length > 0 && right.length > 0) ? [...left, ...right] : []
    }
    return this.operandRestricts(node, fn, isSubject, value) ? [node] : []
  }

  /** Anything a caller is compared with but the caller itself and `tx.origin` (`msg.sender == tx.origin` admits every account). */
  private isOtherAddress(node: AST.BaseASTNode, fn: FunctionIr): boolean {
    return !isTxOrigin(node) && !this.isSender(node, fn)
  }

  /**
   * A local holding the answer to a question about the caller, as its declaration sets it:
   * `bool ok = isAdmin[msg.sender]`, or the bool a query returns first (`(bool inRole, ) = hasRole(role, caller)`).
   */
  private localRestricts(local: AST.Identifier, fn: FunctionIr, isSubject: (e: AST.BaseASTNode) => boolean, value: boolean): boolean {
    const variable = fn.facts.locals.get(local.name)
    if (!variable || variable.isParameter) return false
    for (const statement of (fn.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[]) {
      const index = statement.variables.indexOf(variable.node)
      if (index < 0 || !statement.initialValue) continue
      if (statement.variables.length === 1) return this.restrictsCaller(statement.initialValue, fn, isSubject, value)
      const init = unwrap(statement.initialValue)
      const firstBool = statement.variables.findIndex((v) => (v as AST.VariableDeclaration | null)?.typeName?.type === 'ElementaryTypeName' && ((v as AST.VariableDeclaration).typeName as AST.ElementaryTypeName).name === 'bool')
      return value && index === firstBool && init.type === 'FunctionCall' && this.isFlagCall(init, isSubject) && (init as AST.FunctionCall).arguments.some((a) => isSubject(unwrap(a)))
    }
    return false
  }

  /** Whether an expression is the value an unset mapping entry holds: `0`, `false`, `address(0)`, `""`, or an enum's first member. */
  private isDefaultValue(node: AST.BaseASTNode, fn: FunctionIr): boolean {
    const n = unwrap(node)
    if (n.type === 'NumberLiteral') return Number((n as AST.NumberLiteral).number) === 0
    if (n.type === 'BooleanLiteral') return !(n as AST.BooleanLiteral).value
    if (n.type === 'StringLiteral') return (n as AST.StringLiteral).value === ''
    if (n.type === 'FunctionCall') {
      const call = n as AST.FunctionCall
      return (nameOf(call.expression) === 'address' || call.expression.type === 'ElementaryTypeName') && call.arguments.length === 1 && this.isDefaultValue(call.arguments[0], fn)
    }
    if (n.type === 'MemberAccess') {
      // `Role.None`: the first member of the enum `Role` (of any contract or file declaring one by that name).
      const member = n as AST.MemberAccess
      const owner = unwrap(member.expression)
      const enumName = owner.type === 'Identifier' ? (owner as AST.Identifier).name : owner.type === 'MemberAccess' ? (owner as AST.MemberAccess).memberName : ''
      if (!enumName) return false
      const enums = this.enumsNamed(enumName, fn)
      return enums.length > 0 && enums.every((e) => e.members[0]?.name === member.memberName)
    }
    return false
  }

  /** Enum definitions named `name`: those of `fn`'s contract hierarchy when it declares one, else of any contract or file. */
  private enumsNamed(name: string, fn: FunctionIr): AST.EnumDefinition[] {
    const inHierarchy = (fn.contract?.linearization ?? []).flatMap((c) => c.enums.filter((e) => e.name === name))
    if (inHierarchy.length > 0) return inHierarchy
    const all = this.ir.contracts.flatMap((c) => c.enums.filter((e) => e.name === name))
    for (const file of this.ir.files) for (const child of file.ast.children) if (child.type === 'EnumDefinition' && (child as AST.EnumDefinition).name === name) all.push(child as AST.EnumDefinition)
    return all
  }

  /**
   * Whether a call answering a question about the caller (see `isFlagCall`) admits only some
   * callers when it returns `value`: a query taking the caller (`hasRole(R, msg.sender)`) when it
   * answers true, a function returning a check on the caller as that check says.
   */
  private flagCallRestricts(call: AST.FunctionCall, isSubject: (e: AST.BaseASTNode) => boolean, value: boolean): boolean {
    if (!this.isFlagCall(call, isSubject)) return false
    if (call.arguments.some((a) => isSubject(unwrap(a)))) return value
    const callee = this.callOf(call)?.callee ?? null
    return callee !== null && this.returnsSenderCheck(callee, value)
  }

  private isFlagLookup(node: AST.BaseASTNode, isSubject: (e: AST.BaseASTNode) => boolean): boolean {
    let current = unwrap(node)
    while (current.type === 'MemberAccess') current = unwrap((current as AST.MemberAccess).expression)
    if (current.type !== 'IndexAccess') return false
    for (let index: AST.BaseASTNode = current; index.type === 'IndexAccess'; index = unwrap((index as AST.IndexAccess).base)) {
      if (isSubject(unwrap((index as AST.IndexAccess).index))) return true
    }
    return false
  }

  /**
   * A call that answers a question about the caller: it takes the caller and is a query (a view or
   * pure function, or, when it cannot be resolved, one named like `hasRole` / `isAdmin`), or it
   * returns a check on the caller itself (`isOwner()`). A call that acts and reports success
   * (`token.transferFrom(msg.sender, …)`, `receiver.onFlashLoan(msg.sender, …)`) is not one: its
   * guard holds for every caller the transfer works for.
   */
  private isFlagCall(node: AST.BaseASTNode, isSubject: (e: AST.BaseASTNode) => boolean): boolean {
    if (node.type !== 'FunctionCall') return false
    const call = node as AST.FunctionCall
    const callee = this.callOf(call)?.callee ?? null
    if (call.arguments.some((a) => isSubject(unwrap(a)))) {
      return callee ? callee.mutability === 'view' || callee.mutability === 'pure' : QUERY_FUNCTION_NAME.test(calledName(call))
    }
    return callee ? this.returnsSenderCheck(callee, true) || this.returnsSenderCheck(callee, false) : false
  }

  /** Parameter indexes of `fn` that its guards compare like a caller (`_checkRole(role, account)`). */
  senderGuardedParams(fn: FunctionIr, context: DispatchContext = fn.contract): Set<number> {
    const known = this.senderParamsMemo.get(context, fn)
    if (known) return known
    const result = new Set<number>()
    this.senderParamsMemo.set(context, fn, result)
    fn.params.forEach((param, index) => {
      if (!param.name) return
      const isParam = (e: AST.BaseASTNode): boolean => e.type === 'Identifier' && (e as AST.Identifier).name === param.name
      if (fn.facts.guards.some((g) => this.isRestrictingGuard(g, fn, isParam))) result.add(index)
      // Passed on to another checker: `_checkRole(role, account)` → `_checkRole` compares it.
      for (const call of fn.facts.calls) {
        if (call.kind !== 'internal' && call.kind !== 'library') continue
        const callee = this.calleeIn(call, fn, context)
        if (!callee || callee === fn) continue
        const inner = this.senderGuardedParams(callee, context)
        call.args.forEach((arg, i) => {
          if (inner.has(i) && isParam(unwrap(arg))) result.add(index)
        })
      }
    })
    return result
  }

  /** Whether a guard of `fn` itself (not its modifiers or callees) restricts the caller. */
  hasOwnSenderGuard(fn: FunctionIr): boolean {
    return fn.facts.guards.some((g) => this.isRestrictingGuard(g, fn, (e) => this.isSender(e, fn) || isTxOrigin(e)))
  }

  /**
   * Whether `node`, inside `fn`, runs only for some callers: it sits in the branch of an `if` that
   * is taken only when a check on the caller holds (`if (msg.sender == admin) { … }`, or the
   * `else` of `if (msg.sender != admin)`).
   */
  isSenderGated(node: AST.BaseASTNode, fn: FunctionIr): boolean {
    const isSubject = (e: AST.BaseASTNode): boolean => this.isSender(e, fn) || isTxOrigin(e)
    let child = node
    for (let parent = this.ir.info(node)?.parent ?? null; parent; parent = this.ir.info(parent)?.parent ?? null) {
      if (parent.type === 'IfStatement') {
        const branch = parent as AST.IfStatement
        const side = child === branch.trueBody ? true : child === branch.falseBody ? false : null
        if (side !== null && this.gatedBranch(branch.condition, fn, isSubject) === side) return true
      }
      child = parent
    }
    return false
  }

  /** Which branch of a condition only callers in an allowed set reach: true, false, or null (neither; see `restrictsCaller`). */
  private gatedBranch(condition: AST.BaseASTNode, fn: FunctionIr, isSubject: (e: AST.BaseASTNode) => boolean): boolean | null {
    if (this.restrictsCaller(condition, fn, isSubject, true)) return true
    return this.restrictsCaller(condition, fn, isSubject, false) ? false : null
  }

  /**
   * Whether only some callers can run `fn`: a guard on the caller in its body, in one of its
   * modifiers, or in an internal function it calls (directly or by passing the caller to a
   * checking function such as `_checkRole(role, _msgSender())`). Modifiers and internal calls
   * are those `context` runs: an override there can add or remove the check.
   */
  isProtected(fn: FunctionIr, context: DispatchContext = fn.contract): boolean {
    const known = this.protectedMemo.get(context, fn)
    if (known !== undefined) return known
    this.protectedMemo.set(context, fn, false)
    let result = this.hasOwnSenderGuard(fn)
    if (!result) {
      for (const m of fn.modifierCalls) {
        const modifier = this.modifierIn(m, fn, context)
        if (modifier ? this.isProtected(modifier, context) : ACCESS_MODIFIER_NAME.test(m.name) && !this.isBaseConstructorCall(fn, m.name)) {
          result = true
          break
        }
      }
    }
    if (!result) {
      for (const call of fn.facts.calls) {
        if (call.kind !== 'internal' && call.kind !== 'library') continue
        const callee = this.calleeIn(call, fn, context)
        if (!callee) continue
        // An unimplemented internal hook named for access control (`_authorizeUpgrade`,
        // `_checkOwner` in an abstract base), or one returning nothing that is handed the caller
        // (`_checkTokenBridge(_msgSender())`), is where the deployed contract puts it; other hooks
        // (`_countVote`, `_quorumReached`) decide nothing about the caller.
        if (callee.body === null && callee.isVirtual && call.kind === 'internal' && this.isAccessHook(callee, call, fn)) {
          result = true
          break
        }
        if (this.isProtected(callee, context)) {
          result = true
          break
        }
        const guarded = this.senderGuardedParams(callee, context)
        if (call.args.some((arg, i) => guarded.has(i) && this.isSender(unwrap(arg), fn))) {
          result = true
          break
        }
      }
    }
    this.protectedMemo.set(context, fn, result)
    return result
  }

  /** Whether a call to an unimplemented hook is where its implementation checks the caller: see `isProtected`. */
  private isAccessHook(hook: FunctionIr, call: CallIr, caller: FunctionIr): boolean {
    if (ACCESS_HOOK_NAME.test(hook.name)) return true
    return hook.returns.length === 0 && call.args.some((arg) => this.isSender(unwrap(arg), caller))
  }

  private isBaseConstructorCall(fn: FunctionIr, name: string): boolean {
    return fn.contract?.linearization.some((c) => c.name === name) ?? false
  }

  // ---------------------------------------------------------------- reentrancy locks

  /** Whether `fn` runs under a reentrancy lock (a lock modifier, recognised by shape or by name). */
  hasReentrancyLock(fn: FunctionIr, context: DispatchContext = fn.contract): boolean {
    const known = this.lockMemo.get(context, fn)
    if (known !== undefined) return known
    const result = this.reentrancyLocks(fn, context).size > 0
    this.lockMemo.set(context, fn, result)
    return result
  }

  /**
   * The reentrancy locks `fn` takes or checks, so that two functions can be told to share one: a
   * lock recognised by its shape (in a modifier, or written inline at the start and end of the
   * body, see `inlineLockVariables`) is its state variable; a lock modifier recognised by its name
   * (OpenZeppelin's `nonReentrant` and `nonReentrantView`, in `ReentrancyGuard` and
   * `ReentrancyGuardTransient`) is the contract declaring it, or its name when it cannot be resolved.
   */
  reentrancyLocks(fn: FunctionIr, context: DispatchContext = fn.contract): Set<LockKey> {
    const known = this.lockKeysMemo.get(context, fn)
    if (known) return known
    const result = new Set<LockKey>()
    for (const m of fn.modifierCalls) {
      const modifier = this.modifierIn(m, fn, context)
      const variables = modifier ? this.lockVariables(modifier) : []
      for (const v of variables) result.add(v)
      if (variables.length === 0 && LOCK_MODIFIER_NAME.test(m.name)) result.add(modifier?.contract ?? m.name)
    }
    for (const v of this.inlineLockVariables(fn, context)) result.add(v)
    for (const v of this.checkedLockVariables(fn, context)) result.add(v)
    this.lockKeysMemo.set(context, fn, result)
    return result
  }

  /**
   * The lock variables (of the locks the entry points of `context` take, see `lockVariables` and
   * `inlineLockVariables`) that `fn` only checks in a reverting guard (`require(!locked)`) and
   * never writes, when it makes no external call (a view, or a function that only updates
   * state): it cannot run while the lock is held, so it shares that lock.
   */
  private checkedLockVariables(fn: FunctionIr, context: DispatchContext): StateVariableIr[] {
    const effects = this.flatEffects(fn, context)
    if (effects.some((e) => e.effect.kind === 'call' && OUTGOING_CALL_KINDS.has(e.effect.call.kind))) return []
    const checked = new Set<StateVariableIr>()
    const written = new Set<StateVariableIr>()
    for (const e of effects) {
      if (e.effect.kind === 'write') written.add(e.effect.access.variable)
      else if (e.effect.kind === 'read' && isFlagType(e.effect.access.variable.type) && this.inLockGuard(e.effect.access.node, e.owner)) checked.add(e.effect.access.variable)
    }
    const candidates = [...checked].filter((v) => !written.has(v))
    if (candidates.length === 0) return []
    const locks = this.contextLockVariables(context ?? fn.contract)
    return candidates.filter((v) => locks.has(v))
  }

  /** The state variables the entry points of `context` use as reentrancy locks (modifiers or inline). */
  private contextLockVariables(context: ContractIr | null): Set<StateVariableIr> {
    const known = this.contextLocksMemo.get(context)
    if (known) return known
    const result = new Set<StateVariableIr>()
    this.contextLocksMemo.set(context, result)
    if (!context) return result
    for (const g of this.entryPoints(context)) {
      for (const m of g.modifierCalls) {
        const modifier = this.modifierIn(m, g, context)
        if (modifier) for (const v of this.lockVariables(modifier)) result.add(v)
      }
      for (const v of this.inlineLockVariables(g, context)) result.add(v)
    }
    return result
  }

  /**
   * The state variables `fn` (as `context` runs it, with its modifiers and the internal functions
   * it calls, such as `_lock()` / `_unlock()`) uses as an inline lock: before its first external
   * call it checks the variable in a guard (`require(!locked)`, `if (status == ENTERED) revert …`)
   * and then sets it to a constant (`locked = true`), and after its last external call it sets it
   * back to another constant. The variable must be a plain value (a bool, number or enum, not a
   * mapping or struct). A flag checked and set but never reset is a one-time switch (`finished`,
   * `claimed`), not a lock: the function stays unlocked for the detectors and shares no lock.
   */
  inlineLockVariables(fn: FunctionIr, context: DispatchContext = fn.contract): StateVariableIr[] {
    const effects = this.flatEffects(fn, context)
    const calls = effects.flatMap((e, i) => (e.effect.kind === 'call' ? [i] : []))
    const firstCall = calls.length > 0 ? calls[0] : effects.length
    const lastCall = calls.length > 0 ? calls[calls.length - 1] : -1
    const result: StateVariableIr[] = []
    const seen = new Set<StateVariableIr>()
    for (let g = 0; g < firstCall; g++) {
      const read = effects[g]
      if (read.effect.kind !== 'read') continue
      const variable = read.effect.access.variable
      if (seen.has(variable) || !isFlagType(variable.type) || !this.inLockGuard(read.effect.access.node, read.owner)) continue
      seen.add(variable)
      const set = effects.findIndex((e, i) => i > g && i < firstCall && this.flagWrite(e, variable) !== null)
      if (set < 0) continue
      let reset = -1
      for (let i = effects.length - 1; i > set; i--) {
        const e = effects[i]
        if (e.effect.kind === 'write' && e.effect.access.variable === variable) {
          reset = i
          break
        }
      }
      if (reset <= lastCall) continue
      const setValue = this.flagWrite(effects[set], variable)
      const resetValue = this.flagWrite(effects[reset], variable)
      if (resetValue !== null && resetValue !== setValue) result.push(variable)
    }
    return result
  }

  /** Whether a state read sits in the condition of a guard that reverts (`require`, `assert`, `if (…) revert`) of the function holding it. */
  private inLockGuard(node: AST.BaseASTNode, owner: FunctionIr): boolean {
    return owner.facts.guards.some((g) => g.kind !== 'if-return' && contains(g.condition, node))
  }

  /** The constant a write sets `variable` to (`true`, `2`, `_ENTERED`), as normalised text; null when it is not such a write. */
  private flagWrite(e: FlatEffect, variable: StateVariableIr): string | null {
    if (e.effect.kind !== 'write' || e.effect.access.variable !== variable) return null
    const statement = e.effect.access.statement
    if (statement?.type !== 'BinaryOperation' || (statement as AST.BinaryOperation).operator !== '=') return null
    const assigned = statement as AST.BinaryOperation
    if (unwrap(assigned.left).type !== 'Identifier') return null
    const value = unwrap(assigned.right)
    if (value.type === 'BooleanLiteral') return String((value as AST.BooleanLiteral).value)
    if (value.type === 'NumberLiteral') return String(Number((value as AST.NumberLiteral).number))
    if (value.type === 'Identifier') {
      const constant = e.owner.contract ? this.scope.stateVariable(e.owner.contract, (value as AST.Identifier).name) : null
      return constant?.isConstant ? `constant ${constant.name}` : null
    }
    if (value.type === 'MemberAccess' && (value as AST.MemberAccess).expression.type === 'Identifier') {
      // An enum value: `Status.Entered`.
      return `${((value as AST.MemberAccess).expression as AST.Identifier).name}.${(value as AST.MemberAccess).memberName}`
    }
    return null
  }

  /** The state variables a lock modifier checks, sets before `_` and resets after; none when it is not one. */
  private lockVariables(modifier: FunctionIr): StateVariableIr[] {
    const placeholder = modifier.facts.effects.findIndex((e) => e.kind === 'placeholder')
    if (placeholder < 0) return []
    const before = modifier.facts.effects.slice(0, placeholder)
    const after = modifier.facts.effects.slice(placeholder + 1)
    const writtenBefore = new Set(before.filter((e) => e.kind === 'write').map((e) => (e as { access: { variable: StateVariableIr } }).access.variable))
    const writtenAfter = new Set(after.filter((e) => e.kind === 'write').map((e) => (e as { access: { variable: StateVariableIr } }).access.variable))
    const guarded = new Set<StateVariableIr>()
    for (const g of modifier.facts.guards) for (const r of modifier.facts.stateReads) if (contains(g.condition, r.node)) guarded.add(r.variable)
    return [...writtenBefore].filter((v) => writtenAfter.has(v) && guarded.has(v))
  }

  // ---------------------------------------------------------------- effects

  /**
   * The effects `fn` performs inside `context`, in order, with modifiers inlined around the body
   * and internal and library calls expanded (up to MAX_CALL_DEPTH) to the functions `context`
   * runs. External calls are not expanded.
   */
  flatEffects(fn: FunctionIr, deployed: DispatchContext = fn.contract): FlatEffect[] {
    const context = this.representative(fn, deployed)
    const known = this.effectsMemo.get(context, fn)
    if (known) return known
    const result: FlatEffect[] = []
    this.effectsMemo.set(context, fn, result)
    const expand = (prefix: BranchPath, via: CallIr[], depth: number, stack: Set<FunctionIr>, body: readonly { effect: Effect; owner: FunctionIr }[]): void => {
      for (const { effect, owner: holder } of body) {
        if (effect.kind === 'placeholder') continue
        const path = prefix.length === 0 ? effect.path : [...prefix, ...effect.path]
        const callee = effect.kind === 'call' && (effect.call.kind === 'internal' || effect.call.kind === 'library') ? this.calleeIn(effect.call, holder, context) : null
        if (callee && callee.body) {
          if (depth < MAX_CALL_DEPTH && !stack.has(callee)) {
            stack.add(callee)
            expand(path, [...via, (effect as { call: CallIr }).call], depth + 1, stack, this.bodyWithModifiers(callee, context))
            stack.delete(callee)
          }
          continue
        }
        result.push({ effect, path, via, owner: holder })
      }
    }
    expand([], [], 0, new Set([fn]), this.bodyWithModifiers(fn, context))
    return result
  }

  /** The effects of a function with its modifiers' code (as `context` runs them) before and after the placeholder, each with the function or modifier holding it. */
  private bodyWithModifiers(fn: FunctionIr, context: DispatchContext): { effect: Effect; owner: FunctionIr }[] {
    let sequence: { effect: Effect; owner: FunctionIr }[] = fn.facts.effects.map((effect) => ({ effect, owner: fn }))
    for (let i = fn.modifierCalls.length - 1; i >= 0; i--) {
      const modifier = this.modifierIn(fn.modifierCalls[i], fn, context)
      if (!modifier || !modifier.body) continue
      const effects = modifier.facts.effects.map((effect) => ({ effect, owner: modifier }))
      const placeholder = effects.findIndex((e) => e.effect.kind === 'placeholder')
      sequence = placeholder < 0 ? effects : [...effects.slice(0, placeholder), ...sequence, ...effects.slice(placeholder + 1)]
    }
    return sequence
  }

  /** Functions (anywhere) that write a state variable, directly or through internal calls. */
  writersOf(variable: StateVariableIr): FunctionIr[] {
    const known = this.writersMemo.get(variable)
    if (known) return known
    const writers = this.allFunctions().filter((fn) => fn.facts.stateWrites.some((w) => w.variable === variable))
    this.writersMemo.set(variable, writers)
    return writers
  }

  // ---------------------------------------------------------------- parameters

  /** Names of locals whose value is derived from a parameter of `fn`. */
  taintedLocals(fn: FunctionIr): Set<string> {
    const known = this.taintMemo.get(fn)
    if (known) return known
    const tainted = new Set<string>()
    for (const local of fn.facts.locals.values()) if (local.isParameter) tainted.add(local.name)
    this.taintMemo.set(fn, tainted)
    return derivedLocals(fn, tainted, () => false)
  }

  /** Whether an expression depends on a parameter of `fn` (directly or through locals). */
  dependsOnParameters(expression: AST.BaseASTNode, fn: FunctionIr): boolean {
    return mentionsAny(expression, this.taintedLocals(fn))
  }
}

/**
 * Adds to `names` (and returns it) the locals of `fn` whose value comes from an expression that
 * `isSource` accepts or that mentions a name already in `names`, through declarations and
 * assignments, until nothing changes.
 */
export function derivedLocals(fn: FunctionIr, names: Set<string>, isSource: (e: AST.BaseASTNode) => boolean): Set<string> {
  const declarations = (fn.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[]
  const assignments = ((fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]).filter((b) => b.operator === '=')
  const derived = (e: AST.BaseASTNode): boolean => isSource(e) || mentionsAny(e, names)
  let changed = true
  while (changed) {
    changed = false
    for (const d of declarations) {
      if (!d.initialValue || !derived(d.initialValue)) continue
      for (const v of d.variables) {
        const name = (v as AST.VariableDeclaration | null)?.name
        if (name && !names.has(name)) {
          names.add(name)
          changed = true
        }
      }
    }
    for (const a of assignments) {
      const target = unwrap(a.left)
      if (target.type === 'Identifier' && !names.has((target as AST.Identifier).name) && fn.facts.locals.has((target as AST.Identifier).name) && derived(a.right)) {
        names.add((target as AST.Identifier).name)
        changed = true
      }
    }
  }
  return names
}

/** Whether a state variable's type can hold a lock flag: a bool, a number or an enum. */
function isFlagType(type: TypeRef): boolean {
  return type.kind === 'enum' || (type.kind === 'elementary' && (type.name === 'bool' || /^u?int\d*$/.test(type.name)))
}

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
function calledName(call: AST.FunctionCall): string {
  const callee = unwrap(call.expression)
  return callee.type === 'MemberAccess' ? (callee as AST.MemberAccess).memberName : nameOf(callee)
}

function nameOf(node: AST.BaseASTNode): string {
  return node.type === 'Identifier' ? (node as AST.Identifier).name : node.type === 'ElementaryTypeName' ? (node as AST.ElementaryTypeName).name : ''
}

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

/** Values memoised per (dispatch context, function). */
class ContextMemo<T> {
  private readonly byContext = new Map<DispatchContext, Map<FunctionIr, T>>()

  get(context: DispatchContext, fn: FunctionIr): T | undefined {
    return this.byContext.get(context)?.get(fn)
  }

  set(context: DispatchContext, fn: FunctionIr, value: T): void {
    let byFunction = this.byContext.get(context)
    if (!byFunction) {
      byFunction = new Map()
      this.byContext.set(context, byFunction)
    }
    byFunction.set(fn, value)
  }
}
