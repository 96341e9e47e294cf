import { isCompileTimeConstant } from '../../analyses/syntax.ts'
import { encodeVersion } from '../../ir/version.ts'
import { defineDetector } from '../define-detector.ts'

/** Immutable variables exist since Solidity 0.6.5. */
const IMMUTABLE_SINCE = encodeVersion(0, 6, 5)

export const immutableStates = defineDetector({
  id: 'immutable-states',
  title: 'State variable could be immutable',
  category: 'optimization',
  severity: 'optimization',
  confidence: 'high',
  explanation: 'The variable is only assigned at construction. As an immutable its value is stored in the code: no storage slot and no SLOAD on every read.',
  recommendation: 'Declare the variable `immutable`.',
  detect({ analyses, contracts, report }) {
    for (const contract of contracts) {
      if (contract.kind !== 'contract' && contract.kind !== 'abstract') continue
      const compiler = contract.file.versions
      if (compiler !== null && compiler.max <= IMMUTABLE_SINCE) continue
      if (analyses.dispatch.functionsBelow(contract).some((fn) => fn.facts.assembly.length > 0)) continue
      for (const v of contract.stateVariables) {
        if (v.isConstant || v.isImmutable) continue
        const t = v.type
        const valueType = (t.kind === 'elementary' && t.name !== 'string' && t.name !== 'bytes') || t.kind === 'contract' || t.kind === 'enum'
        if (!valueType) continue
        const writers = analyses.effects.writersOf(v)
        if (writers.some((w) => w.kind !== 'constructor')) continue
        if (writers.length === 0 && (v.initialValue === null || isCompileTimeConstant(v.initialValue, contract))) continue
        report(v.declaration, contract.file, `\`${contract.name}.${v.name}\` is only set at construction.`)
      }
    }
  },
})
