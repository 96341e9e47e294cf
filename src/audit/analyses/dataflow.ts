import type * as AST from '../parse/ast.ts'
import type { FunctionIr, StateVariableIr } from '../ir/types.ts'
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
  matches(node: AST.BaseASTNode, fn: FunctionIr): boolean
  copiesOnly?: boolean
  currentOnly?: boolean
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

  /** Whether `expression` is a value that reaches it only through a local, a state variable or a returned value, not directly. */
  reachesIndirectly(expression: AST.BaseASTNode, fn: FunctionIr, source: ValueSource): boolean {
    return this.origins(expression, fn, source).some((o) => !containsNode(expression, o.node))
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
        const flows = this.flows(d.initialValue, fn, source)
        if (flows.length === 0) continue
        for (const v of d.variables as (AST.VariableDeclaration | null)[]) if (v?.name && add(v.name, flows)) changed = true
      }
      for (const a of assignments) {
        const target = unwrap(a.left)
        if (target.type !== 'Identifier' || !fn.facts.locals.has((target as AST.Identifier).name)) continue
        const flows = this.flows(a.right, fn, source)
        if (flows.length > 0 && add((target as AST.Identifier).name, flows)) changed = true
      }
    }
    return locals
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

function containsNode(haystack: AST.BaseASTNode, needle: AST.BaseASTNode): boolean {
  if (haystack === needle) return true
  if (haystack.range && needle.range) return needle.range[0] >= haystack.range[0] && needle.range[1] <= haystack.range[1]
  return false
}
