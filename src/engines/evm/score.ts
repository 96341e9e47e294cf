import type { CheckResult, CheckTier } from '../../report/define-check.ts'
import type { RiskLabel } from '../../contract/common.ts'
import { share } from '../../report/format.ts'
import { MARKET_WEIGHTS, SOLANA_ONLY_FIGURES, rate, type MarketFigure, type MarketValues } from '../../report/market.ts'
import type { CheckOutcome, ScoredReport } from '../../report/pipeline.ts'
import { checkCounts, scoreChecks, scoreMarket, type CheckCounts, type MarketRating } from '../../report/score-model.ts'
import type { EvmFacts, HolderFact } from './facts.ts'

/**
 * The score stage of EVM reports (docs/scoring.md, "Token score"): the code score over the code
 * checks' outcomes and the honeypot simulation, the market score over the market figures of the
 * facts (`marketValues`). Pure.
 */

/** The honeypot simulation counts in the code score with this tier. */
export const HONEYPOT_TIER: CheckTier = 'Critical'

export interface TokenScore extends ScoredReport<EvmFacts> {
  counts: CheckCounts
  honeypot: CheckResult
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

function sum(list: HolderFact[], n: number): bigint | undefined {
  return list.length === 0 ? undefined : list.slice(0, n).reduce((a, h) => a + h.balance, 0n)
}

/** The figures the market score rates, computed from the facts. */
export function marketValues(facts: EvmFacts): MarketValues {
  const supply = facts.basics.totalSupply
  const holders = facts.holders
  const lp = facts.liquidity
  const lpSupply = lp.totalLpSupply
  const lpShareOf = (a: string | undefined) => {
    if (!a) return undefined
    const h = lp.holders.top.find((x) => x.address.toLowerCase() === a.toLowerCase())
    return h ? share(h.balance, lpSupply) : lp.holders.complete ? 0 : undefined
  }
  const lockedPercent = lpSupply && lp.lockedAmount !== undefined && lp.burnedAmount !== undefined ? share(lp.lockedAmount + lp.burnedAmount, lpSupply) : undefined
  const ownerLp = lpShareOf(facts.owner.reported)
  const creatorLp = lpShareOf(facts.creation.creator)
  const taxes = facts.trades.flatMap((t) => [t.buyTax.percent, t.sellTax.percent]).filter((x): x is number => x !== undefined)
  return {
    // A contract keeping pools of the token none of which was found (a V4 PoolManager): how many, unknown.
    numberOfTradingPairs: facts.trades.some((t) => t.pool.custody) ? undefined : facts.markets.pools.length,
    currentLiquidityUsd: facts.markets.liquidityUsd,
    holdersCount: holders.count,
    topThreePercent: holders.complete ? share(sum(holders.top, 3), supply) : undefined,
    topTenPercent: holders.complete ? share(sum(holders.top, 10), supply) : undefined,
    ownerPercent: share(facts.owner.balance, supply),
    creatorPercent: share(facts.creation.creatorBalance, supply),
    lpHolderCount: lp.pool ? lp.holders.count : undefined,
    lockedLiquidityPercent: lp.pool ? lockedPercent : undefined,
    // Both shares must be known (an owner that is not there holds none): an unknown creator's share is no "0".
    lpOwnerPercent: creatorLp === undefined || (facts.owner.reported !== undefined && ownerLp === undefined) ? undefined : Math.max(ownerLp ?? 0, creatorLp),
    taxPercent: taxes.length === 0 ? undefined : Math.max(...taxes),
  }
}

export function scoreToken(facts: EvmFacts, checks: CheckOutcome<EvmFacts>[]): TokenScore {
  const values = marketValues(facts)
  const honeypot = honeypotResult(facts)
  const code = scoreChecks([...checks, { definition: { tier: HONEYPOT_TIER }, result: honeypot }])
  const ratings: Partial<Record<MarketFigure, RiskLabel>> = {}
  const figures: { rating: MarketRating; weight: number }[] = []
  for (const key of Object.keys(MARKET_WEIGHTS) as MarketFigure[]) {
    if (key === 'unlockDays' || SOLANA_ONLY_FIGURES.includes(key)) continue
    const rating = rate(key, values[key as keyof MarketValues])
    ratings[key] = rating.label
    figures.push({ rating, weight: MARKET_WEIGHTS[key] })
  }
  return { checks, values, counts: checkCounts(checks), honeypot, code, market: scoreMarket(figures), ratings }
}
