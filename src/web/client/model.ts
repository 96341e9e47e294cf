import type { EvmCheckName, SolanaCheckName } from '../../contract/checks.ts'
import { RISK_SCALE } from '../../contract/risk-scale.ts'
import type { SolanaReport } from '../../contract/solana-report.ts'
import type { TokenReport } from '../../contract/token-report.ts'
import { launchCurveWords, type LaunchCurve } from '../../report/launch-curve.ts'
import { poolKey } from '../../report/pool-names.ts'
import { unmeasuredReason } from './format.ts'
import { EVM_CHECK_TITLES, SOLANA_CHECK_TITLES } from './labels.ts'

/**
 * One shape for what the page shows of a report, EVM or Solana, taken from the JSON API's answer
 * and nothing else (pure functions: no DOM, no I/O). The views draw it; the verdict reads it.
 * Every value keeps the report's meaning of "": not measured, with the report's reason when it
 * gives one.
 */

/** "1" the risky capability is present, "0" measured absent, "" not measured. */
export type Status = '1' | '0' | ''

/** A value that may not have been measured: `value` "" then, and `reason` says why when known. */
export interface Measured {
  value: string
  /** The report's risk label ("" when unrated). */
  risk: string
  reason: string
}

export interface CheckRow {
  name: string
  title: string
  /** Powers someone holds over the token, or how the token behaves when traded. */
  group: 'owner' | 'behaviour'
  status: Status
  risk: string
  /** The report's sentence for the status found. */
  description: string
  /** How it was decided and the evidence, or "not determinable: <reason>". */
  comment: string
}

export interface PoolRow {
  dex: string
  /** The pair by its symbols, "WETH / HONEY"; "" when unknown. */
  pair: string
  address: string
  buyTax: Measured
  sellTax: Measured
  transferTax: Measured
  /** Whether a holder could not sell on this pool ("1"), could ("0"), or it was not measured (""). */
  honeypot: Status
  /** Why it is a honeypot, or why it could not be measured. */
  reason: string
  liquidityUsd: string
  /** The pool's reserves, "16.92 WETH", in pool order; "" sides left out. */
  reserves: { amount: string; symbol: string }[]
  /** The pool's page (a pool terminal or the explorer); "" when none. */
  link: string
  /** Where the pool lives and what runs on its swaps, as measured (a V4 pool's hook, a curve's progress); "" when the report says nothing more. */
  venue: string
  /** A Uniswap V4 pool's id (its address is its PoolManager's); "" for other pools. */
  poolId: string
}

export type HolderRole = 'owner' | 'creator' | 'pool' | 'locked' | 'burned' | 'contract'

export interface HolderRow {
  address: string
  /** Share of the supply, percent; NaN when not given. */
  percent: number
  balance: string
  roles: HolderRole[]
  /** The report's own word for the holder (Solana's `tag`), "" when none. */
  tag: string
}

export interface Unlock {
  time: string
  percent: string
  balance: string
  locker: string
  risk: string
}

export interface LpFacts {
  /** The pool whose LP token the figures describe; "" when there is none. */
  pool: string
  totalSupply: string
  lockedPercent: Measured
  holders: HolderRow[]
  unlocks: Unlock[]
  /** What the unlocks' shares are of ("the LP tokens"; on Solana, where positions vest too, "the pool's liquidity"). */
  unlocksOf: string
  /**
   * Pools whose liquidity is locked, each with its share (Solana: positions locked in a Meteora DAMM v2
   * pool, LP tokens a lock program holds); empty where the report lists none.
   */
  lockedPools: LockedPool[]
  /** Why the locks could not be read; "" when they were. */
  locksReason: string
  /** What the page must say of the figures (what is not read on this chain). */
  note: string
}

export interface LockedPool {
  pool: string
  dex: string
  /** Percent of its liquidity locked in all, for ever, and until its unlocks ("" when not given). */
  lockedPercent: string
  permanentPercent: string
  vestingPercent: string
}

export interface ScorePart {
  percent: string
  achieved: string
  max: string
}

