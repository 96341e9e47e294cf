import type { Analyses } from '../../analyses/analyses.ts'
import { contains } from '../../analyses/syntax.ts'
import type { StateVariableIr } from '../../ir/types.ts'

const cache = new WeakMap<Analyses, Set<StateVariableIr>>()

/**
 * State variables that decide who may call what: those read by the parts of guards that admit
 * only callers in an allowed set (`msg.sender == owner`, `operators[msg.sender]`, see
 * `Analyses.restrictingParts`), directly or through the view functions such a part calls (`owner()`
 * in `owner() == msg.sender`). A deny-list (`!blacklisted[msg.sender]`, `msg.sender != pair`)
 * lets everyone else in and decides nothing about control.
 */
export function accessControlVariables(analyses: Analyses): Set<StateVariableIr> {
  const known = cache.get(analyses)
  if (known) return known
  const result = new Set<StateVariableIr>()
  for (const fn of analyses.dispatch.allFunctions()) {
    for (const guard of fn.facts.guards) {
      for (const part of analyses.access.restrictingParts(guard.condition, fn, (e) => analyses.access.isSender(e, fn), !guard.negated)) {
        for (const read of fn.facts.stateReads) if (contains(part, read.node)) result.add(read.variable)
        for (const call of fn.facts.calls) {
          if (call.kind !== 'internal' || !call.callee || !contains(part, call.node)) continue
          for (const read of call.callee.facts.stateReads) result.add(read.variable)
        }
      }
    }
  }
  cache.set(analyses, result)
  return result
}
