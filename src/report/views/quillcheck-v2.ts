import { RISK_SCALE, riskRating, type RiskLabel } from '../../contract/common.ts'
import { V2_OTHER_CHECKS, V2_OWNERSHIP_CHECKS, type QuillcheckV2Report, type RiskObject } from '../../contract/quillcheck-v2.ts'
import type { CodeCheck, TokenReport } from '../../contract/token-report.ts'
import { usd } from '../format.ts'
import { bool, num, remainderPercent, sameAddress, subtractDecimal, zeroOne } from './values.ts'
import { riskCategories } from './description-parts.ts'
import { honeypotLabel, scoresOf, tokenHoneypotOf } from './report-reads.ts'

/**
 * The newer EVM shape (`quillcheck-v2`, docs/compat.md) as a pure function of the contract's
 * report: nothing is measured here, everything is read from the report or computed from it.
 * Unknown ("") stays "" — never 0, never `false`.
 *
 * @example
 * const body = quillcheckV2View(report) // report: the contract's TokenReport
 * body.honeypotDetails.isTokenHoneypot  // 1, 0, or "" when no sale could be simulated
 */
export function quillcheckV2View(report: TokenReport): QuillcheckV2Report {
  const info = report.tokenInformation
  const market = report.marketChecks
  const lp = market.liquidityChecks
  const codeChecks = viewCodeChecks(report)
  const honeypotDetails = viewHoneypot(report)
  const totalChecksInformation = checksInformation(codeChecks, honeypotDetails.isTokenHoneypot)
  const pairs = viewPairs(report)
  const lpPoolUsd = num(market.exchangabilityChecks.availableDex.find((d) => sameAddress(d.pair, lp.pairAddress))?.liquidity ?? '')
  const lpUsd = (percent: number | '') => (percent === '' || lpPoolUsd === '' ? '' : usd((percent / 100) * lpPoolUsd))
  const lpMember = (m: { percent: string; risk: string }) => ({ percent: num(m.percent), balanceInUsd: lpUsd(num(m.percent)), risk: riskObject(m.risk) })
  const lpDist = lp.percentDistributed
  const lockedPercent = num(lp.liquidityLockedDetails.totalLiquidityPercentageLocked.number)
  const lpOther = remainderPercent(lpDist.topTen.percent)
  const holderDist = market.holdersChecks.percentDistributed
  const holderMember = (m: { percent: string; balance: string; risk: string }) => ({ percent: num(m.percent), balance: m.balance, risk: riskObject(m.risk) })

  return {
    tokenInformation: {
      tokenAddress: info.tokenAddress,
      tokenName: info.tokenName,
      tokenSymbol: info.tokenSymbol,
      tokenImageLink: info.tokenImageLink,
      tokenCreationDate: info.tokenCreationDate,
      totalSupply: info.totalSupply,
      ownerAddress: info.ownerAddress,
      ownerBalance: info.ownerBalance,
      creatorAddress: info.creatorAddress,
      creatorBalance: info.creatorBalance,
      tokenCategories: info.tokenCategories,
      anomalies: info.anomalies,
      lastUpdated: info.lastUpdated,
      marketData: { ...info.marketData },
      socialInformation: {
        githubLinks: info.socialInformation.codeHostLinks,
        twitter: { name: info.socialInformation.microblog.name, followers: num(info.socialInformation.microblog.followers) },
        facebook: { name: info.socialInformation.socialNetwork.name, likes: num(info.socialInformation.socialNetwork.likes) },
        telegram: { name: info.socialInformation.messenger.name, members: num(info.socialInformation.messenger.users) },
        reddit: { url: info.socialInformation.forum.url, subscribers: num(info.socialInformation.forum.subscribers) },
      },
      externalLinks: {
        coinGeckoLink: info.externalLinks.marketAggregatorLink,
        blockExplorerLink: info.externalLinks.blockExplorerLink,
        geckoTerminal: info.externalLinks.poolTerminal,
      },
      totalChecksInformation,
    },
    tokenScore: viewScore(report),
    marketChecks: {
      holdersChecks: {
        holdersCount: rated(market.holdersChecks.holdersCount),
        keyHolders: market.holdersChecks.keyHolders.slice(0, KEY_HOLDERS).map((h) => ({
          address: h.address,
          percent: num(h.percent),
          isContract: bool(h.isContract),
          isLocked: bool(h.isLocked),
          balance: h.balance,
        })),
        percentDistributed: {
          topThree: holderMember(holderDist.topThree),
          topTen: holderMember(holderDist.topTen),
          owner: holderMember(holderDist.owner),
          creator: holderMember(holderDist.creator),
          burnt: holderMember(holderDist.burnt),
          other: { percent: remainderPercent(holderDist.topTen.percent), balance: subtractDecimal(info.totalSupply, holderDist.topTen.balance), risk: riskObject('') },
        },
      },
      liquidityChecks: {
        aggregatedInformation: {
          totalLpSupplyInUsd: { number: market.exchangabilityChecks.currentLiquidity.number, risk: riskObject(market.exchangabilityChecks.currentLiquidity.risk) },
          lpHolderCount: rated(lp.lpHolderCount),
          tradingPairCount: rated(market.exchangabilityChecks.numberOfTradingPairs),
          keyLpHolders: lp.keyLpHolders.map((h) => ({ address: h.address, isContract: bool(h.isContract), balanceInUsd: lpUsd(num(h.percent)) })),
          liquidityLockedDetails: {
            upcomingUnlockDetails: lp.liquidityLockedDetails.upcomingUnlockDetails.map((u) => ({ balance: u.balance, percent: num(u.percent), time: u.time, risk: riskObject(u.risk), tag: u.tag })),
          },
          percentDistributed: {
            topThree: lpMember(lpDist.topThree),
            topTen: lpMember(lpDist.topTen),
            owner: lpMember(lpDist.owner),
            creator: lpMember(lpDist.creator),
            burnt: lpMember(lpDist.burnt),
            locked: { percent: lockedPercent, balanceInUsd: lpUsd(lockedPercent), risk: riskObject(lp.liquidityLockedDetails.totalLiquidityPercentageLocked.risk) },
            other: { percent: lpOther, balanceInUsd: lpUsd(lpOther), risk: riskObject('') },
          },
        },
        pairByPairInformation: pairs,
      },
      pairByPairInformation: pairs,
    },
    codeChecks,
    honeypotDetails,
    // Where a public widget draws its Critical / RISKY / Medium / Neutral counters from.
    riskCategories: riskCategories(totalChecksInformation.aggregatedCount),
  }
}

