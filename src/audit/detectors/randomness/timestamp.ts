import type { ValueSource } from '../../analyses/dataflow.ts'
import { decidedStake } from '../../analyses/stakes.ts'
import { blockValue } from '../../analyses/syntax.ts'
import type { ArithmeticIr, OperandIr, TermIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

/** How far block producers can move a timestamp without the block being rejected, in seconds. */
const TIMESTAMP_DRIFT_SECONDS = 15 * 60

const UNIT_SECONDS: Record<string, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400, weeks: 604800, years: 31536000 }

/** The seconds a term stands for when it is a number literal (`30 minutes` → 1800), else null. */
function seconds(term: TermIr): number | null {
  if (term.number === null) return null
  return term.number.value * (term.number.unit ? (UNIT_SECONDS[term.number.unit] ?? 1) : 1)
}

/** The smallest literal added to or subtracted from a value (`start + 30 seconds` → 30). */
function smallestWindow(operation: ArithmeticIr | null): number | null {
  if (operation === null || (operation.operator !== '+' && operation.operator !== '-')) return null
  const { left, right } = operation
  const candidates = [seconds(left), seconds(right), smallestWindow(left.operation), smallestWindow(right.operation)].filter((x): x is number => x !== null)
  return candidates.length > 0 ? Math.min(...candidates) : null
}

/**
 * The current block's timestamp: `block.timestamp` / `now`, or a copy of it in a local or returned
 * by a function (`uint t = now;`, `_now()`). A timestamp stored in state is a past time and is not one.
 */
const CURRENT_TIMESTAMP: ValueSource = { key: 'current-timestamp', matches: (node) => blockValue(node) === 'timestamp', copiesOnly: true, currentOnly: true }

export const timestamp = defineDetector({
  id: 'timestamp',
  title: 'Timestamp dependence',
  category: 'randomness',
  severity: 'medium',
  lowered:
    'Medium when the decision guards a payout (ETH sent, tokens moved, a self-destruct) or an ownership change, directly, several statements later or in a caller of the function making it (the finding names the line); low when it guards other state or is a view\'s answer; not reported when it only decides an event.',
  confidence: 'medium',
  explanation:
    'Block producers can shift block.timestamp by several seconds to minutes. A decision that needs the exact second (an equality) or a window shorter than that drift can be steered by whoever produces the block.',
  recommendation: 'Compare timestamps with inequalities and allow for a drift of 15 minutes or more; use block numbers or oracles for precise timing.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      // A copy of the timestamp (a local, a helper's return) is followed where the function can
      // act on the comparison (it changes state); in a view, only the timestamp itself counts.
      const follows = fn.mutability !== 'view' && fn.mutability !== 'pure'
      const isNow = (side: OperandIr): boolean =>
        side.environment === 'block.timestamp' || (follows && analyses.dataflow.reaches(side.expression, fn, CURRENT_TIMESTAMP))
      for (const { node: op, operator, left, right } of fn.facts.comparisons) {
        const other = isNow(left) ? right : isNow(right) ? left : null
        if (!other) continue
        let problem: string
        if (operator === '==' || operator === '!=') {
          problem = `${functionLabel(fn)} requires an exact timestamp: ${code(fn.file, op)}.`
        } else {
          const window = smallestWindow(other.term.operation)
          if (window === null || window <= 0 || window >= TIMESTAMP_DRIFT_SECONDS) continue
          problem = `${functionLabel(fn)} relies on a window of ${window} s, shorter than the drift block producers can apply: ${code(fn.file, op)}.`
        }
        // Severity by what the decision guards, here or in the callers it hands its answer to.
        const stake = decidedStake(analyses, fn, op)
        if (stake.kind === 'log') continue
        const serious = stake.kind === 'payout' || stake.kind === 'ownership'
        const guarded = serious && stake.node && stake.file ? ` It decides ${stake.kind === 'payout' ? 'a payout' : 'an ownership change'}: ${code(stake.file, stake.node)}.` : ''
        report(op, fn.file, `${problem}${guarded}`, {
          severity: serious ? 'medium' : 'low',
          evidence: serious && stake.node && stake.file ? [{ node: stake.node, file: stake.file }] : [],
        })
      }
    }
  },
})
