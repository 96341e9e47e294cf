import type { Analyses } from '../../analyses/analyses.ts'
import type { DispatchContext, EntryPoint } from '../../analyses/dispatch.ts'
import type { FlatEffect } from '../../analyses/effects.ts'
import { identifierName, insideSingleArgumentCalls, isContractCreation, pathsCompatible, sendsEth, unwrap } from '../../analyses/syntax.ts'
import type { AssignmentIr, CallIr, ContractIr, FunctionIr, SourceFileIr, SourceNode, StateVariableIr } from '../../ir/types.ts'
import { nodeText } from '../../source.ts'
import { canReenter } from '../helpers.ts'

/** One external call of an entry point that could reenter, and what happens after it. */
export interface ReentrantCall {
  /** The entry point making the call, and the deployed contract it runs in. */
  entryPoint: EntryPoint
  /** Whether the entry point holds a reentrancy lock (it cannot be reentered itself). */
  locked: boolean
  call: CallIr
  /** The call's text, and the helper it is made in when that is not the entry point. */
  callDescription: string
  sendsEth: boolean
  /** Where to report: the call when the entry point makes it, else the entry point's call into the helper that does. */
  at: { node: SourceNode; file: SourceFileIr }
  /**
   * State written after the call (the first write of each variable), whether the entry point read
   * it before the call, and whether the write is a modifier's or resets one of the entry point's
   * inline lock variables (a lock being released). `settledAfter`: every write of the variable
   * after the call only adds to it (`x += v`, `x++`) or follows a fresh read of it made after the
   * call, so none of them puts back a value decided before the call.
   */
  writesAfter: {
    variable: StateVariableIr
    node: SourceNode
    file: SourceFileIr
    readBefore: boolean
    /** Where the entry point read the variable before the call (the first such read), when it did. */
    readAt: { node: SourceNode; file: SourceFileIr } | null
    releasesLock: boolean
    settledAfter: boolean
  }[]
  eventsAfter: { node: SourceNode; file: SourceFileIr }[]
  /**
   * Whether the callee is fixed by the deployment: its address is a constant or immutable, `this`,
   * or a state variable that only the constructor and access-restricted functions write (a
   * configured timelock or manager), also through a view helper returning one (`asset()`). No
   * caller can point the call at a contract of their own.
   */
  fixedCallee: boolean
}

/**
 * Which calls: `reenter`, those that can run code able to call back with any gas (external and
 * low-level calls); `stipend`, `send` and `transfer`, whose callee gets 2,300 gas, too little to
 * write state today but not a guarantee (gas costs have been repriced before).
 */
export type CallSelection = 'reenter' | 'stipend'

const SELECTS: Record<CallSelection, (call: CallIr) => boolean> = {
  reenter: canReenter,
  stipend: (call) => call.kind === 'send' || call.kind === 'transfer',
}

const cache = { reenter: new WeakMap<Analyses, ReentrantCall[]>(), stipend: new WeakMap<Analyses, ReentrantCall[]>() }
const byEntry = {
  reenter: new WeakMap<Analyses, Map<FunctionIr, Map<DispatchContext, ReentrantCall[]>>>(),
  stipend: new WeakMap<Analyses, Map<FunctionIr, Map<DispatchContext, ReentrantCall[]>>>(),
}

/**
 * Every external call that could reenter, made by one of `entryPoints` (the analysis's deployed
 * entry points), with what follows it: see `reentrantCallsOf`. Computed once per analysis and
 * shared by the reentrancy detectors.
 */
export function reentrantCalls(analyses: Analyses, entryPoints: readonly EntryPoint[], selection: CallSelection = 'reenter'): ReentrantCall[] {
  const known = cache[selection].get(analyses)
  if (known) return known
  const result = entryPoints.flatMap((entryPoint) => reentrantCallsOf(analyses, entryPoint, selection))
  cache[selection].set(analyses, result)
  return result
}

