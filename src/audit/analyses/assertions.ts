import type * as AST from '../parse/ast.ts'
import type { Analyses } from './analyses.ts'
import { isMsgValue, unwrap, walkNodes } from './syntax.ts'
import type { FunctionIr, GuardIr, StateVariableIr } from '../ir/types.ts'

/** Environment values a caller sets: `msg.value`, `msg.sender`, `msg.data`, `tx.origin`. */
const CALLER_ENVIRONMENT: Readonly<Record<string, ReadonlySet<string>>> = { msg: new Set(['value', 'sender', 'data']), tx: new Set(['origin']) }

const ARITHMETIC_ASSIGNMENT = /^([-+*]=|\+\+|--)$/

/** What a caller chooses in `expression`: names of parameters and locals derived from them, `msg.*` / `tx.origin` read, and state variables any caller sets to a value of their choosing. */
function callerInputs(analyses: Analyses, fn: FunctionIr, expression: AST.BaseASTNode, settable: (v: StateVariableIr) => boolean): { names: Set<string>; shown: string[] } {
  const tainted = analyses.taint.taintedLocals(fn)
  const names = new Set<string>()
  const shown: string[] = []
  walkNodes(expression, (n) => {
    if (n.type === 'MemberAccess' && n.expression.type === 'Identifier' && CALLER_ENVIRONMENT[n.expression.name]?.has(n.memberName)) {
      names.add(`${n.expression.name}.${n.memberName}`)
      shown.push(`\`${n.expression.name}.${n.memberName}\``)
      return false
    }
    if (n.type !== 'Identifier') return
    if (tainted.has(n.name)) {
      names.add(n.name)
      shown.push(`\`${n.name}\``)
      return
    }
    if (fn.facts.locals.has(n.name) || !fn.contract) return
    const variable = analyses.scope.stateVariable(fn.contract, n.name)
    if (variable && settable(variable)) {
      names.add(n.name)
      shown.push(`\`${n.name}\` (set by any caller)`)
    }
  })
  return { names, shown: [...new Set(shown)] }
}

/** Whether `expression` mentions one of `names` (identifiers, and `msg.*` / `tx.origin` written as `msg.value`). */
function mentions(expression: AST.BaseASTNode, names: ReadonlySet<string>): boolean {
  let found = false
  walkNodes(expression, (n) => {
    if (found) return false
    if (n.type === 'Identifier' && names.has(n.name)) found = true
    if (n.type === 'MemberAccess' && n.expression.type === 'Identifier' && names.has(`${n.expression.name}.${n.memberName}`)) found = true
  })
  return found
}


/**
 * An entry point calling the helper `fn` directly with, for a parameter among `names`, an
 * argument its own caller chooses (a parameter, `msg.value`, …) that no earlier guard of the entry
 * point looks at; null when every such call is checked.
 */
function uncheckedCaller(analyses: Analyses, fn: FunctionIr, names: ReadonlySet<string>): { fn: FunctionIr; call: AST.BaseASTNode } | null {
  const parameters = [...fn.facts.locals.values()].filter((l) => l.isParameter && names.has(l.name))
  if (parameters.length === 0) return null
  for (const caller of analyses.dispatch.allFunctions()) {
    if (!analyses.dispatch.isEntryPoint(caller)) continue
    for (const call of caller.facts.calls) {
      if (call.kind !== 'internal' || analyses.dispatch.calleeIn(call, caller) !== fn) continue
      const at = call.node.range?.[0] ?? 0
      for (const p of parameters) {
        const arg = call.args[p.parameterIndex]
        if (!arg) continue
        const inputs = callerInputs(analyses, caller, arg, () => false).names
        if (inputs.size === 0) continue
        if (caller.facts.guards.some((g) => (g.node.range?.[0] ?? 0) < at && mentions(g.condition, inputs))) continue
        return { fn: caller, call: call.node }
      }
    }
  }
  return null
}

function someMsgValue(expression: AST.BaseASTNode): boolean {
  let found = false
  walkNodes(expression, (n) => {
    if (found) return false
    if (isMsgValue(n)) found = true
  })
  return found
}

function isArithmetic(expression: AST.BaseASTNode): boolean {
  const n = unwrap(expression)
  return n.type === 'BinaryOperation' && ['+', '-', '*'].includes((n as AST.BinaryOperation).operator)
}

/** Whether `haystack` holds an expression written like `target` (`bal[msg.sender]`). */
function someNode(haystack: AST.BaseASTNode, target: AST.BaseASTNode): boolean {
  const shape = JSON.stringify(strip(target))
  let found = false
  walkNodes(haystack, (n) => {
    if (found) return false
    if (n.type === target.type && JSON.stringify(strip(n)) === shape) found = true
  })
  return found
}

