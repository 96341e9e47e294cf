import { failableAsserts } from '../../analyses/assertions.ts'
import { defineDetector } from '../define-detector.ts'
import { code, enumerate, functionLabel } from '../helpers.ts'

export const failingAssert = defineDetector({
  id: 'failing-assert',
  title: 'Assertion a caller can make fail',
  category: 'state',
  severity: 'low',
  confidence: 'medium',
  explanation:
    '`assert` states an invariant: a failing one means a bug (before Solidity 0.8 it also burns all the gas the caller gave). An `assert` whose condition depends on what a caller chooses (a parameter or a value derived from it, `msg.value`, `msg.sender`, or state any caller sets to a value of their choosing) with no earlier `require` or revert on the same values is input validation written as an invariant: any caller can make it fail. An assert in a modifier an entry point runs counts as the entry point\'s; an internal function\'s assert on its parameters counts when an entry point passes it such values unchecked. Not reported: asserts on values no caller chooses, asserts after a `require` on the same input, and the overflow check after arithmetic (`c = a + b; assert(c >= a)`).',
  recommendation: 'Validate inputs with `require` (or a custom error), and keep `assert` for conditions that can only fail through a bug.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      for (const { guard, inputs, caller } of failableAsserts(analyses, fn)) {
        const via = caller ? ` ${functionLabel(caller.fn)} passes them from its caller unchecked: ${code(caller.fn.file, caller.call)}.` : ''
        report(guard.node, fn.file, `${functionLabel(fn)} asserts on ${enumerate(inputs, 3)}, which a caller chooses, with no \`require\` ruling the failing values out: ${code(fn.file, guard.node)}.${via}`)
      }
    }
  },
})
