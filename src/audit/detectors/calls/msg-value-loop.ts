import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

export const msgValueLoop = defineDetector({
  id: 'msg-value-loop',
  title: 'msg.value used in a loop',
  category: 'calls',
  severity: 'high',
  confidence: 'medium',
  explanation:
    '`msg.value` is the ETH of the whole call; reading it on every iteration credits the same payment once per item (batch buys, multi-deposits paid once and counted many times).',
  recommendation: 'Track the amount consumed in a local variable and check the total against msg.value once.',
  detect({ ir, functions, report }) {
    for (const fn of functions) {
      const reported = new Set<unknown>()
      for (const { value, node } of fn.facts.environment) {
        if (value !== 'msg.value') continue
        const loop = ir.info(node)?.loop
        if (!loop || reported.has(loop)) continue
        reported.add(loop)
        report(node, fn.file, `${functionLabel(fn)} reads msg.value inside a loop.`)
      }
    }
  },
})
