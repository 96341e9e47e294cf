import type { RiskLabel } from '../contract/common.ts'
import { tierOf, type CheckDefinition, type CheckResult, type CheckTier } from './define-check.ts'

/**
 * The score model (docs/scoring.md). Shared by EVM and Solana reports.
 *
 * Code score: every decided check contributes its tier's weight — `+weight` when the risky
 * capability is absent, `-weight × PRESENT_RISK_PENALTY` when present: one risk present costs
 * more than one absent risk earns, so that a single Critical risk cannot hide among a dozen
 * passed checks. `maxScore` is the sum of the weights of the decided checks, `minScore` the sum
 * of their penalties (negative); the percentage (achieved / max × 100) lies in
 * [-100 × PRESENT_RISK_PENALTY, 100]. Undecided checks are left out of all three figures.
 *
 * Market score: every known market figure is rated into a tier by thresholds; each contributes
 * between 0 (Critical) and its weight (healthy), so the percentage lies in [0, 100].
 */
export const TIER_WEIGHTS: Record<CheckTier, number> = {
  Critical: 10,
  'Great To Have': 6,
  'Good To Have': 3,
  'Nice To Have': 1,
}

/** How many times its weight a present risk costs (an absent one earns its weight once). */
export const PRESENT_RISK_PENALTY = 4

export interface ScoreFigures {
  achievedScore: number
  maxScore: number
  minScore: number
}

/** How many checks were decided (performed) of those the report has (total): unknown ones count in neither score. */
export interface CheckCounts {
  checksPerformed: number
  checksTotal: number
}

/** Counts the decided checks among `results`. */
export function checkCounts(results: readonly { result: CheckResult }[]): CheckCounts {
  return { checksPerformed: results.filter((r) => r.result.status !== 'undetermined').length, checksTotal: results.length }
}

export function scoreChecks(results: { definition: Pick<CheckDefinition<unknown>, 'tier'>; result: CheckResult }[]): ScoreFigures {
  let achieved = 0
  let max = 0
  for (const { definition, result } of results) {
    if (result.status === 'undetermined') continue
    const weight = TIER_WEIGHTS[tierOf(definition, result)]
    max += weight
    achieved += result.status === 'absent' ? weight : -weight * PRESENT_RISK_PENALTY
  }
  return { achievedScore: achieved, maxScore: max, minScore: -max * PRESENT_RISK_PENALTY }
}

/**
 * A market figure rated by thresholds. `rating` is the label for how far the figure is from
 * healthy: 'Critical' (dangerous) → 'Great To Have' (weak: improving it matters a lot) →
 * 'Good To Have' (moderate) → 'Nice To Have' (healthy). "" when the figure is unknown.
 */
export interface MarketRating {
  label: RiskLabel
  /** Share of this figure's weight earned (Critical 0, Great 1/3, Good 2/3, Nice 1). */
  fraction: number
}

const FRACTIONS: Record<CheckTier, number> = { Critical: 0, 'Great To Have': 1 / 3, 'Good To Have': 2 / 3, 'Nice To Have': 1 }

/**
 * Rates a figure against ascending thresholds `[critical, great, good]` where larger is better
 * (e.g. liquidity), or descending ones where smaller is better (e.g. top-ten share).
 */
export function rateFigure(value: number | undefined, thresholds: { critical: number; great: number; good: number; higherIsBetter: boolean }): MarketRating {
  if (value === undefined || !Number.isFinite(value)) return { label: '', fraction: 0 }
  const { critical, great, good, higherIsBetter } = thresholds
  let label: CheckTier
  if (higherIsBetter) label = value < critical ? 'Critical' : value < great ? 'Great To Have' : value < good ? 'Good To Have' : 'Nice To Have'
  else label = value > critical ? 'Critical' : value > great ? 'Great To Have' : value > good ? 'Good To Have' : 'Nice To Have'
  return { label, fraction: FRACTIONS[label] }
}

export function scoreMarket(figures: { rating: MarketRating; weight: number }[]): ScoreFigures {
  let achieved = 0
  let max = 0
  for (const { rating, weight } of figures) {
    if (rating.label === '') continue
    max += weight
    achieved += weight * rating.fraction
  }
  return { achievedScore: achieved, maxScore: max, minScore: 0 }
}

/** Formats a score figure as the contract's decimal string (at most two decimals). */
export function formatScore(value: number): string {
  if (!Number.isFinite(value)) return ''
  return String(Math.round(value * 100) / 100)
}

export function percentage(figures: ScoreFigures): string {
  return figures.maxScore === 0 ? '' : formatScore((figures.achievedScore / figures.maxScore) * 100)
}

/**
 * Total: code and market figures added together, as a percentage of their joint maximum. A
 * token that cannot be sold on any of its pools (`exitBlocked`: every pool where a sale was
 * tried is a honeypot) scores at most 0, whatever else it does well: no market figure makes up
 * for holders who cannot get out.
 */
export function totalPercentage(code: ScoreFigures, market: ScoreFigures, options: { exitBlocked?: boolean } = {}): string {
  const figures = {
    achievedScore: code.achievedScore + market.achievedScore,
    maxScore: code.maxScore + market.maxScore,
    minScore: code.minScore + market.minScore,
  }
  if (options.exitBlocked && figures.achievedScore > 0) figures.achievedScore = 0
  return percentage(figures)
}

/**
 * Whether no pool was measured to let a holder sell: some pool is a honeypot, and every other one
 * is a honeypot too or could not be simulated ("" — no exit was measured there either).
 */
export function exitBlocked(pools: readonly { isPairHoneypot: string }[]): boolean {
  return pools.some((p) => p.isPairHoneypot === '1') && pools.every((p) => p.isPairHoneypot !== '0')
}
