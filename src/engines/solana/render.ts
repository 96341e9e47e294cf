import { renderCheck, type CheckDefinition, type CheckResult, type RenderedCheck } from '../../report/define-check.ts'
import { checkCounts, exitBlocked, formatScore, percentage, totalPercentage, type ScoreFigures } from '../../report/score-model.ts'
import { fillLink } from '../../config/chains.ts'
import type { SolanaCheckName } from '../../contract/checks.ts'
import type { SolanaReport } from '../../contract/solana-report.ts'
import { SOLANA_TOKEN_LIST_CHAIN_IDS, coinGeckoLink } from '../../metadata/providers.ts'
import type { ClusterName, CreatorHistory, HolderAccount, LpFacts, PoolFacts, SolanaFacts } from './collect/facts.ts'
import { formatUnits, offChainStatus, renderCurve, renderLaunch, renderLocks } from './render-parts.ts'
import { BURN_ADDRESSES } from './programs.ts'
import { percent, price, share as sharePercent, usd } from '../../report/format.ts'
import { rate } from '../../report/market.ts'
import { TOP_TEN, TOP_THREE, lpLocks, topAmount, type MarketFigure, type MarketValues, type SolanaScore } from './score.ts'
import { transferFeeSchedule } from './transfer-fee.ts'
import { SOLANA_CHECK_SECTIONS, SOLANA_HEADINGS } from './headings.ts'
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
} from '../../report/views/description-parts.ts'

type Report = SolanaReport
type General = Report['tokenInformation']['generalInformation']
type Social = Report['tokenInformation']['socialInformation']
type Holder = Report['marketChecks']['marketCheckDescription']['holdersDescription']['keyHolders'][number]
type Member = Report['marketChecks']['marketCheckDescription']['holdersDescription']['percentDistributed']['topThree']
type Item = Report['codeChecks']['codeCheckDescription']['ownershipPermissionsDescription'][number]
type Verdict = Report['honeypotDetails']['pools'][number]
type Pair = Report['marketChecks']['marketCheckDescription']['liquidityDescription']['pairByPairInformation'][number]['pairsInformation'][number]

/** A report's decimal string as a JSON number; "" stays "". */
const num = (text: string): number | '' => (text === '' ? '' : Number(text))
/** A figure, or "" when unknown. */
const orUnknown = (n: number | undefined): number | '' => n ?? ''

/** Link templates of the public clusters (`{address}`, `{pair}`), as a chain entry's `links`; a private cluster has none. */
export const SOLANA_LINKS: Record<ClusterName, { explorerAddress?: string; pool?: string }> = {
  'mainnet-beta': { explorerAddress: 'https://explorer.solana.com/address/{address}', pool: 'https://www.geckoterminal.com/solana/pools/{pair}' },
  devnet: { explorerAddress: 'https://explorer.solana.com/address/{address}?cluster=devnet' },
  testnet: { explorerAddress: 'https://explorer.solana.com/address/{address}?cluster=testnet' },
  unknown: {},
}

const CHAIN_NAMES: Record<ClusterName, string> = {
  'mainnet-beta': 'Solana',
  devnet: 'Solana devnet',
  testnet: 'Solana testnet',
  unknown: 'Solana (unidentified cluster)',
}

export interface CheckOutcome {
  definition: CheckDefinition<SolanaFacts>
  result: CheckResult
}

export interface RenderOptions {
  /** When the report is made (`lastUpdated`); now by default. */
  now?: Date
}

/**
 * The render stage: facts and their score (check outcomes, market figures, ratings) → the
 * published Solana body, "" for what is unknown. Pure but for the time it stamps (`options.now`).
 */
export function renderSolanaReport(facts: SolanaFacts, score: SolanaScore, options: RenderOptions = {}): Report {
  return renderScored(facts, score, derive(facts), options)
}

