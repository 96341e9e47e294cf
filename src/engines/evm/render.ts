import { renderCheck, type RenderedCheck } from '../../report/define-check.ts'
import { fillLink } from '../../config/chains.ts'
import { ZERO_ADDRESS } from './collect/context.ts'
import type { RiskLabel } from '../../contract/common.ts'
import type { TokenReport } from '../../contract/token-report.ts'
import { OTHER_CHECKS, OWNERSHIP_CHECKS } from '../../contract/checks.ts'
import { exitBlocked, formatScore, percentage, totalPercentage } from '../../report/score-model.ts'
import type { EvmFacts, HolderFact, HoldersFact, PoolFact, TaxFigure, TradeFact } from './facts.ts'
import { count, isoTime, percent, price, share, units, usd } from '../../report/format.ts'
import { rate } from '../../report/market.ts'
import type { TokenScore } from './score.ts'
import { feeCeiling, feeCeilingSentence } from './fee-ceiling.ts'

/** LP tokens of Uniswap V2 type pairs have 18 decimals. */
const LP_DECIMALS = 18

type Holder = TokenReport['marketChecks']['holdersChecks']['keyHolders'][number]
type Distribution = TokenReport['marketChecks']['holdersChecks']['percentDistributed']
type Member = Distribution['topThree']

function holderEntries(holders: HolderFact[], supply: bigint | undefined, decimals: number | undefined): Holder[] {
  return holders.map((h) => ({
    address: h.address,
    percent: percent(share(h.balance, supply)),
    isContract: h.isContract === undefined ? '' : h.isContract ? '1' : '0',
    isLocked: h.isLocked ? '1' : '0',
    balance: units(h.balance, decimals),
  }))
}

function member(balance: bigint | undefined, supply: bigint | undefined, decimals: number | undefined, risk: RiskLabel): Member {
  const p = share(balance, supply)
  return { percent: percent(p), balance: units(balance, decimals), risk: p === undefined ? '' : risk }
}

function sum(list: HolderFact[], n: number): bigint | undefined {
  return list.length === 0 ? undefined : list.slice(0, n).reduce((a, h) => a + h.balance, 0n)
}

type FeeCeilingView = NonNullable<TokenReport['honeypotDetails'][number]['feeCeiling']>

/** The fee ceiling on pool `pool`: its figures where the owner powers were measured on it, "" elsewhere. */
function feeCeilingOf(facts: EvmFacts, t: TradeFact): { feeCeiling?: FeeCeilingView } {
  const c = feeCeiling(facts)
  if (!c) return {}
  if (!c.pool) {
    // No privileged account can call anything: the pool's own taxes are its ceiling. A pool not
    // traded (a holding whose pools were not found) says nothing of what its own contracts can stop.
    const figure = (x: TaxFigure) => (x.percent === undefined ? '' : percent(x.percent))
    return { feeCeiling: { buyTax: figure(t.buyTax), sellTax: figure(t.sellTax), sellsStopped: t.simulated ? '0' : '', account: '', function: '', proceedsTo: '', proceedsAccounts: [], measuredOn: '', summary: '' } }
  }
  const on = c.pool.toLowerCase() === t.pool.address.toLowerCase()
  const f = c.finding
  const figure = (x: number | undefined) => (on && x !== undefined ? percent(x) : '')
  return {
    feeCeiling: {
      buyTax: figure(c.buy),
      sellTax: figure(c.sell),
      sellsStopped: on ? (c.sellsStopped ? '1' : '0') : '',
      account: on && f ? (f.appointedBy ?? f.candidate).address : '',
      function: on && f ? (f.signature ? `${f.signature} [${f.selector}]` : f.selector) : '',
      proceedsTo: on ? c.proceeds : '',
      proceedsAccounts: on ? c.paidTo : [],
      measuredOn: c.pool,
      summary: on ? feeCeilingSentence(c) : '',
    },
  }
}

