import type { FunctionIr, StateVariableIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

export const shadowingLocal = defineDetector({
  id: 'shadowing-local',
  title: 'Local variable shadows a state variable',
  category: 'state',
  severity: 'informational',
  confidence: 'high',
  explanation:
    'A parameter or local variable has the name of a state variable the function can see, so inside the function the name means the local one; assignments meant for the state variable silently go to the local (`owner = owner`).',
  recommendation: 'Rename the local variable or parameter (for example with a leading or trailing underscore).',
  detect({ functions, report }) {
    for (const fn of functions) {
      if (!fn.contract) continue
      for (const local of fn.facts.locals.values()) {
        const shadowed = visibleStateVariable(fn, local.name)
        if (!shadowed) continue
        const kind = local.isParameter ? 'parameter' : local.isReturn ? 'return variable' : 'local variable'
        report(local.node, fn.file, `In ${functionLabel(fn)} the ${kind} \`${local.name}\` shadows the state variable \`${shadowed.contract.name}.${shadowed.name}\`.`)
      }
    }
  },
})

function visibleStateVariable(fn: FunctionIr, name: string): StateVariableIr | null {
  const contract = fn.contract
  if (!contract) return null
  for (const c of contract.linearization) {
    const variable = c.stateVariables.find((v) => v.name === name)
    if (variable && (c === contract || variable.visibility !== 'private')) return variable
  }
  return null
}
