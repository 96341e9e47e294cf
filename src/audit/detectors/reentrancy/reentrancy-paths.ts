import { pathsCompatible, unwrap, type FlatEffect, type Queries } from '../../ir/queries.ts'
import type { CallIr, FunctionIr, SourceFileIr, StateVariableIr } from '../../ir/types.ts'
import type * as AST from '../../parse/ast.ts'
import { nodeText } from '../../source.ts'
import { canReenter, sendsEth } from '../helpers.ts'

/** One external call of an entry point that could reenter, and what happens after it. */
export interface ReentrantCall {
  entry: FunctionIr
  call: CallIr
  /** The call's text, and the helper it is made in when that is not the entry point. */
  callDescription: string
  sendsEth: boolean
  /** Where to report: the call when the entry point makes it, else the entry point's call into the helper that does. */
  at: { node: AST.BaseASTNode; file: SourceFileIr }
  /** State written after the call, and whether the entry point read it before the call. */
  writesAfter: { variable: StateVariableIr; node: AST.BaseASTNode; file: SourceFileIr; readBefore: boolean }[]
  eventsAfter: { node: AST.BaseASTNode; file: SourceFileIr }[]
}

const cache = new WeakMap<Queries, ReentrantCall[]>()

/**
 * Every external call that could reenter, made by an entry point of the project's own code that
 * any caller can run and that holds no reentrancy lock, with the state writes and events that
 * follow it on a path that can run after it. A write counts as "read before" only when the entry
 * point read the variable on its own before the call (not merely as part of updating it, like
 * `x += 1`). Computed once per analysis and shared by the reentrancy detectors.
 */
export function reentrantCalls(queries: Queries, functions: readonly FunctionIr[]): ReentrantCall[] {
  const known = cache.get(queries)
  if (known) return known
  const result: ReentrantCall[] = []
  for (const entry of functions) {
    if (!queries.isEntryPoint(entry) || entry.mutability === 'view' || entry.mutability === 'pure') continue
    // A locked function cannot be reentered; a restricted one cannot be the attacker's way in.
    if (queries.hasReentrancyLock(entry) || queries.isProtected(entry)) continue
    const effects = queries.flatEffects(entry)
    effects.forEach((effect, index) => {
      if (effect.effect.kind !== 'call' || !canReenter(effect.effect.call)) return
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
        const readBefore = before.some(
          (b) => b.effect.kind === 'read' && !b.effect.access.compound && b.effect.access.variable === variable && pathsCompatible(b.path, effect.path),
        )
        writesAfter.push({ variable, node: e.effect.access.statement ?? e.effect.access.node, file: e.owner.file, readBefore })
      }
      const eventsAfter = after.filter((e) => e.effect.kind === 'emit').map((e) => ({ node: (e.effect as { node: AST.BaseASTNode }).node, file: e.owner.file }))
      const through = effect.via.length > 0 ? ` (through \`${effect.via[0].name}()\`)` : ''
      const callDescription = `\`${nodeText(effect.owner.file, call.node, 70)}\`${through}`
      result.push({ entry, call, callDescription, sendsEth: sendsEth(call), at: location(effect, entry), writesAfter, eventsAfter })
    })
  }
  cache.set(queries, result)
  return result
}

/** The call itself when the entry point makes it; else the entry point's call into the helper that does. */
function location(effect: FlatEffect, entry: FunctionIr): { node: AST.BaseASTNode; file: SourceFileIr } {
  if (effect.via.length > 0) return { node: effect.via[0].node, file: entry.file }
  if (effect.owner.file.own && effect.effect.kind === 'call') return { node: effect.effect.call.node, file: effect.owner.file }
  return { node: entry.node, file: entry.file }
}

/** `balances` (line 14), `total` (line 15) */
export function describeWrites(writes: ReentrantCall['writesAfter']): string {
  return writes.map((w) => `\`${w.variable.name}\` (line ${w.node.loc?.start.line ?? '?'})`).join(', ')
}

/** Whether `target` is (a conversion of) a local holding a contract deployed in `fn` (`new`, create/create2). */
function createdHere(fn: FunctionIr, target: AST.Expression): boolean {
  let node: AST.BaseASTNode = unwrap(target)
  while (node.type === 'FunctionCall' && (node as AST.FunctionCall).arguments.length === 1) node = unwrap((node as AST.FunctionCall).arguments[0])
  if (node.type !== 'Identifier') return false
  const name = (node as AST.Identifier).name
  const isCreation = (value: AST.BaseASTNode | null): boolean => {
    if (!value) return false
    let v = unwrap(value)
    while (v.type === 'FunctionCall' && (v as AST.FunctionCall).expression.type !== 'NewExpression' && (v as AST.FunctionCall).arguments.length === 1) v = unwrap((v as AST.FunctionCall).arguments[0])
    return v.type === 'FunctionCall' && unwrap((v as AST.FunctionCall).expression).type === 'NewExpression'
  }
  for (const d of (fn.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[]) {
    const v = d.variables[0] as AST.VariableDeclaration | null
    if (v?.name === name && isCreation(d.initialValue)) return true
  }
  for (const a of (fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]) {
    if (a.operator === '=' && unwrap(a.left).type === 'Identifier' && (unwrap(a.left) as AST.Identifier).name === name && isCreation(a.right)) return true
  }
  for (const a of (fn.facts.nodes.get('AssemblyAssignment') ?? []) as AST.AssemblyAssignment[]) {
    const assigned = (a.names as AST.BaseASTNode[]).some((n) => n.type === 'Identifier' && (n as AST.Identifier).name === name)
    if (assigned && a.expression.type === 'AssemblyCall' && (a.expression.functionName === 'create' || a.expression.functionName === 'create2')) return true
  }
  return false
}
