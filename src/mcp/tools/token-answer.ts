import { Type } from '@sinclair/typebox'
import type { SolanaReport } from '../../contract/solana-report.ts'
import type { TokenReport } from '../../contract/token-report.ts'
import { VERDICT_LABELS, type Verdict } from '../../report/verdict.ts'
import { launchCurveWords } from '../../report/launch-curve.ts'
import { poolKey } from '../../report/pool-names.ts'

/**
 * The concise answer of the token tools: the verdict and the facts an agent acts on (a few KB),
 * instead of the whole report (13–16 KB, twice over as text and structured content), which an
 * agent asks for with `full: true`. Every value is a string as in the report; "" is unknown.
 */

/** Pools the concise answer lists (the report's order: the deepest first); the full report has them all. */
export const CONCISE_MAX_POOLS = 5
/** Unlocks of LP tokens the concise answer lists (the soonest first). */
const CONCISE_MAX_UNLOCKS = 3
/** Characters of a pool's `venue` words the concise answer keeps (the full report has them whole). */
export const CONCISE_MAX_VENUE_CHARS = 480

/** A pool's venue words within the concise answer's share: whole, or cut at a word with "…" said. */
function conciseVenue(venue: string | undefined): string {
  if (!venue || venue.length <= CONCISE_MAX_VENUE_CHARS) return venue ?? ''
  const cut = venue.slice(0, CONCISE_MAX_VENUE_CHARS)
  const space = cut.lastIndexOf(' ')
  return `${space > 0 ? cut.slice(0, space) : cut} … (cut; the full report has it whole)`
}

/** The tools' argument asking for the whole report. */
export const FullArgument = Type.Optional(
  Type.Boolean({
    description:
      'false (default): the verdict and the facts to act on — taxes per pool, whether a holder can sell, who holds the supply and the liquidity, the score — a few KB. true: the whole report (every check with its evidence, every holder, every pool; 10–20 KB).',
  }),
)

/** What is left out of a concise answer, and how to get it. */
const MORE = 'This is the concise answer: call again with full: true for the whole report (every check with its evidence, every holder and LP holder, every pool).'

/** The verdict as the concise answer carries it. */
function verdictPart(verdict: Verdict) {
  return { word: VERDICT_LABELS[verdict.kind], kind: verdict.kind, headline: verdict.headline, found: verdict.found, market: verdict.market, notMeasured: verdict.unknown }
}

/** Where a person (the token page) and a program (the JSON API) read the same report, when the service's address is known. */
export interface TokenLinks {
  page: string
  api: string
}

/**
 * The concise answer of `evm_token_report`.
 *
 * @example
 * evmConcise(report, evmVerdict(report), 31337, links).verdict.word // 'HONEYPOT'
 */
export function evmConcise(report: TokenReport, verdict: Verdict, chainId: number, links: TokenLinks | undefined): Record<string, unknown> {
  const info = report.tokenInformation
  const market = report.marketChecks
  const lp = market.liquidityChecks
  const liquidityOf = new Map(market.exchangabilityChecks.availableDex.map((d) => [poolKey(d.pair, d.poolId), d.liquidity]))
  return {
    verdict: verdictPart(verdict),
    token: {
      chainId: String(chainId),
      address: info.tokenAddress,
      name: info.tokenName,
      symbol: info.tokenSymbol,
      totalSupply: info.totalSupply,
      owner: info.ownerAddress,
      ownerPercent: market.holdersChecks.percentDistributed.owner.percent,
      creator: info.creatorAddress,
      creatorPercent: market.holdersChecks.percentDistributed.creator.percent,
      isOpenSource: info.isOpenSource,
      measuredAt: info.lastUpdated,
    },
    pools: report.honeypotDetails.slice(0, CONCISE_MAX_POOLS).map((p) => ({
      dex: p.dex,
      pair: p.pairAddress,
      isHoneypot: p.isPairHoneypot,
      reason: p.honeypotReason,
      buyTax: p.buyTax.number,
      sellTax: p.sellTax.number,
      transferTax: p.transferTax.number,
      ...(p.poolId ? { poolId: p.poolId } : {}),
      liquidityUsd: liquidityOf.get(poolKey(p.pairAddress, p.poolId)) ?? '',
      // Where the pool lives and what runs on its swaps (a V4 pool's hook and what it did, a curve's progress); "" when nothing more.
      venue: conciseVenue(p.venue),
    })),
    poolCount: String(report.honeypotDetails.length),
    holders: { count: market.holdersChecks.holdersCount.number, topTenPercent: market.holdersChecks.percentDistributed.topTen.percent },
    liquidity: {
      lpPool: lp.pairAddress,
      lockedPercent: lp.liquidityLockedDetails.totalLiquidityPercentageLocked.number,
      nextUnlocks: lp.liquidityLockedDetails.upcomingUnlockDetails.slice(0, CONCISE_MAX_UNLOCKS).map((u) => ({ percent: u.percent, time: u.time, locker: u.tag })),
    },
    score: {
      totalPercent: report.tokenScore.totalScorePercentage,
      codePercent: report.tokenScore.codeScorePercentage,
      marketPercent: report.tokenScore.marketScorePercentage,
      checksDecided: `${report.tokenScore.checksPerformed} of ${report.tokenScore.checksTotal}`,
    },
    ...(links ? { links } : {}),
    more: MORE,
  }
}

