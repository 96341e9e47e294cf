import type * as AST from '../../parse/ast.ts'
import type { Analyses } from '../../analyses/analyses.ts'
import {
  blockValue,
  contains,
  identifierName,
  isMsgValue,
  lengthOf,
  normalised,
  receiverOf,
  someNode,
  subexpressionTexts,
  unwrap,
  usesOnlyConstants,
} from '../../analyses/syntax.ts'
import type { ComparisonIr, ConditionIr, FunctionIr, OperandIr, SourceFileIr, SourceNode, TermIr } from '../../ir/types.ts'
import { unsignedBits } from '../../ir/typing.ts'
import { CHECKED_ARITHMETIC_SINCE } from '../../ir/version.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

const ARITHMETIC: ReadonlySet<string> = new Set(['+', '-', '*', '**', '+=', '-=', '*='])
const RELATIONAL: ReadonlySet<string> = new Set(['<', '>', '<=', '>=', '=='])
/** Integer types this narrow can realistically overflow by counting up one at a time. */
const SMALL_COUNTER_BITS = 64

/** An operation that can wrap: an arithmetic operation, or `++` / `--` (both of whose terms are the operand). */
interface WrappingOperation {
  node: SourceNode
  operator: string
  left: SourceNode
  right: SourceNode
  /** The right term's number literal, when it is one. */
  rightNumber: TermIr['number']
}

/**
 * Whether a comparison cannot bound anything because its result is fixed: an unsigned value
 * compared with zero as `x >= 0` / `0 <= x` (always true) or `x < 0` / `0 > x` (never true),
 * `a - b >= 0` included (the subtraction has already wrapped when it would go negative).
 */
function isFixedComparison({ operator, left, right }: ComparisonIr, fn: FunctionIr, analyses: Analyses): boolean {
  const zero = (side: OperandIr): boolean => side.term.number?.value === 0
  const unsigned = (side: OperandIr): boolean => unsignedBits(analyses.dispatch.typeOf(side.expression, fn)) !== null
  if (zero(right) && (operator === '>=' || operator === '<')) return unsigned(left)
  if (zero(left) && (operator === '<=' || operator === '>')) return unsigned(right)
  return false
}

/**
 * Normalised texts of every sub-expression of the comparisons in a condition that can bound a
 * value (see `isFixedComparison`); a comparison inside another counts as part of it.
 */
function comparedTexts(condition: ConditionIr, owner: FunctionIr, analyses: Analyses, texts: Set<string>): void {
  const relational = condition.comparisons.filter((c) => RELATIONAL.has(c.operator))
  for (const comparison of relational) {
    if (relational.some((outer) => outer !== comparison && contains(outer.node, comparison.node))) continue
    if (isFixedComparison(comparison, owner, analyses)) continue
    for (const text of subexpressionTexts(owner.file, comparison.node)) texts.add(text)
  }
}

/** Normalised texts of every sub-expression of comparisons in the function's guards (its modifiers' too). */
function guardedTexts(fn: FunctionIr, analyses: Analyses): Set<string> {
  const texts = new Set<string>()
  const owners = [fn, ...fn.modifierCalls.map((m) => m.modifier).filter((m): m is FunctionIr => m !== null)]
  for (const owner of owners) {
    const guarded = new Set(owner.facts.guards.map((g) => g.condition))
    for (const condition of owner.facts.conditions) if (guarded.has(condition.node)) comparedTexts(condition, owner, analyses, texts)
  }
  return texts
}

/**
 * Whether an operation on a local whose value is known wraps every time it runs: the local is
 * only ever set to one number (its declaration, or zero when it has none) and the operation
 * takes it below zero or past its type's maximum (`uint256 x = 0; x -= 1;`, `uint8 n = 255; n++`).
 */
function certainWrap(op: WrappingOperation, fn: FunctionIr, analyses: Analyses): 'underflows' | 'overflows' | null {
  const name = identifierName(op.left)
  if (name === null) return null
  const local = fn.facts.locals.get(name)
  if (!local || local.isParameter || local.isReturn) return null
  const bits = unsignedBits(local.type)
  if (bits === null) return null
  const value = analyses.dataflow.knownNumber(local.name, fn, op.node)
  if (value === null) return null
  const amount = op.operator === '++' || op.operator === '--' ? 1n : integerValue(op.rightNumber)
  if (amount === null || amount === 0n) return null
  if (op.operator === '-' || op.operator === '-=' || op.operator === '--') return value < amount ? 'underflows' : null
  if (op.operator === '+' || op.operator === '+=' || op.operator === '++') return value + amount >= 1n << BigInt(bits) ? 'overflows' : null
  return null
}

