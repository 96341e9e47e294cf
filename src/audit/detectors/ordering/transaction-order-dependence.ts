import type { Analyses } from '../../analyses/analyses.ts'
import { isOrderedComparison, paidToCaller } from '../../analyses/stakes.ts'
import { contains, isLiteral, isMsgValue, mentionsAny, namesIn, someNode } from '../../analyses/syntax.ts'
import { derivedLocals } from '../../analyses/taint.ts'
import type { ContractIr, FunctionIr, SourceNode, StateVariableIr } from '../../ir/types.ts'
import { stripConversion } from '../../analyses/owner-variables.ts'
import { defineDetector } from '../define-detector.ts'
import { code, enumerate, functionLabel } from '../helpers.ts'

/** How many writers a finding names. */
const MAX_NAMED = 3

/** A term of the exchange: a state variable deciding what the caller gets, and where it does. */
interface Term {
  variable: StateVariableIr
  kind: 'price' | 'reward'
  node: SourceNode
  holder: FunctionIr
}

export const transactionOrderDependence = defineDetector({
  id: 'transaction-order-dependence',
  title: 'Price or reward a pending transaction cannot pin',
  category: 'ordering',
  severity: 'medium',
  confidence: 'medium',
  explanation:
    'What the caller gets depends on a state variable that another transaction can change between the moment the caller signs and the moment the call runs: a price or rate msg.value is converted at, or a reward paid out. Whoever orders transactions (the owner calling a setter, a validator, a bot watching the mempool) changes the term first, and the caller pays more or receives less than they saw. The function takes no bound from the caller (a maximum price, a minimum amount, the expected reward) to refuse a changed term.',
  recommendation: 'Let the caller state the term they accept (`maxPrice`, `minAmountOut`, `expectedReward`) and revert when the current one is worse; or fix the term for the pending period (a commit-reveal or a timelock on setters).',
  detect({ analyses, entryPoints, report }) {
    for (const { fn, context } of entryPoints) {
      if (fn.mutability === 'view' || fn.mutability === 'pure') continue
      const reached = analyses.dispatch.reachableFunctions(fn, context)
      const terms = [...priceTerms(analyses, reached), ...rewardTerms(analyses, fn, context)]
      const reported = new Set<StateVariableIr>()
      for (const term of terms) {
        if (reported.has(term.variable) || pinned(analyses, reached, term.variable)) continue
        const writers = changers(analyses, term.variable, context, fn)
        if (writers.length === 0) continue
        reported.add(term.variable)
        const names = enumerate(writers.map((w) => (w === fn ? `other calls of ${functionLabel(w)}` : functionLabel(w))), MAX_NAMED)
        const what = term.kind === 'price' ? `converts msg.value at \`${term.variable.name}\` (${code(term.holder.file, term.node)})` : `pays its caller an amount read from \`${term.variable.name}\` (${code(term.holder.file, term.node)})`
        const at = term.holder.file.own ? { node: term.node, file: term.holder.file } : { node: fn.node, file: fn.file }
        report(at.node, at.file, `${functionLabel(fn)} ${what}, which ${names} can change while the call is pending, and the caller cannot bound it.`, {
          header: at.node === fn.node,
          foundIn: [{ fn, context }],
          evidence: [{ node: term.node, file: term.holder.file }, ...writers.filter((w) => w.file.own).map((w) => ({ node: w.node, file: w.file }))],
        })
      }
    }
  },
})

/** State variables msg.value (or a local holding it) is multiplied or divided by: a price or a rate. */
function priceTerms(analyses: Analyses, reached: readonly FunctionIr[]): Term[] {
  const terms: Term[] = []
  for (const f of reached) {
    if (!f.facts.environment.some((e) => e.value === 'msg.value')) continue
    const paid = derivedLocals(f, new Set(), isMsgValue)
    const fromValue = (e: SourceNode): boolean => someNode(e, isMsgValue) || mentionsAny(e, paid)
    for (const { node: op, operator, left, right } of f.facts.arithmetic) {
      if (operator !== '*' && operator !== '/') continue
      for (const [side, other] of [
        [left.node, right.node],
        [right.node, left.node],
      ]) {
        if (!fromValue(side)) continue
        for (const read of f.facts.stateReads) {
          if (!isNumber(read.variable) || !contains(other, read.node)) continue
          terms.push({ variable: read.variable, kind: 'price', node: op, holder: f })
        }
      }
    }
  }
  return terms
}

