import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'
import { describeWrites, reentrantCalls, writeEvidence } from './reentrancy-paths.ts'

export const reentrancyBenign = defineDetector({
  id: 'reentrancy-benign',
  title: 'State written after an external call',
  category: 'reentrancy',
  severity: 'informational',
  confidence: 'medium',
  explanation:
    'State is updated after an external call. The function did not read that state before the call, so a reentrant call cannot exploit a stale value in this function, but other functions may observe the intermediate state.',
  recommendation: 'Move the state updates before the external call, or add a reentrancy lock.',
  detect({ analyses, entryPoints, report }) {
    for (const r of reentrantCalls(analyses, entryPoints)) {
      if (r.locked) continue
      if (r.writesAfter.some((w) => w.readBefore)) continue
      if (r.writesAfter.length === 0) continue
      report(r.at.node, r.at.file, `${functionLabel(r.entryPoint.fn)} calls ${r.callDescription} and writes ${describeWrites(r.writesAfter, r.at.file)} after it.`, { foundIn: [r.entryPoint], evidence: writeEvidence(r.writesAfter) })
    }
  },
})