/** A line of facts about the token. */
export interface Fact {
  label: string
  /** "" when the report has no value. */
  value: string
  /** What "" means here: "not measured" unless the report's "" means that there is none. */
  empty?: string
  /** Why it was not measured, when the report says. */
  reason?: string
  /** The value is an address (shortened and linked). */
  address?: boolean
}

export interface SolanaFacts {
  /** Every authority a mint can name, by role: who holds it, or that no one does, or that it was not read. */
  authorities: { role: string; holder: string; state: 'held' | 'none' | 'unknown' }[]
  extensions: string[]
  program: string
  metadata: Fact[]
  extensionFacts: Fact[]
}

export interface PageModel {
  chain: 'evm' | 'solana'
  address: string
  name: string
  symbol: string
  /** The chain as a person names it: "Ethereum (1)", "Solana". */
  chainName: string
  /** Explorer page of an address, `{address}` to replace; "" when none is known. */
  addressLink: string
  score: { total: string; code: ScorePart; market: ScorePart; checksPerformed: string; checksTotal: string }
  checks: CheckRow[]
  /** Whether a holder could sell at all: "1" no pool lets one sell, "0" some pool does, "" not measured. */
  tokenHoneypot: Status
  /** Why selling could not be measured, when it could not. */
  tokenHoneypotReason: string
  pools: PoolRow[]
  holders: { count: Measured; top: HolderRow[]; totalSupply: string }
  lp: LpFacts
  facts: Fact[]
  solana?: SolanaFacts
}

/** The Solana body's word for a power no one holds; "" there means it could not be read. */
const RENOUNCED = 'Renounced'

const BURN_ADDRESSES = new Set(['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dead', '1nc1nerator11111111111111111111111111111111'])
/** Holders drawn one by one in the chart; the others are "the rest". */
export const TOP_HOLDERS = 10

const sameAddress = (a: string, b: string) => a !== '' && b !== '' && a.toLowerCase() === b.toLowerCase()
const measured = (value: string, risk: string, reason = ''): Measured => ({ value, risk, reason })
/** A Solana number-or-"" as the page's string. */
const str = (value: number | string | boolean): string => (value === '' ? '' : String(value))
/** A Solana rating (0 Critical … 6 Great To Have) as its label; "" when unrated. */
const ratingLabel = (value: number | ''): string => (value === '' ? '' : (RISK_SCALE[value] ?? ''))

/** Why a pool's trade could not be measured, in a person's words. */
function tradeReason(side: 'buy' | 'sell' | 'transfer', honeypot: Status, reason: string): string {
  if (honeypot === '1' && side === 'sell') return reason ? `selling failed: ${reason}` : 'selling failed'
  if (honeypot === '') return reason || 'the pool could not be simulated'
  return reason || `the ${side} could not be simulated`
}

