import { rateFigure, type FigureBands, type MarketRating } from './score-model.ts'

/**
 * The market figures both engines rate, their thresholds and weights (docs/scoring.md), so that
 * scores of tokens on any chain compare.
 */

const atLeast = (...bands: FigureBands['bands']): FigureBands => ({ higherIsBetter: true, bands })
const atMost = (...bands: FigureBands['bands']): FigureBands => ({ higherIsBetter: false, bands })

/**
 * How each market figure is rated (docs/scoring.md): bands from best to worst, each the label a
 * value earns at or above (`atLeast`) or at or below (`atMost`) its bound; past the last band a
 * figure is Critical. A figure may skip labels.
 */
export const MARKET_THRESHOLDS = {
  numberOfTradingPairs: atLeast([20, 'Great To Have'], [3, 'Good To Have'], [2, 'Nice To Have'], [1, 'Neutral']),
  currentLiquidityUsd: atLeast(
    [10_000_000, 'Great To Have'], [1_000_000, 'Good To Have'], [100_000, 'Nice To Have'], [50_000, 'Neutral'],
    [10_000, 'Medium Risk'], [1_000, 'RISKY'],
  ),
  holdersCount: atLeast([10_000, 'Great To Have'], [1_000, 'Good To Have'], [500, 'Nice To Have'], [100, 'Neutral'], [50, 'Medium Risk'], [10, 'RISKY']),
  topThreePercent: atMost([10, 'Great To Have'], [15, 'Good To Have'], [25, 'Nice To Have'], [40, 'Neutral'], [60, 'Medium Risk'], [80, 'RISKY']),
  topTenPercent: atMost([15, 'Great To Have'], [25, 'Good To Have'], [35, 'Nice To Have'], [50, 'Neutral'], [75, 'Medium Risk'], [90, 'RISKY']),
  ownerPercent: atMost([0, 'Great To Have'], [1, 'Good To Have'], [5, 'Neutral'], [20, 'Medium Risk'], [50, 'RISKY']),
  creatorPercent: atMost([0, 'Great To Have'], [1, 'Good To Have'], [5, 'Neutral'], [20, 'Medium Risk'], [50, 'RISKY']),
  lpHolderCount: atLeast([100, 'Great To Have'], [20, 'Good To Have'], [5, 'Nice To Have'], [2, 'Neutral'], [1, 'Medium Risk']),
  lockedLiquidityPercent: atLeast([99, 'Great To Have'], [95, 'Good To Have'], [90, 'Nice To Have'], [80, 'Neutral'], [65, 'Medium Risk'], [50, 'RISKY']),
  /** LP held by the owner or creator, unlocked: they can pull the liquidity. */
  lpOwnerPercent: atMost([0, 'Great To Have'], [1, 'Good To Have'], [5, 'Neutral'], [20, 'Medium Risk'], [50, 'RISKY']),
  /** Highest buy or sell tax over the pools. */
  taxPercent: atMost([0, 'Great To Have'], [1, 'Good To Have'], [3, 'Nice To Have'], [5, 'Neutral'], [10, 'Medium Risk'], [30, 'RISKY']),
  /** The largest single holder outside pools and burn addresses, percent of the supply (Solana). */
  largestHolderPercent: atMost([2, 'Great To Have'], [5, 'Good To Have'], [10, 'Nice To Have'], [20, 'Neutral'], [35, 'Medium Risk'], [50, 'RISKY']),
  /** Days since the token was created (Solana: the transaction that initialised the mint). */
  tokenAgeDays: atLeast([365, 'Great To Have'], [180, 'Good To Have'], [30, 'Nice To Have'], [7, 'Neutral'], [1, 'Medium Risk'], [1 / 24, 'RISKY']),
  /** Days until an unlock of LP tokens. */
  unlockDays: atLeast([730, 'Great To Have'], [365, 'Good To Have'], [180, 'Nice To Have'], [90, 'Neutral'], [30, 'Medium Risk'], [7, 'RISKY']),
} as const satisfies Record<string, FigureBands>

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
  largestHolderPercent: 2,
  tokenAgeDays: 1,
  unlockDays: 0,
}

/** Figures only the Solana engine measures so far: the EVM score leaves them out. */
export const SOLANA_ONLY_FIGURES: readonly MarketFigure[] = ['largestHolderPercent', 'tokenAgeDays']

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
  largestHolderPercent?: number
  tokenAgeDays?: number
}