function strip(node: AST.BaseASTNode): unknown {
  return JSON.parse(JSON.stringify(node, (key, value: unknown) => (key === 'loc' || key === 'range' ? undefined : value)))
}

/** An `assert` a caller can make fail (see `failableAsserts`). */
export interface FailableAssert {
  guard: GuardIr
  /** What the caller chooses in its condition, as shown in a finding (`` `amount` ``, `` `msg.value` ``, `` `cap` (set by any caller) ``). */
  inputs: string[]
  /** For an internal function's assert: the entry point passing it such values unchecked, and the call. */
  caller: { fn: FunctionIr; call: AST.BaseASTNode } | null
}

const settableMemo = new WeakMap<Analyses, Map<StateVariableIr, boolean>>()

/** Whether an unprotected entry point sets `variable` from its parameters or `msg.value`. */
function settableBy(analyses: Analyses): (variable: StateVariableIr) => boolean {
  let memo = settableMemo.get(analyses)
  if (!memo) {
    memo = new Map()
    settableMemo.set(analyses, memo)
  }
  const known = memo
  return (variable) => {
    const cached = known.get(variable)
    if (cached !== undefined) return cached
    const result = analyses.effects.writersOf(variable).some(
      (writer) =>
        analyses.dispatch.isEntryPoint(writer) &&
        !analyses.access.isProtected(writer) &&
        writer.facts.stateWrites.some((w) => w.variable === variable && w.assignment?.value != null && (analyses.taint.dependsOnParameters(w.assignment.value, writer) || someMsgValue(w.assignment.value))),
    )
    known.set(variable, result)
    return result
  }
}

/**
 * The asserts of `fn` a caller can make fail: in an entry point (or a modifier one runs), an `assert` whose condition
 * depends on what a caller chooses (a parameter or a value derived from it, `msg.value`,
 * `msg.sender`, `tx.origin`, or state any caller sets to a value of their choosing), with no
 * earlier `require` or revert on the same values and not the overflow check after arithmetic
 * (`c = a + b; assert(c >= a)`); in an internal function (not a library's), such an assert on its
 * parameters when an entry point passes them values its own caller chooses, unchecked.
 */
export function failableAsserts(analyses: Analyses, fn: FunctionIr): FailableAssert[] {
  // A modifier an entry point runs checks that entry point's caller.
  const entry = analyses.dispatch.isEntryPoint(fn) || (fn.kind === 'modifier' && fn.contract?.kind !== 'library' && usedByEntryPoint(analyses, fn))
  const helper = !entry && fn.kind === 'function' && (fn.visibility === 'internal' || fn.visibility === 'private') && fn.contract?.kind !== 'library'
  if (!entry && !helper) return []
  const settable = settableBy(analyses)
  const result: FailableAssert[] = []
  for (const guard of fn.facts.guards) {
    if (guard.kind !== 'assert') continue
    const { names, shown } = callerInputs(analyses, fn, guard.condition, settable)
    if (names.size === 0) continue
    const at = guard.node.range?.[0] ?? 0
    // Ruled out by an earlier `require` / revert on the same values.
    if (fn.facts.guards.some((g) => g.kind !== 'assert' && (g.node.range?.[0] ?? 0) < at && mentions(g.condition, names))) continue
    let caller: FailableAssert['caller'] = null
    if (helper) {
      caller = uncheckedCaller(analyses, fn, names)
      if (!caller) continue
    }
    // An overflow check: a value the condition reads was just computed by arithmetic.
    const computed = fn.facts.assignments.some((a) => {
      if ((a.node.range?.[0] ?? 0) >= at) return false
      const target = unwrap(a.target)
      const named = target.type === 'Identifier' ? target.name : null
      const arithmetic = ARITHMETIC_ASSIGNMENT.test(a.operator) || (a.operator === '=' && a.value !== null && isArithmetic(a.value))
      return arithmetic && (named !== null ? mentions(guard.condition, new Set([named])) : someNode(guard.condition, target))
    })
    const declaredByArithmetic = ((fn.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[]).some(
      (d) => (d.range?.[0] ?? 0) < at && d.initialValue && isArithmetic(d.initialValue) && d.variables.some((v) => v !== null && mentions(guard.condition, new Set([(v as AST.VariableDeclaration).name ?? '']))),
    )
    if (computed || declaredByArithmetic) continue
    result.push({ guard, inputs: shown, caller })
  }
  return result
}

/** Whether an entry point of the project runs the modifier `modifier`. */
function usedByEntryPoint(analyses: Analyses, modifier: FunctionIr): boolean {
  return analyses.dispatch.allFunctions().some((f) => analyses.dispatch.isEntryPoint(f) && f.modifierCalls.some((m) => analyses.dispatch.modifierIn(m, f) === modifier))
}
