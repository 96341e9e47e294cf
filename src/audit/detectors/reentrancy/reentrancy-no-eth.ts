import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'
import { describeWrites, reentrantCalls, writeEvidence } from './reentrancy-paths.ts'

export const reentrancyNoEth = defineDetector({
  id: 'reentrancy-no-eth',
  title: 'Reentrancy without ETH transfer',
  category: 'reentrancy',
  severity: 'medium',
  confidence: 'medium',
  explanation:
    'An external call hands control to another contract (a token with hooks, a callback, an untrusted address) while state read before the call is only updated after it; a reentrant call acts on the stale value.',
  recommendation:
    'Update state before making external calls (checks-effects-interactions) or protect the function with a reentrancy lock.',
  detect({ analyses, entryPoints, report }) {
    for (const r of reentrantCalls(analyses, entryPoints)) {
      if (r.locked) continue
      if (r.sendsEth) continue
      const stale = r.writesAfter.filter((w) => w.readBefore)
      if (stale.length === 0) continue
      report(r.at.node, r.at.file, `${functionLabel(r.entryPoint.fn)} calls ${r.callDescription} and only afterwards writes ${describeWrites(stale, r.at.file)}, which it read before the call.`, { foundIn: [r.entryPoint], evidence: writeEvidence(stale) })
    }
  },
})
