import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

export const lowLevelCalls = defineDetector({
  id: 'low-level-calls',
  title: 'Low-level call',
  category: 'calls',
  severity: 'informational',
  confidence: 'high',
  explanation:
    'Low-level calls bypass type checking, do not check that the target has code, and report failure only through their return value; every one deserves a careful look.',
  recommendation: 'Prefer typed interface calls; where a low-level call is needed, check success and the target, and document why.',
  detect({ functions, report }) {
    for (const fn of functions) {
      for (const call of fn.facts.calls) {
        if (call.kind !== 'low-level') continue
        report(call.node, fn.file, `${functionLabel(fn)} makes a low-level \`${call.lowLevel}\`: ${code(fn.file, call.node)}.`)
      }
    }
  },
})
