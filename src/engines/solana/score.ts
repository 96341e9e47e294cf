import { scoreChecks, scoreMarket, type MarketRating } from '../../report/score-model.ts'
import type { RiskLabel } from '../../contract/common.ts'
import { share } from '../../report/format.ts'
import { MARKET_WEIGHTS, rate, type MarketFigure, type MarketValues } from '../../report/market.ts'
import type { CheckOutcome, ScoredReport } from '../../report/pipeline.ts'
import type { HolderAccount, LpFacts, LpLockFacts, SolanaFacts } from './collect/facts.ts'
import { BURN_ADDRESSES } from './programs.ts'
import { transferFeeSchedule } from './transfer-fee.ts'

/**
 * The score stage of Solana reports: the shared model (src/report/score-model.ts) with the EVM
 * report's market figures, thresholds and weights (src/report/market.ts), so scores of both chains
 * compare. Code score over the Solana checks; market score over the figures a Solana RPC yields
 * (`solanaMarketValues`): pools, liquidity, holders, concentration, LP burned or held, and the
 * transfer fee as the tax. Pure.
 */
export interface SolanaScore extends ScoredReport<SolanaFacts> {
  /** Rating of every market figure ("" when the figure is unknown). */
  ratings: Record<MarketFigure, RiskLabel>
}

/** Entries of the holder lists. */
export const TOP_THREE = 3
export const TOP_TEN = 10

/** Amounts of the `n` largest owners (token accounts of one owner added together). */
export function topAmount(holders: HolderAccount[], n: number): bigint {
  const byOwner = new Map<string, bigint>()
  for (const h of holders) byOwner.set(h.owner, (byOwner.get(h.owner) ?? 0n) + h.amount)
  return [...byOwner.values()]
    .sort((a, b) => (a === b ? 0 : a > b ? -1 : 1))
    .slice(0, n)
    .reduce((s, v) => s + v, 0n)
}

/**
 * The LP of the LP token's pool by how it is held: the base (what the pool issued), burned (gone
 * from the mint's supply, or at burn addresses), locked for good (burned, or in a permanent
 * locker) and vesting (in lock programs with a schedule, still locked), and the locks themselves.
 */
export function lpLocks(lp: LpFacts): { base: bigint; burned: bigint; permanent: bigint; vesting: bigint; lockers: LpLockFacts[] } {
  const base = lp.issued !== null && lp.issued >= lp.supply ? lp.issued : lp.supply
  const atBurn = lp.holders.filter((h) => BURN_ADDRESSES.includes(h.owner)).reduce((s, h) => s + h.amount, 0n)
  const burned = base - lp.supply + atBurn
  const lockers = lp.lockers.ok ? lp.lockers.value : []
  const sum = (list: LpLockFacts[]) => list.reduce((s, l) => s + l.locked, 0n)
  return { base, burned, permanent: burned + sum(lockers.filter((l) => l.permanent)), vesting: sum(lockers.filter((l) => !l.permanent)), lockers }
}

/** Percent of the LP the pool issued that is burned, sits with burn addresses or is locked in a lock program. */
function lockedLpPercent(lp: LpFacts): number | undefined {
  const { base, permanent, vesting } = lpLocks(lp)
  if (base === 0n) return undefined
  return Number(((permanent + vesting) * 10n ** 8n) / base) / 10 ** 6
}

/**
 * The figures the market score rates, from the facts: concentration counts the holders outside
 * burn addresses and pool vaults; liquidity, the pools that could be priced; the tax, the transfer
 * fee in force.
 */
export function solanaMarketValues(facts: SolanaFacts): MarketValues {
  const { mint } = facts
  const supply = mint.supply
  const mintAuthority = mint.mintAuthority ?? ''
  const creator = facts.creation.ok ? facts.creation.value.creator : ''
  const pools = facts.pools.ok ? facts.pools.value : undefined
  const vaults = new Set((pools ?? []).map((p) => p.tokenVault))
  const holders = facts.holders.ok ? facts.holders.value : undefined
  const inHands = (holders ?? []).filter((h) => !BURN_ADDRESSES.includes(h.owner) && !vaults.has(h.tokenAccount))
  const priced = (pools ?? []).filter((p) => p.liquidityUsd !== undefined && p.priceInQuote !== undefined && p.quoteUsd !== undefined)
  const schedule = transferFeeSchedule(facts)
  const lp = facts.lp?.ok ? facts.lp.value : undefined
  const lpOf = (owner: string) => (lp && owner ? lp.holders.filter((h) => h.owner === owner).reduce((s, h) => s + h.amount, 0n) : undefined)
  const lpInsiders = lp ? (lpOf(mintAuthority) ?? 0n) + (creator && creator !== mintAuthority ? (lpOf(creator) ?? 0n) : 0n) : undefined
  return {
    numberOfTradingPairs: pools?.length,
    currentLiquidityUsd: pools ? priced.reduce((sum, p) => sum + p.liquidityUsd!, 0) : undefined,
    holdersCount: facts.holderCount.ok ? facts.holderCount.value : undefined,
    topThreePercent: share(holders ? topAmount(inHands, TOP_THREE) : undefined, supply),
    topTenPercent: share(holders ? topAmount(inHands, TOP_TEN) : undefined, supply),
    ownerPercent: mintAuthority ? share(facts.ownerBalance?.ok ? facts.ownerBalance.value : undefined, supply) : undefined,
    creatorPercent: share(facts.creatorBalance?.ok ? facts.creatorBalance.value : undefined, supply),
    lpHolderCount: lp?.complete ? new Set(lp.holders.map((h) => h.owner)).size : undefined,
    lockedLiquidityPercent: lp ? lockedLpPercent(lp) : undefined,
    lpOwnerPercent: lp ? share(lpInsiders, lp.issued !== null && lp.issued > lp.supply ? lp.issued : lp.supply) : undefined,
    taxPercent: schedule ? schedule.current.basisPoints / 100 : 0,
    largestHolderPercent: share(holders ? topAmount(inHands, 1) : undefined, supply),
    tokenAgeDays: tokenAgeDays(facts),
  }
}

const SECONDS_PER_DAY = 86_400

/** Days between the creation transaction and the moment the facts were read; undefined when its time is unknown. */
export function tokenAgeDays(facts: SolanaFacts): number | undefined {
  const time = facts.creation.ok ? facts.creation.value.blockTime : null
  return time === null ? undefined : Math.max(0, facts.observedAt - time) / SECONDS_PER_DAY
}

export function scoreSolana(facts: SolanaFacts, checks: CheckOutcome<SolanaFacts>[]): SolanaScore {
  const values = solanaMarketValues(facts)
  const ratings = {} as Record<MarketFigure, RiskLabel>
  const figures: { rating: MarketRating; weight: number }[] = []
  for (const figure of Object.keys(MARKET_WEIGHTS) as MarketFigure[]) {
    const rating = rate(figure, values[figure as keyof MarketValues])
    ratings[figure] = rating.label
    if (figure !== 'unlockDays') figures.push({ rating, weight: MARKET_WEIGHTS[figure] })
  }
  return { checks, values, code: scoreChecks(checks), market: scoreMarket(figures), ratings }
}

export type { MarketFigure, MarketValues }
