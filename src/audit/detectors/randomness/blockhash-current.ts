import { blockValue, unwrap } from '../../analyses/syntax.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

export const blockhashCurrent = defineDetector({
  id: 'blockhash-current',
  title: 'blockhash of the current or a future block',
  category: 'randomness',
  severity: 'medium',
  confidence: 'high',
  explanation:
    '`blockhash(n)` is zero for the current block and any later one (and for blocks more than 256 in the past), so the value is a constant, not a hash.',
  recommendation: 'Use the hash of an earlier block that is less than 256 blocks old, and do not use block hashes as randomness.',
  detect({ functions, report }) {
    for (const fn of functions) {
      for (const call of fn.facts.calls) {
        if (call.kind !== 'builtin' || call.name !== 'blockhash' || call.args.length !== 1) continue
        const arg = unwrap(call.args[0])
        const current = blockValue(arg) === 'number'
        const sum = fn.facts.arithmetic.find((o) => o.node === arg && o.operator === '+')
        const future = sum !== undefined && (blockValue(sum.left.expression) === 'number' || blockValue(sum.right.expression) === 'number')
        if (!current && !future) continue
        report(call.node, fn.file, `${functionLabel(fn)} reads ${code(fn.file, call.node)}, which is always zero.`)
      }
    }
  },
})
