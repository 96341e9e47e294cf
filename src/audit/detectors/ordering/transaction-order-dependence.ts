import type { Analyses } from '../../analyses/analyses.ts'
import { isOrderedComparison, paidToCaller, payoutOf, reachesThroughCalls } from '../../analyses/stakes.ts'
import { contains, isLiteral, isMsgValue, mentionsAny, namesIn, someNode } from '../../analyses/syntax.ts'
import { derivedLocals } from '../../analyses/taint.ts'
import { isAddressType } from '../../ir/typing.ts'
import type { ContractIr, FunctionIr, SourceNode, StateVariableIr } from '../../ir/types.ts'
import { stripConversion } from '../../analyses/owner-variables.ts'
import { defineDetector } from '../define-detector.ts'
import { code, enumerate, functionLabel } from '../helpers.ts'

/** How many writers a finding names. */
const MAX_NAMED = 3

/** Hashes a commitment is checked with. */
const HASHES: ReadonlySet<string> = new Set(['keccak256', 'sha3', 'sha256'])

/** A term of the exchange: a state variable deciding what the caller gets or who is paid, and where it does. */
interface Term {
  variable: StateVariableIr
  kind: 'price' | 'reward' | 'recipient'
  node: SourceNode
  holder: FunctionIr
}

export const transactionOrderDependence = defineDetector({
  id: 'transaction-order-dependence',
  title: 'Price, reward or recipient a pending transaction cannot pin',
  category: 'ordering',
  severity: 'medium',
  confidence: 'medium',
  explanation:
    'What a payout does depends on a state variable that another transaction can change between the moment the caller signs and the moment the call runs: a price or rate msg.value is converted at, a reward paid out, or the account paid (a `winner`, `beneficiary` or `payee` that a public function anyone can call sets). Whoever orders transactions (the owner calling a setter, a validator, a bot watching the mempool) changes the term first, and the caller pays more or receives less than they saw, or the funds go to whoever set the recipient last. The function takes no bound from the caller (a maximum price, a minimum amount, the expected reward or recipient) to refuse a changed term.',
  recommendation:
    'Let the caller state the term they accept (`maxPrice`, `minAmountOut`, `expectedReward`, the expected recipient) and revert when the current one differs; restrict who may set a recipient (the owner, or the caller for themselves) or fix it at construction; or fix the term for the pending period (a commit-reveal or a timelock on setters).',
  detect({ analyses, entryPoints, report }) {
    for (const { fn, context } of entryPoints) {
      if (fn.mutability === 'view' || fn.mutability === 'pure') continue
      const reached = analyses.dispatch.reachableFunctions(fn, context)
      const terms = [...priceTerms(analyses, reached), ...rewardTerms(analyses, fn, context), ...recipientTerms(analyses, fn, context)]
      const reported = new Set<StateVariableIr>()
      for (const term of terms) {
        if (reported.has(term.variable) || pinned(analyses, reached, term.variable)) continue
        const recipient = term.kind === 'recipient'
        if (recipient && pinnedToCaller(analyses, reached, term.variable)) continue
        const writers = recipient ? recipientChangers(analyses, term.variable, context, fn) : changers(analyses, term.variable, context, fn)
        if (writers.length === 0) continue
        reported.add(term.variable)
        const names = enumerate(writers.map((w) => (w === fn ? `other calls of ${functionLabel(w)}` : functionLabel(w))), MAX_NAMED)
        const where = code(term.holder.file, term.node)
        const what =
          term.kind === 'price'
            ? `converts msg.value at \`${term.variable.name}\` (${where})`
            : term.kind === 'reward'
              ? `pays its caller an amount read from \`${term.variable.name}\` (${where})`
              : `pays the account held in \`${term.variable.name}\` (${where})`
        const who = recipient ? `which ${names} let${writers.length === 1 ? 's' : ''} any caller change while the call is pending, and the payout cannot pin it` : `which ${names} can change while the call is pending, and the caller cannot bound it`
        const at = term.holder.file.own ? { node: term.node, file: term.holder.file } : { node: fn.node, file: fn.file }
        report(at.node, at.file, `${functionLabel(fn)} ${what}, ${who}.`, {
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

/**
 * Address state variables the recipient of a payout (ETH sent, tokens moved by
 * `transfer`/`safeTransfer`) is read from, through locals, internal getters, and the parameters
 * of the internal functions making the payout (followed to the arguments of each call leading
 * there). A payout to the caller is not one: nobody else can take it.
 */
function recipientTerms(analyses: Analyses, fn: FunctionIr, context: ContractIr): Term[] {
  const terms: Term[] = []
  const accounts = context.linearization.flatMap((c) => c.stateVariables).filter((v) => !v.isConstant && !v.isImmutable && isAddressType(v.type))
  if (accounts.length === 0) return terms
  for (const e of analyses.effects.flatEffects(fn, context)) {
    if (e.effect.kind !== 'call') continue
    const payout = payoutOf(e.effect.call)
    if (payout === null || analyses.access.isSender(stripConversion(payout.recipient), e.owner)) continue
    for (const variable of accounts) {
      if (reachesThroughCalls(analyses, payout.recipient, e, analyses.dataflow.readsOf(variable))) terms.push({ variable, kind: 'recipient', node: e.effect.call.node, holder: e.owner })
    }
  }
  return terms
}

/**
 * Whether the payout can only go to the caller anyway: a reverting guard of what the function
 * runs compares the recipient variable with the caller (`require(msg.sender == winner)`), so a
 * changed recipient makes the call revert rather than pay someone else.
 */
function pinnedToCaller(analyses: Analyses, reached: readonly FunctionIr[], variable: StateVariableIr): boolean {
  const reads = analyses.dataflow.readsOf(variable)
  return reached.some((f) => f.facts.guards.some((g) => g.kind !== 'if-return' && analyses.dataflow.reaches(g.condition, f, reads) && someNode(g.condition, (n) => analyses.access.isSender(n, f))))
}

/**
 * The entry points of `context` other than `fn` that let any caller set the recipient variable
 * to a value not fixed in the code: not restricted to trusted callers (an owner setting the
 * payee is the contract's rule), and not bound by a commitment the caller made earlier (a reveal
 * checked against a stored hash that names the caller).
 */
function recipientChangers(analyses: Analyses, variable: StateVariableIr, context: ContractIr, fn: FunctionIr): FunctionIr[] {
  const result: FunctionIr[] = []
  for (const g of analyses.dispatch.entryPoints(context)) {
    if (g === fn || analyses.access.isProtected(g, context)) continue
    const writes = analyses.effects.flatEffects(g, context).filter((e) => e.effect.kind === 'write' && e.effect.access.variable === variable)
    const moving = writes.some((e) => {
      const assignment = e.effect.kind === 'write' ? e.effect.access.assignment : null
      return !(assignment?.operator === 'delete' || (assignment?.operator === '=' && assignment.value !== null && isLiteral(stripConversion(assignment.value))))
    })
    if (moving && !committed(analyses, g, context)) result.push(g)
  }
  return result
}

/**
 * Whether what `g` runs checks a reveal against a commitment of the caller: a reverting guard
 * compares a hash with stored state, and the hash or the stored value is tied to the caller
 * (`keccak256(abi.encodePacked(msg.sender, value, salt)) == commitments[msg.sender]`).
 */
function committed(analyses: Analyses, g: FunctionIr, context: ContractIr): boolean {
  return analyses.dispatch.reachableFunctions(g, context).some((f) =>
    f.facts.guards.some((guard) => {
      if (guard.kind === 'if-return') return false
      const condition = f.facts.conditions.find((c) => c.node === guard.condition)
      return (condition?.comparisons ?? []).some(({ operator, left, right }) => {
        if (operator !== '==' && operator !== '!=') return false
        const hashed = [left, right].some((side) => {
          const call = analyses.dispatch.callOf(side.expression)
          return call?.kind === 'builtin' && HASHES.has(call.name)
        })
        const stored = [left, right].some((side) => f.facts.stateReads.some((r) => contains(side.expression, r.node)))
        const tied = [left, right].some((side) => someNode(side.expression, (n) => analyses.access.isSender(n, f)))
        return hashed && stored && tied
      })
    }),
  )
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
