import type * as AST from '../parse/ast.ts'
import type { DispatchAnalysis, DispatchContext } from './dispatch.ts'
import { ContextMemo } from './dispatch.ts'
import { OUTGOING_CALL_KINDS, type EffectAnalysis, type FlatEffect } from './effects.ts'
import { contains, unwrap } from './syntax.ts'
import type { ContractIr, FunctionIr, StateVariableIr, TypeRef } from '../ir/types.ts'

/** Modifier names that mean a reentrancy lock when the modifier's body is not available or not recognised. */
const LOCK_MODIFIER_NAME = /reentran|^lock$|^locked$|^mutex$|^noreentry$|^guarded$/i
/** A lock identity: a lock's state variable, the contract declaring a lock modifier, or an unresolved modifier's name. */
export type LockKey = StateVariableIr | ContractIr | string
/**
 * Reentrancy locks: whether a function runs under one (a lock modifier, or a flag checked, set
 * and reset inline), and which lock, so that two functions can be told to share it.
 */
export class LockAnalysis {
  private readonly lockMemo = new ContextMemo<boolean>()
  private readonly lockKeysMemo = new ContextMemo<Set<LockKey>>()
  private readonly contextLocksMemo = new Map<DispatchContext, Set<StateVariableIr>>()

  constructor(
    private readonly dispatch: DispatchAnalysis,
    private readonly effects: EffectAnalysis,
  ) {}

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
      const modifier = this.dispatch.modifierIn(m, fn, context)
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
    const effects = this.effects.flatEffects(fn, context)
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
    for (const g of this.dispatch.entryPoints(context)) {
      for (const m of g.modifierCalls) {
        const modifier = this.dispatch.modifierIn(m, g, context)
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
    const effects = this.effects.flatEffects(fn, context)
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
      const constant = e.owner.contract ? this.dispatch.scope.stateVariable(e.owner.contract, (value as AST.Identifier).name) : null
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
}

/** Whether a state variable's type can hold a lock flag: a bool, a number or an enum. */
function isFlagType(type: TypeRef): boolean {
  return type.kind === 'enum' || (type.kind === 'elementary' && (type.name === 'bool' || /^u?int\d*$/.test(type.name)))
}
