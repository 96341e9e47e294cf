import type { Analyses } from '../../analyses/analyses.ts'
import { nodesOf, walkNodes } from '../../analyses/syntax.ts'
import type * as AST from '../../parse/ast.ts'
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
  for (const file of analyses.ir.files) {
    walkNodes(file.ast, (n) => {
      if (n.type === 'UsingForDeclaration') for (const f of n.functions) names.add(f.split('.').pop() ?? f)
      if (n.type === 'StateVariableDeclaration' && n.initialValue) {
        walkNodes(n.initialValue, (m) => {
          if (m.type === 'Identifier') names.add(m.name)
          if (m.type === 'MemberAccess') names.add(m.memberName)
        })
        return false
      }
      return n.type === 'SourceUnit' || n.type === 'ContractDefinition'
    })
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