/** The hosted shape lists the three largest holders. */
const KEY_HOLDERS = 3

/** A label as `{riskRating, riskStatus}`; "" (unknown or not rated) as `{"", ""}`. */
export function riskObject(label: string): RiskObject {
  const rating = riskRating(label as RiskLabel)
  return rating === undefined ? { riskRating: '', riskStatus: '' } : { riskRating: rating, riskStatus: RISK_SCALE[rating] }
}

function rated(r: { number: string; risk: string }) {
  return { number: num(r.number), risk: riskObject(r.risk) }
}

type CheckV2 = QuillcheckV2Report['codeChecks']['ownershipChecks'][string]

function viewCheck(c: CodeCheck): CheckV2 {
  return { description: c.description, risk: riskObject(c.risk), status: bool(c.status), comment: c.comment }
}

/**
 * Whether the source is published, from the configured explorer (`tokenInformation.isOpenSource`):
 * true is both "present" and "safe" here; unpublished source is a risk a reader should weigh.
 */
function openSourceCheck(info: { isOpenSource: string; openSourceComment: string }): CheckV2 {
  if (info.isOpenSource === '') {
    return { description: 'Whether the source code of the token is published could not be determined.', risk: riskObject(''), status: '', comment: info.openSourceComment }
  }
  const open = info.isOpenSource === '1'
  return {
    description: open ? 'The source code of the token is published and verified.' : 'The source code of the token is not published.',
    risk: riskObject(open ? 'Good To Have' : 'RISKY'),
    status: open,
    comment: info.openSourceComment,
  }
}

