import type * as AST from '../parse/ast.ts'
import type { FunctionIr, SourceNode, StateVariableIr } from '../ir/types.ts'
import type { Analyses } from './analyses.ts'
import { blockValue, contains, identifierName, isTxOrigin, someNode, unwrap, walkNodes } from './syntax.ts'
import type { ValueSource } from './dataflow.ts'

/*
 * Shapes of code the access-control, arithmetic and typo detectors ask about, read from the
 * syntax tree here so the detectors ask questions instead of walking it.
 */

/** A call of a view or pure helper whose result its caller stores in state. */
export interface StoringCall {
  caller: FunctionIr
  call: SourceNode
  /** The state write storing the result (directly, or through a local initialised by the call). */
  write: SourceNode
  /** Whether the write is to a mapping entry (a balance). */
  mapping: boolean
}

/**
 * The calls of an internal view or pure helper (of a contract, not a library) whose result the
 * caller, a function changing state, stores in state: `total = _double(v)`, or through a local it
 * initialises. Null when `fn` is not such a helper (so its arithmetic is judged as it is).
 */
export function storingCallers(analyses: Analyses, fn: FunctionIr): StoringCall[] {
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
export function argumentFor(operand: SourceNode, fn: FunctionIr, site: StoringCall): SourceNode {
  const name = identifierName(operand)
  const local = name === null ? undefined : fn.facts.locals.get(name)
  if (!local?.isParameter) return operand
  const call = unwrap(site.call)
  return call.type === 'FunctionCall' ? ((call as AST.FunctionCall).arguments[local.parameterIndex] ?? operand) : operand
}

/** `false`. */
export function isFalse(node: SourceNode): boolean {
  const n = unwrap(node)
  return n.type === 'BooleanLiteral' && !(n as { value: boolean }).value
}

/**
 * Whether a mapping entry written is keyed by a parameter of the function writing it
 * (`isAdmin[who]`, `roles[r][who]`) and not by the caller (`approved[msg.sender][who]` is the
 * caller's own setting).
 */
export function keyedByParameter(analyses: Analyses, target: SourceNode, holder: FunctionIr): boolean {
  let n = unwrap(target)
  let byParameter = false
  while (n.type === 'IndexAccess' || n.type === 'MemberAccess') {
    if (n.type === 'IndexAccess' && n.index) {
      if (analyses.access.isSender(n.index, holder)) return false
      if (analyses.taint.dependsOnParameters(n.index, holder)) byParameter = true
    }
    n = unwrap(n.type === 'IndexAccess' ? n.base : n.expression)
  }
  return byParameter
}

/**
 * Whether an `if` of `f` reads one of the `written` state variables in its condition and reverts
 * in its else branch (`if (admin == address(0)) admin = a; else revert();`): a one-time setting.
 */
export function elseRevertReads(f: FunctionIr, written: ReadonlySet<StateVariableIr>): boolean {
  return ((f.facts.nodes.get('IfStatement') ?? []) as AST.IfStatement[]).some(
    (branch) => branch.falseBody !== null && branch.falseBody !== undefined && stops(branch.falseBody) && f.facts.stateReads.some((r) => written.has(r.variable) && contains(branch.condition, r.node)),
  )
}

/** Whether a branch reverts: a `revert(…)`, `throw` or failing `require(false)` as its statement or first statement. */
function stops(branch: AST.BaseASTNode): boolean {
  let found = false
  walkNodes(branch, (n) => {
    if (found) return false
    if (n.type === 'ThrowStatement' || n.type === 'RevertStatement') found = true
    if (n.type === 'FunctionCall' && n.expression.type === 'Identifier' && n.expression.name === 'revert') found = true
  })
  return found
}

/**
 * A comparison of tx.origin with an account other than the caller (`tx.origin == owner`), as a
 * value source: followed through locals and the internal functions returning it.
 */
export function txOriginCheck(analyses: Analyses): ValueSource {
  return {
    key: 'tx-origin-check',
    matches: (node, fn) => {
      if (node.type !== 'BinaryOperation' || (node.operator !== '==' && node.operator !== '!=')) return false
      const [left, right] = [unwrap(node.left), unwrap(node.right)]
      const other = isTxOrigin(left) ? right : isTxOrigin(right) ? left : null
      return other !== null && !analyses.access.isSender(other as AST.BaseASTNode, fn)
    },
  }
}

const UNARY: ReadonlySet<string> = new Set(['+', '-', '!'])

/**
 * Assignments and declarations of `fn` written `x =+ y`, `x =- y`, `x =! y`: the `=` spaced from
 * its target and glued to a unary operator (`x = -y`, `x=-1` and `x -= y` are not).
 */
export function unaryTypos(fn: FunctionIr): { statement: SourceNode; operator: string }[] {
  const result: { statement: SourceNode; operator: string }[] = []
  const check = (statement: AST.BaseASTNode, targetEnd: number, value: AST.BaseASTNode): void => {
    const right = unwrap(value)
    if (right.type !== 'UnaryOperation' || !UNARY.has(right.operator) || !right.isPrefix || !right.range) return
    const between = fn.file.source.slice(targetEnd + 1, right.range[0] + 1)
    if (new RegExp(`^\\s+=\\${right.operator}$`).test(between)) result.push({ statement, operator: right.operator })
  }
  for (const assignment of (fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]) {
    if (assignment.operator === '=' && assignment.left.range) check(assignment, assignment.left.range[1], assignment.right)
  }
  for (const d of (fn.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[]) {
    const only = d.variables[0] as AST.VariableDeclaration | null
    if (d.initialValue && d.variables.length === 1 && only?.range) check(d, only.range[1], d.initialValue)
  }
  return result
}

/**
 * Whether `side` is the time elapsed since a moment: the current timestamp (or, when `follows`,
 * a copy of it) minus something (`now - lastDrip[msg.sender]`).
 */
export function isElapsedTime(analyses: Analyses, side: AST.BaseASTNode, fn: FunctionIr, follows: boolean): boolean {
  const e = unwrap(side)
  return e.type === 'BinaryOperation' && e.operator === '-' && (blockValue(e.left) === 'timestamp' || (follows && analyses.blockData.isCurrentTime(e.left, fn)))
}
