import type { TokenReport } from '../../contract/token-report.ts'
import { num, round2 } from './values.ts'

/**
 * What the hosted service's views read alike from the contract's report: the score figures and
 * the token-level honeypot verdict. Pure.
 */

export interface ScoreFigures {
  percent: number | ''
  achievedScore: number | ''
  maxScore: number | ''
  minScore: number | ''
}

function scoreOf(percent: string, part: { achievedScore: string; maxScore: string; minScore: string }): ScoreFigures {
  return { percent: num(percent), achievedScore: num(part.achievedScore), maxScore: num(part.maxScore), minScore: num(part.minScore) }
}

/**
 * Code and market as the contract gives them; the total's figures are their sums, its achieved
 * score what its percentage says (a token no holder can sell is capped at 0, docs/scoring.md).
 */
export function scoresOf(report: TokenReport): { total: ScoreFigures; code: ScoreFigures; market: ScoreFigures } {
  const s = report.tokenScore
  const code = scoreOf(s.codeScorePercentage, s.codeScore)
  const market = scoreOf(s.marketScorePercentage, s.marketScore)
  const add = (a: number | '', b: number | '') => (a === '' ? b : b === '' ? a : round2(a + b))
  const percent = num(s.totalScorePercentage)
  const sum = add(code.achievedScore, market.achievedScore)
  // The contract caps the total of a token no holder can sell at 0: its percentage says so.
  const achieved = sum !== '' && sum > 0 && percent !== '' && percent <= 0 ? 0 : sum
  return { total: { percent, achievedScore: achieved, maxScore: add(code.maxScore, market.maxScore), minScore: add(code.minScore, market.minScore) }, code, market }
}

/** 1 when selling failed on any pool, 0 when a sale was measured to work on every pool decided, "" when no sale could be simulated. */
export function tokenHoneypotOf(report: TokenReport): 0 | 1 | '' {
  const pools = report.honeypotDetails
  if (pools.some((p) => p.isPairHoneypot === '1')) return 1
  return pools.some((p) => p.isPairHoneypot === '0') ? 0 : ''
}

/**
 * The honeypot verdict as the label it counts with: the simulation weighs as a Critical power in
 * the code score, so a trap is Critical and its measured absence Great To Have, like any other
 * Critical power's; "" when unknown.
 */
export function honeypotLabel(isTokenHoneypot: 0 | 1 | ''): string {
  return isTokenHoneypot === '' ? '' : isTokenHoneypot === 1 ? 'Critical' : 'Great To Have'
}
