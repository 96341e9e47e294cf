import { renderCheck, type RenderedCheck } from '../../report/define-check.ts'
import { checkCounts, exitBlocked, formatScore, percentage, totalPercentage } from '../../report/score-model.ts'
import type { RiskLabel } from '../../contract/common.ts'
import type { SolanaReport } from '../../contract/solana-report.ts'
import { SOLANA_OTHER_CHECKS, SOLANA_OWNERSHIP_CHECKS } from '../../contract/checks.ts'
import type { HolderAccount, PoolFacts, SolanaFacts } from './collect/facts.ts'
import { BURN_ADDRESSES } from './programs.ts'
import { percent, price, share as sharePercent, usd } from '../../report/format.ts'
import { rate } from '../../report/market.ts'
import { TOP_TEN, TOP_THREE, topAmount, type MarketFigure, type MarketValues, type SolanaScore } from './score.ts'
import { transferFeeSchedule } from './transfer-fee.ts'

type Report = SolanaReport
type Info = Report['tokenInformation']
type HolderEntry = Report['marketChecks']['holdersChecks']['keyHolders'][number]
type Distribution = Report['marketChecks']['holdersChecks']['percentDistributed']

/**
 * The render stage: facts + their score (check outcomes, market figures, ratings) → the report
 * body: strings everywhere, "" for what is unknown. Pure.
 */
