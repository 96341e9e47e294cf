import { normalised, resultHolder } from '../../analyses/syntax.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

export const ecrecoverZero = defineDetector({
  id: 'ecrecover-zero',
  title: 'ecrecover result not checked against zero',
  category: 'cryptography',
  severity: 'medium',
  confidence: 'medium',
  explanation:
    '`ecrecover` returns address(0) for an invalid signature instead of reverting. Compared with an address that is unset (zero) it validates any garbage signature.',
  recommendation: 'Reject a zero result (`require(signer != address(0))`), or use OpenZeppelin ECDSA.recover, which reverts on invalid signatures.',
  detect({ ir, functions, report }) {
    for (const fn of functions) {
      for (const call of fn.facts.calls) {
        if (call.kind !== 'builtin' || call.name !== 'ecrecover') continue
        // What holds the result: the call itself or the local it is stored in.
        const holder = resultHolder(ir, call)
        const holderText = normalised(fn.file, holder)
        // A guard whose condition compares the holder with zero (`require(signer != address(0))`).
        const zeroChecked = fn.facts.guards.some((g) =>
          fn.facts.conditions.some(
            (c) =>
              c.node === g.condition &&
              c.comparisons.some(
                ({ operator, left, right }) =>
                  (operator === '==' || operator === '!=') &&
                  ((left.zero && normalised(fn.file, right.expression) === holderText) || (right.zero && normalised(fn.file, left.expression) === holderText)),
              ),
          ),
        )
        if (zeroChecked) continue
        report(call.node, fn.file, `${functionLabel(fn)} never rejects a zero result of ${code(fn.file, call.node)}.`)
      }
    }
  },
})
