import { isCompileTimeConstant } from '../../analyses/syntax.ts'
import { defineDetector } from '../define-detector.ts'

export const constableStates = defineDetector({
  id: 'constable-states',
  title: 'State variable could be constant',
  category: 'optimization',
  severity: 'optimization',
  confidence: 'high',
  explanation: 'The variable is set to a compile-time value and never changed. As a constant it would cost no storage slot and no SLOAD on every read.',
  recommendation: 'Declare the variable `constant`.',
  detect({ analyses, contracts, report }) {
    for (const contract of contracts) {
      if (contract.kind === 'interface') continue
      const hierarchyHasAssembly = analyses.dispatch.functionsBelow(contract).some((fn) => fn.facts.assembly.length > 0)
      if (hierarchyHasAssembly) continue
      for (const v of contract.stateVariables) {
        if (v.isConstant || v.isImmutable || v.initialValue === null) continue
        if (v.type.kind !== 'elementary') continue
        if (!isCompileTimeConstant(v.initialValue, contract)) continue
        if (analyses.effects.writersOf(v).length > 0) continue
        report(v.declaration, contract.file, `\`${contract.name}.${v.name}\` never changes after its declaration.`)
      }
    }
  },
})
