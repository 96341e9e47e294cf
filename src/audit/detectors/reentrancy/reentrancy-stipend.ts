import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'
import { describeWrites, reentrantCalls, writeEvidence } from './reentrancy-paths.ts'

export const reentrancyStipend = defineDetector({
  id: 'reentrancy-stipend',
  title: 'State settled after send or transfer',
  category: 'reentrancy',
  severity: 'low',
  confidence: 'medium',
  explanation:
    "The function pays with `send` or `transfer` and only afterwards writes state it read before the payment. The recipient's code runs with a stipend of 2,300 gas, which today is too little to write storage or call back in usefully, so this is not exploitable as it stands; but the stipend is a gas price, not a lock: gas costs have been repriced before (EIP-1884), some chains price operations differently, and code that later switches to `call` inherits a real reentrancy.",
  recommendation: 'Write the state before paying (checks-effects-interactions), or hold a reentrancy lock.',
  detect({ analyses, entryPoints, report }) {
    for (const r of reentrantCalls(analyses, entryPoints, 'stipend')) {
      if (r.locked || r.fixedCallee) continue
      const stale = r.writesAfter.filter((w) => w.readBefore && !w.releasesLock)
      if (stale.length === 0) continue
      report(r.at.node, r.at.file, `${functionLabel(r.entryPoint.fn)} pays with ${r.callDescription} (a 2,300-gas stipend) and only afterwards writes ${describeWrites(stale, r.at.file)}, which it read before.`, { foundIn: [r.entryPoint], evidence: writeEvidence(stale) })
    }
  },
})
