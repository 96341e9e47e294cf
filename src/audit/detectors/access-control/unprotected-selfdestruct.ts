import type { EntryPoint } from '../../analyses/dispatch.ts'
import type { SourceFileIr, SourceNode } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

export const unprotectedSelfdestruct = defineDetector({
  id: 'unprotected-selfdestruct',
  title: 'Unprotected selfdestruct',
  category: 'access-control',
  severity: 'high',
  confidence: 'high',
  explanation:
    'Any caller can reach selfdestruct: the contract can be destroyed (before Cancun) or have its whole ETH balance sent away, and everything depending on it breaks.',
  recommendation: 'Restrict the path to selfdestruct to an owner or governance (a modifier or a msg.sender check), or remove it.',
  detect({ analyses, entryPoints, report }) {
    // `header`: reported at the entry point (the selfdestruct is in a dependency), shown by its signature.
    const found = new Map<SourceNode, { file: SourceFileIr; header: boolean; entries: EntryPoint[] }>()
    for (const unit of entryPoints) {
      const { fn: entry, context } = unit
      if (analyses.access.isProtected(entry, context)) continue
      for (const fn of analyses.dispatch.reachableFunctions(entry, context)) {
        const sites: SourceNode[] = []
        for (const call of fn.facts.calls) if (call.kind === 'builtin' && (call.name === 'selfdestruct' || call.name === 'suicide')) sites.push(call.node)
        for (const site of sites) {
          const at = fn.file.own ? site : entry.node
          const file = fn.file.own ? fn.file : entry.file
          const record = found.get(at) ?? { file, header: !fn.file.own, entries: [] }
          if (!record.entries.includes(unit)) record.entries.push(unit)
          found.set(at, record)
        }
      }
    }
    for (const [node, { file, header, entries }] of found) {
      const labels = [...new Set(entries.map((e) => functionLabel(e.fn)))]
      report(node, file, `Any caller can reach this selfdestruct through ${labels.join(', ')}.`, { header, foundIn: entries })
    }
  },
})
