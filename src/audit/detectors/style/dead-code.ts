import type { Analyses } from '../../analyses/analyses.ts'
import { memberNamesIn, namesIn, nodesOf } from '../../analyses/syntax.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

const cache = new WeakMap<Analyses, Set<string>>()

/** Every name used anywhere in code: identifiers, member names, modifiers, `using {f}` lists. */
function referencedNames(analyses: Analyses): Set<string> {
  const known = cache.get(analyses)
  if (known) return known
  const names = new Set<string>()
  for (const fn of analyses.dispatch.allFunctions()) {
    for (const name of fn.facts.identifiers.keys()) names.add(name)
    for (const m of nodesOf(fn, 'MemberAccess')) names.add(m.memberName)
    for (const m of fn.modifierCalls) names.add(m.name)
  }
  for (const file of analyses.ir.files) for (const name of file.attachedFunctions) names.add(name)
  for (const contract of analyses.ir.contracts) {
    for (const v of contract.stateVariables) for (const name of [...namesIn(v.initialValue), ...memberNamesIn(v.initialValue)]) names.add(name)
  }
  cache.set(analyses, names)
  return names
}

export const deadCode = defineDetector({
  id: 'dead-code',
  title: 'Unused internal function',
  category: 'style',
  severity: 'informational',
  confidence: 'medium',
  explanation:
    'An internal or private function that nothing calls is dead code: it costs review time, may hide an intended but missing call, and misleads readers about what the contract does.',
  recommendation: 'Remove the function, or add the call that was meant to use it.',
  detect({ analyses, functions, report }) {
    const used = referencedNames(analyses)
    for (const fn of functions) {
      if (fn.kind !== 'function' || fn.body === null || !fn.contract) continue
      if (fn.contract.kind === 'library' || fn.contract.kind === 'interface') continue
      if (fn.visibility !== 'internal' && fn.visibility !== 'private') continue
      if (fn.isVirtual || fn.isOverride) continue
      if (used.has(fn.name)) continue
      report(fn.node, fn.file, `${functionLabel(fn)} is never used.`, { header: true })
    }
  },
})
