import { scoreChecks, scoreMarket, type MarketRating, type ScoreFigures } from '../../report/score-model.ts'
import type { CheckDefinition, CheckResult } from '../../report/define-check.ts'
import type { RiskLabel } from '../../contract/common.ts'
import { MARKET_WEIGHTS, rate, type MarketFigure, type MarketValues } from '../../report/market.ts'
import type { SolanaFacts } from './collect/facts.ts'

/**
 * The Solana token score: the shared model (src/report/score-model.ts) with the EVM report's market
 * figures, thresholds and weights (src/engines/evm/score.ts), so scores of both chains compare.
 * Code score over the Solana checks; market score over the figures a Solana RPC yields: pools,
 * liquidity, holders, concentration, LP burned or held, and the transfer fee as the tax.
 */
export interface SolanaScore {
  code: ScoreFigures
  market: ScoreFigures
  /** Rating of every market figure ("" when the figure is unknown). */
  ratings: Record<MarketFigure, RiskLabel>
}

export function scoreSolana(checks: { definition: CheckDefinition<SolanaFacts>; result: CheckResult }[], values: MarketValues): SolanaScore {
  const ratings = {} as Record<MarketFigure, RiskLabel>
  const figures: { rating: MarketRating; weight: number }[] = []
  for (const figure of Object.keys(MARKET_WEIGHTS) as MarketFigure[]) {
    const rating = rate(figure, values[figure as keyof MarketValues])
    ratings[figure] = rating.label
    if (figure !== 'unlockDays') figures.push({ rating, weight: MARKET_WEIGHTS[figure] })
  }
  return { code: scoreChecks(checks), market: scoreMarket(figures), ratings }
}

export type { MarketFigure, MarketValues }