/** A tax as the contract writes it: "" (and no risk) when it could not be measured. */
/** The holders of record's sells, on the element of the pair they sold on. */
function holderSellsOf(facts: EvmFacts, t: TradeFact, decimals: number | undefined): { holderSells?: TokenReport['honeypotDetails'][number]['holderSells'] } {
  const s = facts.holderSells
  if (!s?.pool || s.pool.address.toLowerCase() !== t.pool.address.toLowerCase()) return {}
  const tried = s.holders.filter((h) => h.outcome !== 'unknown')
  return {
    holderSells: {
      path: s.path,
      holdersTried: String(s.holders.length),
      canSell: String(tried.filter((h) => h.outcome === 'sold').length),
      cannotSell: String(tried.filter((h) => h.outcome !== 'sold').length),
      holders: s.holders.map((h) => ({
        address: h.address,
        balance: units(h.balance, decimals),
        outcome: h.outcome === 'unknown' ? '' : h.outcome,
        sellTax: percent(h.taxPercent),
        leftPercent: h.outcome === 'clamped' ? percent(h.leftPercent) : '',
        reason: h.reason,
      })),
      note: s.note,
    },
  }
}

function taxNumber(t: TaxFigure): { number: string; risk: RiskLabel } {
  if (t.percent === undefined) return { number: '', risk: '' }
  return { number: percent(t.percent), risk: rate('taxPercent', t.percent).label }
}

/** Why a pool's honeypot verdict is unknown: the simulation's error, or why no sell was tried. */
function honeypotUnknownReason(t: TradeFact): string {
  if (!t.simulated) return t.error || 'the pool could not be simulated'
  return t.sellTax.note || 'no sell could be simulated'
}

/**
 * What the burn addresses hold, from the holder index: exact when each of them is among the
 * listed holders or every holder is listed; undefined when the index cannot tell. The zero
 * address is no holder in the index (a transfer to it is a burn that leaves the supply).
 */
function burntBalance(h: HoldersFact, burnAddresses: readonly string[]): bigint | undefined {
  if (!h.complete) return undefined
  const burn = new Set(burnAddresses.map((a) => a.toLowerCase()).filter((a) => a !== ZERO_ADDRESS))
  const listed = h.top.filter((x) => burn.has(x.address.toLowerCase()))
  const everyHolderListed = h.count !== undefined && h.top.length >= h.count
  if (!everyHolderListed && listed.length < burn.size) return undefined
  return listed.reduce((a, x) => a + x.balance, 0n)
}

function distribution(h: HoldersFact, supply: bigint | undefined, decimals: number | undefined, owner: bigint | undefined, creator: bigint | undefined, burnt: bigint | undefined, risks: { top3: RiskLabel; top10: RiskLabel; owner: RiskLabel; creator: RiskLabel }): Distribution {
  return {
    topThree: h.complete ? member(sum(h.top, 3), supply, decimals, risks.top3) : member(undefined, supply, decimals, ''),
    topTen: h.complete ? member(sum(h.top, 10), supply, decimals, risks.top10) : member(undefined, supply, decimals, ''),
    owner: member(owner, supply, decimals, risks.owner),
    creator: member(creator, supply, decimals, risks.creator),
    burnt: member(burnt, supply, decimals, ''),
  }
}

/** A pool's side as the newer view shows it: its symbol and reserve, in whole tokens. */
function poolSides(p: PoolFact, token: { address: string; symbol: string | undefined; decimals: number | undefined }) {
  const tokenSide = { symbol: token.symbol ?? '', balance: units(p.tokenReserve, token.decimals) }
  const quoteSide = { symbol: p.quoteSymbol, balance: units(p.quoteReserve, p.quoteDecimals) }
  // A pool whose token0() was not read has no known order: neither side is named.
  if (p.token0 === undefined) return { token0Symbol: '', token1Symbol: '', token0Balance: '', token1Balance: '' }
  const tokenIs0 = p.token0.toLowerCase() === token.address.toLowerCase()
  const [s0, s1] = tokenIs0 ? [tokenSide, quoteSide] : [quoteSide, tokenSide]
  return { token0Symbol: s0.symbol, token1Symbol: s1.symbol, token0Balance: s0.balance, token1Balance: s1.balance }
}