/** The model of an EVM report; `chain` is the chain list's entry for its chain, when known. */
export function evmModel(report: TokenReport, chain: { chainId: string; name: string; addressLink: string } | undefined, chainId: string): PageModel {
  const info = report.tokenInformation
  const ex = report.marketChecks.exchangabilityChecks
  const checks: CheckRow[] = []
  for (const [group, entries] of [
    ['owner', report.codeChecks.ownershipChecks],
    ['behaviour', report.codeChecks.otherChecks],
  ] as const) {
    for (const [name, check] of Object.entries(entries)) {
      checks.push({ name, title: EVM_CHECK_TITLES[name as EvmCheckName] ?? name, group, status: check.status as Status, risk: check.risk, description: check.description, comment: check.comment })
    }
  }
  const dexByPair = new Map(ex.availableDex.map((d) => [poolKey(d.pair, d.poolId), d]))
  const pools: PoolRow[] = report.honeypotDetails.map((p) => {
    const dex = dexByPair.get(poolKey(p.pairAddress, p.poolId))
    const honeypot = p.isPairHoneypot as Status
    const tax = (side: 'buy' | 'sell' | 'transfer', t: { number: string; risk: string }) => measured(t.number, t.risk, t.number === '' ? tradeReason(side, honeypot, p.honeypotReason) : '')
    return {
      dex: p.dex,
      pair: dex && (dex.token0Symbol || dex.token1Symbol) ? `${dex.token0Symbol || '?'} / ${dex.token1Symbol || '?'}` : '',
      address: p.pairAddress,
      buyTax: tax('buy', p.buyTax),
      sellTax: tax('sell', p.sellTax),
      transferTax: tax('transfer', p.transferTax),
      honeypot,
      reason: p.honeypotReason,
      liquidityUsd: dex?.liquidity ?? '',
      reserves: dex
        ? [
            { amount: dex.token0Balance, symbol: dex.token0Symbol },
            { amount: dex.token1Balance, symbol: dex.token1Symbol },
          ].filter((r) => r.amount !== '')
        : [],
      link: dex?.link || dex?.explorerLink || '',
      venue: p.venue ?? '',
      poolId: p.poolId ?? '',
    }
  })
  // Pools the liquidity section lists but the trades did not reach.
  for (const d of ex.availableDex) {
    if (pools.some((p) => poolKey(p.address, p.poolId) === poolKey(d.pair, d.poolId))) continue
    const none = measured('', '', 'no trade was simulated on this pool')
    pools.push({
      dex: d.name,
      pair: d.token0Symbol || d.token1Symbol ? `${d.token0Symbol || '?'} / ${d.token1Symbol || '?'}` : '',
      address: d.pair,
      buyTax: none,
      sellTax: none,
      transferTax: none,
      honeypot: '',
      reason: 'no trade was simulated on this pool',
      liquidityUsd: d.liquidity,
      reserves: [
        { amount: d.token0Balance, symbol: d.token0Symbol },
        { amount: d.token1Balance, symbol: d.token1Symbol },
      ].filter((r) => r.amount !== ''),
      link: d.link || d.explorerLink,
      venue: '',
      poolId: d.poolId ?? '',
    })
  }
  const poolAddresses = pools.map((p) => p.address)
  const roles = (address: string, isContract: string, isLocked: string): HolderRole[] => {
    const found: HolderRole[] = []
    if (sameAddress(address, info.ownerAddress)) found.push('owner')
    if (sameAddress(address, info.creatorAddress)) found.push('creator')
    if (poolAddresses.some((p) => sameAddress(p, address))) found.push('pool')
    if (BURN_ADDRESSES.has(address.toLowerCase())) found.push('burned')
    else if (isLocked === '1') found.push('locked')
    if (found.length === 0 && isContract === '1') found.push('contract')
    return found
  }
  const holder = (h: { address: string; percent: string; isContract: string; isLocked: string; balance: string }): HolderRow => ({
    address: h.address,
    percent: h.percent === '' ? Number.NaN : Number(h.percent),
    balance: h.balance,
    roles: roles(h.address, h.isContract, h.isLocked),
    tag: '',
  })
  const holdersChecks = report.marketChecks.holdersChecks
  const lq = report.marketChecks.liquidityChecks
  const honeypots = pools.filter((p) => p.honeypot === '1')
  const sellable = pools.filter((p) => p.honeypot === '0')
  const tokenHoneypot: Status = honeypots.length > 0 ? '1' : sellable.length > 0 ? '0' : ''
  const tokenHoneypotReason =
    tokenHoneypot !== ''
      ? ''
      : pools.length === 0
        ? 'no pool was found, so buying and selling could not be tried'
        : `no trade could be simulated: ${pools.map((p) => p.reason).filter(Boolean).join('; ') || 'the pools could not be simulated'}`
  const chainName = chain ? `${chain.name} (${chain.chainId})` : `chain ${chainId}`
  const score = report.tokenScore
  return {
    chain: 'evm',
    address: info.tokenAddress,
    name: info.tokenName,
    symbol: info.tokenSymbol,
    chainName,
    addressLink: chain?.addressLink ?? '',
    score: {
      total: score.totalScorePercentage,
      code: { percent: score.codeScorePercentage, achieved: score.codeScore.achievedScore, max: score.codeScore.maxScore },
      market: { percent: score.marketScorePercentage, achieved: score.marketScore.achievedScore, max: score.marketScore.maxScore },
      checksPerformed: score.checksPerformed,
      checksTotal: score.checksTotal,
    },
    checks,
    tokenHoneypot,
    tokenHoneypotReason,
    pools,
    holders: {
      count: measured(holdersChecks.holdersCount.number, holdersChecks.holdersCount.risk),
      top: holdersChecks.keyHolders.map(holder),
      totalSupply: info.totalSupply,
    },
    lp: {
      pool: lq.pairAddress,
      totalSupply: lq.totalLpSupply,
      lockedPercent: measured(lq.liquidityLockedDetails.totalLiquidityPercentageLocked.number, lq.liquidityLockedDetails.totalLiquidityPercentageLocked.risk),
      holders: lq.keyLpHolders.map(holder),
      unlocks: lq.liquidityLockedDetails.upcomingUnlockDetails.map((u) => ({ time: u.time, percent: u.percent, balance: u.balance, locker: u.tag, risk: u.risk })),
      unlocksOf: 'the LP tokens',
      lockedPools: [],
      locksReason: '',
      note: '',
    },
    facts: [
      { label: 'Total supply', value: info.totalSupply },
      { label: 'Created', value: info.tokenCreationDate },
      { label: 'Owner', value: info.ownerAddress, address: true },
      { label: "Owner's balance", value: info.ownerBalance },
      { label: 'Creator', value: info.creatorAddress, address: true },
      { label: "Creator's balance", value: info.creatorBalance },
      { label: 'Price', value: info.marketData.currentPriceUsd ? `$${info.marketData.currentPriceUsd}` : '' },
      { label: 'Market cap', value: info.marketData.marketCapUsd ? `$${info.marketData.marketCapUsd}` : '' },
      { label: 'Liquidity', value: ex.currentLiquidity.number ? `$${ex.currentLiquidity.number}` : '' },
      { label: 'Verified source', value: info.isOpenSource === '1' ? 'yes' : info.isOpenSource === '0' ? 'no' : '', reason: info.isOpenSource === '' ? unmeasuredReason(info.openSourceComment) : '' },
      ...info.anomalies.map((a) => ({ label: 'Anomaly', value: a })),
    ],
  }
}