/**
 * The external calls that could reenter made by an entry point, as the deployed contract
 * `entryPoint.context` runs it, when any caller can run it: each with the state writes and events
 * that follow it on a path that can run after it. A write counts as "read before" only when the
 * entry point read the variable on its own before the call (not merely as part of updating it,
 * like `x += 1`). Entry points holding a reentrancy lock are included and marked `locked`: they
 * cannot be reentered themselves, but another function may be. Calls only locatable in
 * dependencies are left out.
 */
export function reentrantCallsOf(analyses: Analyses, entryPoint: EntryPoint, selection: CallSelection = 'reenter'): ReentrantCall[] {
  const { fn: entry } = entryPoint
  const context = analyses.dispatch.representative(entry, entryPoint.context)
  let perAnalyses = byEntry[selection].get(analyses)
  if (!perAnalyses) {
    perAnalyses = new Map()
    byEntry[selection].set(analyses, perAnalyses)
  }
  const perFunction = perAnalyses.get(entry) ?? new Map<DispatchContext, ReentrantCall[]>()
  perAnalyses.set(entry, perFunction)
  const known = perFunction.get(context)
  if (known) return known
  const result: ReentrantCall[] = []
  perFunction.set(context, result)
  // A restricted function cannot be the attacker's way in.
  if (entry.mutability === 'view' || entry.mutability === 'pure' || analyses.access.isProtected(entry, context)) return result
  const locked = analyses.locks.hasReentrancyLock(entry, context)
  const locks = analyses.locks.reentrancyLocks(entry, context)
  const effects = analyses.effects.flatEffects(entry, context)
  effects.forEach((effect, index) => {
    if (effect.effect.kind !== 'call' || !SELECTS[selection](effect.effect.call)) return
    const call = effect.effect.call
    // A contract this function has just deployed runs our own code.
    if (call.target && createdHere(effect.owner, call.target)) return
    const before = effects.slice(0, index)
    const after = effects.slice(index + 1).filter((e) => pathsCompatible(effect.path, e.path))
    const writesAfter: ReentrantCall['writesAfter'] = []
    const seen = new Set<StateVariableIr>()
    for (const e of after) {
      if (e.effect.kind !== 'write') continue
      const variable = e.effect.access.variable
      if (variable.isConstant || variable.isImmutable || seen.has(variable)) continue
      seen.add(variable)
      const read = before.find((r) => readsOnItsOwn([r], effect, variable))
      const readBefore = read !== undefined
      const readAt = read?.effect.kind === 'read' ? { node: read.effect.access.node, file: read.owner.file } : null
      const releasesLock = e.owner.kind === 'modifier' || (e.via.length > 0 && analyses.ir.info(e.via[0].node)?.function.kind === 'modifier') || locks.has(variable)
      const settledAfter = after.every(
        (w, i) =>
          w.effect.kind !== 'write' ||
          w.effect.access.variable !== variable ||
          addsTo(w.effect.access.assignment) ||
          (readsOnItsOwn(after.slice(0, i), w, variable) && !writesBackStale(analyses, w, effect, variable)),
      )
      writesAfter.push({ variable, node: e.effect.access.statement ?? e.effect.access.node, file: e.owner.file, readBefore, readAt, releasesLock, settledAfter })
    }
    const eventsAfter = after.flatMap((e) => (e.effect.kind === 'emit' ? [{ node: e.effect.node, file: e.owner.file }] : []))
    const through = effect.via.length > 0 ? ` (through \`${effect.via[0].name}()\`)` : ''
    const callDescription = `\`${nodeText(effect.owner.file, call.node, 70)}\`${through}`
    const at = location(analyses, effect, entry)
    const fixedCallee = call.target !== null && isFixedAddress(analyses, call.target, effect.owner, effect.via, context, 0)
    if (at) result.push({ entryPoint: { fn: entry, context: context ?? entryPoint.context }, locked, call, callDescription, sendsEth: sendsEth(call), at, writesAfter, eventsAfter, fixedCallee })
  })
  return result
}