export function renderSolanaReport(facts: SolanaFacts, score: SolanaScore): Report {
  const { mint } = facts
  const decimals = mint.decimals
  const supply = mint.supply
  const pools = facts.pools.ok ? facts.pools.value : undefined
  const poolVaults = new Map((pools ?? []).map((p) => [p.tokenVault, p.dex]))
  const creator = facts.creation.ok ? facts.creation.value.creator : ''
  const mintAuthority = mint.mintAuthority ?? ''

  const tagOf = (h: HolderAccount): string => {
    if (BURN_ADDRESSES.includes(h.owner)) return 'burn'
    const dex = poolVaults.get(h.tokenAccount)
    if (dex) return `pool vault (${dex})`
    if (h.owner === mintAuthority) return 'mint authority'
    if (h.owner === creator) return 'creator'
    return ''
  }
  const holderEntry = (h: HolderAccount, total: bigint, dec: number, tag: string): HolderEntry => ({
    address: h.owner,
    tokenAccount: h.tokenAccount,
    percent: percent(sharePercent(h.amount, total)),
    isContract: h.ownerIsOffCurve || h.ownerExecutable === true ? '1' : '0',
    isLocked: BURN_ADDRESSES.includes(h.owner) ? '1' : '0',
    balance: formatUnits(h.amount, dec),
    tag,
  })

  // Holders and concentration.
  const holders = facts.holders.ok ? facts.holders.value : undefined
  const inHands = (holders ?? []).filter((h) => !BURN_ADDRESSES.includes(h.owner) && !poolVaults.has(h.tokenAccount))
  const ownerBalance = facts.ownerBalance?.ok ? facts.ownerBalance.value : undefined
  const creatorBalance = facts.creatorBalance?.ok ? facts.creatorBalance.value : undefined
  const topThree = holders ? topAmount(inHands, TOP_THREE) : undefined
  const topTen = holders ? topAmount(inHands, TOP_TEN) : undefined

  // Pools, price, liquidity.
  const priced = (pools ?? []).filter((p) => p.liquidityUsd !== undefined && p.priceInQuote !== undefined && p.quoteUsd !== undefined)
  const deepest = priced[0]
  const priceUsd = deepest ? deepest.priceInQuote! * deepest.quoteUsd! : undefined
  const wholeSupply = Number(supply) / 10 ** decimals
  const explorer = explorerLink(facts.cluster)

  // LP tokens of the deepest constant-product pool.
  const lp = facts.lp?.ok ? facts.lp.value : undefined
  const lpSupply = lp?.supply ?? 0n
  const lpDecimals = lp?.decimals ?? 0
  const lpInHands = (lp?.holders ?? []).filter((h) => !BURN_ADDRESSES.includes(h.owner))
  const lpOf = (owner: string) => (lp && owner ? lp.holders.filter((h) => h.owner === owner).reduce((s, h) => s + h.amount, 0n) : undefined)

  // Checks and score.
  const { checks, values } = score
  const byId = new Map(checks.map((c) => [c.definition.id, c]))
  const rendered = (id: string): RenderedCheck => {
    const outcome = byId.get(id)
    if (!outcome) throw new Error(`solana check ${id} did not run`)
    return renderCheck(outcome.definition, outcome.result)
  }
  const rated = (figure: MarketFigure & keyof MarketValues, format: (v: number) => string) => {
    const value = values[figure]
    return value === undefined ? { number: '', risk: '' as RiskLabel } : { number: format(value), risk: score.ratings[figure] }
  }
  const member = (amount: bigint | undefined, total: bigint, dec: number, figure: MarketFigure) => {
    const pct = sharePercent(amount, total)
    return { percent: percent(pct), balance: amount === undefined ? '' : formatUnits(amount, dec), risk: pct === undefined ? ('' as RiskLabel) : rate(figure, pct).label }
  }
  const distribution: Distribution = {
    topThree: member(topThree, supply, decimals, 'topThreePercent'),
    topTen: member(topTen, supply, decimals, 'topTenPercent'),
    owner: member(mintAuthority ? ownerBalance : undefined, supply, decimals, 'ownerPercent'),
    creator: member(creatorBalance, supply, decimals, 'creatorPercent'),
  }

  const honeypotDetails = renderHoneypots(facts, pools, rated('taxPercent', percent))
  return {
    tokenInformation: renderInformation(facts, { priceUsd, wholeSupply, ownerBalance, creatorBalance, deepest: pools?.[0], explorer }),
    tokenScore: {
      checksPerformed: String(checkCounts(checks).checksPerformed),
      checksTotal: String(checks.length),
      totalScorePercentage: totalPercentage(score.code, score.market, { exitBlocked: exitBlocked(honeypotDetails) }),
      codeScorePercentage: percentage(score.code),
      marketScorePercentage: percentage(score.market),
      codeScore: scorePart(score.code),
      marketScore: scorePart(score.market),
    },
    marketChecks: {
      exchangabilityChecks: {
        numberOfTradingPairs: rated('numberOfTradingPairs', String),
        currentLiquidity: rated('currentLiquidityUsd', usd),
        availableDex: (pools ?? []).map((p) => ({
          name: p.dex,
          link: explorer ? explorer(p.address) : '',
          liquidity: usd(p.liquidityUsd),
          pair: p.address,
        })),
        centralisedExchanges: [],
      },
      holdersChecks: {
        holdersCount: rated('holdersCount', String),
        keyHolders: (holders ?? []).map((h) => holderEntry(h, supply, decimals, tagOf(h))),
        percentDistributed: distribution,
      },
      liquidityChecks: {
        totalLpSupply: lp ? formatUnits(lp.supply, lp.decimals) : '',
        lpHolderCount: rated('lpHolderCount', String),
        keyLpHolders: (lp?.holders ?? []).map((h) =>
          holderEntry(h, lp!.supply, lp!.decimals, BURN_ADDRESSES.includes(h.owner) ? 'burn' : h.owner === creator ? 'creator' : h.owner === mintAuthority ? 'mint authority' : ''),
        ),
        percentDistributed: {
          topThree: member(lp ? topAmount(lpInHands, TOP_THREE) : undefined, lpSupply, lpDecimals, 'topThreePercent'),
          topTen: member(lp ? topAmount(lpInHands, TOP_TEN) : undefined, lpSupply, lpDecimals, 'topTenPercent'),
          owner: member(lpOf(mintAuthority), lpSupply, lpDecimals, 'lpOwnerPercent'),
          creator: member(lpOf(creator), lpSupply, lpDecimals, 'lpOwnerPercent'),
        },
        liquidityLockedDetails: {
          upcomingUnlockDetails: [],
          totalLiquidityPercentageLocked: rated('lockedLiquidityPercent', percent),
        },
      },
    },
    codeChecks: {
      ownershipChecks: Object.fromEntries(SOLANA_OWNERSHIP_CHECKS.map((id) => [id, rendered(id)])) as Report['codeChecks']['ownershipChecks'],
      otherChecks: Object.fromEntries(SOLANA_OTHER_CHECKS.map((id) => [id, rendered(id)])) as Report['codeChecks']['otherChecks'],
    },
    honeypotDetails,
  }
}

