import { ownerVariables } from '../../analyses/owner-variables.ts'
import type { ContractIr, StateVariableIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

export const uninitializedState = defineDetector({
  id: 'uninitialized-state',
  title: 'State variable never assigned',
  category: 'state',
  severity: 'high',
  lowered: 'High when the contract sends ETH to the never-assigned address (the funds are burnt; the finding names the line); medium otherwise.',
  confidence: 'medium',
  explanation:
    'The variable is read but nothing ever assigns it, so it always holds its zero value: an owner that is address(0), a fee recipient that burns funds, a limit of 0.',
  recommendation: 'Assign the variable in the constructor or initializer (or where it is meant to be set), or make it a constant.',
  detect({ analyses, contracts, report }) {
    for (const contract of contracts) {
      for (const variable of contract.stateVariables) {
        if (variable.isConstant || variable.isImmutable || variable.initialValue !== null) continue
        const t = variable.type
        if (t.kind !== 'elementary' && t.kind !== 'contract') continue
        // Anything in a contract that inherits this one and writes it, or any assembly that could.
        const inHierarchy = (c: ContractIr | null): boolean => c !== null && c.linearization.includes(contract)
        const writers = analyses.effects.writersOf(variable).filter((fn) => inHierarchy(fn.contract))
        if (writers.length > 0) continue
        const hierarchy = analyses.dispatch.functionsBelow(contract)
        if (hierarchy.some((fn) => fn.facts.assembly.length > 0)) continue
        const readers = hierarchy.filter((fn) => fn.facts.stateReads.some((r) => r.variable === variable))
        if (readers.length === 0) continue
        const payers = ownerVariables(analyses, contract).get(variable)?.paidIn ?? []
        const burns = payers.length > 0 ? ` ${payers.slice(0, 3).map((f) => functionLabel(f)).join(', ')} send${payers.length === 1 ? 's' : ''} ETH to it, to address(0)` : ''
        report(variable.declaration, contract.file, `${describe(variable)} is never assigned but ${readers.slice(0, 3).map((f) => functionLabel(f)).join(', ')} read${readers.length === 1 ? 's' : ''} it.${burns ? `${burns}.` : ''}`, {
          severity: payers.length > 0 ? 'high' : 'medium',
          evidence: [...readers, ...payers].filter((f) => f.file.own).map((f) => ({ node: f.node, file: f.file })),
        })
      }
    }
  },
})

function describe(variable: StateVariableIr): string {
  return `\`${variable.contract.name}.${variable.name}\``
}
