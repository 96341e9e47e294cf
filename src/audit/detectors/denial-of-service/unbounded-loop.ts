import { contains, identifierName, isNewCall, lengthOf, unwrap } from '../../analyses/syntax.ts'
import type { Analyses } from '../../analyses/analyses.ts'
import type { DispatchContext } from '../../analyses/dispatch.ts'
import type { AssignmentIr, ContractIr, FunctionIr, SourceNode, StateVariableIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

export const unboundedLoop = defineDetector({
  id: 'unbounded-loop',
  title: 'Loop over an array anyone can grow',
  category: 'denial-of-service',
  severity: 'medium',
  confidence: 'medium',
  explanation:
    'The loop walks a storage array that any caller can append to without limit (`push`, or before Solidity 0.6 `list.length++`); deleting such an array (`delete list`, `list = new T[](0)`) is such a loop too, one storage write per element. Once it is long enough the function needs more gas than a block holds and can never run again (funds or actions stuck).',
  recommendation: 'Cap the array length, restrict who can add entries, or process the array in bounded batches (pagination).',
  detect({ analyses, functions, report }) {
    const growersMemo = new Map<ContractIr, Map<StateVariableIr, { g: FunctionIr; context: DispatchContext }[]>>()
    const unrestrictedGrowers = (a: Analyses, array: StateVariableIr, contract: ContractIr): { g: FunctionIr; context: DispatchContext }[] => {
      const byArray = growersMemo.get(contract) ?? new Map<StateVariableIr, { g: FunctionIr; context: DispatchContext }[]>()
      growersMemo.set(contract, byArray)
      const known = byArray.get(array)
      if (known) return known
      const growers = growersOf(a, array, contract)
      byArray.set(array, growers)
      return growers
    }
    for (const fn of functions) {
      if (fn.mutability === 'view' || fn.mutability === 'pure' || !fn.contract) continue
      const contract = fn.contract
      for (const loop of fn.facts.conditions) {
        if (loop.kind !== 'for' && loop.kind !== 'while' && loop.kind !== 'do-while') continue
        // State arrays whose `.length` bounds the loop.
        for (const array of loop.reads.lengths) {
          if (array.type.kind !== 'array' || !array.type.dynamic) continue
          const growers = unrestrictedGrowers(analyses, array, contract)
          if (growers.length === 0) continue
          const labels = [...new Set(growers.map(({ g }) => functionLabel(g)))]
          report(loop.owner, fn.file, `${functionLabel(fn)} loops over \`${array.name}\`, which ${labels.slice(0, 2).join(' and ')} let${labels.length === 1 ? 's' : ''} anyone grow without limit.`, {
            header: true,
            foundIn: growers.map(({ g, context }) => ({ fn: g, context })),
            evidence: growers.filter(({ g }) => g.file.own).map(({ g }) => ({ node: g.node, file: g.file })),
          })
        }
      }
      // Deleting a dynamic storage array (`delete list`, `list = new address[](0)`) clears every element: a loop too.
      for (const { node, array } of clears(fn)) {
        const growers = unrestrictedGrowers(analyses, array, contract)
        if (growers.length === 0) continue
        const labels = [...new Set(growers.map(({ g }) => functionLabel(g)))]
        report(node, fn.file, `${functionLabel(fn)} clears \`${array.name}\` (${code(fn.file, node)}), which costs gas for every element, and ${labels.slice(0, 2).join(' and ')} let${labels.length === 1 ? 's' : ''} anyone grow it without limit.`, {
          foundIn: growers.map(({ g, context }) => ({ fn: g, context })),
          evidence: growers.filter(({ g }) => g.file.own).map(({ g }) => ({ node: g.node, file: g.file })),
        })
      }
    }
  },
})

/**
 * The entry points (with the contexts they run in) of `contract`'s hierarchy that let any caller
 * grow `array` with no cap: they `push` to it or raise its length (`list.length++`, `list.length += n`,
 * before 0.6), and no guard of theirs reads the array (`require(list.length < MAX)`).
 */
function growersOf(analyses: Analyses, array: StateVariableIr, contract: ContractIr): { g: FunctionIr; context: DispatchContext }[] {
  return analyses.dispatch
    .functionsRelatedTo(contract)
    .filter((g) => analyses.dispatch.isEntryPoint(g))
    .flatMap((g) => analyses.dispatch.contextsOf(g).map((context) => ({ g, context })))
    .filter(({ g, context }) => {
      if (analyses.access.isProtected(g, context)) return false
      const reached = analyses.dispatch.reachableFunctions(g, context)
      const pushes = reached.some((r) => r.facts.calls.some((c) => c.kind === 'builtin' && c.name === 'push' && r.facts.stateWrites.some((w) => w.variable === array && w.statement === c.node)))
      const lengthens = reached.some((r) => r.facts.stateWrites.some((w) => w.variable === array && w.assignment !== null && raisesLength(w.assignment)))
      if (!pushes && !lengthens) return false
      // A guard on the array's length caps it.
      const capped = reached.some((r) => r.facts.guards.some((guard) => r.facts.stateReads.some((read) => read.variable === array && contains(guard.condition, read.node))))
      return !capped
    })
}

/** `list.length++`, `++list.length`, `list.length += n`. */
function raisesLength(assignment: AssignmentIr): boolean {
  return (assignment.operator === '++' || assignment.operator === '+=') && lengthOf(assignment.target) !== null
}

/** Statements of `fn` deleting a dynamic storage array: `delete list`, `list = new T[](0)`. */
function clears(fn: FunctionIr): { node: SourceNode; array: StateVariableIr }[] {
  const result: { node: SourceNode; array: StateVariableIr }[] = []
  for (const w of fn.facts.stateWrites) {
    const { variable: v, statement, assignment } = w
    if (v.type.kind !== 'array' || !v.type.dynamic || !statement || !assignment || identifierName(w.node) === null) continue
    const sameVariable = unwrap(assignment.target) === unwrap(w.node)
    const deleted = assignment.operator === 'delete' && sameVariable
    const replaced = assignment.operator === '=' && sameVariable && assignment.value !== null && isNewCall(assignment.value)
    if (deleted || replaced) result.push({ node: statement, array: v })
  }
  return result
}
