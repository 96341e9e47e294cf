import type * as AST from '../parse/ast.ts'
import { Dispatch } from '../ir/dispatch.ts'
import type { ProjectScope } from '../ir/scope.ts'
import type { CallIr, ContractIr, FunctionIr, ModifierCallIr, ProjectIr, TypeRef } from '../ir/types.ts'
import { typeOf } from '../ir/typing.ts'

/** How deep internal calls are followed when expanding effects or guards. */
export const MAX_CALL_DEPTH = 8
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

/**
 * Which code runs: entry points of the deployed contracts, the function a virtual internal call,
 * a modifier or `super` runs in a given dispatch context, the functions reached from an entry
 * point, and the call and type of an expression. Answers are memoised.
 */
export class DispatchAnalysis {
  private readonly dispatch: Dispatch
  private readonly reachableMemo = new ContextMemo<FunctionIr[]>()
  private readonly dispatchKeyMemo = new ContextMemo<string>()
  private readonly contextsMemo = new Map<FunctionIr, DispatchContext[]>()
  private readonly ids = new Map<FunctionIr, number>()
  private readonly representativeMemo = new Map<FunctionIr, Map<string, DispatchContext>>()
  private allFunctionsCache: FunctionIr[] | null = null
  private derivedIndex: Map<ContractIr, ContractIr[]> | null = null
  private readonly hierarchyMemo = new Map<ContractIr, FunctionIr[]>()
  private contractOrder: Map<ContractIr, number> | null = null
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

  /**
   * The contracts whose linearisation holds `contract` (itself and every contract inheriting it),
   * indexed once: asking per contract costs the contract's own family, not the whole project.
   */
  derivedContracts(contract: ContractIr): ContractIr[] {
    if (!this.derivedIndex) {
      const index = new Map<ContractIr, ContractIr[]>()
      for (const c of this.ir.contracts) {
        for (const base of new Set(c.linearization)) {
          const list = index.get(base) ?? []
          list.push(c)
          index.set(base, list)
        }
      }
      this.derivedIndex = index
    }
    return this.derivedIndex.get(contract) ?? []
  }

  /** Every function and modifier of `contract` and of the contracts inheriting it (code that can see its state). */
  functionsBelow(contract: ContractIr): FunctionIr[] {
    const known = this.hierarchyMemo.get(contract)
    if (known) return known
    const result = this.derivedContracts(contract).flatMap((c) => [...c.functions, ...c.modifiers])
    this.hierarchyMemo.set(contract, result)
    return result
  }

  /** Every function and modifier of the contracts related to `contract` by inheritance, either way (its bases, itself, and those inheriting it), in the project's order. */
  functionsRelatedTo(contract: ContractIr): FunctionIr[] {
    if (!this.contractOrder) this.contractOrder = new Map(this.ir.contracts.map((c, i) => [c, i]))
    const order = this.contractOrder
    const related = [...new Set<ContractIr>([...contract.linearization, ...this.derivedContracts(contract)])].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0))
    return related.flatMap((c) => [...c.functions, ...c.modifiers])
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
   * `context`. The analyses memoise by it, so contracts that merely inherit a function share its answers.
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
}

/** Values memoised per (dispatch context, function). */
export class ContextMemo<T> {
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
