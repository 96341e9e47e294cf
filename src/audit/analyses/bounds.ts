import type * as AST from '../parse/ast.ts'
import type { FunctionIr, GuardIr, LogicIr } from '../ir/types.ts'
import { logicOf } from '../ir/logic.ts'
import type { DispatchAnalysis } from './dispatch.ts'
import { contains, unwrap } from './syntax.ts'

/** How deep a bound is followed through locals, constants and arithmetic. */
const MAX_DEPTH = 4

/**
 * Upper bounds of values by data flow, for arithmetic compiled before Solidity 0.8: the largest
 * value an expression of a function can hold where it is computed, from number literals,
 * constants, `require`/`assert` and `if (…) revert/return` guards of the function and its
 * modifiers that precede it (`require(v <= 100)`, `if (v > 100) return;`, parts joined by `&&`,
 * or by `||` in a revert) and `if` branches holding it, locals declared from bounded values, and sums and products of bounded
 * values. Null when nothing bounds it.
 */
export class BoundsAnalysis {
  constructor(private readonly dispatch: DispatchAnalysis) {}

  upperBound(expression: AST.BaseASTNode, fn: FunctionIr, depth = 0): bigint | null {
    if (depth > MAX_DEPTH) return null
    const n = unwrap(expression)
    switch (n.type) {
      case 'NumberLiteral': {
        const literal = n as AST.NumberLiteral
        if (literal.subdenomination) return null
        try {
          return BigInt(literal.number.replace(/_/g, ''))
        } catch {
          return null
        }
      }
      case 'BinaryOperation': {
        const op = n as AST.BinaryOperation
        const a = this.upperBound(op.left, fn, depth + 1)
        const b = this.upperBound(op.right, fn, depth + 1)
        if (op.operator === '+' && a !== null && b !== null) return a + b
        if (op.operator === '*' && a !== null && b !== null) return a * b
        if ((op.operator === '/' || op.operator === '-') && a !== null) return a
        if (op.operator === '%' && b !== null) return b
        return null
      }
      case 'Identifier': {
        const name = (n as AST.Identifier).name
        const local = fn.facts.locals.get(name)
        const candidates: bigint[] = []
        const guarded = this.guardBound(name, fn, expression, depth + 1)
        if (guarded !== null) candidates.push(guarded)
        if (local && !local.isParameter && !local.isReturn && local.statement?.initialValue && local.statement.variables.length === 1 && !this.reassigned(name, fn)) {
          const declared = this.upperBound(local.statement.initialValue, fn, depth + 1)
          if (declared !== null) candidates.push(declared)
        }
        if (!local && fn.contract) {
          const variable = this.dispatch.scope.stateVariable(fn.contract, name)
          if (variable?.isConstant && variable.initialValue) {
            const constant = this.upperBound(variable.initialValue, fn, depth + 1)
            if (constant !== null) candidates.push(constant)
          }
        }
        return candidates.length > 0 ? candidates.reduce((x, y) => (x < y ? x : y)) : null
      }
      default:
        return null
    }
  }

  /** The bound the guards of `fn` and its modifiers running before `at`, and the `if` branches holding `at`, put on `name`. */
  private guardBound(name: string, fn: FunctionIr, at: AST.BaseASTNode, depth: number): bigint | null {
    const start = at.range?.[0] ?? Number.MAX_SAFE_INTEGER
    const guards: GuardIr[] = [...fn.facts.guards.filter((g) => (g.node.range?.[0] ?? 0) < start)]
    for (const m of fn.modifierCalls) if (m.modifier) guards.push(...m.modifier.facts.guards)
    let best: bigint | null = null
    for (const g of guards) {
      for (const bound of this.logicBounds(g.logic, name, fn, !g.negated, depth)) if (best === null || bound < best) best = bound
    }
    // An `if` whose branch holds the operation: its condition holds there (or fails, in the else branch).
    for (const branch of (fn.facts.nodes.get('IfStatement') ?? []) as AST.IfStatement[]) {
      const side = contains(branch.trueBody, at) ? true : branch.falseBody && contains(branch.falseBody, at) ? false : null
      if (side === null) continue
      for (const bound of this.logicBounds(logicOf(branch.condition), name, fn, side, depth)) if (best === null || bound < best) best = bound
    }
    return best
  }

  /** Bounds on `name` implied by `logic` evaluating to `value`. */
  private logicBounds(logic: LogicIr, name: string, fn: FunctionIr, value: boolean, depth: number): bigint[] {
    if (logic.kind === 'not') return this.logicBounds(logic.operand, name, fn, !value, depth)
    if (logic.kind === 'and') return value ? [...this.logicBounds(logic.left, name, fn, true, depth), ...this.logicBounds(logic.right, name, fn, true, depth)] : []
    if (logic.kind === 'or') return value ? [] : [...this.logicBounds(logic.left, name, fn, false, depth), ...this.logicBounds(logic.right, name, fn, false, depth)]
    const part = unwrap(logic.node)
    if (part.type !== 'BinaryOperation') return []
    const { operator, left, right } = part as AST.BinaryOperation
    const isName = (e: AST.BaseASTNode): boolean => {
      const u = unwrap(e)
      return u.type === 'Identifier' && (u as AST.Identifier).name === name
    }
    // Normalise to `name OP other`, then to what holds when the condition has `value`.
    let op: string
    let other: AST.BaseASTNode
    if (isName(left)) [op, other] = [operator, right]
    else if (isName(right)) [op, other] = [({ '<': '>', '>': '<', '<=': '>=', '>=': '<=' } as Record<string, string>)[operator] ?? operator, left]
    else return []
    if (!value) op = ({ '<': '>=', '>': '<=', '<=': '>', '>=': '<', '==': '!=', '!=': '==' } as Record<string, string>)[op] ?? ''
    const limit = this.upperBound(other, fn, depth + 1)
    if (limit === null) return []
    if (op === '<') return limit > 0n ? [limit - 1n] : []
    if (op === '<=' || op === '==') return [limit]
    return []
  }

  /** Whether a local is assigned after its declaration. */
  private reassigned(name: string, fn: FunctionIr): boolean {
    return fn.facts.assignments.some((a) => {
      const target = unwrap(a.target)
      return target.type === 'Identifier' && (target as AST.Identifier).name === name
    })
  }
}
