import type { QuillcheckDescriptionReport } from '../../contract/quillcheck-description.ts'
import type { CodeCheck, TokenReport } from '../../contract/token-report.ts'
import { usd } from '../format.ts'
import {
  FEE_ITEM_INDEX,
  RENOUNCED,
  UNKNOWN_RISK_NUMBER,
  aggregatedCount,
  dayMonthYear,
  descriptionItem,
  riskCategories,
  riskNumber,
  scalePercent,
  shownVerdict,
  type DescriptionItem,
} from './description-parts.ts'
import { EVM_DESCRIPTION_HEADINGS, EVM_DESCRIPTION_SECTIONS, METADATA_ITEM, type EvmItemName } from './evm-description-headings.ts'
import { honeypotLabel, scoresOf, tokenHoneypotOf } from './report-reads.ts'
import { addDecimals, bool, num, remainderPercent, sameAddress, subtractDecimal, zeroOne } from './values.ts'

type Report = QuillcheckDescriptionReport
type Holder = Report['marketChecks']['marketCheckDescription']['holdersDescription']['keyHolders'][number]
type Member = Report['marketChecks']['marketCheckDescription']['holdersDescription']['percentDistributed']['topThree']
type Verdict = Report['honeypotDetails']['pools'][number]
type Pair = Report['marketChecks']['marketCheckDescription']['liquidityDescription']['pairByPairInformation'][number]['pairsInformation'][number]