function viewCodeChecks(report: TokenReport): QuillcheckV2Report['codeChecks'] {
  const own = report.codeChecks.ownershipChecks
  const other = report.codeChecks.otherChecks
  const ownership: Record<(typeof V2_OWNERSHIP_CHECKS)[number], CheckV2> = {
    ownerChangeBalance: viewCheck(own.ownerChangeBalance),
    ownerCanChangeBalance: viewCheck(own.ownerChangeBalance),
    hiddenOwner: viewCheck(own.hiddenOwner),
    isMintable: viewCheck(own.isMintable),
    selfDestruct: viewCheck(own.selfDestruct),
    transferPausable: viewCheck(own.transferPausable),
    isOpenSource: openSourceCheck(report.tokenInformation),
    isBlacklisted: viewCheck(own.isBlacklisted),
    isWhitelisted: viewCheck(own.isWhitelisted),
    slippageModifiable: viewCheck(own.slippageModifiable),
    antiwhaleModifiable: viewCheck(own.antiwhaleModifiable),
    personalSlippageModifiable: viewCheck(own.personalSlippageModifiable),
  }
  const others: Record<(typeof V2_OTHER_CHECKS)[number], CheckV2> = {
    externalCall: viewCheck(other.externalCall),
    isProxy: viewCheck(other.isProxy),
    tradingCooldown: viewCheck(other.tradingCooldown),
    isAntiWhale: viewCheck(other.isAntiWhale),
    cannotBuy: viewCheck(other.cannotBuy),
    cannotSellAll: viewCheck(other.cannotSellAll),
  }
  return { ownershipChecks: ownership, otherChecks: others }
}

/** The holders of record's sells, from the pair element that carries them. */
function viewHolderSells(pools: TokenReport['honeypotDetails']): Pick<QuillcheckV2Report['honeypotDetails'], 'holderSells'> {
  const p = pools.find((x) => x.holderSells)
  const s = p?.holderSells
  if (!p || !s) return {}
  return {
    holderSells: {
      pairAddress: p.pairAddress,
      path: s.path,
      holdersTried: Number(s.holdersTried),
      canSell: Number(s.canSell),
      cannotSell: Number(s.cannotSell),
      holders: s.holders.map((h) => ({
        address: h.address,
        balance: h.balance,
        canSell: h.outcome === '' ? '' : h.outcome === 'sold',
        outcome: h.outcome,
        sellTax: h.sellTax === '' ? '' : Number(h.sellTax),
        reason: h.reason,
      })),
    },
  }
}

function viewHoneypot(report: TokenReport): QuillcheckV2Report['honeypotDetails'] {
  const pools = report.honeypotDetails
  const traps = pools.filter((p) => p.isPairHoneypot === '1')
  const decided = pools.filter((p) => p.isPairHoneypot !== '')
  // Array-like as well: one client reads `honeypotDetails[0].buyTax.number` (the older array)
  // once `honeypotDetails.length > 0`; element 0 is the verdict a client shows (the deepest trap,
  // else the deepest pool), its taxes as measured.
  const shown = traps[0] ?? pools[0]
  return {
    isTokenHoneypot: tokenHoneypotOf(report),
    honeypotFound: { poolsSimulated: decided.length, totalPools: pools.length, honeypotPools: traps.length },
    honeypotPairs: traps.map((p) => ({ pairAddress: p.pairAddress, dex: p.dex, honeypotReason: p.honeypotReason })),
    ...viewHolderSells(pools),
    ...(shown
      ? {
          0: {
            buyTax: rated(shown.buyTax),
            sellTax: rated(shown.sellTax),
            transferTax: rated(shown.transferTax),
            isPairHoneypot: zeroOne(shown.isPairHoneypot),
            honeypotReason: shown.honeypotReason,
            dex: shown.dex,
            pair: shown.pair,
            pairAddress: shown.pairAddress,
          },
        }
      : {}),
    length: shown ? 1 : 0,
  }
}

