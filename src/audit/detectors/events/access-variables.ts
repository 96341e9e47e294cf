import { contains, type Queries } from '../../ir/queries.ts'
import type { StateVariableIr } from '../../ir/types.ts'

const cache = new WeakMap<Queries, Set<StateVariableIr>>()

/**
 * State variables that decide who may call what: those read by guards on the caller, directly or
 * through the view functions such a guard calls (`owner()` in `owner() == msg.sender`).
 */
export function accessControlVariables(queries: Queries): Set<StateVariableIr> {
  const known = cache.get(queries)
  if (known) return known
  const result = new Set<StateVariableIr>()
  for (const fn of queries.allFunctions()) {
    for (const guard of fn.facts.guards) {
      if (!queries.isSenderCheck(guard.condition, fn, (e) => queries.isSender(e, fn))) continue
      for (const read of fn.facts.stateReads) if (contains(guard.condition, read.node)) result.add(read.variable)
      for (const call of fn.facts.calls) {
        if (call.kind !== 'internal' || !call.callee || !contains(guard.condition, call.node)) continue
        for (const read of call.callee.facts.stateReads) result.add(read.variable)
      }
    }
  }
  cache.set(queries, result)
  return result
}
