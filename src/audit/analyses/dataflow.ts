import type * as AST from '../parse/ast.ts'
import type { CallIr, FunctionIr, StateVariableIr } from '../ir/types.ts'
import type { DispatchAnalysis } from './dispatch.ts'
import type { EffectAnalysis } from './effects.ts'
import { unwrap } from './syntax.ts'

/**
 * A kind of value followed through code: `matches` says whether a node (inside `fn`) produces
 * one (`block.timestamp`, a hash of block data). `copiesOnly`: the value is followed only where
 * it is copied unchanged (a local initialised to it, a state variable set to it, a function
 * returning it, a conversion `uint64(…)`), not through arithmetic or calls that transform it.
 * `currentOnly`: the value is followed through locals and returned values but not through state
 * variables (a timestamp stored earlier is a past time, not the current one). `key` names the
 * source for memoisation: two sources with one key must match the same nodes the same way.
 */
export interface ValueSource {
  key: string
  matches(node: AST.ASTNode, fn: FunctionIr): boolean
  copiesOnly?: boolean
  currentOnly?: boolean
  /**
   * When a node matched by `matches` yields several values (a call returning a tuple), the one
   * followed: a declaration or tuple assignment taking that node directly as its value gives
   * the source to this component only (`(bool ok, bytes memory data) = to.call(…)`: 0 is `ok`).
   */
  component?: number
}

/** Where a followed value was produced: the node reading it and the function holding that node. */
export interface Origin {
  node: AST.BaseASTNode
  fn: FunctionIr
}

/** An origin, or a parameter of the function being summarised (replaced by the argument at each call site). */
type Flow = Origin | { parameter: number }

/** How many nested internal calls are summarised when following a value into callees. */
const MAX_SUMMARY_DEPTH = 6

/**
 * A small, flow-insensitive data-flow layer: which source values (see `ValueSource`) can reach an
 * expression of a function, through its locals (declarations and assignments, to a fixed point),
 * the state variables of its contract (set anywhere in the project to such a value and read
 * here, so a value stored by one transaction and used by a later one is followed), and the
 * values internal and library functions return (their parameters substituted by the arguments
 * of the call). Answers name the origins, so a finding can point at the read that produced a
 * value as well as at the use.
 */
export class DataFlowAnalysis {
  private readonly localMemo = new Map<string, Map<FunctionIr, Map<string, Flow[]>>>()
  private readonly stateMemo = new Map<string, Map<StateVariableIr, Origin[]>>()
  private readonly returnMemo = new Map<string, Map<FunctionIr, Flow[]>>()
  private readonly siteMemo = new Map<FunctionIr, AST.BaseASTNode[]>()
  private callerIndex: Map<FunctionIr, { node: AST.BaseASTNode; fn: FunctionIr }[]> | null = null
  private readonly readKeys = new Map<StateVariableIr, string>()
  private depth = 0

  constructor(
    private readonly dispatch: DispatchAnalysis,
    private readonly effects: EffectAnalysis,
  ) {}

  /** The origins of `source` values that can reach `expression` in `fn` (empty when none can). */
  origins(expression: AST.BaseASTNode, fn: FunctionIr, source: ValueSource): Origin[] {
    return dedupe(this.flows(expression, fn, source).filter((f): f is Origin => 'node' in f))
  }

  /** Whether a `source` value can reach `expression` in `fn`. */
  reaches(expression: AST.BaseASTNode, fn: FunctionIr, source: ValueSource): boolean {
    return this.origins(expression, fn, source).length > 0
  }

  /**
   * A source for the value of a state variable as read now (an identifier naming it, so also
   * reads of its elements and fields): followed through locals and internal returns, derived
   * values included, but not through other state variables. With `origins`, says which reads of
   * the variable a value was computed from (a balance read into a local before a call and written
   * back from that local after it).
   */
  readsOf(variable: StateVariableIr): ValueSource {
    let key = this.readKeys.get(variable)
    if (key === undefined) {
      key = `read:${this.readKeys.size}:${variable.name}`
      this.readKeys.set(variable, key)
    }
    const names = (node: AST.ASTNode, fn: FunctionIr): boolean =>
      node.type === 'Identifier' && !fn.facts.locals.has(node.name) && fn.contract !== null && this.dispatch.scope.stateVariable(fn.contract, node.name) === variable
    const direct: ValueSource = { key: `${key}:direct`, currentOnly: true, matches: names }
    // An internal getter returning the variable counts as a read where it is called, so the origin stays in the reading function.
    return {
      key,
      currentOnly: true,
      matches: (node, fn) => {
        if (names(node, fn)) return true
        if (node.type !== 'FunctionCall') return false
        const call = this.dispatch.callOf(node)
        return (call?.kind === 'internal' || call?.kind === 'library') && this.reaches(node, fn, direct)
      },
    }
  }