/** What both the market figures and the body read of the facts. */
interface Derived {
  pools: PoolFacts[] | undefined
  poolVaults: Map<string, string>
  creator: string
  mintAuthority: string
  holders: HolderAccount[] | undefined
  inHands: HolderAccount[]
  ownerBalance: bigint | undefined
  creatorBalance: bigint | undefined
  topThree: bigint | undefined
  topTen: bigint | undefined
  priced: PoolFacts[]
  liquidityUsd: number | undefined
  lp: LpFacts | undefined
  /** LP tokens held by `owner` (undefined without an LP token or an owner). */
  lpOf: (owner: string) => bigint | undefined
  lpInsiders: bigint | undefined
}

function derive(facts: SolanaFacts): Derived {
  const pools = facts.pools.ok ? facts.pools.value : undefined
  const poolVaults = new Map((pools ?? []).map((p) => [p.tokenVault, p.dex]))
  const creator = facts.creation.ok ? facts.creation.value.creator : ''
  const mintAuthority = facts.mint.mintAuthority ?? ''
  const holders = facts.holders.ok ? facts.holders.value : undefined
  const inHands = (holders ?? []).filter((h) => !BURN_ADDRESSES.includes(h.owner) && !poolVaults.has(h.tokenAccount))
  const priced = (pools ?? []).filter((p) => p.liquidityUsd !== undefined && p.priceInQuote !== undefined && p.quoteUsd !== undefined)
  const lp = facts.lp?.ok ? facts.lp.value : undefined
  const lpOf = (owner: string) => (lp && owner ? lp.holders.filter((h) => h.owner === owner).reduce((s, h) => s + h.amount, 0n) : undefined)
  return {
    pools,
    poolVaults,
    creator,
    mintAuthority,
    holders,
    inHands,
    ownerBalance: facts.ownerBalance?.ok ? facts.ownerBalance.value : undefined,
    creatorBalance: facts.creatorBalance?.ok ? facts.creatorBalance.value : undefined,
    topThree: holders ? topAmount(inHands, TOP_THREE) : undefined,
    topTen: holders ? topAmount(inHands, TOP_TEN) : undefined,
    priced,
    liquidityUsd: pools ? priced.reduce((sum, p) => sum + p.liquidityUsd!, 0) : undefined,
    lp,
    lpOf,
    lpInsiders: lp ? (lpOf(mintAuthority) ?? 0n) + (creator && creator !== mintAuthority ? (lpOf(creator) ?? 0n) : 0n) : undefined,
  }
}

type Scored = SolanaScore

