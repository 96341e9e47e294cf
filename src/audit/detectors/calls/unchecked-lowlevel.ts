import { defineDetector } from '../define-detector.ts'
import { code, droppedByCallers, functionLabel, resultChecked } from '../helpers.ts'

export const uncheckedLowLevel = defineDetector({
  id: 'unchecked-lowlevel',
  title: 'Unchecked low-level call',
  category: 'calls',
  severity: 'medium',
  confidence: 'medium',
  explanation:
    'A low-level call (`call`, `delegatecall`, `staticcall`, `callcode`) does not revert when the callee fails; it returns false. Ignoring that value lets the function carry on as if the call had succeeded (lost payments, skipped actions). Calls made in inline assembly count too (their success is checked when an `if`, `switch` or later read looks at it); a `staticcall` made there is left alone, since it changes nothing and its output lands in memory the code prepared.',
  recommendation: 'Check the returned success flag (`require(success)`), or use a wrapper that reverts on failure such as OpenZeppelin Address.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      for (const call of fn.facts.calls) {
        if (call.kind !== 'low-level' || resultChecked(analyses, fn, call)) continue
        // In assembly a failed staticcall changes nothing and leaves the output memory as the code prepared it.
        if (call.assembly && call.lowLevel === 'staticcall') continue
        const dropped = droppedByCallers(analyses, fn, call)
        report(call.node, fn.file, `${functionLabel(fn)} ignores whether ${code(fn.file, call.node)} succeeded${dropped.text}.`, { evidence: dropped.evidence })
      }
    }
  },
})