/** A fact naming who holds a Solana power: its address, "none (renounced)", or not measured. */
function holderFact(label: string, holder: string): Fact {
  return holder === RENOUNCED ? { label, value: '', empty: 'none (renounced)' } : { label, value: holder, address: true }
}

/** The launchpad curve a Solana token was created on, as a fact: where it trades until it graduates, and where after. */
function launchCurveFact(curve: LaunchCurve): Fact {
  const { kind, words } = launchCurveWords(curve)
  if (kind === 'none') return { label: 'Launch curve', value: '', empty: 'none: not launched on a curve tokenrisk reads' }
  return kind === 'unknown' ? { label: 'Launch curve', value: '', reason: words } : { label: 'Launch curve', value: words }
}

/** The model of a Solana report. */
export function solanaModel(report: SolanaReport): PageModel {
  const general = report.tokenInformation.generalInformation
  const supply = report.tokenInformation.tokenSupplyInformation
  const code = report.codeChecks
  const market = report.marketChecks
  const hp = report.honeypotDetails
  const checks: CheckRow[] = Object.values(code.codeCheckDescription)
    .flat()
    .map((item) => ({
      name: item.check,
      title: SOLANA_CHECK_TITLES[item.check as SolanaCheckName] ?? item.heading,
      group: item.tags.includes('ownershipChecks') ? 'owner' : 'behaviour',
      status: item.status as Status,
      risk: item.riskStatus,
      description: item.description,
      comment: item.comment,
    }))
  // The published body groups checks by heading; the page lists powers first, in the catalogue's order.
  checks.sort((a, b) => (a.group === b.group ? 0 : a.group === 'owner' ? -1 : 1))
  const vaults = market.marketCheckDescription.liquidityDescription.pairByPairInformation.flatMap((d) => d.pairsInformation)
  const pools: PoolRow[] = hp.pools
    .filter((p) => p.pairAddress !== '')
    .map((p) => {
      const honeypot = str(p.isPairHoneypot) as Status
      const info = vaults.find((v) => v.pairAddress === p.pairAddress)
      const tax = (side: 'buy' | 'sell' | 'transfer', t: { number: number | ''; risk: number | '' }) =>
        measured(str(t.number), ratingLabel(t.risk), t.number === '' ? tradeReason(side, honeypot, p.honeypotReason) : '')
      return {
        dex: p.dex,
        pair: p.token0Symbol || p.token1Symbol ? `${p.token0Symbol || '?'} / ${p.token1Symbol || '?'}` : '',
        address: p.pairAddress,
        buyTax: tax('buy', p.buyTax),
        sellTax: tax('sell', p.sellTax),
        transferTax: tax('transfer', p.transferTax),
        honeypot,
        reason: p.honeypotReason,
        liquidityUsd: info?.lpSupplyInUsd ?? '',
        reserves: info
          ? [
              { amount: info.token0Balance, symbol: info.token0Symbol },
              { amount: info.token1Balance, symbol: info.token1Symbol },
            ].filter((r) => r.amount !== '')
          : [],
        link: info?.pairExplorerLink ?? '',
        venue: '',
        poolId: '',
      }
    })
  const roles = (h: { address: string; isContract: boolean | ''; isLocked: boolean | ''; tag: string }): HolderRole[] => {
    const found: HolderRole[] = []
    if (h.tag === 'mint authority' || sameAddress(h.address, general.ownerAddress)) found.push('owner')
    if (h.tag === 'creator' || sameAddress(h.address, general.creatorAddress)) found.push('creator')
    if (h.tag.startsWith('pool vault')) found.push('pool')
    if (h.tag === 'burn' || BURN_ADDRESSES.has(h.address)) found.push('burned')
    else if (h.isLocked === true) found.push('locked')
    if (found.length === 0 && h.isContract === true) found.push('contract')
    return found
  }
  const holder = (h: SolanaReport['marketChecks']['marketCheckDescription']['holdersDescription']['keyHolders'][number]): HolderRow => ({
    address: h.address,
    percent: h.percent === '' ? Number.NaN : h.percent,
    balance: h.balance,
    roles: roles(h),
    tag: h.tag,
  })
  const holders = market.marketCheckDescription.holdersDescription
  const agg = market.marketCheckDescription.liquidityDescription.aggregatedInformation
  const locked = agg.percentDistributed.locked
  const tokenHoneypot = str(hp.isTokenHoneypot) as Status
  // The token-level verdict (no pool found) is the one element without a pool address.
  const tokenLevel = hp.pools.find((p) => p.pairAddress === '')
  const totalPercent = hp.overAllScorePercentage
  const scorePart = (percent: number | '', achieved: number | '', max: number | ''): ScorePart => ({ percent: str(percent), achieved: str(achieved), max: str(max) })
  const explorer = report.tokenInformation.socialInformation.externalLinks.blockExplorerLink
  const authorities = general.authorities as Record<string, string>
  const fee = general.transferFee
  const has = (extension: string) => general.extensions.includes(extension)
  // A value the mint has no extension for is none; with the extension, "" is not measured.
  const withExtension = (extension: string, none = `none (no ${extension} extension)`) => (has(extension) ? undefined : none)
  return {
    chain: 'solana',
    address: general.mint,
    name: general.tokenName,
    symbol: general.tokenSymbol,
    chainName: general.chainName || 'Solana',
    // The explorer's mint page names the mint: the same page of another address replaces it.
    addressLink: explorer.includes(general.mint) ? explorer.replace(general.mint, '{address}') : '',
    score: {
      total: str(totalPercent),
      code: scorePart(code.codeCheckScorePercentage, code.codeCheckScore, code.maxCodeCheckScore),
      market: scorePart(market.marketCheckScorePercentage, market.marketCheckScore, market.maxMarketCheckScore),
      checksPerformed: String(report.tokenInformation.totalChecksInformation.checksPerformed),
      checksTotal: String(report.tokenInformation.totalChecksInformation.totalChecks),
    },
    checks,
    tokenHoneypot,
    tokenHoneypotReason: tokenHoneypot === '' ? hp.honeypotReason || 'whether a holder can sell could not be determined' : tokenLevel && tokenHoneypot === '1' ? tokenLevel.honeypotReason : '',
    pools,
    holders: {
      count: measured(str(holders.holdersCount.number), ratingLabel(holders.holdersCount.risk)),
      top: holders.keyHolders.map(holder),
      totalSupply: supply.totalSupply,
    },
    lp: {
      pool: agg.lpPool,
      totalSupply: agg.totalLpSupply,
      lockedPercent: measured(str(locked.percent), ratingLabel(locked.risk)),
      holders: agg.keyLpHolders.map(holder),
      unlocks: agg.liquidityLockedDetails.upcomingUnlockDetails.map((u) => ({ time: u.time, percent: str(u.percent), balance: '', locker: '', risk: '' })),
      unlocksOf: "the pool's liquidity",
      lockedPools: agg.liquidityLockedDetails.lockedPools.map((l) => ({
        pool: l.pool,
        dex: l.dexName,
        lockedPercent: str(l.lockedPercent),
        permanentPercent: str(l.permanentPercent),
        vestingPercent: str(l.vestingPercent),
      })),
      locksReason: agg.liquidityLockedDetails.reason,
      note: 'Locked counts the LP tokens burned and those a lock program holds (Streamflow, Jupiter Lock, Raydium\'s LP lock, Meteora\'s lock escrows), for ever or until the unlocks shown here.',
    },
    facts: [
      { label: 'Total supply', value: supply.totalSupply },
      { label: 'Decimals', value: general.decimals },
      { label: 'Created', value: general.tokenCreationTime },
      holderFact('Mint authority', general.ownerAddress),
      { label: 'Creator', value: general.creatorAddress, address: true },
      { label: "Creator's balance", value: general.creatorBalance },
      launchCurveFact(agg.launchCurve),
      { label: 'Price', value: supply.currentPriceUsd ? `$${supply.currentPriceUsd}` : '' },
      { label: 'Market cap', value: supply.marketCapUsd ? `$${supply.marketCapUsd}` : '' },
      { label: 'Report made', value: general.lastUpdated },
    ],
    solana: {
      authorities: Object.entries(authorities).map(([role, holder]) => ({
        role,
        holder: holder === RENOUNCED ? '' : holder,
        state: holder === RENOUNCED ? 'none' : holder === '' ? 'unknown' : 'held',
      })),
      extensions: general.extensions,
      program: general.tokenProgramName,
      metadata: [
        { label: 'Source', value: general.metadata.source, empty: 'none: the token has no metadata' },
        { label: 'Account', value: general.metadata.address, address: true, empty: 'none' },
        { label: 'URI', value: general.metadata.uri, empty: 'none' },
        holderFact('Update authority', general.metadata.updateAuthority),
        { label: 'Can still change', value: general.metadata.isMutable === '1' ? 'yes' : general.metadata.isMutable === '0' ? 'no' : '' },
        { label: 'Token standard', value: general.metadata.tokenStandard, empty: 'not recorded' },
      ],
      extensionFacts: [
        { label: 'Transfer fee now', value: fee.currentBasisPoints ? `${Number(fee.currentBasisPoints) / 100} %` : '', empty: withExtension('TransferFeeConfig') },
        { label: 'Transfer fee scheduled', value: fee.scheduledBasisPoints ? `${Number(fee.scheduledBasisPoints) / 100} % from epoch ${fee.scheduledEpoch}` : '', empty: has('TransferFeeConfig') ? 'none scheduled' : 'none' },
        { label: 'Transfer-hook program', value: general.transferHook.programId, address: true, empty: withExtension('TransferHook') },
        { label: 'New accounts start', value: general.defaultAccountState, empty: withExtension('DefaultAccountState', 'initialized (no DefaultAccountState extension)') },
        { label: 'Paused now', value: general.paused === '1' ? 'yes' : general.paused === '0' ? 'no' : '', empty: withExtension('Pausable', 'no (no Pausable extension)') },
      ],
    },
  }
}