/** The render stage: facts and their score into the contract's report: strings everywhere, "" for unknown. Pure. */
export function renderReport(facts: EvmFacts, score: TokenScore): TokenReport {
  const { values } = score
  const byId = new Map<string, RenderedCheck>(score.checks.map(({ definition, result }) => [definition.id, renderCheck(definition, result)]))
  const check = (id: string): RenderedCheck => byId.get(id) ?? { description: '', risk: '', status: '', comment: 'not determinable: no such check' }
  const { basics, markets, chain } = facts
  const decimals = basics.decimals
  const supply = basics.totalSupply
  const r = score.ratings
  const deepest = markets.pools[0]
  // A pool's page, named by its address; a V4 pool's by its id (its address is its PoolManager's, which holds every V4 pool).
  const poolPage = (p: PoolFact) => fillLink(chain.links.pool, { pair: p.v4 ? p.v4.id : p.address, address: facts.token })
  const lp = facts.liquidity
  const lpHolderBalance = (a: string | undefined) => (a ? lp.holders.top.find((x) => x.address.toLowerCase() === a.toLowerCase())?.balance : undefined)
  // An account's LP balance: listed, or none when every LP holder is listed; unknown when the
  // account itself is (an unknown creator holds an unknown share, never "0").
  const lpBalanceOf = (holder: string | undefined): bigint | undefined =>
    lp.pool && holder ? (lpHolderBalance(holder) ?? (lp.holders.complete ? 0n : undefined)) : undefined
  const lpRisk = (holder: string | undefined): RiskLabel => rate('lpOwnerPercent', share(lpBalanceOf(holder), lp.totalLpSupply)).label
  const unlocks = lp.locks
    .filter((l) => !l.withdrawn && l.unlockTime > facts.block.timestamp)
    .sort((a, b) => a.unlockTime - b.unlockTime)
    .map((l) => ({
      balance: units(l.amount, LP_DECIMALS),
      percent: percent(share(l.amount, lp.totalLpSupply)),
      time: isoTime(l.unlockTime),
      risk: rate('unlockDays', (l.unlockTime - facts.block.timestamp) / 86_400).label,
      tag: l.locker,
    }))

  const honeypotDetails: TokenReport['honeypotDetails'] = facts.trades.map((t) => ({
    buyTax: taxNumber(t.buyTax),
    sellTax: taxNumber(t.sellTax),
    transferTax: taxNumber(t.transferTax),
    isPairHoneypot: t.honeypot === undefined ? '' : t.honeypot ? '1' : '0',
    honeypotReason: t.honeypot === undefined ? `not determinable: ${honeypotUnknownReason(t)}` : t.honeypot ? t.honeypotReason : '',
    dex: t.pool.dex,
    pair: [t.pool.token0 ?? '', t.pool.token1 ?? ''],
    pairAddress: t.pool.address,
    ...(t.pool.v4 ? { poolId: t.pool.v4.id } : {}),
    ...(t.venue ? { venue: t.venue } : {}),
    ...holderSellsOf(facts, t, decimals),
    ...feeCeilingOf(facts, t),
  }))
  return {
    tokenInformation: {
      tokenAddress: facts.token,
      tokenName: basics.name ?? '',
      tokenSymbol: basics.symbol ?? '',
      tokenImageLink: facts.metadata.imageUrl,
      tokenCreationDate: isoTime(facts.creation.timestamp),
      totalSupply: units(supply, decimals),
      ownerAddress: facts.owner.reported ?? '',
      ownerBalance: units(facts.owner.balance, decimals),
      creatorAddress: facts.creation.creator ?? '',
      creatorBalance: units(facts.creation.creatorBalance, decimals),
      tokenCategories: facts.metadata.categories,
      anomalies: facts.anomalies,
      isOpenSource: facts.source.verified === undefined ? '' : facts.source.verified ? '1' : '0',
      openSourceComment:
        facts.source.verified === undefined
          ? `not determinable: ${facts.source.note}`
          : `${facts.source.note}: the source of ${facts.source.address} is ${facts.source.verified ? '' : 'not '}verified`,
      lastUpdated: new Date(facts.block.readAt).toISOString(),
      marketData: {
        currentPriceUsd: price(markets.priceUsd),
        marketCapUsd: usd(markets.marketCapUsd),
        pastOneDayHigh: price(markets.dayHighUsd),
        pastOneDayLow: price(markets.dayLowUsd),
      },
      socialInformation: {
        codeHostLinks: facts.metadata.codeHostLinks,
        microblog: facts.metadata.microblog,
        socialNetwork: facts.metadata.socialNetwork,
        messenger: facts.metadata.messenger,
        forum: facts.metadata.forum,
      },
      externalLinks: {
        marketAggregatorLink: facts.metadata.marketAggregatorLink || fillLink(chain.links.aggregatorToken, { address: facts.token }),
        blockExplorerLink: fillLink(chain.links.explorerToken, { address: facts.token }),
        poolTerminal: deepest ? poolPage(deepest) : '',
      },
    },
    tokenScore: {
      checksPerformed: String(score.counts.checksPerformed),
      checksTotal: String(score.counts.checksTotal),
      totalScorePercentage: totalPercentage(score.code, score.market, { exitBlocked: exitBlocked(honeypotDetails) }),
      codeScorePercentage: percentage(score.code),
      marketScorePercentage: percentage(score.market),
      codeScore: {
        achievedScore: formatScore(score.code.achievedScore),
        maxScore: formatScore(score.code.maxScore),
        minScore: formatScore(score.code.minScore),
      },
      marketScore: {
        achievedScore: formatScore(score.market.achievedScore),
        maxScore: formatScore(score.market.maxScore),
        minScore: formatScore(score.market.minScore),
      },
    },
    marketChecks: {
      exchangabilityChecks: {
        numberOfTradingPairs: { number: count(values.numberOfTradingPairs), risk: r.numberOfTradingPairs ?? '' },
        currentLiquidity: { number: usd(values.currentLiquidityUsd), risk: r.currentLiquidityUsd ?? '' },
        availableDex: markets.pools.map((p) => ({
          name: p.dex,
          link: poolPage(p),
          liquidity: usd(p.liquidityUsd),
          pair: p.address,
          ...poolSides(p, { address: facts.token, symbol: basics.symbol, decimals }),
          lpTotalSupply: units(p.lpSupply, LP_DECIMALS),
          explorerLink: fillLink(chain.links.explorerAddress, { address: p.address }),
          ...(p.v4 ? { poolId: p.v4.id } : {}),
        })),
        centralisedExchanges: facts.metadata.centralisedExchanges,
      },
      holdersChecks: {
        holdersCount: { number: count(values.holdersCount), risk: r.holdersCount ?? '' },
        keyHolders: holderEntries(facts.holders.top, supply, decimals),
        percentDistributed: distribution(facts.holders, supply, decimals, facts.owner.balance, facts.creation.creatorBalance, burntBalance(facts.holders, chain.burnAddresses), {
          top3: r.topThreePercent ?? '',
          top10: r.topTenPercent ?? '',
          owner: r.ownerPercent ?? '',
          creator: r.creatorPercent ?? '',
        }),
      },
      liquidityChecks: {
        pairAddress: lp.pool?.address ?? '',
        totalLpSupply: units(lp.totalLpSupply, LP_DECIMALS),
        lpHolderCount: { number: count(values.lpHolderCount), risk: r.lpHolderCount ?? '' },
        keyLpHolders: holderEntries(lp.holders.top, lp.totalLpSupply, LP_DECIMALS),
        percentDistributed: distribution(
          lp.holders,
          lp.totalLpSupply,
          LP_DECIMALS,
          lpBalanceOf(facts.owner.reported),
          lpBalanceOf(facts.creation.creator),
          lp.pool ? lp.burnedAmount : undefined,
          { top3: '', top10: '', owner: lpRisk(facts.owner.reported), creator: lpRisk(facts.creation.creator) },
        ),
        liquidityLockedDetails: {
          upcomingUnlockDetails: unlocks,
          totalLiquidityPercentageLocked: { number: percent(values.lockedLiquidityPercent), risk: r.lockedLiquidityPercent ?? '' },
        },
      },
    },
    codeChecks: {
      ownershipChecks: Object.fromEntries(OWNERSHIP_CHECKS.map((id) => [id, check(id)])) as TokenReport['codeChecks']['ownershipChecks'],
      otherChecks: Object.fromEntries(OTHER_CHECKS.map((id) => [id, check(id)])) as TokenReport['codeChecks']['otherChecks'],
    },
    honeypotDetails,
  }
}
