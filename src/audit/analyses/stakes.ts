import type * as AST from '../parse/ast.ts'
import type { CallIr, FunctionIr, SourceFileIr, SourceNode } from '../ir/types.ts'
import type { Analyses } from './analyses.ts'
import type { ValueSource } from './dataflow.ts'
import type { FlatEffect } from './effects.ts'
import { derivedLocals } from './taint.ts'
import { ownerVariables, stripConversion } from './owner-variables.ts'
import { contains, mentionsAny, sendsEth, unwrap } from './syntax.ts'

/**
 * What a decision can change, most serious first: funds leave (ETH sent, tokens moved, a
 * self-destruct), who owns or controls the contract changes, other state changes, an event is
 * logged, or nothing the function does (a view handing the answer back).
 */
export type StakeKind = 'payout' | 'ownership' | 'state' | 'log' | 'none'

export interface Stake {
  kind: StakeKind
  /** The line that is at stake (the transfer, the owner's write), where there is one. */
  node: SourceNode | null
  file: SourceFileIr | null
}

const RANK: Readonly<Record<StakeKind, number>> = { payout: 4, ownership: 3, state: 2, log: 1, none: 0 }
/** Calls of another contract that move tokens. */
const TOKEN_MOVES = /^(safe)?(transfer|transferFrom)$|^(mint|burn|withdraw)$/
/** How many callers up a value handed back by internal functions is followed. */
const MAX_CALLER_DEPTH = 3

/** Token calls paying their second-to-last argument the last: `transfer(to, amount)`, `safeTransfer(token, to, amount)`. */
const TOKEN_PAYOUT = /^(safe)?[tT]ransfer$/

/**
 * Who a call moving funds pays and how much: for ETH (`send`, `transfer`, a call with value) the
 * target and the value; for a token call, its arguments before the last and the last.
 */
export function paymentParts(call: CallIr): { recipient: SourceNode[]; amount: SourceNode[] } {
  if (call.kind === 'external' || call.kind === 'library') return { recipient: call.args.slice(0, call.args.length - 1), amount: call.args.slice(-1) }
  return { recipient: call.target ? [call.target] : [], amount: [...(call.value && !call.assembly ? [call.value as SourceNode] : []), ...call.args] }
}

/**
 * Who a call paying out is made to and how much: for ETH sent (`send`, `transfer`, a call with
 * value) the target and the value, for a token `transfer`/`safeTransfer` its second-to-last and
 * last arguments; else null. Calls made in assembly are not answered.
 */
export function payoutOf(call: CallIr): { recipient: SourceNode; amount: SourceNode } | null {
  if (call.assembly) return null
  const isEthSend = call.kind === 'send' || call.kind === 'transfer' || (call.kind === 'low-level' && call.lowLevel === 'call')
  if (isEthSend && sendsEth(call) && call.target && call.value) return { recipient: call.target, amount: call.value as SourceNode }
  const isTokenMove = (call.kind === 'external' || call.kind === 'library') && TOKEN_PAYOUT.test(call.name) && call.args.length >= 2
  if (isTokenMove) return { recipient: call.args[call.args.length - 2], amount: call.args[call.args.length - 1] }
  return null
}

/**
 * The amount a call pays its caller (`msg.sender`, `_msgSender()`): the ETH value sent to them,
 * or the last argument of a token `transfer`/`safeTransfer` whose recipient they are; else null.
 */
export function paidToCaller(analyses: Analyses, call: CallIr, holder: FunctionIr): SourceNode | null {
  const payout = payoutOf(call)
  return payout && analyses.access.isSender(stripConversion(payout.recipient), holder) ? payout.amount : null
}

/**
 * Whether a `source` value reaches `expression` of the function holding the effect, or, where the
 * expression is computed from that function's parameters, the arguments passed for them by the
 * internal calls leading to it (innermost first).
 */