function renderScored(facts: SolanaFacts, score: Scored, d: Derived, options: RenderOptions): Report {
  const { mint } = facts
  const decimals = mint.decimals
  const supply = mint.supply
  const { pools, lp, lpOf } = d
  const { values } = score
  const links = SOLANA_LINKS[facts.cluster]
  const explorer = (address: string) => fillLink(links.explorerAddress, { address })
  const symbol = facts.embeddedMetadata?.symbol ?? (facts.metaplex.ok ? facts.metaplex.value.metadata?.symbol : undefined) ?? ''
  const offChain = facts.offChainMetadata?.ok ? facts.offChainMetadata.value : undefined
  const image = facts.listed?.imageUrl || offChain?.imageUrl || ''
  const priceUsd = d.priced[0] ? d.priced[0].priceInQuote! * d.priced[0].quoteUsd! : undefined
  const figures = Object.keys(values) as (MarketFigure & keyof MarketValues)[]
  const rating = (figure: MarketFigure) => riskNumber(score.ratings[figure])

  // Code checks, in the published sections.
  const byId = new Map(score.checks.map((c) => [c.definition.id, c]))
  const item = (id: SolanaCheckName, index: number): Item => {
    const outcome = byId.get(id)
    if (!outcome) throw new Error(`solana check ${id} did not run`)
    const rendered: RenderedCheck = renderCheck(outcome.definition, outcome.result)
    return descriptionItem({
      check: id,
      group: outcome.definition.group,
      heading: SOLANA_HEADINGS[id],
      description: rendered.description,
      risk: rendered.risk,
      status: rendered.status,
      comment: rendered.comment,
      value: outcome.result.evidence,
      riskyReadsCritical: index === FEE_ITEM_INDEX,
    })
  }
  const codeDescription = {
    ownershipPermissionsDescription: SOLANA_CHECK_SECTIONS.ownershipPermissionsDescription.map((id, i) => item(id, i)),
    externalContractDescription: SOLANA_CHECK_SECTIONS.externalContractDescription.map((id) => item(id, -1)),
    transactionLimitersDescription: SOLANA_CHECK_SECTIONS.transactionLimitersDescription.map((id) => item(id, -1)),
  }
  const items = Object.values(codeDescription).flat()
  const counted = checkCounts(score.checks)

  // Holders.
  const tagOf = (h: HolderAccount): string => {
    if (BURN_ADDRESSES.includes(h.owner)) return 'burn'
    const dex = d.poolVaults.get(h.tokenAccount)
    if (dex) return `pool vault (${dex})`
    if (h.owner === d.mintAuthority) return 'mint authority'
    if (h.owner === d.creator) return 'creator'
    return ''
  }
  const holderEntry = (h: HolderAccount, total: bigint, dec: number, tag: string): Holder => {
    const isContract = h.ownerIsOffCurve || h.ownerExecutable === true ? true : h.ownerExecutable === false ? false : ''
    return {
      address: h.owner,
      percent: num(percent(sharePercent(h.amount, total))),
      isContract,
      // Burned for ever; a wallet or a pool vault locks nothing; a program's account may be a locker we do not read.
      isLocked: BURN_ADDRESSES.includes(h.owner) ? true : isContract === false || tag.startsWith('pool vault') ? false : '',
      balance: formatUnits(h.amount, dec),
      tokenAccount: h.tokenAccount,
      tag,
      isFrozen: h.frozen,
    }
  }
  const member = (amount: bigint | undefined, pct: number | undefined, dec: number, risk: number): Member => ({
    percent: num(percent(pct)),
    balance: amount === undefined ? '' : Number(formatUnits(amount, dec)),
    balanceFormatted: amount === undefined ? '' : formatUnits(amount, dec),
    risk: pct === undefined ? UNKNOWN_RISK_NUMBER : risk,
  })
  const rated = (amount: bigint | undefined, total: bigint, dec: number, figure: MarketFigure): Member => {
    const pct = sharePercent(amount, total)
    return member(amount, pct, dec, pct === undefined ? UNKNOWN_RISK_NUMBER : riskNumber(rate(figure, pct).label))
  }
  const unrated = (amount: bigint | undefined, total: bigint, dec: number): Member => member(amount, sharePercent(amount, total), dec, UNKNOWN_RISK_NUMBER)
  const atBurn = (list: HolderAccount[]) => list.filter((h) => BURN_ADDRESSES.includes(h.owner)).reduce((s, h) => s + h.amount, 0n)
  const keyHolders = (d.holders ?? []).map((h) => holderEntry(h, supply, decimals, tagOf(h)))
  const burnt = d.holders ? atBurn(d.holders) : undefined
  const holdersDescription = {
    holdersCount: { number: orUnknown(values.holdersCount), risk: rating('holdersCount') },
    keyHolders,
    eoaHolders: keyHolders.filter((h) => h.isContract === false),
    contractHolders: keyHolders.filter((h) => h.isContract === true),
    percentDistributed: {
      topThree: rated(d.topThree, supply, decimals, 'topThreePercent'),
      topTen: rated(d.topTen, supply, decimals, 'topTenPercent'),
      largest: rated(d.holders ? topAmount(d.inHands, 1) : undefined, supply, decimals, 'largestHolderPercent'),
      owner: rated(d.mintAuthority ? d.ownerBalance : undefined, supply, decimals, 'ownerPercent'),
      creator: rated(d.creatorBalance, supply, decimals, 'creatorPercent'),
      burnt: unrated(burnt, supply, decimals),
      locked: unrated(undefined, supply, decimals),
      other: unrated(d.topTen !== undefined && burnt !== undefined ? supply - d.topTen - burnt : undefined, supply, decimals),
    },
    launch: renderLaunch(facts, d.holders),
  }

  // Liquidity: the LP token of the deepest constant-product pool, and the pools by exchange. Shares
  // of the LP are of what the pool issued (its own count): LP burned through the token program
  // leaves the mint's supply but still counts in the pool's, so a holder of the whole supply left
  // after a 90 % burn can withdraw 10 % of the pool, not all of it.
  const lpDecimals = lp?.decimals ?? 0
  const lpInHands = (lp?.holders ?? []).filter((h) => !BURN_ADDRESSES.includes(h.owner))
  const lpIssued = lp ? (lp.issued !== null && lp.issued >= lp.supply ? lp.issued : lp.supply) : undefined
  const lpBase = lpIssued ?? 0n
  const held = lp ? lpLocks(lp) : undefined
  const lpBurnt = held?.burned
  const lpLocked = held ? held.permanent + held.vesting : undefined
  const lpTopTen = lp ? topAmount(lpInHands, TOP_TEN) : undefined
  // A lock program's account is tagged with it: locked when the lock holds it, not when it can be cancelled.
  const lockOf = (h: HolderAccount) => held?.lockers.find((l) => l.holder === h.tokenAccount || l.holder === h.owner)
  const keyLpHolders = (lp?.holders ?? []).map((h) => {
    const lock = lockOf(h)
    const tag = BURN_ADDRESSES.includes(h.owner) ? 'burn' : lock ? `${lock.locker}${lock.notLocked ? ' (not locked)' : ''}` : h.owner === d.creator ? 'creator' : h.owner === d.mintAuthority ? 'mint authority' : ''
    const entry = holderEntry(h, lpBase, lpDecimals, tag)
    return lock ? { ...entry, isLocked: lock.notLocked === '' } : entry
  })
  const pairOf = (p: PoolFacts): Pair => {
    const side = (m: string) => ({
      symbol: m === facts.address ? symbol : m === p.quoteMint ? p.quoteSymbol : '',
      image: m === facts.address ? image : '',
      balance: m === facts.address ? formatUnits(p.tokenReserve, decimals) : '',
    })
    const [a, b] = [side(p.mints[0]), side(p.mints[1])]
    return {
      pairAddress: p.address,
      dexName: p.dex,
      dexImageLink: '',
      token0Address: p.mints[0],
      token1Address: p.mints[1],
      token0Symbol: a.symbol,
      token1Symbol: b.symbol,
      token0ImageLink: a.image,
      token1ImageLink: b.image,
      token0Balance: a.balance,
      token1Balance: b.balance,
      pairExplorerLink: explorer(p.address),
      lpSupplyInUsd: usd(p.liquidityUsd),
      rawLpSupplyInUsd: p.liquidityUsd !== undefined && Number.isFinite(p.liquidityUsd) ? p.liquidityUsd : '',
    }
  }
  const byDex = new Map<string, PoolFacts[]>()
  for (const p of pools ?? []) byDex.set(p.dex, [...(byDex.get(p.dex) ?? []), p])
  const pairByPairInformation = [...byDex].map(([dex, list]) => ({
    dexName: dex,
    dexImageLink: '',
    numberOfPairs: list.length,
    totalLpSupplyInUsd: list.every((p) => p.liquidityUsd !== undefined) ? usd(list.reduce((s, p) => s + p.liquidityUsd!, 0)) : '',
    pairsInformation: list.map(pairOf),
  }))

  // Verdicts per pool, the deepest's on top; the total score.
  const tax = { number: num(percent(values.taxPercent)), risk: rating('taxPercent') }
  const verdicts = renderVerdicts(facts, pools, tax, (p) => {
    const pair = pairOf(p)
    return [pair.token0Symbol, pair.token1Symbol]
  })
  const blocked = exitBlocked(verdicts.map((v) => ({ isPairHoneypot: String(v.isPairHoneypot) })))
  const joint: ScoreFigures = {
    achievedScore: score.code.achievedScore + score.market.achievedScore,
    maxScore: score.code.maxScore + score.market.maxScore,
    minScore: score.code.minScore + score.market.minScore,
  }
  // The same cap as the total percentage: no market figure makes up for holders who cannot get out.
  const overAll = blocked && joint.achievedScore > 0 ? 0 : joint.achievedScore
  const known = figures.filter((f) => score.ratings[f] !== '')
  const labels = [...items.map((i) => i.riskStatus), ...known.map((f) => score.ratings[f])]
  const counts = aggregatedCount(labels)

  return {
    tokenInformation: {
      generalInformation: renderGeneral(facts, d, score, options),
      tokenSupplyInformation: {
        centralisedExchanges: [],
        tokenHoldersCount: orUnknown(values.holdersCount),
        totalSupply: formatUnits(supply, decimals),
        rawSupply: supply.toString(),
        currentPriceUsd: price(priceUsd),
        marketCapUsd: priceUsd === undefined ? '' : usd((priceUsd * Number(supply)) / 10 ** decimals),
        pastOneDayHigh: '',
        pastOneDayLow: '',
      },
      socialInformation: renderSocial(facts, explorer, links.pool && pools?.[0] ? fillLink(links.pool, { pair: pools[0].address }) : ''),
      totalChecksInformation: {
        totalChecks: score.checks.length + figures.length,
        checksPerformed: counted.checksPerformed + known.length,
        aggregatedCount: counts,
      },
    },
    codeChecks: {
      maxCodeCheckScore: num(formatScore(score.code.maxScore)),
      minCodeCheckScore: num(formatScore(score.code.minScore)),
      codeCheckScore: num(formatScore(score.code.achievedScore)),
      availableChecks: score.checks.length,
      checksPerformed: counted.checksPerformed,
      codeCheckScorePercentage: num(percentage(score.code)),
      codeCheckDescription: codeDescription,
    },
    marketChecks: {
      minMarketCheckScore: num(formatScore(score.market.minScore)),
      maxMarketCheckScore: num(formatScore(score.market.maxScore)),
      marketCheckScore: num(formatScore(score.market.achievedScore)),
      availableChecks: figures.length,
      checksPerformed: known.length,
      marketCheckScorePercentage: num(percentage(score.market)),
      marketCheckDescription: {
        holdersDescription,
        liquidityDescription: {
          aggregatedInformation: {
            totalLpSupplyInUsd: { number: usd(d.liquidityUsd), risk: rating('currentLiquidityUsd') },
            lpHolderCount: { number: orUnknown(values.lpHolderCount), risk: rating('lpHolderCount') },
            tradingPairCount: { number: orUnknown(values.numberOfTradingPairs), risk: rating('numberOfTradingPairs') },
            keyLpHolders,
            eoaLpHolders: keyLpHolders.filter((h) => h.isContract === false),
            contractLpHolders: keyLpHolders.filter((h) => h.isContract === true),
            liquidityLockedDetails: renderLocks(facts),
            percentDistributed: {
              topThree: rated(lp ? topAmount(lpInHands, TOP_THREE) : undefined, lpBase, lpDecimals, 'topThreePercent'),
              topTen: rated(lpTopTen, lpBase, lpDecimals, 'topTenPercent'),
              largest: unrated(lp ? topAmount(lpInHands, 1) : undefined, lpBase, lpDecimals),
              owner: rated(lpOf(d.mintAuthority), lpBase, lpDecimals, 'lpOwnerPercent'),
              creator: rated(lpOf(d.creator), lpBase, lpDecimals, 'lpOwnerPercent'),
              burnt: unrated(lpBurnt, lpBase, lpDecimals),
              locked: member(lpLocked, values.lockedLiquidityPercent, lpDecimals, rating('lockedLiquidityPercent')),
              other: unrated(lp && lpTopTen !== undefined ? lp.supply - lpTopTen - atBurn(lp.holders) : undefined, lpBase, lpDecimals),
            },
            launchCurve: renderCurve(facts, pools),
            lpPool: lp?.pool ?? '',
            lpMint: lp?.lpMint ?? '',
            totalLpSupply: lp ? formatUnits(lp.supply, lp.decimals) : '',
          },
          pairByPairInformation,
        },
      },
    },
    honeypotDetails: {
      overAllScore: num(formatScore(overAll)),
      overAllScorePercentage: scalePercent(num(totalPercentage(score.code, score.market, { exitBlocked: blocked }))),
      overAllMaxScore: num(formatScore(joint.maxScore)),
      overAllMinScore: num(formatScore(joint.minScore)),
      ...shownVerdict(verdicts)!,
      isTokenHoneypot: blocked ? 1 : verdicts.some((v) => v.isPairHoneypot === 0) ? 0 : '',
      pools: verdicts,
    },
    riskCategories: riskCategories(counts),
  }
}