/**
 * The concise answer of `solana_token_report`.
 *
 * @example
 * solanaConcise(report, solanaVerdict(report), links).verdict.word // 'TAXED'
 */
export function solanaConcise(report: SolanaReport, verdict: Verdict, links: TokenLinks | undefined): Record<string, unknown> {
  const general = report.tokenInformation.generalInformation
  const supply = report.tokenInformation.tokenSupplyInformation
  const description = report.marketChecks.marketCheckDescription
  const distribution = description.holdersDescription.percentDistributed
  const agg = description.liquidityDescription.aggregatedInformation
  const s = (value: number | string | boolean) => String(value)
  return {
    verdict: verdictPart(verdict),
    token: {
      chain: 'solana',
      mint: general.tokenAddress,
      program: general.tokenProgramName,
      name: general.tokenName,
      symbol: general.tokenSymbol,
      totalSupply: supply.totalSupply,
      authorities: general.authorities,
      extensions: general.extensions,
      ownerPercent: s(distribution.owner.percent),
      creator: general.creatorAddress,
      creatorPercent: s(distribution.creator.percent),
      measuredAt: general.lastUpdated,
    },
    pools: report.honeypotDetails.pools.slice(0, CONCISE_MAX_POOLS).map((p) => ({
      dex: p.dex,
      pair: p.pairAddress,
      isHoneypot: s(p.isPairHoneypot),
      reason: p.honeypotReason,
      buyTax: s(p.buyTax.number),
      sellTax: s(p.sellTax.number),
      transferTax: s(p.transferTax.number),
    })),
    poolCount: String(report.honeypotDetails.pools.filter((p) => p.pairAddress !== '').length),
    holders: { count: s(description.holdersDescription.holdersCount.number), topTenPercent: s(distribution.topTen.percent) },
    // Locked: burned, or held by a lock program.
    liquidity: {
      usd: agg.totalLpSupplyInUsd.number,
      lpPool: agg.lpPool,
      lockedPercent: s(agg.percentDistributed.locked.percent),
      // Pools whose liquidity is locked (positions, LP in a lock program), and the soonest unlocks.
      lockedPools: agg.liquidityLockedDetails.lockedPools.slice(0, CONCISE_MAX_POOLS).map((l) => ({ pool: l.pool, dex: l.dexName, lockedPercent: s(l.lockedPercent) })),
      nextUnlocks: agg.liquidityLockedDetails.upcomingUnlockDetails.slice(0, CONCISE_MAX_UNLOCKS).map((u) => ({ percent: s(u.percent), time: u.time, pool: u.pool })),
    },
    // The launchpad curve it was created on ("none": not on one; "" state: not read, `words` say why).
    launchCurve: { state: agg.launchCurve.state, address: agg.launchCurve.address, progressPercent: agg.launchCurve.progressPercent, graduatedPool: agg.launchCurve.graduatedPool, words: launchCurveWords(agg.launchCurve).words },
    score: {
      totalPercent: s(report.honeypotDetails.overAllScorePercentage),
      codePercent: s(report.codeChecks.codeCheckScorePercentage),
      marketPercent: s(report.marketChecks.marketCheckScorePercentage),
      checksDecided: `${report.codeChecks.checksPerformed} of ${report.codeChecks.availableChecks}`,
    },
    ...(links ? { links } : {}),
    more: MORE,
  }
}
