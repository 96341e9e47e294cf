import { decidedStake } from '../../analyses/stakes.ts'
import { blockValue } from '../../analyses/syntax.ts'
import type { OperandIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

/** How far block producers can move a timestamp without the block being rejected, in seconds. */
const TIMESTAMP_DRIFT_SECONDS = 15 * 60

export const timestamp = defineDetector({
  id: 'timestamp',
  title: 'Timestamp dependence',
  category: 'randomness',
  severity: 'medium',
  lowered:
    'Medium when the decision guards a payout (ETH sent, tokens moved, a self-destruct) or an ownership change, directly, several statements later or in a caller of the function making it (the finding names the line); low when it guards other state or is a view\'s answer; not reported when it only decides an event.',
  confidence: 'medium',
  explanation:
    'Block producers can shift block.timestamp by several seconds to minutes. A decision that needs the exact second (an equality) or a window shorter than that drift can be steered by whoever produces the block. The window is read where it is written (`last + 30 seconds`, `now - last < 1 minutes`, `last + ONE_MINUTE` with the constant resolved) or where the compared deadline was stored (`deadline = now + 5 minutes` in one function, `now <= deadline` in another, or a local holding it). Not reported: deadlines with a tolerance of 15 minutes or more, timestamps stored only to be shown.',
  recommendation: 'Compare timestamps with inequalities and allow for a drift of 15 minutes or more; use block numbers or oracles for precise timing.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      // A copy of the timestamp (a local, a helper's return) is followed where the function can
      // act on the comparison (it changes state); in a view, only the timestamp itself counts.
      const follows = fn.mutability !== 'view' && fn.mutability !== 'pure'
      const isNow = (side: OperandIr): boolean => side.environment === 'block.timestamp' || (follows && analyses.blockData.isCurrentTime(side.expression, fn))
      const isElapsed = (side: OperandIr): boolean => {
        const e = side.expression
        return e.type === 'BinaryOperation' && e.operator === '-' && (blockValue(e.left) === 'timestamp' || (follows && analyses.blockData.isCurrentTime(e.left, fn)))
      }
      for (const { node: op, operator, left, right } of fn.facts.comparisons) {
        const other = isNow(left) ? right : isNow(right) ? left : null
        let problem: string
        if (!other) {
          // The time elapsed since a moment, against a duration: `now - lastClaim < 1 minutes`.
          const elapsed = isElapsed(left) ? right : isElapsed(right) ? left : null
          const window = elapsed && operator !== '==' && operator !== '!=' ? analyses.blockData.seconds(elapsed.expression, fn) : null
          if (window === null || window <= 0 || window >= TIMESTAMP_DRIFT_SECONDS) continue
          problem = `${functionLabel(fn)} relies on a window of ${window} s, shorter than the drift block producers can apply: ${code(fn.file, op)}.`
        } else if (operator === '==' || operator === '!=') {
          problem = `${functionLabel(fn)} requires an exact timestamp: ${code(fn.file, op)}.`
        } else {
          // The window as written (`start + 30 seconds`, `last + ONE_MINUTE`) or where the stored
          // deadline compared was set (`deadline = now + 5 minutes` in another function).
          const window = analyses.blockData.timeWindow(other.expression, fn)
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
