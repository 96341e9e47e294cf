import { contains, unwrap, walkNodes } from '../../analyses/syntax.ts'
import type { Analyses } from '../../analyses/analyses.ts'
import type { DispatchContext } from '../../analyses/dispatch.ts'
import type { ContractIr, FunctionIr, SourceNode, StateVariableIr } from '../../ir/types.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

/** State arrays whose `.length` bounds the loop. */
function boundingArrays(loopCondition: SourceNode | null, fn: FunctionIr): StateVariableIr[] {
  const arrays: StateVariableIr[] = []
  if (!loopCondition) return arrays
  walkNodes(loopCondition, (n) => {
    if (n.type === 'MemberAccess' && n.memberName === 'length') {
      const base = unwrap(n.expression)
      const read = fn.facts.stateReads.find((r) => r.node === base)
      if (read && read.variable.type.kind === 'array' && read.variable.type.dynamic) arrays.push(read.variable)
    }
  })
  return arrays
}

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
    for (const fn of functions) {
      if (fn.mutability === 'view' || fn.mutability === 'pure' || !fn.contract) continue
      const contract = fn.contract
      for (const loop of fn.facts.loops) {
        for (const array of boundingArrays(loop.condition, fn)) {
          const growers = unrestrictedGrowers(analyses, array, contract)
          if (growers.length === 0) continue
          const labels = [...new Set(growers.map(({ g }) => functionLabel(g)))]
          report(loop.node, fn.file, `${functionLabel(fn)} loops over \`${array.name}\`, which ${labels.slice(0, 2).join(' and ')} let${labels.length === 1 ? 's' : ''} anyone grow without limit.`, {
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
function unrestrictedGrowers(analyses: Analyses, array: StateVariableIr, contract: ContractIr): { g: FunctionIr; context: DispatchContext }[] {
  return analyses.dispatch
    .allFunctions()
    .filter((g) => g.contract !== null && (contract.linearization.includes(g.contract) || g.contract.linearization.includes(contract)))
    .filter((g) => analyses.dispatch.isEntryPoint(g))
    .flatMap((g) => analyses.dispatch.contextsOf(g).map((context) => ({ g, context })))
    .filter(({ g, context }) => {
      if (analyses.access.isProtected(g, context)) return false
      const reached = analyses.dispatch.reachableFunctions(g, context)
      const pushes = reached.some((r) => r.facts.calls.some((c) => c.kind === 'builtin' && c.name === 'push' && r.facts.stateWrites.some((w) => w.variable === array && w.statement === c.node)))
      const lengthens = reached.some((r) => r.facts.stateWrites.some((w) => w.variable === array && w.statement !== null && raisesLength(w.statement)))
      if (!pushes && !lengthens) return false
      // A guard on the array's length caps it.
      const capped = reached.some((r) => r.facts.guards.some((guard) => r.facts.stateReads.some((read) => read.variable === array && contains(guard.condition, read.node))))
      return !capped
    })
}

/** `list.length++`, `++list.length`, `list.length += n`. */
function raisesLength(statement: SourceNode): boolean {
  const target = statement.type === 'UnaryOperation' && (statement as AST.UnaryOperation).operator === '++' ? (statement as AST.UnaryOperation).subExpression : statement.type === 'BinaryOperation' && (statement as AST.BinaryOperation).operator === '+=' ? (statement as AST.BinaryOperation).left : null
  if (!target) return false
  const t = unwrap(target)
  return t.type === 'MemberAccess' && (t as AST.MemberAccess).memberName === 'length'
}

/** Statements of `fn` deleting a dynamic storage array: `delete list`, `list = new T[](0)`. */
function clears(fn: FunctionIr): { node: SourceNode; array: StateVariableIr }[] {
  const result: { node: SourceNode; array: StateVariableIr }[] = []
  for (const w of fn.facts.stateWrites) {
    const v = w.variable
    if (v.type.kind !== 'array' || !v.type.dynamic || !w.statement || unwrap(w.node).type !== 'Identifier') continue
    const s = w.statement
    const deleted = s.type === 'UnaryOperation' && (s as AST.UnaryOperation).operator === 'delete' && unwrap((s as AST.UnaryOperation).subExpression) === unwrap(w.node)
    const replaced = s.type === 'BinaryOperation' && (s as AST.BinaryOperation).operator === '=' && unwrap((s as AST.BinaryOperation).left) === unwrap(w.node) && isNewArray((s as AST.BinaryOperation).right)
    if (deleted || replaced) result.push({ node: s, array: v })
  }
  return result
}

function isNewArray(node: SourceNode): boolean {
  const n = unwrap(node)
  return n.type === 'FunctionCall' && unwrap((n as AST.FunctionCall).expression).type === 'NewExpression'
}
