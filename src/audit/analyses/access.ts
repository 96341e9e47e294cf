import type * as AST from '../parse/ast.ts'
import type { DispatchAnalysis, DispatchContext } from './dispatch.ts'
import { ContextMemo } from './dispatch.ts'
import { calledName, isTxOrigin, nameOf, unwrap } from './syntax.ts'
import type { CallIr, FunctionIr, GuardIr, LogicIr } from '../ir/types.ts'
import { logicOf } from '../ir/logic.ts'

/** Modifier names that mean access control when the modifier cannot be resolved (a missing dependency). */
const ACCESS_MODIFIER_NAME = /^only|auth|admin|owner|role|restricted|governance|guardian|operator|minter|whitelist/i

/** Unresolved calls taking the caller that read as a question about it (`hasRole`, `isAdmin`, `canCall`). */
const QUERY_FUNCTION_NAME = /^_?(is|has|can)[A-Z_]|^_?(check|only)|auth|admin|owner|role|whitelist|allowed/i

/** Unimplemented internal hooks that mean access control (`_authorizeUpgrade`, `_checkOwner`, `_onlyGovernance`). */
const ACCESS_HOOK_NAME = /auth|^_?check(owner|role|admin|access|caller|sender)|^_?only|admin|owner|governance|guardian|restricted|permission/i
/** Functions that return the sender under meta-transactions. */
const SENDER_FUNCTION_NAME = /^_?msgSender$/
/**
 * Who may call a function: whether an expression is the caller, whether a condition admits only
 * callers in an allowed set, and whether a function (with its modifiers and the internal
 * functions it calls, as a dispatch context runs them) checks the caller.
 */
export class AccessAnalysis {
  private readonly protectedMemo = new ContextMemo<boolean>()
  private readonly senderParamsMemo = new ContextMemo<Set<number>>()
  private readonly returnsSenderMemo = new Map<FunctionIr, boolean>()
  private readonly returnsSenderCheckMemo: [Map<FunctionIr, boolean>, Map<FunctionIr, boolean>] = [new Map(), new Map()]
  private readonly senderLocalsMemo = new Map<FunctionIr, Set<string>>()

  constructor(private readonly dispatch: DispatchAnalysis) {}

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
        const resolved = this.dispatch.callOf(call)
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
    return this.restrictingLogic(guard.logic, fn, isSubject, !guard.negated).length > 0
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
    return this.restrictingLogic(logicOf(condition as AST.Expression), fn, isSubject, value)
  }

  /** `restrictingParts` over a condition's boolean structure, each part weighed with the value it must take. */
  private restrictingLogic(logic: LogicIr, fn: FunctionIr, isSubject: (e: AST.BaseASTNode) => boolean, value: boolean): AST.BaseASTNode[] {
    switch (logic.kind) {
      case 'not':
        return this.restrictingLogic(logic.operand, fn, isSubject, !value)
      case 'and':
      case 'or': {
        const left = this.restrictingLogic(logic.left, fn, isSubject, value)
        const right = this.restrictingLogic(logic.right, fn, isSubject, value)
        // `a && b` is true when both sides are and false when either is; `a || b` the other way round.
        // One restricting side is enough where either side decides; both are needed where both do.
        const eitherDecides = (logic.kind === 'and') === value
        return eitherDecides || (left.length > 0 && right.length > 0) ? [...left, ...right] : []
      }
      case 'part':
        return this.operandRestricts(logic.node, fn, isSubject, value) ? [logic.node] : []
    }
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
    const all = this.dispatch.ir.contracts.flatMap((c) => c.enums.filter((e) => e.name === name))
    for (const file of this.dispatch.ir.files) for (const child of file.ast.children) if (child.type === 'EnumDefinition' && (child as AST.EnumDefinition).name === name) all.push(child as AST.EnumDefinition)
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
    const callee = this.dispatch.callOf(call)?.callee ?? null
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
    const callee = this.dispatch.callOf(call)?.callee ?? null
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
        const callee = this.dispatch.calleeIn(call, fn, context)
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
    for (let parent = this.dispatch.ir.info(node)?.parent ?? null; parent; parent = this.dispatch.ir.info(parent)?.parent ?? null) {
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
        const modifier = this.dispatch.modifierIn(m, fn, context)
        if (modifier ? this.isProtected(modifier, context) : ACCESS_MODIFIER_NAME.test(m.name) && !this.isBaseConstructorCall(fn, m.name)) {
          result = true
          break
        }
      }
    }
    if (!result) {
      for (const call of fn.facts.calls) {
        if (call.kind !== 'internal' && call.kind !== 'library') continue
        const callee = this.dispatch.calleeIn(call, fn, context)
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
}
