import { contains, unwrap, walkNodes } from '../../analyses/syntax.ts'
import type { FunctionIr, StateVariableIr } from '../../ir/types.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

/** State arrays whose `.length` bounds the loop. */
function boundingArrays(loopCondition: AST.BaseASTNode | null, fn: FunctionIr): StateVariableIr[] {
  const arrays: StateVariableIr[] = []
  if (!loopCondition) return arrays
  walkNodes(loopCondition, (n) => {
    if (n.type === 'MemberAccess' && (n as AST.MemberAccess).memberName === 'length') {
      const base = unwrap((n as AST.MemberAccess).expression)
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
    'The loop walks a storage array that any caller can append to without limit. Once it is long enough the loop needs more gas than a block holds and the function can never run again (funds or actions stuck).',
  recommendation: 'Cap the array length, restrict who can add entries, or process the array in bounded batches (pagination).',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      if (fn.mutability === 'view' || fn.mutability === 'pure' || fn.facts.loops.length === 0 || !fn.contract) continue
      const contract = fn.contract
      for (const loop of fn.facts.loops) {
        for (const array of boundingArrays(loop.condition, fn)) {
          const growers = analyses.dispatch
            .allFunctions()
            .filter((g) => g.contract !== null && (contract.linearization.includes(g.contract) || g.contract.linearization.includes(contract)))
            .filter((g) => analyses.dispatch.isEntryPoint(g))
            .flatMap((g) => analyses.dispatch.contextsOf(g).map((context) => ({ g, context })))
            .filter(({ g, context }) => {
              if (analyses.access.isProtected(g, context)) return false
              const reached = analyses.dispatch.reachableFunctions(g, context)
              const pushes = reached.some((r) => r.facts.calls.some((c) => c.kind === 'builtin' && c.name === 'push' && r.facts.stateWrites.some((w) => w.variable === array && w.statement === c.node)))
              if (!pushes) return false
              // A guard on the array's length caps it.
              const capped = reached.some((r) => r.facts.guards.some((guard) => r.facts.stateReads.some((read) => read.variable === array && contains(guard.condition, read.node))))
              return !capped
            })
          if (growers.length === 0) continue
          const labels = [...new Set(growers.map(({ g }) => functionLabel(g)))]
          report(loop.node, fn.file, `${functionLabel(fn)} loops over \`${array.name}\`, which ${labels.slice(0, 2).join(' and ')} let${labels.length === 1 ? 's' : ''} anyone grow without limit.`, {
            header: true,
            foundIn: growers.map(({ g, context }) => ({ fn: g, context })),
          })
        }
      }
    }
  },
})
