import { runCheck, type CheckDefinition, type CheckResult, type CheckTier } from '../checks/define-check.ts'
import type { RiskLabel } from '../http/schemas/common.ts'
import { rateFigure, scoreChecks, scoreMarket, type MarketRating, type ScoreFigures } from '../score/model.ts'
import { EVM_CHECKS } from './checks/registry.ts'
import type { EvmFacts } from './facts.ts'

/**
 * The token score (docs/scoring.md, "Token score"): the code score over the twelve code checks and
 * the honeypot simulation, the market score over the market figures below. Pure.
 */

/** Thresholds of the market figures: `[critical, great, good]`, and whether larger is better. */
export const MARKET_THRESHOLDS = {
  numberOfTradingPairs: { critical: 1, great: 2, good: 3, higherIsBetter: true },
  currentLiquidityUsd: { critical: 1_000, great: 10_000, good: 100_000, higherIsBetter: true },
  holdersCount: { critical: 10, great: 100, good: 1_000, higherIsBetter: true },
  topThreePercent: { critical: 80, great: 60, good: 40, higherIsBetter: false },
  topTenPercent: { critical: 90, great: 75, good: 50, higherIsBetter: false },
  ownerPercent: { critical: 50, great: 20, good: 5, higherIsBetter: false },
  creatorPercent: { critical: 50, great: 20, good: 5, higherIsBetter: false },
  lpHolderCount: { critical: 1, great: 2, good: 5, higherIsBetter: true },
  lockedLiquidityPercent: { critical: 50, great: 80, good: 95, higherIsBetter: true },
  /** LP held by the owner or creator, unlocked: they can pull the liquidity. */
  lpOwnerPercent: { critical: 50, great: 20, good: 5, higherIsBetter: false },
  /** Highest buy or sell tax over the pools. */
  taxPercent: { critical: 30, great: 10, good: 5, higherIsBetter: false },
  /** Days until an unlock of LP tokens. */
  unlockDays: { critical: 7, great: 30, good: 180, higherIsBetter: true },
} as const

/** Weight of each market figure in the market score. */
export const MARKET_WEIGHTS: Record<keyof typeof MARKET_THRESHOLDS, number> = {
  numberOfTradingPairs: 1,
  currentLiquidityUsd: 3,
  holdersCount: 2,
  topThreePercent: 1,
  topTenPercent: 2,
  ownerPercent: 2,
  creatorPercent: 1,
  lpHolderCount: 1,
  lockedLiquidityPercent: 3,
  lpOwnerPercent: 2,
  taxPercent: 3,
  unlockDays: 0,
}

/** The honeypot simulation counts in the code score with this tier. */
export const HONEYPOT_TIER: CheckTier = 'Critical'

export type MarketFigure = keyof typeof MARKET_THRESHOLDS

export function rate(figure: MarketFigure, value: number | undefined): MarketRating {
  return rateFigure(value, MARKET_THRESHOLDS[figure])
}

export interface MarketValues {
  numberOfTradingPairs?: number
  currentLiquidityUsd?: number
  holdersCount?: number
  topThreePercent?: number
  topTenPercent?: number
  ownerPercent?: number
  creatorPercent?: number
  lpHolderCount?: number
  lockedLiquidityPercent?: number
  lpOwnerPercent?: number
  taxPercent?: number
}

export interface TokenScore {
  checks: { definition: CheckDefinition<EvmFacts>; result: CheckResult }[]
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
  return { checks, honeypot, code, market: scoreMarket(figures), ratings }
}
