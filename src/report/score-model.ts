import { RISK_SCALE, riskRating, type RatedLabel, type RiskLabel } from '../contract/common.ts'
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
 * Market score: every known market figure is rated by thresholds into a label of the scale; each
 * earns between −weight (Critical) and +weight (Great To Have), 0 at Neutral, so the percentage
 * lies in [-100, 100]: penalties may take it below zero.
 *
 * Every figure is written with two decimals ("73.61", "-37.50", "10.00").
 */
export const TIER_WEIGHTS: Record<CheckTier, number> = {
  Critical: 10,
  RISKY: 6,
  'Medium Risk': 3,
  Neutral: 1,
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
 * A market figure rated by thresholds: `label` is where its value falls on the scale, from
 * 'Critical' (dangerous) through 'Neutral' to 'Great To Have'; "" when the figure is unknown.
 */
export interface MarketRating {
  label: RiskLabel
  /** Share of this figure's weight earned: −1 (Critical) to +1 (Great To Have), 0 at Neutral; 0 when unknown. */
  fraction: number
}

/** The neutral point of the scale (rating 3): a figure there earns nothing and costs nothing. */
const NEUTRAL_RATING = 3

/** The share of a figure's weight a label earns: (rating − 3) / 3. */
export function labelFraction(label: RiskLabel): number {
  const rating = riskRating(label)
  return rating === undefined ? 0 : (rating - NEUTRAL_RATING) / NEUTRAL_RATING
}

/**
 * How a figure is rated: `bands` from best to worst, each the label a value earns when it is at
 * least (`higherIsBetter`) or at most (otherwise) its bound; a value past every band is Critical.
 */
export interface FigureBands {
  higherIsBetter: boolean
  bands: readonly (readonly [bound: number, label: RatedLabel])[]
}

/** Rates a figure by its bands (docs/scoring.md); "" when it is unknown. */
export function rateFigure(value: number | undefined, rule: FigureBands): MarketRating {
  if (value === undefined || !Number.isFinite(value)) return { label: '', fraction: 0 }
  const band = rule.bands.find(([bound]) => (rule.higherIsBetter ? value >= bound : value <= bound))
  const label: RatedLabel = band ? band[1] : RISK_SCALE[0]
  return { label, fraction: labelFraction(label) }
}

export function scoreMarket(figures: { rating: MarketRating; weight: number }[]): ScoreFigures {
  let achieved = 0
  let max = 0
  for (const { rating, weight } of figures) {
    if (rating.label === '') continue
    max += weight
    achieved += weight * rating.fraction
  }
  return { achievedScore: achieved, maxScore: max, minScore: -max }
}

/** Formats a score figure as a decimal string with two places ("73.61", "-37.50", "0.00"). */
export function formatScore(value: number): string {
  if (!Number.isFinite(value)) return ''
  const rounded = Math.round(value * 100) / 100
  return (rounded === 0 ? 0 : rounded).toFixed(2)
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
