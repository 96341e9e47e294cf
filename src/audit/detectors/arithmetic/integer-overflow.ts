import type { Analyses } from '../../analyses/analyses.ts'
import { blockValue, isMsgValue, nodesOf, normalised, unwrap, walkNodes } from '../../analyses/syntax.ts'
import type { FunctionIr, ProjectIr, SourceFileIr, SourceNode } from '../../ir/types.ts'
import { unsignedBits } from '../../ir/typing.ts'
import { CHECKED_ARITHMETIC_SINCE } from '../../ir/version.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

const ARITHMETIC: ReadonlySet<string> = new Set(['+', '-', '*', '**', '+=', '-=', '*='])
const RELATIONAL: ReadonlySet<string> = new Set(['<', '>', '<=', '>=', '=='])
/** Integer types this narrow can realistically overflow by counting up one at a time. */
const SMALL_COUNTER_BITS = 64

function isConstantExpression(node: SourceNode, fn: FunctionIr): boolean {
  let constant = true
  walkNodes(node, (n) => {
    if (!constant) return false
    if (n.type === 'Identifier') {
      const name = n.name
      const variable = fn.contract && !fn.facts.locals.has(name) ? fn.contract.linearization.flatMap((c) => c.stateVariables).find((v) => v.name === name) : undefined
      if (!variable?.isConstant) constant = false
    }
    if (n.type === 'FunctionCall' || n.type === 'MemberAccess' || n.type === 'IndexAccess') constant = false
    return constant
  })
  return constant
}

/**
 * Whether a comparison cannot bound anything because its result is fixed: an unsigned value
 * compared with zero as `x >= 0` / `0 <= x` (always true) or `x < 0` / `0 > x` (never true),
 * `a - b >= 0` included (the subtraction has already wrapped when it would go negative).
 */
function isFixedComparison(op: AST.BinaryOperation, fn: FunctionIr, analyses: Analyses): boolean {
  const zero = (n: SourceNode): boolean => {
    const u = unwrap(n)
    return u.type === 'NumberLiteral' && Number(u.number) === 0
  }
  const unsigned = (n: SourceNode): boolean => unsignedBits(analyses.dispatch.typeOf(unwrap(n), fn)) !== null
  if (zero(op.right) && (op.operator === '>=' || op.operator === '<')) return unsigned(op.left)
  if (zero(op.left) && (op.operator === '<=' || op.operator === '>')) return unsigned(op.right)
  return false
}

/** Normalised texts of every sub-expression of the comparisons in a condition that can bound a value (see `isFixedComparison`). */
function comparedTexts(condition: SourceNode, owner: FunctionIr, analyses: Analyses, texts: Set<string>): void {
  walkNodes(condition, (n) => {
    if (n.type === 'BinaryOperation' && RELATIONAL.has(n.operator)) {
      if (!isFixedComparison(n as AST.BinaryOperation, owner, analyses)) {
        walkNodes(n, (m) => {
          texts.add(normalised(owner.file, m))
        })
      }
      return false
    }
    return true
  })
}

/** Normalised texts of every sub-expression of comparisons in the function's guards (its modifiers' too). */
function guardedTexts(fn: FunctionIr, analyses: Analyses): Set<string> {
  const texts = new Set<string>()
  const owners = [fn, ...fn.modifierCalls.map((m) => m.modifier).filter((m): m is FunctionIr => m !== null)]
  for (const owner of owners) for (const guard of owner.facts.guards) comparedTexts(guard.condition, owner, analyses, texts)
  return texts
}

function isLengthMinusLiteral(left: SourceNode, right: SourceNode): boolean {
  const l = unwrap(left)
  return l.type === 'MemberAccess' && l.memberName === 'length' && unwrap(right).type === 'NumberLiteral'
}

function isOne(node: SourceNode): boolean {
  const n = unwrap(node)
  return n.type === 'NumberLiteral' && n.number === '1'
}

/**
 * Whether an operation on a local whose value is known wraps every time it runs: the local is
 * only ever set to one number (its declaration, or zero when it has none) and the operation
 * takes it below zero or past its type's maximum (`uint256 x = 0; x -= 1;`, `uint8 n = 255; n++`).
 */
function certainWrap(op: { node: SourceNode; left: SourceNode; right: SourceNode; operator: string }, fn: FunctionIr, analyses: Analyses): 'underflows' | 'overflows' | null {
  const target = unwrap(op.left)
  if (target.type !== 'Identifier') return null
  const local = fn.facts.locals.get(target.name)
  if (!local || local.isParameter || local.isReturn) return null
  const bits = unsignedBits(local.type)
  if (bits === null) return null
  const value = analyses.dataflow.knownNumber(local.name, fn, op.node)
  if (value === null) return null
  const amount = op.operator === '++' || op.operator === '--' ? 1n : literalValue(op.right)
  if (amount === null || amount === 0n) return null
  if (op.operator === '-' || op.operator === '-=' || op.operator === '--') return value < amount ? 'underflows' : null
  if (op.operator === '+' || op.operator === '+=' || op.operator === '++') return value + amount >= 1n << BigInt(bits) ? 'overflows' : null
  return null
}

