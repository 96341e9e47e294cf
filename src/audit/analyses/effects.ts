import type { DispatchAnalysis, DispatchContext } from './dispatch.ts'
import { ContextMemo, MAX_CALL_DEPTH } from './dispatch.ts'
import type { BranchPath, CallIr, CallKind, Effect, FunctionIr, StateVariableIr } from '../ir/types.ts'

/** Calls that leave the contract (or may: `unknown`). */
export const OUTGOING_CALL_KINDS: ReadonlySet<CallKind> = new Set<CallKind>(['external', 'external-self', 'low-level', 'send', 'transfer', 'creation', 'unknown'])

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
 * What a function does, in order: its effects (state reads and writes, calls, events) with
 * modifiers inlined around the body and internal calls expanded to the functions a dispatch
 * context runs; and which functions write a state variable.
 */
export class EffectAnalysis {
  private readonly effectsMemo = new ContextMemo<FlatEffect[]>()
  private writersIndex: Map<StateVariableIr, FunctionIr[]> | null = null

  constructor(private readonly dispatch: DispatchAnalysis) {}

  /**
   * The effects `fn` performs inside `context`, in order, with modifiers inlined around the body
   * and internal and library calls expanded (up to MAX_CALL_DEPTH) to the functions `context`
   * runs. External calls are not expanded.
   */
  flatEffects(fn: FunctionIr, deployed: DispatchContext = fn.contract): FlatEffect[] {
    const context = this.dispatch.representative(fn, deployed)
    const known = this.effectsMemo.get(context, fn)
    if (known) return known
    const result: FlatEffect[] = []
    this.effectsMemo.set(context, fn, result)
    const expand = (prefix: BranchPath, via: CallIr[], depth: number, stack: Set<FunctionIr>, body: readonly { effect: Effect; owner: FunctionIr }[]): void => {
      for (const { effect, owner: holder } of body) {
        if (effect.kind === 'placeholder') continue
        const path = prefix.length === 0 ? effect.path : [...prefix, ...effect.path]
        const callee = effect.kind === 'call' && (effect.call.kind === 'internal' || effect.call.kind === 'library') ? this.dispatch.calleeIn(effect.call, holder, context) : null
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
      const modifier = this.dispatch.modifierIn(fn.modifierCalls[i], fn, context)
      if (!modifier || !modifier.body) continue
      const effects = modifier.facts.effects.map((effect) => ({ effect, owner: modifier }))
      const placeholder = effects.findIndex((e) => e.effect.kind === 'placeholder')
      sequence = placeholder < 0 ? effects : [...effects.slice(0, placeholder), ...sequence, ...effects.slice(placeholder + 1)]
    }
    return sequence
  }

  /** Functions and modifiers (anywhere) whose own code writes a state variable; indexed once for every variable. */
  writersOf(variable: StateVariableIr): FunctionIr[] {
    if (!this.writersIndex) {
      const index = new Map<StateVariableIr, FunctionIr[]>()
      for (const fn of this.dispatch.allFunctions()) {
        for (const v of new Set(fn.facts.stateWrites.map((w) => w.variable))) {
          const list = index.get(v) ?? []
          list.push(fn)
          index.set(v, list)
        }
      }
      this.writersIndex = index
    }
    return this.writersIndex.get(variable) ?? []
  }
}