/**
 * The call itself when the entry point makes it; else the entry point's call into the helper that
 * does. When that is in a dependency (an inherited entry point reaching an override of the
 * project's), the first step towards the call that is in the project's own code; null when none is.
 */
function location(analyses: Analyses, effect: FlatEffect, entry: FunctionIr): { node: SourceNode; file: SourceFileIr } | null {
  if (effect.effect.kind !== 'call') return null
  const steps = [...effect.via, effect.effect.call]
  for (const step of steps) {
    const holder = analyses.ir.info(step.node)?.function
    if (holder?.file.own) return { node: step.node, file: holder.file }
  }
  return entry.file.own ? { node: entry.node, file: entry.file } : null
}

/** `balances` (line 14), `total` (line 15 of `src/Base.sol`): writes, located from the file the finding is in. */
export function describeWrites(writes: ReentrantCall['writesAfter'], reportedIn: SourceFileIr): string {
  return writes.map((w) => `\`${w.variable.name}\` (${lineIn(w.node, w.file, reportedIn)})`).join(', ')
}

/** The lines a reentrancy finding rests on: each write after the call, and the read before it when there is one. */
export function writeEvidence(writes: ReentrantCall['writesAfter']): { node: SourceNode; file: SourceFileIr }[] {
  return writes.flatMap((w) => [{ node: w.node, file: w.file }, ...(w.readAt ? [w.readAt] : [])])
}

/** `line 14`, or `line 14 of `src/Base.sol`` when the node is in another file than the finding. */
export function lineIn(node: SourceNode, file: SourceFileIr, reportedIn: SourceFileIr): string {
  const line = `line ${node.loc?.start.line ?? '?'}`
  return file === reportedIn ? line : `${line} of \`${file.path}\``
}

/**
 * Whether a write made after `call` (both in one function) stores a value computed from a read of
 * `variable` made before the call, followed through locals and internal getters by the data-flow
 * layer (`uint256 c = credit[a]; …call…; credit[a] = c - 1`): a fresh read between them does not
 * make such a write current.
 */
function writesBackStale(analyses: Analyses, write: FlatEffect, call: FlatEffect, variable: StateVariableIr): boolean {
  const assignment = write.effect.kind === 'write' ? write.effect.access.assignment : null
  if (write.owner !== call.owner || assignment?.operator !== '=' || assignment.value === null) return false
  const callStart = call.effect.kind === 'call' ? (call.effect.call.node.range?.[0] ?? -1) : -1
  const origins = analyses.dataflow.origins(assignment.value, write.owner, analyses.dataflow.readsOf(variable))
  return origins.some((o) => o.fn === call.owner && (o.node.range?.[1] ?? Infinity) < callStart)
}

/** Whether a state write only adds to the variable: `x += v`, `x++`, `++x`. */
function addsTo(assignment: AssignmentIr | null): boolean {
  return assignment?.operator === '+=' || assignment?.operator === '++'
}

/**
 * Whether `earlier` effects read `variable` on their own (not merely as part of updating it, like
 * `x += 1`) on a path that runs with `at`: before a call, a read the call can make stale; after
 * it, a fresh read a later write is based on.
 */
function readsOnItsOwn(earlier: readonly FlatEffect[], at: FlatEffect, variable: StateVariableIr): boolean {
  return earlier.some((e) => e.effect.kind === 'read' && !e.effect.access.compound && e.effect.access.variable === variable && pathsCompatible(e.path, at.path))
}

/** How many view helpers deep `isFixedAddress` follows a returned address (`asset()` returning `_asset`). */
const MAX_FIXED_ADDRESS_DEPTH = 2

/**
 * Whether an address expression inside `fn` is fixed by the deployment (see
 * `ReentrantCall.fixedCallee`): a constant or immutable, `this`, a state variable only the
 * constructor and access-restricted entry points of `context` write, a conversion of one, a
 * call to an argument-less view function of the hierarchy whose every return is one, or a
 * parameter of `fn` that the internal call leading into it (the last of `via`) passes one.
 */