  /**
   * Whether the value a call returns (its first component: the success flag of a low-level call,
   * the boolean of `send` or of an ERC-20 `transfer`) is looked at: it reaches a condition
   * (`if`, `require`, loop, `?:`), a negation, logical or comparison operator, an argument of a
   * call or event, or a return of a public function, directly or through locals (also copies and
   * tuple assignments), state variables read by any function of the project, and internal
   * functions returning it to callers that look at it. A flag only stored (in a local or a state
   * variable nothing reads) is not looked at. Calls made in assembly are not answered here.
   */
  resultChecked(call: CallIr, fn: FunctionIr): boolean {
    return this.resultUse(call, fn).checked
  }

  /**
   * `resultChecked`, and when the value is not looked at: the internal calls receiving it from
   * helpers that hand it back (each in the function making it) and dropping it, and the state
   * variables it is stored in without being read.
   */
  resultUse(call: CallIr, fn: FunctionIr): { checked: boolean; droppedAt: { node: AST.BaseASTNode; fn: FunctionIr }[]; storedIn: StateVariableIr[] } {
    const droppedAt: { node: AST.BaseASTNode; fn: FunctionIr }[] = []
    const passers = new Set<FunctionIr>()
    const storedIn = new Set<StateVariableIr>()
    const checked = this.followResult(call, fn, droppedAt, passers, storedIn)
    return checked ? { checked, droppedAt: [], storedIn: [] } : { checked, droppedAt: droppedAt.filter((d) => !passers.has(d.fn)), storedIn: [...storedIn] }
  }

  private followResult(call: CallIr, fn: FunctionIr, droppedAt: { node: AST.BaseASTNode; fn: FunctionIr }[], passers: Set<FunctionIr>, stored: Set<StateVariableIr>): boolean {
    if (!call.resultUsed) return false
    const source: ValueSource = { key: `result:${fn.file.path}:${call.node.range?.[0] ?? ''}:${call.node.range?.[1] ?? ''}`, matches: (n) => n === call.node, component: 0 }
    try {
      // Stored into a memory struct or array: not followed; assume it is read.
      if (this.storedInMemory(call, fn)) return true
      const seen = new Set<FunctionIr>()
      const queue: { fn: FunctionIr; depth: number }[] = [{ fn, depth: 0 }]
      while (queue.length > 0) {
        const { fn: holder, depth } = queue.shift() as { fn: FunctionIr; depth: number }
        if (seen.has(holder)) continue
        seen.add(holder)
        if (this.sitesOf(holder).some((site) => this.reaches(site, holder, source))) return true
        const returned = this.returnFlows(holder, source).some((f) => 'node' in f)
        if (!returned) continue
        passers.add(holder)
        // Handed to an external caller, a modifier's, or the users of a library or of a function
        // nothing here calls: looked at outside what we follow.
        const callers = this.callersOf(holder)
        if (holder.visibility === 'public' || holder.visibility === 'external' || holder.kind === 'modifier' || holder.contract?.kind === 'library' || callers.length === 0) return true
        if (depth >= MAX_SUMMARY_DEPTH) continue
        for (const caller of callers) {
          queue.push({ fn: caller.fn, depth: depth + 1 })
          droppedAt.push(caller)
        }
      }
      // Stored in state: looked at if any function reading that variable looks at it.
      for (const holder of seen)
        for (const write of holder.facts.stateWrites)
          if (write.statement?.type === 'BinaryOperation' && this.reaches((write.statement as AST.BinaryOperation).right, holder, source)) stored.add(write.variable)
      if (stored.size === 0) return false
      for (const reader of this.dispatch.allFunctions()) {
        if (seen.has(reader) || !reader.facts.stateReads.some((r) => stored.has(r.variable))) continue
        if (this.sitesOf(reader).some((site) => this.reaches(site, reader, source))) return true
      }
      return false
    } finally {
      this.forget(source.key)
    }
  }

