import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'
import { lineIn, reentrantCalls } from './reentrancy-paths.ts'

export const reentrancyEvents = defineDetector({
  id: 'reentrancy-events',
  title: 'Event emitted after an external call',
  category: 'reentrancy',
  severity: 'informational',
  confidence: 'medium',
  explanation:
    'An event is emitted after an external call that could reenter; a reentrant call emits its events first, so off-chain indexers see events out of order or for operations that were later undone.',
  recommendation: 'Emit events before the external call, or protect the function with a reentrancy lock.',
  detect({ analyses, entryPoints, report }) {
    for (const r of reentrantCalls(analyses, entryPoints)) {
      if (r.locked) continue
      if (r.eventsAfter.length === 0) continue
      const sameFile = r.eventsAfter.every((e) => e.file === r.at.file)
      const lines = sameFile
        ? `line ${[...new Set(r.eventsAfter.map((e) => e.node.loc?.start.line ?? '?'))].join(', ')}`
        : [...new Set(r.eventsAfter.map((e) => lineIn(e.node, e.file, r.at.file)))].join(', ')
      report(r.at.node, r.at.file, `${functionLabel(r.entryPoint.fn)} calls ${r.callDescription} and emits an event after it (${lines}).`, { foundIn: [r.entryPoint], evidence: r.eventsAfter })
    }
  },
})