/** The value of an integer literal (no unit), or null. */
function integerValue(number: TermIr['number']): bigint | null {
  if (number === null || number.unit) return null
  try {
    return BigInt(number.digits.replace(/_/g, ''))
  } catch {
    return null
  }
}

export const integerOverflow = defineDetector({
  id: 'integer-overflow',
  title: 'Integer overflow or underflow',
  category: 'arithmetic',
  severity: 'high',
  lowered: 'High when a caller-chosen value wraps an entry of a mapping in state (a balance: minted out of nothing, or drained by an underflow); medium otherwise.',
  confidence: 'medium',
  explanation:
    'Before Solidity 0.8 arithmetic wraps around silently. Without a check, an addition or multiplication of caller-supplied values can overflow to a small number and a subtraction can underflow to a huge one (minting balances out of nothing, bypassing limits). What reaches the operation is followed: parameters, `msg.value` and storage through locals, and an internal view or pure helper\'s arithmetic on what its callers pass when a caller stores the result in state (checked by the helper\'s guards or the caller\'s). What bounds it is followed too: an operand held below a literal or constant by a `require`, an `if (…) return/revert` or the branch holding the operation (`if (b > MAX) return; total += b * 3`) is not reported when the result cannot wrap.',
  recommendation:
    'Compile with Solidity 0.8 or later (checked arithmetic), or use SafeMath and require the operands to be in range before computing. Where wrapping is intended, say so in a comment next to the operation (`// overflow is desired`); such operations are not reported.',
  detect({ analyses, ir, functions, report }) {
    for (const fn of functions) {
      const compiler = fn.file.versions
      if (compiler === null || compiler.max > CHECKED_ARITHMETIC_SINCE) continue
      // A view or pure helper cannot corrupt state; its callers' use of the result is what matters:
      // followed when an internal helper's result is stored in state by a caller (`total = _double(v)`).
      const storedBy = fn.mutability === 'view' || fn.mutability === 'pure' ? storingCallers(analyses, fn) : null
      if (storedBy !== null && storedBy.length === 0) continue
      let guarded: Set<string> | null = null
      const operations: WrappingOperation[] = []
      for (const { node, operator, left, right } of fn.facts.arithmetic) {
        if (ARITHMETIC.has(operator)) operations.push({ node, operator, left: left.node, right: right.node, rightNumber: right.number })
      }
      for (const { node, operator, target } of fn.facts.assignments) {
        if (operator === '--' || operator === '++') operations.push({ node, operator, left: target, right: target, rightNumber: null })
      }
      for (const op of operations) {
        const certain = certainWrap(op, fn, analyses)
        if (certain) {
          if (!annotatedAsIntended(fn.file, op.node)) report(op.node, fn.file, `${functionLabel(fn)} computes ${code(fn.file, op.node)}, which always ${certain} (compiled with Solidity before 0.8).`)
          continue
        }
        if (usesOnlyConstants(op.node, fn)) continue
        if (blockValue(op.left) || blockValue(op.right)) continue
        // `list.length - 1`: an empty list makes the following index access revert anyway.
        if (op.operator === '-' && lengthOf(op.left) !== null && op.rightNumber !== null) continue
        if (fn.facts.loops.some((loop) => loop.increment === op.node)) continue
        // Adding an ETH amount cannot overflow a uint256: all the ETH there is fits in 2^128 wei.
        if ((op.operator === '+' || op.operator === '+=') && (isMsgValue(op.right) || isMsgValue(op.left))) continue
        const increment = op.operator === '++' || ((op.operator === '+=' || op.operator === '+') && op.rightNumber?.digits === '1')
        if (increment) {
          const bits = unsignedBits(analyses.dispatch.typeOf(op.left, fn))
          if (bits === null || bits > SMALL_COUNTER_BITS) continue
        }
        // The assignment the result is the right side of (`balances[to] = balances[to] + v`), if any.
        const receiver = receiverOf(ir, op.node)
        const assignedBy = receiver && 'target' in receiver ? ir.info(op.node)?.parent : undefined
        const writesState = op.operator.endsWith('=') || op.operator === '++' || op.operator === '--'
          ? fn.facts.stateWrites.some((w) => w.statement === op.node)
          : assignedBy !== undefined && fn.facts.stateWrites.some((w) => w.statement === assignedBy)
        const userControlled = analyses.taint.dependsOnParameters(op.node, fn) || someNode(op.node, isMsgValue)
        if (storedBy !== null) {
          // A helper's result stored by its callers: the operation on what they pass in, unchecked here and by every caller storing it.
          if (!analyses.taint.dependsOnParameters(op.node, fn) || annotatedAsIntended(fn.file, op.node) || boundedByDataFlow(op, fn, analyses)) continue
          guarded ??= guardedTexts(fn, analyses)
          if (isChecked(fn.file, op, receiver, guarded) || isChecked(fn.file, op, receiver, enclosingConditionTexts(op.node, fn, analyses))) continue
          const unchecked = storedBy.filter((site) => !isChecked(site.caller.file, { left: argumentFor(op.left, fn, site), right: argumentFor(op.right, fn, site) }, null, guardedTexts(site.caller, analyses)))
          if (unchecked.length === 0) continue
          const wraps = unchecked.find((site) => site.mapping && analyses.taint.dependsOnParameters(site.call, site.caller))
          const site = wraps ?? unchecked[0]
          report(op.node, fn.file, `${functionLabel(fn)} computes ${code(fn.file, op.node)} without an overflow check (compiled with Solidity before 0.8), and ${functionLabel(site.caller)} stores the result in state: ${code(site.caller.file, site.write)}${wraps ? '; a caller-chosen value wraps an entry kept in state' : ''}.`, {
            severity: wraps ? 'high' : 'medium',
            evidence: [{ node: site.write, file: site.caller.file }],
          })
          continue
        }
        // Arithmetic on caller input counts in entry points; in helpers only when it lands in state.
        if (!writesState && !(userControlled && analyses.dispatch.isEntryPoint(fn))) continue
        if (annotatedAsIntended(fn.file, op.node)) continue
        if (boundedByDataFlow(op, fn, analyses)) continue
        guarded ??= guardedTexts(fn, analyses)
        if (isChecked(fn.file, op, receiver, guarded)) continue
        if (isChecked(fn.file, op, receiver, enclosingConditionTexts(op.node, fn, analyses))) continue
        const parent = ir.info(op.node)?.parent
        const wrapsEntry = userControlled && writesState && fn.facts.stateWrites.some((w) => (w.statement === op.node || w.statement === parent) && w.variable.type.kind === 'mapping')
        report(op.node, fn.file, `${functionLabel(fn)} computes ${code(fn.file, op.node)} without an overflow check (compiled with Solidity before 0.8)${wrapsEntry ? ': a caller-chosen value wraps an entry kept in state' : ''}.`, { severity: wrapsEntry ? 'high' : 'medium' })
      }
    }
  },
})

