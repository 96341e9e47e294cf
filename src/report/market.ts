import type { RiskLabel } from '../contract/common.ts'
import { rateFigure, type MarketRating } from './score-model.ts'

/**
 * The market figures both engines rate, their thresholds and weights (docs/scoring.md), so that
 * scores of tokens on any chain compare.
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
