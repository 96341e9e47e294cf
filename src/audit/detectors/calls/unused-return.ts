import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

/** Calls covered by `unchecked-transfer`. */
const COVERED_ELSEWHERE: ReadonlySet<string> = new Set(['transfer', 'transferFrom'])

export const unusedReturn = defineDetector({
  id: 'unused-return',
  title: 'Unused return value of an external call',
  category: 'calls',
  severity: 'medium',
  confidence: 'medium',
  explanation:
    'The return value of an external call is discarded. Interfaces return values for a reason (amounts actually swapped, success flags, created ids); ignoring them usually means an unhandled failure or a wrong assumption about the outcome.',
  recommendation: 'Use or check the returned value; if it is truly irrelevant, make that explicit with a comment.',
  detect({ functions, report }) {
    for (const fn of functions) {
      for (const call of fn.facts.calls) {
        if (call.kind !== 'external' || call.resultUsed || call.callee === null || call.callee.returns.length === 0) continue
        if (COVERED_ELSEWHERE.has(call.name)) continue
        report(call.node, fn.file, `${functionLabel(fn)} discards what ${code(fn.file, call.node)} returns.`)
      }
    }
  },
})
