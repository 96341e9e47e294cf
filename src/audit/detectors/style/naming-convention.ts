import type { SourceFileIr, SourceNode } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'

const CAP_WORDS = /^[A-Z][A-Za-z0-9]*$/
const MIXED_CASE = /^_{0,2}[a-z][A-Za-z0-9]*_?$/
const UPPER_CASE = /^_{0,2}[A-Z][A-Z0-9_]*$/
/** State variables may also use storage prefixes (`s_balance`, `i_owner`). */
const STATE_MIXED_CASE = /^(_{0,2}|[sim]_)[a-z][A-Za-z0-9]*_?$/

export const namingConvention = defineDetector({
  id: 'naming-convention',
  title: 'Naming convention not followed',
  category: 'style',
  severity: 'informational',
  confidence: 'high',
  explanation:
    'The Solidity style guide names contracts, structs, events and errors in CapWords, functions, modifiers, variables and parameters in mixedCase and constants in UPPER_CASE; following it lets readers tell kinds of names apart at a glance.',
  recommendation: 'Rename following the Solidity style guide.',
  detect({ contracts, functions, report }) {
    // `header`: the name is a declaration with a body (contract, struct, enum, function, modifier), shown by its signature.
    const check = (node: SourceNode, file: SourceFileIr, name: string | null, kind: string, pattern: RegExp, style: string, header = false): void => {
      if (!name || name === '_' || pattern.test(name)) return
      report(node, file, `${kind} \`${name}\` is not in ${style}.`, { header })
    }
    for (const contract of contracts) {
      const file = contract.file
      check(contract.node, file, contract.name, contract.kind === 'interface' ? 'Interface' : contract.kind === 'library' ? 'Library' : 'Contract', CAP_WORDS, 'CapWords', true)
      for (const s of contract.structs) check(s, file, s.name, 'Struct', CAP_WORDS, 'CapWords', true)
      for (const e of contract.enums) check(e, file, e.name, 'Enum', CAP_WORDS, 'CapWords', true)
      for (const e of contract.events) check(e, file, e.name, 'Event', CAP_WORDS, 'CapWords')
      for (const e of contract.errors) check(e, file, e.name, 'Error', CAP_WORDS, 'CapWords')
      for (const v of contract.stateVariables) {
        if (v.isConstant) check(v.declaration, file, v.name, 'Constant', UPPER_CASE, 'UPPER_CASE')
        else if (v.isImmutable) {
          if (!UPPER_CASE.test(v.name)) check(v.declaration, file, v.name, 'Immutable', STATE_MIXED_CASE, 'mixedCase or UPPER_CASE')
        } else check(v.declaration, file, v.name, 'State variable', STATE_MIXED_CASE, 'mixedCase')
      }
    }
    for (const fn of functions) {
      if (fn.kind === 'function' && !(fn.contract && fn.name === fn.contract.name)) {
        if (!UPPER_CASE.test(fn.name)) check(fn.node, fn.file, fn.name, 'Function', MIXED_CASE, 'mixedCase', true)
      } else if (fn.kind === 'modifier') check(fn.node, fn.file, fn.name, 'Modifier', MIXED_CASE, 'mixedCase', true)
      for (const p of fn.params) check(p, fn.file, p.name, 'Parameter', MIXED_CASE, 'mixedCase')
    }
  },
})