/** The creator's pump.fun launches as the body writes them ("" when unknown). */
function pumpCurvesOf(c: CreatorHistory['pumpCurves']): { created: number | ''; graduated: number | ''; dead: number | '' } {
  return c ? { created: c.created, graduated: c.graduated, dead: c.dead } : { created: '', graduated: '', dead: '' }
}

function renderGeneral(facts: SolanaFacts, d: Derived, score: Scored, options: RenderOptions): General {
  const { mint } = facts
  const ext = mint.extensions
  const metaplex = facts.metaplex.ok ? facts.metaplex.value.metadata : null
  const embedded = facts.embeddedMetadata
  const source = embedded ? 'token-2022' : metaplex ? 'metaplex' : ''
  // Known when the metadata is embedded or the Metaplex account could be read (present or not).
  const metadataKnown = Boolean(embedded) || facts.metaplex.ok
  const updateAuthority = embedded ? holder(embedded.updateAuthority) : metaplex?.isMutable ? metaplex.updateAuthority : metadataKnown ? RENOUNCED : ''
  const isMutable = embedded ? (embedded.updateAuthority ? '1' : '0') : metaplex ? (metaplex.isMutable ? '1' : '0') : metadataKnown ? '0' : ''
  const schedule = transferFeeSchedule(facts)
  const fee = ext.transferFeeConfig
  const hook = ext.transferHook
  const hookProgram = facts.hookProgram?.ok ? facts.hookProgram.value : undefined
  const creation = facts.creation.ok ? facts.creation.value : undefined
  const created = creation?.blockTime != null ? new Date(creation.blockTime * 1000) : undefined
  const categories: string[] = [facts.programName]
  if (metaplex?.tokenStandard) categories.push(metaplex.tokenStandard)
  if (ext.nonTransferable) categories.push('non-transferable')
  if (ext.confidentialTransferMint || ext.confidentialMintBurn) categories.push('confidential')
  if (ext.interestBearingConfig) categories.push('interest-bearing')
  if (ext.scaledUiAmount) categories.push('scaled-ui-amount')
  for (const category of facts.listed?.categories ?? []) if (!categories.includes(category)) categories.push(category)
  const offChain = facts.offChainMetadata?.ok ? facts.offChainMetadata.value : undefined

  return {
    lastUpdated: (options.now ?? new Date()).toISOString(),
    tokenAddress: facts.address,
    mint: facts.address,
    chainId: facts.cluster === 'unknown' ? '' : String(SOLANA_TOKEN_LIST_CHAIN_IDS[facts.cluster]),
    chainName: CHAIN_NAMES[facts.cluster],
    cluster: facts.cluster === 'unknown' ? '' : facts.cluster,
    tokenName: embedded?.name ?? metaplex?.name ?? '',
    tokenSymbol: embedded?.symbol ?? metaplex?.symbol ?? '',
    // The token list (curated) wins over the creator's own JSON.
    tokenImageLink: facts.listed?.imageUrl || offChain?.imageUrl || '',
    tokenCreationDate: dayMonthYear(created),
    tokenCreationTime: created ? created.toISOString() : '',
    lookAlikeOf: facts.sameName.ok && !facts.sameName.value.some((t) => t.address === facts.address) ? facts.sameName.value.map((t) => ({ ...t })) : [],
    creatorHistory: facts.launch.ok
      ? {
          earlierMintCount: facts.launch.value.creatorHistory.earlierMints.length,
          pulledCount: facts.launch.value.creatorHistory.liquidityPulled.length,
          earlierMints: facts.launch.value.creatorHistory.earlierMints,
          liquidityPulled: facts.launch.value.creatorHistory.liquidityPulled,
          complete: facts.launch.value.creatorHistory.complete ? '1' : '0',
          deadMintCount: facts.launch.value.creatorHistory.deadMints.length,
          deadMints: facts.launch.value.creatorHistory.deadMints,
          pumpCurves: pumpCurvesOf(facts.launch.value.creatorHistory.pumpCurves),
          reason: '',
        }
      : { earlierMintCount: '', pulledCount: '', earlierMints: [], liquidityPulled: [], complete: '', deadMintCount: '', deadMints: [], pumpCurves: pumpCurvesOf(null), reason: facts.launch.reason },
    tokenAgeDays: { number: orUnknown(roundTo(score.values.tokenAgeDays, 2)), risk: riskNumber(score.ratings.tokenAgeDays) },
    creationSignature: creation?.signature ?? '',
    ownerAddress: holder(mint.mintAuthority),
    ownerBalance: d.ownerBalance === undefined ? '' : formatUnits(d.ownerBalance, mint.decimals),
    creatorAddress: creation?.creator ?? '',
    creatorBalance: d.creatorBalance === undefined ? '' : formatUnits(d.creatorBalance, mint.decimals),
    categories,
    decimals: String(mint.decimals),
    tokenProgram: facts.tokenProgram,
    tokenProgramName: facts.programName,
    authorities: {
      mint: holder(mint.mintAuthority),
      freeze: holder(mint.freezeAuthority),
      update: updateAuthority,
      permanentDelegate: holder(ext.permanentDelegate?.delegate),
      close: holder(ext.mintCloseAuthority?.closeAuthority),
      transferFeeConfig: holder(fee?.configAuthority),
      withdrawWithheld: holder(fee?.withdrawAuthority),
      transferHook: holder(hook?.authority),
      pause: holder(ext.pausable?.authority),
      metadataPointer: holder(ext.metadataPointer?.authority),
      confidentialTransfer: holder(ext.confidentialTransferMint?.authority),
      interestRate: holder(ext.interestBearingConfig?.rateAuthority),
      scaledUiAmount: holder(ext.scaledUiAmount?.authority),
    },
    metadata: {
      source,
      address: embedded ? facts.address : metaplex && facts.metaplex.ok ? facts.metaplex.value.address : '',
      uri: embedded?.uri ?? metaplex?.uri ?? '',
      updateAuthority,
      isMutable,
      tokenStandard: metaplex?.tokenStandard ?? '',
      ...offChainStatus(facts, embedded?.uri ?? metaplex?.uri ?? '', metadataKnown),
    },
    extensions: facts.extensionNames,
    transferFee: {
      currentBasisPoints: schedule ? String(schedule.current.basisPoints) : '',
      currentMaximumFee: schedule ? formatUnits(schedule.current.maximumFee, mint.decimals) : '',
      scheduledBasisPoints: schedule?.scheduled ? String(schedule.scheduled.basisPoints) : '',
      scheduledMaximumFee: schedule?.scheduled ? formatUnits(schedule.scheduled.maximumFee, mint.decimals) : '',
      scheduledEpoch: schedule?.scheduled ? schedule.scheduled.epoch.toString() : '',
      currentEpoch: facts.epoch?.ok ? facts.epoch.value.toString() : '',
      withheldAmount: fee ? formatUnits(fee.withheldAmount, mint.decimals) : '',
    },
    transferHook: {
      programId: hook?.programId ?? '',
      programUpgradeable: hookProgram ? (hookProgram.upgradeable || !hookProgram.exists ? '1' : '0') : '',
      programUpgradeAuthority: hookProgram?.upgradeAuthority ?? '',
    },
    defaultAccountState: ext.defaultAccountState?.state ?? '',
    paused: ext.pausable ? (ext.pausable.paused ? '1' : '0') : '',
  }
}

