import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'
import { describeWrites, reentrantCalls, writeEvidence } from './reentrancy-paths.ts'

export const reentrancyEth = defineDetector({
  id: 'reentrancy-eth',
  title: 'Reentrancy with ETH transfer',
  category: 'reentrancy',
  severity: 'high',
  confidence: 'medium',
  explanation:
    'The callee receives control with ETH before the contract has recorded the consequences of the call, so it can call back in and act on the old state (the classic drain: withdrawing the same balance again and again). Calls to a callee fixed by the deployment (a constant, an immutable, this contract, or a state variable only restricted functions or the constructor set) are left to the medium and low reentrancy detectors.',
  recommendation:
    'Apply checks-effects-interactions: update all state before the external call, or guard every function that touches this state with a reentrancy lock (e.g. OpenZeppelin ReentrancyGuard).',
  detect({ analyses, entryPoints, report }) {
    for (const r of reentrantCalls(analyses, entryPoints)) {
      if (r.locked) continue
      if (!r.sendsEth || r.fixedCallee) continue
      const stale = r.writesAfter.filter((w) => w.readBefore)
      if (stale.length === 0) continue
      report(r.at.node, r.at.file, `${functionLabel(r.entryPoint.fn)} sends ETH with ${r.callDescription} and only afterwards writes ${describeWrites(stale, r.at.file)}, which it read before the call.`, { foundIn: [r.entryPoint], evidence: writeEvidence(stale) })
    }
  },
})
