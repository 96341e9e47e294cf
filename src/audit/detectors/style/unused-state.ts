import type { StateVariableIr } from '../../ir/types.ts'
import { namesIn } from '../../analyses/syntax.ts'
import { defineDetector } from '../define-detector.ts'

export const unusedState = defineDetector({
  id: 'unused-state',
  title: 'Unused state variable',
  category: 'style',
  severity: 'informational',
  confidence: 'high',
  explanation: 'A non-public state variable that no code reads or writes takes a storage slot and review attention for nothing, or shows a missing piece of logic.',
  recommendation: 'Remove the variable, or use it where it was meant to be used.',
  detect({ analyses, contracts, report }) {
    const used = new Set<StateVariableIr>()
    for (const fn of analyses.dispatch.allFunctions()) {
      for (const r of fn.facts.stateReads) used.add(r.variable)
      for (const w of fn.facts.stateWrites) used.add(w.variable)
    }
    // Names used in other variables' initial values or in assembly (`x.slot`).
    const mentioned = new Set<string>()
    for (const contract of analyses.ir.contracts) {
      for (const v of contract.stateVariables) {
        for (const name of namesIn(v.initialValue)) mentioned.add(name)
      }
    }
    for (const fn of analyses.dispatch.allFunctions()) {
      for (const a of fn.facts.assembly) {
        for (const name of namesIn(a)) mentioned.add(name)
      }
    }
    for (const contract of contracts) {
      if (contract.kind === 'interface' || contract.kind === 'library') continue
      for (const v of contract.stateVariables) {
        if (v.visibility === 'public' || used.has(v) || mentioned.has(v.name)) continue
        report(v.declaration, contract.file, `\`${contract.name}.${v.name}\` is never used.`)
      }
    }
  },
})
