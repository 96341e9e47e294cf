import { runCheck, type CheckDefinition, type CheckResult, type CheckTier } from '../../report/define-check.ts'
import type { RiskLabel } from '../../contract/common.ts'
import { MARKET_WEIGHTS, rate, type MarketFigure, type MarketValues } from '../../report/market.ts'
import { checkCounts, scoreChecks, scoreMarket, type CheckCounts, type MarketRating, type ScoreFigures } from '../../report/score-model.ts'
import { EVM_CHECKS } from './checks/registry.ts'
import type { EvmFacts } from './facts.ts'

/**
 * The token score (docs/scoring.md, "Token score"): the code score over the twelve code checks and
 * the honeypot simulation, the market score over the market figures below. Pure.
 */

/** The honeypot simulation counts in the code score with this tier. */
export const HONEYPOT_TIER: CheckTier = 'Critical'

export interface TokenScore {
  checks: { definition: CheckDefinition<EvmFacts>; result: CheckResult }[]
  counts: CheckCounts
  honeypot: CheckResult
  code: ScoreFigures
  market: ScoreFigures
  ratings: Partial<Record<MarketFigure, RiskLabel>>
}

/** Whether any pool is a honeypot, as a check result (decided when a sell was simulated). */
export function honeypotResult(facts: EvmFacts): CheckResult {
  const decided = facts.trades.filter((t) => t.honeypot !== undefined)
  const trap = decided.find((t) => t.honeypot)
  if (trap) return { status: 'present', method: 'simulated', evidence: `${trap.pool.dex} ${trap.pool.address}: ${trap.honeypotReason}` }
  if (decided.length === 0) return { status: 'undetermined', method: 'not determinable', evidence: 'no sell simulated' }
  return { status: 'absent', method: 'simulated', evidence: `sold on ${decided.length} pool(s)` }
}

export function scoreToken(facts: EvmFacts, values: MarketValues): TokenScore {
  const checks = EVM_CHECKS.map((definition) => ({ definition, result: runCheck(definition, facts) }))
  const honeypot = honeypotResult(facts)
  const code = scoreChecks([...checks, { definition: { tier: HONEYPOT_TIER }, result: honeypot }])
  const ratings: Partial<Record<MarketFigure, RiskLabel>> = {}
  const figures: { rating: MarketRating; weight: number }[] = []
  for (const key of Object.keys(MARKET_WEIGHTS) as MarketFigure[]) {
    if (key === 'unlockDays') continue
    const rating = rate(key, values[key as keyof MarketValues])
    ratings[key] = rating.label
    figures.push({ rating, weight: MARKET_WEIGHTS[key] })
  }
  return { checks, counts: checkCounts(checks), honeypot, code, market: scoreMarket(figures), ratings }
}