/**
 * State variables the amount paid to the caller (ETH, or tokens moved by `transfer`/`safeTransfer`)
 * is computed from, through locals, arithmetic and internal or library helpers: a reward.
 */
function rewardTerms(analyses: Analyses, fn: FunctionIr, context: ContractIr): Term[] {
  const terms: Term[] = []
  const numbers = context.linearization.flatMap((c) => c.stateVariables).filter(isNumber)
  for (const e of analyses.effects.flatEffects(fn, context)) {
    if (e.effect.kind !== 'call') continue
    const call = e.effect.call
    const holder = e.owner
    const amount = paidToCaller(analyses, call, holder)
    if (amount === null) continue
    for (const variable of numbers) {
      if (analyses.dataflow.reaches(amount, holder, analyses.dataflow.readsOf(variable))) terms.push({ variable, kind: 'reward', node: call.node, holder })
    }
  }
  return terms
}

/** A plain number in state (not a constant, an immutable, a mapping or an array). */
function isNumber(variable: StateVariableIr): boolean {
  return !variable.isConstant && !variable.isImmutable && variable.type.kind === 'elementary' && /^u?int\d*$/.test(variable.type.name)
}

/**
 * Whether the caller can bound the term: a reverting guard of what the function runs compares
 * the variable (or a local computed from it) with something the caller passes.
 */
function pinned(analyses: Analyses, reached: readonly FunctionIr[], variable: StateVariableIr): boolean {
  const reads = analyses.dataflow.readsOf(variable)
  return reached.some((f) =>
    f.facts.guards.some((g) => g.kind !== 'if-return' && analyses.dataflow.reaches(g.condition, f, reads) && analyses.taint.dependsOnParameters(g.condition, f)),
  )
}

/**
 * The entry points of `context` that change the variable to a value not fixed in the code: any
 * other entry point writing it, and the function itself when it moves the term for the next
 * caller (`price = price * 11 / 10`), not when it merely resets it (`reward = 0`).
 */
function changers(analyses: Analyses, variable: StateVariableIr, context: ContractIr, fn: FunctionIr): FunctionIr[] {
  const result: FunctionIr[] = []
  for (const g of analyses.dispatch.entryPoints(context)) {
    const writes = analyses.effects.flatEffects(g, context).filter((e) => e.effect.kind === 'write' && e.effect.access.variable === variable)
    const moving = writes.some((e) => {
      const assignment = e.effect.kind === 'write' ? e.effect.access.assignment : null
      return !(assignment?.operator === '=' && assignment.value !== null && isLiteral(assignment.value))
    })
    if (moving && (g !== fn || writes.length > 0) && !(g !== fn && boundedBySetter(analyses, g, variable, context))) result.push(g)
  }
  return result
}

/**
 * Whether `g` is a setter only trusted accounts can run that bounds the value it writes: a
 * reverting guard compares the new value (a cap, a step from the current one). A trusted owner
 * moving a term within a stated bound is the contract's rule, not a race.
 */
function boundedBySetter(analyses: Analyses, g: FunctionIr, variable: StateVariableIr, context: ContractIr): boolean {
  if (!analyses.access.isProtected(g, context)) return false
  const writes = g.facts.stateWrites.filter((w) => w.variable === variable)
  if (writes.length === 0) return false
  return writes.every((w) => {
    const value = w.assignment?.operator === '=' ? w.assignment.value : null
    if (!value) return false
    const names = new Set(namesIn(value).filter((n) => g.facts.locals.has(n)))
    if (names.size === 0) return false
    return g.facts.guards.some(
      (guard) =>
        guard.kind !== 'if-return' &&
        mentionsAny(guard.condition, names) &&
        someNode(guard.condition, isOrderedComparison),
    )
  })
}
