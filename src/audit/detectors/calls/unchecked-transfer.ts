import { isThis } from '../../analyses/syntax.ts'
import { defineDetector } from '../define-detector.ts'
import { code, droppedByCallers, functionLabel, resultChecked } from '../helpers.ts'

/** ERC-20 functions whose boolean result reports failure, with their argument counts. */
const TOKEN_FUNCTIONS: Record<string, number> = { transfer: 2, transferFrom: 3 }

export const uncheckedTransfer = defineDetector({
  id: 'unchecked-transfer',
  title: 'Unchecked ERC-20 transfer',
  category: 'calls',
  severity: 'high',
  lowered: 'High for a `transferFrom` into the contract (it counts tokens it never received: a caller is credited for nothing); medium otherwise (a payout recorded as made that never was).',
  confidence: 'medium',
  explanation:
    'Many ERC-20 tokens return false instead of reverting when a transfer fails. Ignoring the returned value credits or releases funds for a transfer that never happened.',
  recommendation: 'Use OpenZeppelin SafeERC20 (`safeTransfer`, `safeTransferFrom`), or require the returned value to be true.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      for (const call of fn.facts.calls) {
        if (call.kind !== 'external' || TOKEN_FUNCTIONS[call.name] !== call.args.length) continue
        if (call.callee !== null && call.callee.returns.length === 0) continue
        if (resultChecked(analyses, fn, call)) continue
        // Pulled into the contract: it goes on as if it had been paid.
        const incoming = call.name === 'transferFrom' && call.args.length === 3 && isThis(call.args[1])
        const dropped = droppedByCallers(analyses, fn, call)
        report(call.node, fn.file, `${functionLabel(fn)} ignores the boolean returned by ${code(fn.file, call.node)}${dropped.text}${incoming ? `${dropped.text ? ';' : ':'} a token that returns false moves nothing and the function goes on as if paid` : ''}.`, { severity: incoming ? 'high' : 'medium', evidence: dropped.evidence })
      }
    }
  },
})