/** A call of a view or pure helper whose result its caller stores in state. */
interface StoringCall {
  caller: FunctionIr
  call: FunctionCallNode
  /** The state write storing the result (directly, or through a local initialised by the call). */
  write: SourceNode
  /** Whether the write is to a mapping entry (a balance). */
  mapping: boolean
}
type FunctionCallNode = SourceNode

/**
 * The calls of an internal view or pure helper (of a contract, not a library) whose result the
 * caller, a function changing state, stores in state: `total = _double(v)`, or through a local it
 * initialises. Null when `fn` is not such a helper (so its arithmetic is judged as it is).
 */
function storingCallers(analyses: Analyses, fn: FunctionIr): StoringCall[] {
  if (fn.visibility === 'public' || fn.visibility === 'external' || fn.contract?.kind === 'library' || fn.kind !== 'function') return []
  const result: StoringCall[] = []
  for (const caller of analyses.dispatch.allFunctions()) {
    if (caller === fn || caller.mutability === 'view' || caller.mutability === 'pure') continue
    for (const call of caller.facts.calls) {
      if (call.kind !== 'internal' || analyses.dispatch.calleeIn(call, caller) !== fn) continue
      const holders = new Set<string>()
      for (const d of (caller.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[]) {
        if (d.initialValue && contains(d.initialValue, call.node)) for (const v of d.variables) if (v && (v as AST.VariableDeclaration).name) holders.add((v as AST.VariableDeclaration).name as string)
      }
      for (const w of caller.facts.stateWrites) {
        const value = w.assignment?.value
        if (!value || !(contains(value, call.node) || someNode(value, (n) => n.type === 'Identifier' && holders.has(n.name)))) continue
        result.push({ caller, call: call.node, write: w.statement ?? w.node, mapping: w.variable.type.kind === 'mapping' })
        break
      }
    }
  }
  return result
}

/** An operand of a helper as its caller wrote it: the argument passed for a parameter named alone, else the operand. */
function argumentFor(operand: SourceNode, fn: FunctionIr, site: StoringCall): SourceNode {
  const name = identifierName(operand)
  const local = name === null ? undefined : fn.facts.locals.get(name)
  if (!local?.isParameter) return operand
  const call = unwrap(site.call)
  return call.type === 'FunctionCall' ? ((call as AST.FunctionCall).arguments[local.parameterIndex] ?? operand) : operand
}

/**
 * Whether what reaches the operation is bounded so it cannot wrap: a product of values both
 * bounded (by literals, constants, guards, enclosing branches and the locals they flow through)
 * whose bound fits the type, or a sum adding a value bounded below 2^64 to a word of 64 bits or
 * more (no number of calls can carry it over). Subtractions are not bounded this way.
 */
function boundedByDataFlow(op: WrappingOperation, fn: FunctionIr, analyses: Analyses): boolean {
  const bits = unsignedBits(analyses.dispatch.typeOf(op.left, fn))
  if (bits === null) return false
  const limit = 1n << BigInt(bits)
  const left = analyses.bounds.upperBound(op.left, fn)
  const right = op.operator === '++' ? 1n : analyses.bounds.upperBound(op.right, fn)
  if (op.operator === '*' || op.operator === '*=') return left !== null && right !== null && left * right < limit
  if (op.operator === '++') return left !== null && left + 1n < limit
  if (op.operator === '+' || op.operator === '+=') {
    if (left !== null && right !== null && left + right < limit) return true
    return bits >= SMALL_COUNTER_BITS && ((right !== null && right < 1n << 64n) || (op.operator === '+' && left !== null && left < 1n << 64n))
  }
  return false
}

/** Comments such as `// overflow is desired` or `// cannot underflow`. */
const OVERFLOW_COMMENT =
  /\b(overflows?|underflows?|wrap(s|ping)?)\s+(is|are)\s+(desired|intended|expected|ok|fine|acceptable|impossible|safe|not possible)|\b(can ?not|can't|won't|will not|never|does not|doesn't|no)\s+(overflows?|underflows?)\b|\bintentional(ly)?\s+(overflow|underflow|wrap)|\bwraps?\s+around\b/i
/** How many comment lines directly above a statement are read for such a note. */
const COMMENT_LOOKBACK_LINES = 3

/** Whether the operation's lines, or the comment lines right above them, say the wrapping is intended. */
function annotatedAsIntended(file: SourceFileIr, node: SourceNode): boolean {
  const lines = file.source.split('\n')
  const first = (node.loc?.start.line ?? 1) - 1
  const last = (node.loc?.end.line ?? first + 1) - 1
  const notes = lines.slice(first, last + 1).map((l) => l.slice(l.indexOf('//') >= 0 ? l.indexOf('//') : l.length))
  // Comments above the statement, or above the group of statements it belongs to (no blank line between).
  for (let i = first - 1; i >= 0 && i >= first - COMMENT_LOOKBACK_LINES; i--) {
    const line = lines[i].trim()
    if (line === '') break
    if (line.startsWith('//') || line.startsWith('*') || line.startsWith('/*')) notes.push(line)
  }
  return OVERFLOW_COMMENT.test(notes.join('\n'))
}

/** Normalised sub-expressions of comparisons in the `if` / `?:` conditions whose branches hold a node. */
function enclosingConditionTexts(node: SourceNode, fn: FunctionIr, analyses: Analyses): Set<string> {
  const texts = new Set<string>()
  for (const condition of fn.facts.conditions) {
    if (condition.kind !== 'if' && condition.kind !== 'ternary') continue
    if (contains(condition.owner, node) && !contains(condition.node, node)) comparedTexts(condition, fn, analyses, texts)
  }
  return texts
}

/** Whether guards compare at least two of: the operands, and the variable receiving the result. */
function isChecked(file: SourceFileIr, op: { left: SourceNode; right: SourceNode }, receiver: ReturnType<typeof receiverOf>, guarded: Set<string>): boolean {
  const names = [normalised(file, op.left), normalised(file, op.right)]
  if (receiver && 'local' in receiver) {
    if (receiver.local?.name) names.push(receiver.local.name)
  } else if (receiver) names.push(normalised(file, receiver.target))
  const matched = new Set(names.filter((n) => n && guarded.has(n)))
  return matched.size >= 2 || (names[0] === names[1] && matched.size >= 1)
}