function renderInformation(
  facts: SolanaFacts,
  extra: { priceUsd: number | undefined; wholeSupply: number; ownerBalance: bigint | undefined; creatorBalance: bigint | undefined; deepest: PoolFacts | undefined; explorer: ((a: string) => string) | undefined },
): Info {
  const { mint } = facts
  const ext = mint.extensions
  const metaplex = facts.metaplex.ok ? facts.metaplex.value.metadata : null
  const embedded = facts.embeddedMetadata
  const source = embedded ? 'token-2022' : metaplex ? 'metaplex' : ''
  const name = embedded?.name ?? metaplex?.name ?? ''
  const symbol = embedded?.symbol ?? metaplex?.symbol ?? ''
  const updateAuthority = embedded ? (embedded.updateAuthority ?? '') : metaplex?.isMutable ? metaplex.updateAuthority : ''
  const isMutable = embedded ? (embedded.updateAuthority ? '1' : '0') : metaplex ? (metaplex.isMutable ? '1' : '0') : ''
  const schedule = transferFeeSchedule(facts)
  const fee = ext.transferFeeConfig
  const hook = ext.transferHook
  const hookProgram = facts.hookProgram?.ok ? facts.hookProgram.value : undefined
  const creation = facts.creation.ok ? facts.creation.value : undefined
  const categories: string[] = [facts.programName]
  if (metaplex?.tokenStandard) categories.push(metaplex.tokenStandard)
  if (ext.nonTransferable) categories.push('non-transferable')
  if (ext.confidentialTransferMint || ext.confidentialMintBurn) categories.push('confidential')
  if (ext.interestBearingConfig) categories.push('interest-bearing')
  if (ext.scaledUiAmount) categories.push('scaled-ui-amount')
  // The token list (curated by the operator) wins over the creator's own JSON.
  const listed = facts.listed
  const offChain = facts.offChainMetadata?.ok ? facts.offChainMetadata.value : undefined
  for (const category of listed?.categories ?? []) if (!categories.includes(category)) categories.push(category)

  return {
    tokenAddress: facts.address,
    tokenName: name,
    tokenSymbol: symbol,
    tokenImageLink: listed?.imageUrl || offChain?.imageUrl || '',
    tokenCreationDate: creation?.blockTime != null ? new Date(creation.blockTime * 1000).toISOString() : '',
    creationSignature: creation?.signature ?? '',
    totalSupply: formatUnits(mint.supply, mint.decimals),
    rawSupply: mint.supply.toString(),
    decimals: String(mint.decimals),
    tokenProgram: facts.tokenProgram,
    tokenProgramName: facts.programName,
    ownerAddress: mint.mintAuthority ?? '',
    ownerBalance: extra.ownerBalance === undefined ? '' : formatUnits(extra.ownerBalance, mint.decimals),
    creatorAddress: creation?.creator ?? '',
    creatorBalance: extra.creatorBalance === undefined ? '' : formatUnits(extra.creatorBalance, mint.decimals),
    tokenCategories: categories,
    authorities: {
      mint: mint.mintAuthority ?? '',
      freeze: mint.freezeAuthority ?? '',
      update: updateAuthority,
      permanentDelegate: ext.permanentDelegate?.delegate ?? '',
      close: ext.mintCloseAuthority?.closeAuthority ?? '',
      transferFeeConfig: fee?.configAuthority ?? '',
      withdrawWithheld: fee?.withdrawAuthority ?? '',
      transferHook: hook?.authority ?? '',
      pause: ext.pausable?.authority ?? '',
      metadataPointer: ext.metadataPointer?.authority ?? '',
      confidentialTransfer: ext.confidentialTransferMint?.authority ?? '',
      interestRate: ext.interestBearingConfig?.rateAuthority ?? '',
      scaledUiAmount: ext.scaledUiAmount?.authority ?? '',
    },
    metadata: {
      source,
      address: embedded ? facts.address : metaplex && facts.metaplex.ok ? facts.metaplex.value.address : '',
      uri: embedded?.uri ?? metaplex?.uri ?? '',
      updateAuthority,
      isMutable,
      tokenStandard: metaplex?.tokenStandard ?? '',
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
    marketData: {
      currentPriceUsd: price(extra.priceUsd),
      marketCapUsd: extra.priceUsd === undefined ? '' : usd(extra.priceUsd * extra.wholeSupply),
      pastOneDayHigh: '',
      pastOneDayLow: '',
    },
    // Names and links only: follower and member counts are in neither source. A website has no
    // field in this report's shape, so it is not shown.
    socialInformation: {
      codeHostLinks: listed?.codeHostLinks.length ? listed.codeHostLinks : (offChain?.codeHostLinks ?? []),
      microblog: { name: listed?.microblog || offChain?.microblog || '', followers: '' },
      socialNetwork: { name: offChain?.socialNetwork ?? '', likes: '' },
      messenger: { name: listed?.messenger || offChain?.messenger || '', users: '' },
      forum: { url: listed?.forum || offChain?.forum || '', subscribers: '' },
    },
    externalLinks: {
      marketAggregatorLink: listed?.marketAggregatorLink ?? '',
      blockExplorerLink: extra.explorer ? extra.explorer(facts.address) : '',
      poolTerminal: extra.explorer && extra.deepest ? extra.explorer(extra.deepest.address) : '',
    },
  }
}

/**
 * One entry per pool (one token-level entry when no pool is found): a pool no one can trade is a
 * honeypot whose taxes cannot be measured (""), and the token-level entry is "" when the pools
 * could not be read (a pool-level trap there is unknown).
 */
function renderHoneypots(facts: SolanaFacts, pools: PoolFacts[] | undefined, tax: { number: string; risk: RiskLabel }): Report['honeypotDetails'] {
  const ext = facts.mint.extensions
  const tokenReasons: string[] = []
  if (ext.nonTransferable) tokenReasons.push('the token is non-transferable')
  if (ext.pausable?.paused) tokenReasons.push('transfers are paused')
  if (ext.defaultAccountState?.state === 'frozen') tokenReasons.push('new token accounts start frozen, so a buyer cannot sell until the freeze authority thaws the account')
  const untraded = { number: '', risk: '' as RiskLabel }
  const entry = (reasons: string[], dex: string, pair: string[], pairAddress: string, unknownWhy?: string) => {
    const trap = reasons.length > 0
    const flag = trap ? ('1' as const) : unknownWhy ? ('' as const) : ('0' as const)
    // The transfer fee is the mint's: known whatever the pools. What cannot be traded has no tax.
    const taxes = trap ? untraded : tax
    return {
      buyTax: taxes,
      sellTax: taxes,
      transferTax: tokenReasons.length > 0 ? untraded : tax,
      isPairHoneypot: flag,
      honeypotReason: trap ? reasons.join('; ') : unknownWhy ? `not determinable: ${unknownWhy}` : '',
      dex,
      pair,
      pairAddress,
    }
  }
  if (!pools) return [entry(tokenReasons, '', [], '', facts.pools.ok ? undefined : `the pools could not be read (${facts.pools.reason})`)]
  if (pools.length === 0) return [entry(tokenReasons, '', [], '')]
  return pools.map((p) => {
    const reasons = [...tokenReasons]
    if (p.tokenVaultFrozen) reasons.push('the pool’s token vault is frozen')
    if (p.swapEnabled === false) reasons.push('the pool has swaps disabled')
    return entry(reasons, p.dex, [...p.mints], p.address)
  })
}

function scorePart(f: { achievedScore: number; maxScore: number; minScore: number }) {
  return { achievedScore: formatScore(f.achievedScore), maxScore: formatScore(f.maxScore), minScore: formatScore(f.minScore) }
}

/** Explorer page builder for public clusters; undefined for private ones. */
function explorerLink(cluster: SolanaFacts['cluster']): ((address: string) => string) | undefined {
  if (cluster === 'unknown') return undefined
  const suffix = cluster === 'mainnet-beta' ? '' : `?cluster=${cluster}`
  return (address) => `https://explorer.solana.com/address/${address}${suffix}`
}

/** Base units → whole tokens, exact, without trailing zeros. */
export function formatUnits(amount: bigint, decimals: number): string {
  const negative = amount < 0n
  const abs = negative ? -amount : amount
  const scale = 10n ** BigInt(decimals)
  const whole = abs / scale
  const fraction = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}

