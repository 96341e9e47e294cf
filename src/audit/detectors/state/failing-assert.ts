import type * as AST from '../../parse/ast.ts'
import type { Analyses } from '../../analyses/analyses.ts'
import { isMsgValue, unwrap, walkNodes } from '../../analyses/syntax.ts'
import type { FunctionIr, StateVariableIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, enumerate, functionLabel } from '../helpers.ts'

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

export const failingAssert = defineDetector({
  id: 'failing-assert',
  title: 'Assertion a caller can make fail',
  category: 'state',
  severity: 'low',
  confidence: 'medium',
  explanation:
    '`assert` states an invariant: a failing one means a bug (before Solidity 0.8 it also burns all the gas the caller gave). An `assert` whose condition depends on what a caller chooses (a parameter or a value derived from it, `msg.value`, `msg.sender`, or state any caller sets to a value of their choosing) with no earlier `require` or revert on the same values is input validation written as an invariant: any caller can make it fail. An internal function\'s assert on its parameters counts when an entry point passes it such values unchecked. Not reported: asserts on values no caller chooses, asserts after a `require` on the same input, and the overflow check after arithmetic (`c = a + b; assert(c >= a)`).',
  recommendation: 'Validate inputs with `require` (or a custom error), and keep `assert` for conditions that can only fail through a bug.',
  detect({ analyses, functions, report }) {
    // State variables an unprotected entry point sets from its parameters or `msg.value`.
    const settableMemo = new Map<StateVariableIr, boolean>()
    const settable = (variable: StateVariableIr): boolean => {
      const known = settableMemo.get(variable)
      if (known !== undefined) return known
      const result = analyses.effects.writersOf(variable).some(
        (writer) =>
          analyses.dispatch.isEntryPoint(writer) &&
          !analyses.access.isProtected(writer) &&
          writer.facts.stateWrites.some((w) => w.variable === variable && w.assignment?.value != null && (analyses.taint.dependsOnParameters(w.assignment.value, writer) || someMsgValue(w.assignment.value))),
      )
      settableMemo.set(variable, result)
      return result
    }
    for (const fn of functions) {
      const entry = analyses.dispatch.isEntryPoint(fn)
      // An internal helper's assert on its parameters is followed to the entry points passing them.
      const helper = !entry && fn.kind === 'function' && (fn.visibility === 'internal' || fn.visibility === 'private') && fn.contract?.kind !== 'library'
      if (!entry && !helper) continue
      for (const guard of fn.facts.guards) {
        if (guard.kind !== 'assert') continue
        const { names, shown } = callerInputs(analyses, fn, guard.condition, settable)
        if (names.size === 0) continue
        const at = guard.node.range?.[0] ?? 0
        // Ruled out by an earlier `require` / revert on the same values.
        if (fn.facts.guards.some((g) => g.kind !== 'assert' && (g.node.range?.[0] ?? 0) < at && mentions(g.condition, names))) continue
        let via = ''
        if (helper) {
          const caller = uncheckedCaller(analyses, fn, names)
          if (!caller) continue
          via = ` ${functionLabel(caller.fn)} passes them from its caller unchecked: ${code(caller.fn.file, caller.call)}.`
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
        report(guard.node, fn.file, `${functionLabel(fn)} asserts on ${enumerate(shown, 3)}, which a caller chooses, with no \`require\` ruling the failing values out: ${code(fn.file, guard.node)}.${via}`)
      }
    }
  },
})

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
