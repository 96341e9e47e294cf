import { defineDetector } from '../define-detector.ts'
import { code, droppedByCallers, functionLabel, resultChecked } from '../helpers.ts'

export const uncheckedSend = defineDetector({
  id: 'unchecked-send',
  title: 'Unchecked send',
  category: 'calls',
  severity: 'medium',
  confidence: 'high',
  explanation:
    '`send` returns false instead of reverting when the transfer fails (a contract recipient that rejects ETH or needs more than 2300 gas). When the result is ignored the payment silently does not happen.',
  recommendation: 'Check the result of `send` (`require(to.send(amount))`), or use `call{value: …}` with a checked result and a pull-payment design.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      for (const call of fn.facts.calls) {
        if (call.kind !== 'send' || resultChecked(analyses, fn, call)) continue
        const dropped = droppedByCallers(analyses, fn, call)
        report(call.node, fn.file, `${functionLabel(fn)} ignores the result of ${code(fn.file, call.node)}${dropped.text}.`, { evidence: dropped.evidence })
      }
    }
  },
})