  /**
   * The number a local of `fn` always holds when `at` (an operation on it) runs: the local is set
   * only by its declaration, to an integer literal (or to zero, having no initializer), and
   * changed by nothing but `at` itself. Null when it cannot be known.
   */
  knownNumber(name: string, fn: FunctionIr, at: AST.BaseASTNode): bigint | null {
    const local = fn.facts.locals.get(name)
    if (!local || local.isParameter || local.isReturn) return null
    let value: bigint | null = 0n
    for (const d of (fn.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[]) {
      if (!d.variables.includes(local.node)) continue
      if (d.variables.length !== 1) return null
      const init = d.initialValue ? unwrap(d.initialValue) : null
      if (init === null) continue
      if (init.type !== 'NumberLiteral' || (init as AST.NumberLiteral).subdenomination) return null
      try {
        value = BigInt((init as AST.NumberLiteral).number.replace(/_/g, ''))
      } catch {
        value = null
      }
    }
    // Any other write (assignment, compound assignment, `++`/`--`, `delete`, passing to an out-parameter) makes it unknown.
    const writes = [
      ...((fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]).filter((b) => b.operator.endsWith('=') && !['==', '!=', '<=', '>='].includes(b.operator)).map((b) => ({ node: b as AST.BaseASTNode, target: b.left })),
      ...((fn.facts.nodes.get('UnaryOperation') ?? []) as AST.UnaryOperation[]).filter((u) => ['++', '--', 'delete'].includes(u.operator)).map((u) => ({ node: u as AST.BaseASTNode, target: u.subExpression })),
    ]
    for (const w of writes) {
      if (w.node === at) continue
      const target = unwrap(w.target)
      const targets = target.type === 'TupleExpression' ? (target as AST.TupleExpression).components.filter((c): c is AST.BaseASTNode => c !== null).map(unwrap) : [target]
      if (targets.some((t) => t.type === 'Identifier' && (t as AST.Identifier).name === name)) return null
    }
    if (fn.facts.assembly.length > 0) return null
    return value
  }

  /** Drops what was memoised for a source asked about once (a call's result). */
  private forget(key: string): void {
    this.localMemo.delete(key)
    this.stateMemo.delete(key)
    this.returnMemo.delete(key)
  }

  /**
   * The expressions of `fn` whose value is looked at rather than only copied: conditions, operands
   * of `!` and of logical and comparison operators, arguments of calls and events (conversions
   * excepted), returns of public and external functions, and a local named alone as a statement
   * (`ok;`, a deliberate acknowledgement).
   */
  private sitesOf(fn: FunctionIr): AST.BaseASTNode[] {
    const known = this.siteMemo.get(fn)
    if (known) return known
    const sites: AST.BaseASTNode[] = []
    const of = <T extends AST.BaseASTNode>(type: string): T[] => (fn.facts.nodes.get(type) ?? []) as T[]
    for (const s of of<AST.IfStatement>('IfStatement')) sites.push(s.condition)
    for (const s of of<AST.WhileStatement>('WhileStatement')) sites.push(s.condition)
    for (const s of of<AST.DoWhileStatement>('DoWhileStatement')) sites.push(s.condition)
    for (const s of of<AST.ForStatement>('ForStatement')) if (s.conditionExpression) sites.push(s.conditionExpression)
    for (const c of of<AST.Conditional>('Conditional')) sites.push(c.condition)
    for (const u of of<AST.UnaryOperation>('UnaryOperation')) if (u.operator === '!') sites.push(u.subExpression)
    for (const b of of<AST.BinaryOperation>('BinaryOperation')) if (['&&', '||', '==', '!=', '<', '>', '<=', '>='].includes(b.operator)) sites.push(b.left, b.right)
    for (const c of of<AST.FunctionCall>('FunctionCall')) if (this.dispatch.callOf(c)?.kind !== 'conversion') sites.push(...c.arguments)
    // `ok;` alone: the code acknowledges the value on purpose (a refund allowed to fail).
    for (const e of of<AST.ExpressionStatement>('ExpressionStatement')) if (e.expression && unwrap(e.expression).type === 'Identifier') sites.push(e.expression)
    if (fn.visibility === 'public' || fn.visibility === 'external') for (const r of fn.facts.returnStatements) if (r.expression) sites.push(r.expression)
    this.siteMemo.set(fn, sites)
    return sites
  }

  /** The internal and library calls of `fn`, each in the function making it, in the project and its dependencies. */
  private callersOf(fn: FunctionIr): { node: AST.BaseASTNode; fn: FunctionIr }[] {
    if (!this.callerIndex) {
      const index = new Map<FunctionIr, { node: AST.BaseASTNode; fn: FunctionIr }[]>()
      for (const caller of this.dispatch.allFunctions()) {
        for (const call of caller.facts.calls) {
          if (call.kind !== 'internal' && call.kind !== 'library') continue
          const callee = this.dispatch.calleeIn(call, caller)
          if (!callee) continue
          const list = index.get(callee) ?? []
          list.push({ node: call.node, fn: caller })
          index.set(callee, list)
        }
      }
      this.callerIndex = index
    }
    return this.callerIndex.get(fn) ?? []
  }

  /** Whether a call's result is assigned into a member or element of a memory local (`r.ok = to.send(v)`). */
  private storedInMemory(call: CallIr, fn: FunctionIr): boolean {
    for (const a of (fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]) {
      if (a.operator !== '=' || unwrap(a.right) !== call.node) continue
      let target = unwrap(a.left)
      if (target.type === 'TupleExpression') target = unwrap((target as AST.TupleExpression).components[0] ?? target)
      if (target.type !== 'IndexAccess' && target.type !== 'MemberAccess') return false
      let base: AST.BaseASTNode = target
      while (base.type === 'IndexAccess' || base.type === 'MemberAccess') base = unwrap(base.type === 'IndexAccess' ? (base as AST.IndexAccess).base : (base as AST.MemberAccess).expression)
      return base.type === 'Identifier' && fn.facts.locals.has((base as AST.Identifier).name) && !fn.facts.storageAliases.has((base as AST.Identifier).name)
    }
    return false
  }

  private flows(expression: AST.BaseASTNode, fn: FunctionIr, source: ValueSource): Flow[] {
    const result: Flow[] = []
    const visit = (node: AST.BaseASTNode): void => {
      const n = unwrap(node)
      if (source.matches(n, fn)) {
        result.push({ node: n, fn })
        return
      }
      switch (n.type) {
        case 'Identifier': {
          const name = (n as AST.Identifier).name
          if (fn.facts.locals.has(name)) result.push(...(this.localFlows(fn, source).get(name) ?? []))
          else {
            const variable = fn.contract ? this.dispatch.scope.stateVariable(fn.contract, name) : null
            if (variable && !source.currentOnly) result.push(...this.stateOrigins(variable, source))
          }
          return
        }
        case 'IndexAccess':
        case 'MemberAccess': {
          // A state mapping, array or struct field: the values stored anywhere in it.
          let base: AST.BaseASTNode = n
          while (base.type === 'IndexAccess' || base.type === 'MemberAccess') base = unwrap(base.type === 'IndexAccess' ? (base as AST.IndexAccess).base : (base as AST.MemberAccess).expression)
          if (base.type === 'Identifier' && base !== n) visit(base)
          if (!source.copiesOnly && n.type === 'IndexAccess' && (n as AST.IndexAccess).index) visit((n as AST.IndexAccess).index as AST.BaseASTNode)
          return
        }
        case 'FunctionCall': {
          const call = n as AST.FunctionCall
          const resolved = this.dispatch.callOf(call)
          if (resolved && (resolved.kind === 'internal' || resolved.kind === 'library')) {
            const callee = this.dispatch.calleeIn(resolved, fn)
            if (callee?.body) {
              for (const flow of this.returnFlows(callee, source)) {
                if ('node' in flow) result.push(flow)
                else if (resolved.args[flow.parameter]) visit(resolved.args[flow.parameter])
              }
            }
            return
          }
          // A conversion (`uint64(t)`) copies its argument; other calls (hashes, arithmetic builtins) derive from theirs.
          if (resolved?.kind === 'conversion' || !source.copiesOnly) for (const arg of call.arguments) visit(arg)
          return
        }
        case 'Conditional': {
          const conditional = n as AST.Conditional
          visit(conditional.trueExpression)
          visit(conditional.falseExpression)
          if (!source.copiesOnly) visit(conditional.condition)
          return
        }
        case 'BinaryOperation':
          if (source.copiesOnly) return
          visit((n as AST.BinaryOperation).left)
          visit((n as AST.BinaryOperation).right)
          return
        case 'UnaryOperation':
          if (!source.copiesOnly) visit((n as AST.UnaryOperation).subExpression)
          return
        case 'TupleExpression':
          if (!source.copiesOnly) for (const c of (n as AST.TupleExpression).components) if (c) visit(c)
          return
        default:
          return
      }
    }
    visit(expression)
    return result
  }

  /** What each local of `fn` can hold, to a fixed point over declarations and assignments; parameters hold themselves. */
  private localFlows(fn: FunctionIr, source: ValueSource): Map<string, Flow[]> {
    let byFunction = this.localMemo.get(source.key)
    if (!byFunction) {
      byFunction = new Map()
      this.localMemo.set(source.key, byFunction)
    }
    const known = byFunction.get(fn)
    if (known) return known
    const locals = new Map<string, Flow[]>()
    byFunction.set(fn, locals)
    for (const local of fn.facts.locals.values()) if (local.isParameter) locals.set(local.name, [{ parameter: local.parameterIndex }])
    const declarations = (fn.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[]
    const assignments = ((fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]).filter((b) => b.operator === '=' || (!source.copiesOnly && /^[-+*/%|&^]=$|^<<=$|^>>=$/.test(b.operator)))
    const add = (name: string, flows: Flow[]): boolean => {
      const current = locals.get(name) ?? []
      const fresh = flows.filter((f) => !current.some((c) => sameFlow(c, f)))
      if (fresh.length === 0) return false
      locals.set(name, [...current, ...fresh])
      return true
    }
    let changed = true
    for (let round = 0; changed && round <= fn.facts.locals.size + 1; round++) {
      changed = false
      for (const d of declarations) {
        if (!d.initialValue) continue
        const variables = d.variables as (AST.VariableDeclaration | null)[]
        const only = this.componentOf(d.initialValue, variables.length, fn, source)
        const flows = this.flows(d.initialValue, fn, source)
        if (flows.length === 0) continue
        variables.forEach((v, i) => {
          if (v?.name && (only === null || only === i) && add(v.name, flows)) changed = true
        })
      }
      for (const a of assignments) {
        const target = unwrap(a.left)
        if (target.type === 'TupleExpression') {
          // `(ok, data) = …`: each local component takes its part (the matching component of a tuple value).
          const components = (target as AST.TupleExpression).components
          const right = unwrap(a.right)
          const only = this.componentOf(a.right, components.length, fn, source)
          components.forEach((c, i) => {
            const t = c ? unwrap(c) : null
            if (t?.type !== 'Identifier' || !fn.facts.locals.has((t as AST.Identifier).name) || (only !== null && only !== i)) return
            const value = right.type === 'TupleExpression' && (right as AST.TupleExpression).components.length === components.length ? (right as AST.TupleExpression).components[i] : a.right
            const flows = value ? this.flows(value, fn, source) : []
            if (flows.length > 0 && add((t as AST.Identifier).name, flows)) changed = true
          })
          continue
        }
        if (target.type !== 'Identifier' || !fn.facts.locals.has((target as AST.Identifier).name)) continue
        const flows = this.flows(a.right, fn, source)
        if (flows.length > 0 && add((target as AST.Identifier).name, flows)) changed = true
      }
    }
    return locals
  }

  /** The one component a multi-value declaration or assignment of `value` takes the source in (see `ValueSource.component`), or null (all of them). */
  private componentOf(value: AST.BaseASTNode, count: number, fn: FunctionIr, source: ValueSource): number | null {
    return count > 1 && source.component !== undefined && source.matches(unwrap(value), fn) ? source.component : null
  }

  /** Where the values stored in a state variable come from: every assignment to it anywhere, in the function making it. */
  private stateOrigins(variable: StateVariableIr, source: ValueSource): Origin[] {
    let byVariable = this.stateMemo.get(source.key)
    if (!byVariable) {
      byVariable = new Map()
      this.stateMemo.set(source.key, byVariable)
    }
    const known = byVariable.get(variable)
    if (known) return known
    const result: Origin[] = []
    byVariable.set(variable, result)
    for (const writer of this.effects.writersOf(variable)) {
      for (const write of writer.facts.stateWrites) {
        if (write.variable !== variable || write.statement?.type !== 'BinaryOperation') continue
        const assignment = write.statement as AST.BinaryOperation
        if (assignment.operator !== '=' && source.copiesOnly) continue
        for (const flow of this.flows(assignment.right, writer, source)) if ('node' in flow) result.push(flow)
      }
    }
    return result
  }

  /** What a function returns, in terms of origins and of its own parameters. */
  private returnFlows(fn: FunctionIr, source: ValueSource): Flow[] {
    let byFunction = this.returnMemo.get(source.key)
    if (!byFunction) {
      byFunction = new Map()
      this.returnMemo.set(source.key, byFunction)
    }
    const known = byFunction.get(fn)
    if (known) return known
    const result: Flow[] = []
    byFunction.set(fn, result)
    if (this.depth >= MAX_SUMMARY_DEPTH) return result
    this.depth++
    try {
      for (const r of fn.facts.returnStatements) if (r.expression) result.push(...this.flows(r.expression, fn, source))
      const locals = this.localFlows(fn, source)
      for (const named of fn.returns) if (named.name) result.push(...(locals.get(named.name) ?? []))
    } finally {
      this.depth--
    }
    return result
  }
}

function sameFlow(a: Flow, b: Flow): boolean {
  if ('node' in a && 'node' in b) return a.node === b.node
  return 'parameter' in a && 'parameter' in b && a.parameter === b.parameter
}

function dedupe(origins: Origin[]): Origin[] {
  return origins.filter((o, i) => origins.findIndex((p) => p.node === o.node) === i)
}