/** The value of an integer literal (no unit), or null. */
function literalValue(node: SourceNode): bigint | null {
  const n = unwrap(node)
  if (n.type !== 'NumberLiteral' || n.subdenomination) return null
  try {
    return BigInt(n.number.replace(/_/g, ''))
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
    'Before Solidity 0.8 arithmetic wraps around silently. Without a check, an addition or multiplication of caller-supplied values can overflow to a small number and a subtraction can underflow to a huge one (minting balances out of nothing, bypassing limits).',
  recommendation:
    'Compile with Solidity 0.8 or later (checked arithmetic), or use SafeMath and require the operands to be in range before computing. Where wrapping is intended, say so in a comment next to the operation (`// overflow is desired`); such operations are not reported.',
  detect({ analyses, ir, functions, report }) {
    for (const fn of functions) {
      const compiler = fn.file.versions
      if (compiler === null || compiler.max > CHECKED_ARITHMETIC_SINCE) continue
      // A view or pure helper cannot corrupt state; its callers' use of the result is what matters.
      if (fn.mutability === 'view' || fn.mutability === 'pure') continue
      let guarded: Set<string> | null = null
      const operations: { node: SourceNode; left: SourceNode; right: SourceNode; operator: string }[] = []
      for (const op of nodesOf(fn, 'BinaryOperation')) {
        if (ARITHMETIC.has(op.operator)) operations.push({ node: op, left: op.left, right: op.right, operator: op.operator })
      }
      for (const op of nodesOf(fn, 'UnaryOperation')) {
        if (op.operator === '--' || op.operator === '++') operations.push({ node: op, left: op.subExpression, right: op.subExpression, operator: op.operator })
      }
      for (const op of operations) {
        const certain = certainWrap(op, fn, analyses)
        if (certain) {
          if (!annotatedAsIntended(fn.file, op.node)) report(op.node, fn.file, `${functionLabel(fn)} computes ${code(fn.file, op.node)}, which always ${certain} (compiled with Solidity before 0.8).`)
          continue
        }
        if (isConstantExpression(op.node, fn)) continue
        if (blockValue(op.left) || blockValue(op.right)) continue
        // `list.length - 1`: an empty list makes the following index access revert anyway.
        if (op.operator === '-' && isLengthMinusLiteral(op.left, op.right)) continue
        const parent = ir.info(op.node)?.parent
        if (parent?.type === 'ForStatement' && parent.loopExpression?.expression === op.node) continue
        // Adding an ETH amount cannot overflow a uint256: all the ETH there is fits in 2^128 wei.
        if ((op.operator === '+' || op.operator === '+=') && (isMsgValue(op.right) || isMsgValue(op.left))) continue
        const increment = op.operator === '++' || ((op.operator === '+=' || op.operator === '+') && isOne(op.right))
        if (increment) {
          const bits = unsignedBits(analyses.dispatch.typeOf(op.left, fn))
          if (bits === null || bits > SMALL_COUNTER_BITS) continue
        }
        const writesState = op.operator.endsWith('=') || op.operator === '++' || op.operator === '--'
          ? fn.facts.stateWrites.some((w) => w.statement === op.node)
          : parent?.type === 'BinaryOperation' && parent.operator === '=' && fn.facts.stateWrites.some((w) => w.statement === parent)
        let userControlled = analyses.taint.dependsOnParameters(op.node, fn)
        walkNodes(op.node, (n) => {
          if (isMsgValue(n)) userControlled = true
          return !userControlled
        })
        // Arithmetic on caller input counts in entry points; in helpers only when it lands in state.
        if (!writesState && !(userControlled && analyses.dispatch.isEntryPoint(fn))) continue
        if (annotatedAsIntended(fn.file, op.node)) continue
        guarded ??= guardedTexts(fn, analyses)
        if (isChecked(fn.file, op, parent ?? null, guarded)) continue
        if (isChecked(fn.file, op, parent ?? null, enclosingConditionTexts(ir, op.node, fn, analyses))) continue
        const wrapsEntry = userControlled && writesState && fn.facts.stateWrites.some((w) => (w.statement === op.node || w.statement === parent) && w.variable.type.kind === 'mapping')
        report(op.node, fn.file, `${functionLabel(fn)} computes ${code(fn.file, op.node)} without an overflow check (compiled with Solidity before 0.8)${wrapsEntry ? ': a caller-chosen value wraps an entry kept in state' : ''}.`, { severity: wrapsEntry ? 'high' : 'medium' })
      }
    }
  },
})

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

/** Normalised sub-expressions of comparisons in the `if` / `?:` conditions around a node. */
function enclosingConditionTexts(ir: ProjectIr, node: SourceNode, fn: FunctionIr, analyses: Analyses): Set<string> {
  const texts = new Set<string>()
  let child = node
  let parent = ir.info(child)?.parent ?? null
  while (parent) {
    const condition =
      parent.type === 'Conditional' && parent.condition !== child
        ? parent.condition
        : parent.type === 'IfStatement' && parent.condition !== child
          ? parent.condition
          : null
    if (condition) comparedTexts(condition, fn, analyses, texts)
    child = parent
    parent = ir.info(child)?.parent ?? null
  }
  return texts
}

/** Whether guards compare at least two of: the operands, and the variable receiving the result. */
function isChecked(file: SourceFileIr, op: { left: SourceNode; right: SourceNode }, parent: SourceNode | null, guarded: Set<string>): boolean {
  const names = [normalised(file, op.left), normalised(file, op.right)]
  if (parent?.type === 'VariableDeclarationStatement') {
    const v = (parent as AST.VariableDeclarationStatement).variables[0] as AST.VariableDeclaration | null
    if (v?.name) names.push(v.name)
  } else if (parent?.type === 'BinaryOperation' && (parent as AST.BinaryOperation).operator === '=') {
    names.push(normalised(file, (parent as AST.BinaryOperation).left))
  }
  const matched = new Set(names.filter((n) => n && guarded.has(n)))
  return matched.size >= 2 || (names[0] === names[1] && matched.size >= 1)
}