export function reachesThroughCalls(analyses: Analyses, expression: SourceNode, effect: FlatEffect, source: ValueSource): boolean {
  let expressions: AST.BaseASTNode[] = [expression]
  let at = effect.owner
  for (let i = effect.via.length; ; i--) {
    if (expressions.some((x) => analyses.dataflow.reaches(x, at, source))) return true
    if (i === 0) return false
    const call = effect.via[i - 1]
    const caller = analyses.ir.info(call.node)?.function
    if (!caller) return false
    const parameters = [...at.facts.locals.values()].filter((l) => l.isParameter)
    const current = expressions
    // A parameter whose value the expression takes, directly or through locals computed from it.
    const passed = parameters.filter((p) => current.some((x) => mentionsAny(x, derivedLocals(at, new Set([p.name]), () => false))))
    expressions = passed.map((p) => call.args[p.parameterIndex]).filter((a): a is NonNullable<typeof a> => a !== undefined)
    if (expressions.length === 0) return false
    at = caller
  }
}

/** Whether a node is an ordering comparison (`<`, `>`, `<=`, `>=`): a bound. */
export function isOrderedComparison(node: AST.BaseASTNode): boolean {
  return node.type === 'BinaryOperation' && ['<', '>', '<=', '>='].includes((node as AST.BinaryOperation).operator)
}

/** The more serious of two stakes. */
export function worse(a: Stake, b: Stake): Stake {
  return RANK[b.kind] > RANK[a.kind] ? b : a
}

/** Whether a call sends ETH, moves tokens or self-destructs. */
export function movesFunds(call: CallIr): boolean {
  if (call.kind === 'send' || call.kind === 'transfer') return true
  if (call.kind === 'low-level') return call.value !== null && call.lowLevel === 'call'
  if (call.kind === 'external' || call.kind === 'library') return TOKEN_MOVES.test(call.name)
  return call.kind === 'builtin' && (call.name === 'selfdestruct' || call.name === 'suicide')
}

/**
 * What the value computed at `at` (inside `fn`) decides, followed through the code it guards:
 *
 * - a condition of an `if` or `?:` guards its branches, and when a branch returns or reverts,
 *   the rest of the function too;
 * - a `require`/`assert` guards the rest of the function;
 * - a value that is not a condition (a local tested later, a returned flag) decides the whole
 *   function, and when an internal function returns it, what each caller (up to
 *   `MAX_CALLER_DEPTH` calls up) does with the call.
 *
 * Effects count with the internal calls and modifiers they run (`effects.flatEffects`).
 */
export function decidedStake(analyses: Analyses, fn: FunctionIr, at: SourceNode, depth = 0): Stake {
  const region = guardedRegion(analyses, fn, at)
  let stake = stakeIn(analyses, fn, region)
  const handedBack = region === null && fn.visibility !== 'public' && fn.visibility !== 'external' && fn.facts.returnStatements.some((r) => r.expression && contains(r.expression, at))
  if (handedBack && depth < MAX_CALLER_DEPTH) {
    for (const { fn: caller, node } of callersOf(analyses, fn)) stake = worse(stake, decidedStake(analyses, caller, node, depth + 1))
  }
  return stake
}

const callerIndexes = new WeakMap<Analyses, Map<FunctionIr, { fn: FunctionIr; node: SourceNode }[]>>()

/** The internal and library calls of `fn` anywhere in the project, each with the function making it (indexed once per analysis). */
function callersOf(analyses: Analyses, fn: FunctionIr): { fn: FunctionIr; node: SourceNode }[] {
  let index = callerIndexes.get(analyses)
  if (!index) {
    index = new Map()
    for (const caller of analyses.dispatch.allFunctions()) {
      for (const call of caller.facts.calls) {
        if (call.kind !== 'internal' && call.kind !== 'library') continue
        const callee = analyses.dispatch.calleeIn(call, caller)
        if (!callee) continue
        const list = index.get(callee) ?? []
        list.push({ fn: caller, node: call.node })
        index.set(callee, list)
      }
    }
    callerIndexes.set(analyses, index)
  }
  return index.get(fn) ?? []
}

