import { defineDetector } from '../define-detector.ts'

export const shadowingState = defineDetector({
  id: 'shadowing-state',
  title: 'State variable shadows a base contract variable',
  category: 'state',
  severity: 'medium',
  confidence: 'high',
  explanation:
    "A derived contract declares a state variable with the name of one in a base contract. There are then two variables: the base contract's functions (including access checks) keep using theirs while the derived contract updates its own.",
  recommendation: 'Remove the duplicate declaration and use (or set) the base contract variable; Solidity 0.6 and later reject this.',
  detect({ contracts, report }) {
    for (const contract of contracts) {
      for (const variable of contract.stateVariables) {
        for (const base of contract.linearization.slice(1)) {
          // A private variable of a base is invisible to the derived contract: no confusion.
          const shadowed = base.stateVariables.find((v) => v.name === variable.name && v.visibility !== 'private')
          if (!shadowed) continue
          report(variable.declaration, contract.file, `\`${contract.name}.${variable.name}\` shadows \`${base.name}.${variable.name}\`.`)
          break
        }
      }
    }
  },
})