function isFixedAddress(analyses: Analyses, expression: SourceNode, fn: FunctionIr, via: readonly CallIr[], context: DispatchContext, depth: number): boolean {
  const name = identifierName(expression)
  if (name !== null) {
    if (name === 'this') return true
    const local = fn.facts.locals.get(name)
    if (local) {
      const into = via[via.length - 1]
      const caller = into ? analyses.ir.info(into.node)?.function : undefined
      const arg = local.isParameter && into && into.kind !== 'library' ? into.args[local.parameterIndex] : local.isParameter && into ? libraryArgument(into, local.parameterIndex) : undefined
      return arg !== undefined && caller !== undefined && isFixedAddress(analyses, arg, caller, via.slice(0, -1), context, depth)
    }
    if (!fn.contract) return false
    const variable = analyses.scope.stateVariable(fn.contract, name)
    if (!variable) return false
    if (variable.isConstant || variable.isImmutable) return true
    if (variable.type.kind !== 'elementary' && variable.type.kind !== 'contract') return false
    return onlyRestrictedWriters(analyses, variable, context ?? fn.contract)
  }
  const call = analyses.dispatch.callOf(unwrap(expression))
  if (!call) return false
  const args = call.args
  if (call.kind === 'conversion' && args.length === 1) return isFixedAddress(analyses, args[0], fn, via, context, depth)
  if (call.kind !== 'internal' || args.length !== 0 || depth >= MAX_FIXED_ADDRESS_DEPTH) return false
  const callee = analyses.dispatch.calleeIn(call, fn, context)
  if (!callee?.body || (callee.mutability !== 'view' && callee.mutability !== 'pure')) return false
  const returns = callee.facts.returnStatements
  return returns.length > 0 && returns.every((r) => r.expression !== null && isFixedAddress(analyses, r.expression, callee, [], context, depth + 1))
}

/** The argument a library call passes for parameter `index`: with `x.f(a)` (`using for`), `x` is the first. */
function libraryArgument(call: CallIr, index: number): NonNullable<CallIr['target']> | undefined {
  // A library call has a receiver (`target`) only when made on a value through `using for`.
  const bound = call.target !== null && call.callee !== null && call.callee.params.length === call.args.length + 1
  if (!bound) return call.args[index]
  return index === 0 ? (call.target ?? undefined) : call.args[index - 1]
}

/**
 * Whether `variable` is set (by the constructor or another function) and every entry point of
 * `context` that writes it (directly or through internal calls) is access-restricted. A variable
 * nothing writes is not known to be fixed: it is set some way the analysis does not see.
 */
function onlyRestrictedWriters(analyses: Analyses, variable: StateVariableIr, context: ContractIr): boolean {
  if (variable.initialValue === null && analyses.effects.writersOf(variable).length === 0) return false
  return analyses.dispatch
    .entryPoints(context)
    .every((g) => analyses.access.isProtected(g, context) || !analyses.effects.flatEffects(g, context).some((e) => e.effect.kind === 'write' && e.effect.access.variable === variable))
}

/** Whether `target` is (a conversion of) a local holding a contract deployed in `fn` (`new`, create/create2). */
function createdHere(fn: FunctionIr, target: SourceNode): boolean {
  const name = identifierName(insideSingleArgumentCalls(target))
  if (name === null) return false
  const local = fn.facts.locals.get(name)
  if (local?.statement && local.statement.variables[0] === local.node && isContractCreation(local.statement.initialValue)) return true
  if (fn.facts.assignments.some((a) => a.operator === '=' && identifierName(a.target) === name && isContractCreation(a.value))) return true
  return fn.facts.calls.some((c) => c.kind === 'creation' && c.assembly !== null && c.assembly.storedIn.includes(name))
}