function viewPairs(report: TokenReport): QuillcheckV2Report['marketChecks']['pairByPairInformation'] {
  const lp = report.marketChecks.liquidityChecks
  return report.marketChecks.exchangabilityChecks.availableDex.map((d) => {
    const sim = report.honeypotDetails.find((h) => sameAddress(h.pairAddress, d.pair))
    const pair = sim?.pair ?? []
    const poolUsd = num(d.liquidity)
    const isLpPair = sameAddress(d.pair, lp.pairAddress)
    return {
      dexName: d.name,
      token0Address: pair[0] ?? '',
      token1Address: pair[1] ?? '',
      token0Symbol: d.token0Symbol,
      token1Symbol: d.token1Symbol,
      token0Balance: d.token0Balance,
      token1Balance: d.token1Balance,
      lpTotalSupply: d.lpTotalSupply,
      lpSupplyInUsd: d.liquidity,
      pairAddress: d.pair,
      lpHolders: isLpPair
        ? lp.keyLpHolders.map((h) => {
            const p = num(h.percent)
            return { address: h.address, isContract: bool(h.isContract), balance: h.balance, balanceInUsd: p === '' || poolUsd === '' ? '' : usd((p / 100) * poolUsd) }
          })
        : [],
      pairExplorerLink: d.explorerLink || d.link,
      buyTax: sim ? rated(sim.buyTax) : rated({ number: '', risk: '' }),
      sellTax: sim ? rated(sim.sellTax) : rated({ number: '', risk: '' }),
      transferTax: sim ? rated(sim.transferTax) : rated({ number: '', risk: '' }),
      isPairHoneypot: zeroOne(sim?.isPairHoneypot ?? ''),
      honeypotReason: sim?.honeypotReason ?? 'not determinable: the pair was not simulated',
    }
  })
}

function viewScore(report: TokenReport): QuillcheckV2Report['tokenScore'] {
  const { total, code, market } = scoresOf(report)
  return {
    totalScore: total,
    codeScore: code,
    marketScore: market,
    checksPerformed: Number(report.tokenScore.checksPerformed),
    checksTotal: Number(report.tokenScore.checksTotal),
  }
}

/**
 * How many checks the view has (its code checks and the token-level honeypot verdict), how many
 * were decided, and how many fall on each label of the scale.
 */
function checksInformation(codeChecks: QuillcheckV2Report['codeChecks'], isTokenHoneypot: 0 | 1 | ''): QuillcheckV2Report['tokenInformation']['totalChecksInformation'] {
  // ownerCanChangeBalance repeats ownerChangeBalance under another name: counted once.
  const checks = [
    ...V2_OWNERSHIP_CHECKS.filter((n) => n !== 'ownerCanChangeBalance').map((n) => codeChecks.ownershipChecks[n]),
    ...V2_OTHER_CHECKS.map((n) => codeChecks.otherChecks[n]),
  ]
  const ratings: (number | '')[] = checks.map((c) => (c.status === '' ? '' : c.risk.riskRating))
  // The honeypot simulation counts as a check (report-reads.ts, honeypotLabel).
  ratings.push(riskObject(honeypotLabel(isTokenHoneypot)).riskRating)
  const decided = ratings.filter((r): r is number => r !== '')
  return {
    totalChecks: ratings.length,
    checksPerformed: decided.length,
    aggregatedCount: RISK_SCALE.map((name, id) => ({ id, name, count: decided.filter((r) => r === id).length })),
  }
}