/** The owner an EVM token reports once ownership is renounced (`renounceOwnership()` sets it). */
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`

/** Where the report is from: the chain the route was asked for, by id and by its name in the registry. */
export interface DescriptionContext {
  chainId: number
  chainName: string
}

/**
 * The description shape for EVM tokens (docs/compat.md), which the hosted service's report widgets
 * read on `/tokens/frontend/information/…` and `/tokens/ui/information/…`: the sections and keys
 * of its Solana body, as a pure function of the contract's report. Nothing is measured here; a
 * value the report does not have is "" (a risk number 3, what the widgets draw as neutral), and
 * nothing reads safer than the report: the verdict shown is a trap's when a pool traps sellers,
 * the total never leaves its 0–100 scale upward.
 *
 * @example
 * const body = quillcheckDescriptionView(report, { chainId: 1, chainName: 'Ethereum' })
 * body.honeypotDetails.isPairHoneypot // 1 on a honeypot, as the widgets test it (`=== 1`)
 */
export function quillcheckDescriptionView(report: TokenReport, context: DescriptionContext): Report {
  const info = report.tokenInformation
  const market = report.marketChecks
  const holders = market.holdersChecks
  const lp = market.liquidityChecks
  const scores = scoresOf(report)
  const isTokenHoneypot = tokenHoneypotOf(report)
  const items = codeItems(report)
  const allItems = Object.values(items).flat()
  const figures = marketFigures(report)
  const knownFigures = figures.filter((f) => f !== '')
  // The metadata item is read from isProxy: counted there, not twice.
  const counted = allItems.filter((i) => i.check !== METADATA_ITEM)
  const labels = [...counted.map((i) => i.riskStatus), honeypotLabel(isTokenHoneypot), ...knownFigures]
  const counts = aggregatedCount(labels)
  const created = info.tokenCreationDate ? new Date(info.tokenCreationDate) : undefined
  const verdicts = report.honeypotDetails.map((p) => verdictOf(p, report))
  const shown = shownVerdict(verdicts) ?? noPoolVerdict()
  const keyHolders = holders.keyHolders.map(holderOf)
  const keyLpHolders = lp.keyLpHolders.map(holderOf)
  const lockedLp = lockedLpBalance(report)

  return {
    tokenInformation: {
      generalInformation: {
        lastUpdated: info.lastUpdated,
        tokenAddress: info.tokenAddress,
        mint: info.tokenAddress,
        chainId: String(context.chainId),
        chainName: context.chainName,
        tokenName: info.tokenName,
        tokenSymbol: info.tokenSymbol,
        tokenImageLink: info.tokenImageLink,
        tokenCreationDate: dayMonthYear(created),
        tokenCreationTime: info.tokenCreationDate,
        ownerAddress: sameAddress(info.ownerAddress, ZERO_ADDRESS) ? RENOUNCED : info.ownerAddress,
        ownerBalance: info.ownerBalance,
        creatorAddress: info.creatorAddress,
        creatorBalance: info.creatorBalance,
        categories: info.tokenCategories,
        anomalies: info.anomalies,
        isOpenSource: info.isOpenSource as '0' | '1' | '',
      },
      tokenSupplyInformation: {
        centralisedExchanges: market.exchangabilityChecks.centralisedExchanges,
        tokenHoldersCount: num(holders.holdersCount.number),
        totalSupply: info.totalSupply,
        ...info.marketData,
      },
      socialInformation: {
        githubLinks: info.socialInformation.codeHostLinks,
        reddit: { name: '', url: info.socialInformation.forum.url, subscribers: num(info.socialInformation.forum.subscribers) },
        facebook: { name: info.socialInformation.socialNetwork.name, url: '', likes: num(info.socialInformation.socialNetwork.likes) },
        twitter: { name: info.socialInformation.microblog.name, url: '', followers: num(info.socialInformation.microblog.followers) },
        telegram: { name: info.socialInformation.messenger.name, url: '', members: num(info.socialInformation.messenger.users) },
        discord: { name: '', url: '' },
        website: { url: '' },
        externalLinks: {
          coinGeckoLink: info.externalLinks.marketAggregatorLink,
          blockExplorerLink: info.externalLinks.blockExplorerLink,
          geckoTerminal: info.externalLinks.poolTerminal,
        },
      },
      totalChecksInformation: {
        totalChecks: counted.length + 1 + figures.length,
        checksPerformed: labels.filter((l) => l !== '').length,
        aggregatedCount: counts,
      },
    },
    codeChecks: {
      maxCodeCheckScore: scores.code.maxScore,
      minCodeCheckScore: scores.code.minScore,
      codeCheckScore: scores.code.achievedScore,
      availableChecks: Number(report.tokenScore.checksTotal),
      checksPerformed: Number(report.tokenScore.checksPerformed),
      codeCheckScorePercentage: scores.code.percent,
      codeCheckDescription: items,
    },
    marketChecks: {
      minMarketCheckScore: scores.market.minScore,
      maxMarketCheckScore: scores.market.maxScore,
      marketCheckScore: scores.market.achievedScore,
      availableChecks: figures.length,
      checksPerformed: knownFigures.length,
      marketCheckScorePercentage: scores.market.percent,
      marketCheckDescription: {
        holdersDescription: {
          holdersCount: rated(holders.holdersCount),
          keyHolders,
          eoaHolders: keyHolders.filter((h) => h.isContract === false),
          contractHolders: keyHolders.filter((h) => h.isContract === true),
          percentDistributed: {
            topThree: member(holders.percentDistributed.topThree),
            topTen: member(holders.percentDistributed.topTen),
            owner: member(holders.percentDistributed.owner),
            creator: member(holders.percentDistributed.creator),
            burnt: member(holders.percentDistributed.burnt),
            locked: member({ percent: '', balance: '', risk: '' }),
            other: member({
              percent: String(remainderPercent(holders.percentDistributed.topTen.percent)),
              balance: subtractDecimal(info.totalSupply, holders.percentDistributed.topTen.balance),
              risk: '',
            }),
          },
        },
        liquidityDescription: {
          aggregatedInformation: {
            totalLpSupplyInUsd: { number: market.exchangabilityChecks.currentLiquidity.number, risk: riskNumber(market.exchangabilityChecks.currentLiquidity.risk) },
            lpHolderCount: rated(lp.lpHolderCount),
            tradingPairCount: rated(market.exchangabilityChecks.numberOfTradingPairs),
            keyLpHolders,
            eoaLpHolders: keyLpHolders.filter((h) => h.isContract === false),
            contractLpHolders: keyLpHolders.filter((h) => h.isContract === true),
            liquidityLockedDetails: {
              upcomingUnlockDetails: lp.liquidityLockedDetails.upcomingUnlockDetails.map((u) => ({ time: u.time, percent: num(u.percent), balance: u.balance, risk: riskNumber(u.risk), tag: u.tag })),
            },
            percentDistributed: {
              topThree: member(lp.percentDistributed.topThree),
              topTen: member(lp.percentDistributed.topTen),
              owner: member(lp.percentDistributed.owner),
              creator: member(lp.percentDistributed.creator),
              burnt: member(lp.percentDistributed.burnt),
              locked: member({ percent: lp.liquidityLockedDetails.totalLiquidityPercentageLocked.number, balance: lockedLp, risk: lp.liquidityLockedDetails.totalLiquidityPercentageLocked.risk }),
              other: member({ percent: String(remainderPercent(lp.percentDistributed.topTen.percent)), balance: subtractDecimal(lp.totalLpSupply, lp.percentDistributed.topTen.balance), risk: '' }),
            },
            pairAddress: lp.pairAddress,
            totalLpSupply: lp.totalLpSupply,
          },
          pairByPairInformation: pairsByDex(report),
        },
      },
    },
    honeypotDetails: {
      overAllScore: scores.total.achievedScore,
      overAllScorePercentage: scalePercent(scores.total.percent),
      overAllMaxScore: scores.total.maxScore,
      overAllMinScore: scores.total.minScore,
      ...shown,
      isTokenHoneypot,
      pools: verdicts,
      // Array-like as well: an older widget reads the taxes of `honeypotDetails[0]` once `length > 0`.
      ...(verdicts.length > 0 ? { 0: shown } : {}),
      length: verdicts.length > 0 ? 1 : 0,
    },
    riskCategories: riskCategories(counts),
  }
}

/** A rated figure of the contract's report as `{number, risk}`: a number, and its risk number. */
function rated(r: { number: string; risk: string }): { number: number | ''; risk: number } {
  return { number: num(r.number), risk: riskNumber(r.risk) }
}

function holderOf(h: TokenReport['marketChecks']['holdersChecks']['keyHolders'][number]): Holder {
  return { address: h.address, percent: num(h.percent), isContract: bool(h.isContract), isLocked: bool(h.isLocked), balance: h.balance }
}

/** A distribution member; a percent "" (unknown, or a remainder of an unknown) keeps it all unknown. */
function member(m: { percent: string; balance: string; risk: string }): Member {
  const percent = num(m.percent)
  return { percent, balance: num(m.balance), balanceFormatted: m.balance, risk: percent === '' ? UNKNOWN_RISK_NUMBER : riskNumber(m.risk) }
}

/** LP tokens that cannot be pulled: burned, and locked in a known locker until a later unlock. */
function lockedLpBalance(report: TokenReport): string {
  const lp = report.marketChecks.liquidityChecks
  return addDecimals([lp.percentDistributed.burnt.balance, ...lp.liquidityLockedDetails.upcomingUnlockDetails.map((u) => u.balance)])
}

/** The market figures of the report that carry a rating: their labels, "" for the unknown ones. */
function marketFigures(report: TokenReport): string[] {
  const m = report.marketChecks
  const d = m.holdersChecks.percentDistributed
  return [
    m.exchangabilityChecks.numberOfTradingPairs.risk,
    m.exchangabilityChecks.currentLiquidity.risk,
    m.holdersChecks.holdersCount.risk,
    d.topThree.risk,
    d.topTen.risk,
    d.owner.risk,
    d.creator.risk,
    m.liquidityChecks.lpHolderCount.risk,
    m.liquidityChecks.liquidityLockedDetails.totalLiquidityPercentageLocked.risk,
  ]
}

/** The metadata item, from `isProxy`: an upgradeable proxy's name and symbol can change with its code. */
function metadataCheck(isProxy: CodeCheck): CodeCheck {
  if (isProxy.status === '1') {
    return { description: 'The contract is a proxy: its code, name and symbol included, can be replaced.', risk: isProxy.risk, status: '1', comment: `from isProxy: ${isProxy.comment}` }
  }
  return {
    description: 'Whether the token’s name and symbol can be changed is not measured on EVM tokens (they can when its code can be replaced, which it cannot here or is unknown).',
    risk: '',
    status: '',
    comment: 'not determinable: an EVM token has no metadata authority; tokenrisk measures whether its code can be replaced (isProxy)',
  }
}

function codeItems(report: TokenReport): Report['codeChecks']['codeCheckDescription'] {
  const checks: Record<string, CodeCheck> = { ...report.codeChecks.ownershipChecks, ...report.codeChecks.otherChecks }
  const groupOf = (name: string) => (name in report.codeChecks.otherChecks ? 'otherChecks' : 'ownershipChecks')
  const item = (name: EvmItemName, index: number): DescriptionItem => {
    const check = name === METADATA_ITEM ? metadataCheck(checks.isProxy) : checks[name]
    return descriptionItem({
      check: name,
      group: name === METADATA_ITEM ? 'ownershipChecks' : groupOf(name),
      heading: EVM_DESCRIPTION_HEADINGS[name],
      description: check.description,
      risk: check.risk,
      status: check.status,
      comment: check.comment,
      value: check.comment,
      riskyReadsCritical: index === FEE_ITEM_INDEX,
    })
  }
  return {
    ownershipPermissionsDescription: EVM_DESCRIPTION_SECTIONS.ownershipPermissionsDescription.map((n, i) => item(n, i)),
    externalContractDescription: EVM_DESCRIPTION_SECTIONS.externalContractDescription.map((n) => item(n, -1)),
    transactionLimitersDescription: EVM_DESCRIPTION_SECTIONS.transactionLimitersDescription.map((n) => item(n, -1)),
  }
}

function verdictOf(p: TokenReport['honeypotDetails'][number], report: TokenReport): Verdict {
  const dex = report.marketChecks.exchangabilityChecks.availableDex.find((d) => sameAddress(d.pair, p.pairAddress))
  return {
    buyTax: rated(p.buyTax),
    sellTax: rated(p.sellTax),
    transferTax: rated(p.transferTax),
    token0Symbol: dex?.token0Symbol ?? '',
    token1Symbol: dex?.token1Symbol ?? '',
    isPairHoneypot: zeroOne(p.isPairHoneypot),
    honeypotReason: p.honeypotReason,
    dex: p.dex,
    pair: p.pair,
    pairAddress: p.pairAddress,
  }
}

/** The verdict shown when the token has no pool: nothing was simulated. */
function noPoolVerdict(): Verdict {
  const unknown = { number: '' as const, risk: UNKNOWN_RISK_NUMBER }
  return {
    buyTax: unknown,
    sellTax: unknown,
    transferTax: unknown,
    token0Symbol: '',
    token1Symbol: '',
    isPairHoneypot: '',
    honeypotReason: 'not determinable: no pool of the token was found',
    dex: '',
    pair: [],
    pairAddress: '',
  }
}

/** The pools by exchange, deepest first as the report lists them. */
function pairsByDex(report: TokenReport): Report['marketChecks']['marketCheckDescription']['liquidityDescription']['pairByPairInformation'] {
  const info = report.tokenInformation
  const byDex = new Map<string, Pair[]>()
  for (const d of report.marketChecks.exchangabilityChecks.availableDex) {
    const sim = report.honeypotDetails.find((h) => sameAddress(h.pairAddress, d.pair))
    const [token0Address, token1Address] = sim?.pair ?? ['', '']
    const image = (address: string) => (sameAddress(address, info.tokenAddress) ? info.tokenImageLink : '')
    const pair: Pair = {
      pairAddress: d.pair,
      dexName: d.name,
      dexImageLink: '',
      token0Address,
      token1Address,
      token0Symbol: d.token0Symbol,
      token1Symbol: d.token1Symbol,
      token0ImageLink: image(token0Address),
      token1ImageLink: image(token1Address),
      token0Balance: d.token0Balance,
      token1Balance: d.token1Balance,
      pairExplorerLink: d.explorerLink || d.link,
      lpSupplyInUsd: d.liquidity,
      rawLpSupplyInUsd: num(d.liquidity),
      lpTotalSupply: d.lpTotalSupply,
    }
    byDex.set(d.name, [...(byDex.get(d.name) ?? []), pair])
  }
  return [...byDex].map(([dexName, pairs]) => ({
    dexName,
    dexImageLink: '',
    numberOfPairs: pairs.length,
    totalLpSupplyInUsd: pairs.every((p) => p.rawLpSupplyInUsd !== '') ? usd(pairs.reduce((s, p) => s + (p.rawLpSupplyInUsd as number), 0)) : '',
    pairsInformation: pairs,
  }))
}