/** The source range a decision at `at` guards, or null for the whole function. */
function guardedRegion(analyses: Analyses, fn: FunctionIr, at: SourceNode): [number, number] | null {
  const end = fn.node.range?.[1] ?? Number.MAX_SAFE_INTEGER
  let node: AST.BaseASTNode | null = at
  let child: AST.BaseASTNode = at
  while (node) {
    const parent: AST.BaseASTNode | null = analyses.ir.info(node)?.parent ?? null
    if (!parent) return null
    if (parent.type === 'IfStatement') {
      const statement = parent as AST.IfStatement
      if (statement.condition === node || contains(statement.condition, child)) {
        const range = statement.range ?? [0, end]
        const exits = [statement.trueBody, statement.falseBody].some((b) => b && exitsEarly(b))
        return [range[0], exits ? end : range[1]]
      }
    }
    if (parent.type === 'Conditional' && contains((parent as AST.Conditional).condition, child)) {
      return parent.range ? [parent.range[0], parent.range[1]] : null
    }
    if (parent.type === 'FunctionCall') {
      const callee = unwrap((parent as AST.FunctionCall).expression)
      if (callee.type === 'Identifier' && ((callee as AST.Identifier).name === 'require' || (callee as AST.Identifier).name === 'assert')) {
        return [parent.range?.[0] ?? 0, end]
      }
    }
    if (parent.type === 'ExpressionStatement' || parent.type === 'VariableDeclarationStatement' || parent.type === 'ReturnStatement') return null
    child = parent
    node = parent
  }
  return null
}

/** Whether a branch returns, reverts or throws. */
function exitsEarly(body: AST.BaseASTNode): boolean {
  let found = false
  const visit = (n: AST.BaseASTNode): void => {
    if (found) return
    if (n.type === 'ReturnStatement' || n.type === 'RevertStatement' || n.type === 'ThrowStatement') {
      found = true
      return
    }
    if (n.type === 'FunctionCall') {
      const callee = unwrap((n as AST.FunctionCall).expression)
      if (callee.type === 'Identifier' && (callee as AST.Identifier).name === 'revert') found = true
      return
    }
    for (const value of Object.values(n)) {
      if (Array.isArray(value)) for (const item of value) if (item && typeof item === 'object' && 'type' in item) visit(item as AST.BaseASTNode)
      if (value && typeof value === 'object' && 'type' in value && value !== n) visit(value as AST.BaseASTNode)
    }
  }
  visit(body)
  return found
}

/** The most serious effect of `fn` inside `region` (the whole function when null). */
function stakeIn(analyses: Analyses, fn: FunctionIr, region: [number, number] | null): Stake {
  const owners = fn.contract ? ownerVariables(analyses, fn.contract) : new Map()
  const inRegion = (node: SourceNode | undefined): boolean => {
    if (region === null) return true
    const range = node?.range
    return range !== undefined && range[0] >= region[0] && range[1] <= region[1]
  }
  let stake: Stake = { kind: 'none', node: null, file: null }
  for (const e of analyses.effects.flatEffects(fn, fn.contract)) {
    // Where the effect happens in `fn`: its own line, or the internal call leading to it.
    const anchor = e.via.length > 0 ? e.via[0].node : e.owner === fn ? effectNode(e.effect) : undefined
    if (!inRegion(anchor)) continue
    const here = { node: effectNode(e.effect) ?? null, file: e.owner.file }
    if (e.effect.kind === 'call' && movesFunds(e.effect.call)) stake = worse(stake, { kind: 'payout', ...here })
    else if (e.effect.kind === 'write') stake = worse(stake, { kind: owners.has(e.effect.access.variable) ? 'ownership' : 'state', ...here })
    else if (e.effect.kind === 'emit') stake = worse(stake, { kind: 'log', ...here })
  }
  // A self-destruct is a builtin call, not an effect: look for it in what the region runs.
  if (stake.kind !== 'payout') {
    for (const call of fn.facts.calls) {
      if (!inRegion(call.node)) continue
      if (movesFunds(call)) stake = worse(stake, { kind: 'payout', node: call.node, file: fn.file })
    }
  }
  return stake
}

function effectNode(effect: { kind: string } & ({ call: CallIr } | { access: { node: SourceNode } } | { node: SourceNode } | object)): SourceNode | undefined {
  if ('call' in effect) return effect.call.node
  if ('access' in effect) return (effect.access as { node: SourceNode; statement?: SourceNode | null }).statement ?? effect.access.node
  if ('node' in effect) return effect.node
  return undefined
}