const roundTo = (n: number | undefined, places: number) => (n === undefined ? undefined : Math.round(n * 10 ** places) / 10 ** places)

/**
 * Who holds an authority the mint account names (always read): its address, or "Renounced" when
 * it names none (revoked, never set, or the extension that would hold it is absent).
 */
function holder(authority: string | null | undefined): string {
  return authority || RENOUNCED
}

/** Social links: the token list (curated by the operator, or bundled) wins over the creator's own JSON. */
function renderSocial(facts: SolanaFacts, explorer: (address: string) => string, geckoTerminal: string): Social {
  const listed = facts.listed
  const offChain = facts.offChainMetadata?.ok ? facts.offChainMetadata.value : undefined
  const twitter = listed?.microblog || offChain?.microblog || ''
  const telegram = listed?.messenger || offChain?.messenger || ''
  const facebook = listed?.socialNetwork || offChain?.socialNetwork || ''
  const reddit = listed?.reddit ?? ''
  const cgLink = coinGeckoLink(listed?.coinGeckoId ?? '') || listed?.marketAggregatorLink || ''
  return {
    githubLinks: listed?.codeHostLinks.length ? listed.codeHostLinks : (offChain?.codeHostLinks ?? []),
    reddit: { name: /reddit\.com\/(r\/[^/?#]+)/i.exec(reddit)?.[1] ?? '', url: reddit, subscribers: '' },
    facebook: { ...handleAndLink(facebook, 'https://www.facebook.com/'), likes: '' },
    twitter: { ...handleAndLink(twitter, 'https://x.com/'), followers: '' },
    telegram: { ...handleAndLink(telegram, 'https://t.me/'), members: '' },
    discord: { name: '', url: listed?.discord || offChain?.forum || '' },
    website: { url: listed?.website || offChain?.website || '' },
    externalLinks: {
      coinGeckoLink: cgLink,
      coinGeckoId: listed?.coinGeckoId ?? '',
      blockExplorerLink: explorer(facts.address),
      geckoTerminal,
    },
  }
}

/** A handle ("@name", "name") or an https link → its name and its link on the network at `base`. */
function handleAndLink(value: string, base: string): { name: string; url: string } {
  if (!value) return { name: '', url: '' }
  if (/^https:/i.test(value)) return { name: value.replace(/\/+$/, '').split('/').pop() ?? '', url: value }
  const handle = value.replace(/^@/, '')
  return { name: handle, url: `${base}${handle}` }
}

/**
 * One verdict per pool (one token-level verdict when no pool is found): a pool no one can trade
 * is a honeypot whose taxes cannot be measured (""), and the token-level verdict is "" when the
 * pools could not be read (a pool-level trap there is unknown).
 */
function renderVerdicts(
  facts: SolanaFacts,
  pools: PoolFacts[] | undefined,
  tax: { number: number | ''; risk: number },
  symbols: (p: PoolFacts) => [string, string],
): Verdict[] {
  const ext = facts.mint.extensions
  const tokenReasons: string[] = []
  if (ext.nonTransferable) tokenReasons.push('the token is non-transferable')
  if (ext.pausable?.paused) tokenReasons.push('transfers are paused')
  if (ext.defaultAccountState?.state === 'frozen') tokenReasons.push('new token accounts start frozen, so a buyer cannot sell until the freeze authority thaws the account')
  const untraded = { number: '' as const, risk: UNKNOWN_RISK_NUMBER }
  const verdict = (reasons: string[], pool: PoolFacts | undefined, unknownWhy?: string): Verdict => {
    const trap = reasons.length > 0
    // The transfer fee is the mint's: known whatever the pools. What cannot be traded has no tax.
    const taxes = trap ? untraded : tax
    const [token0Symbol, token1Symbol] = pool ? symbols(pool) : ['', '']
    return {
      buyTax: taxes,
      sellTax: taxes,
      transferTax: tokenReasons.length > 0 ? untraded : tax,
      token0Symbol,
      token1Symbol,
      isPairHoneypot: trap ? 1 : unknownWhy ? '' : 0,
      honeypotReason: trap ? reasons.join('; ') : unknownWhy ? `not determinable: ${unknownWhy}` : '',
      dex: pool?.dex ?? '',
      pair: pool ? [...pool.mints] : [],
      pairAddress: pool?.address ?? '',
    }
  }
  if (!pools) return [verdict(tokenReasons, undefined, facts.pools.ok ? undefined : `the pools could not be read (${facts.pools.reason})`)]
  if (pools.length === 0) return [verdict(tokenReasons, undefined)]
  return pools.map((p) => {
    const reasons = [...tokenReasons]
    if (p.tokenVaultFrozen) reasons.push('the pool’s token vault is frozen')
    if (p.swapEnabled === false) reasons.push('the pool has swaps disabled')
    return verdict(reasons, p)
  })
}

export { formatUnits }
