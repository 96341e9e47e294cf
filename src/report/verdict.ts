import { riskRating, type RiskLabel } from '../contract/risk-scale.ts'
import type { SolanaReport } from '../contract/solana-report.ts'
import type { TokenReport } from '../contract/token-report.ts'
import { shortPoolId } from './pool-names.ts'

/**
 * What a person must know first about a token, worst first: it is a honeypot, it cannot be sold,
 * its owner can take balances, its owner can mint, it has another risky power; then the market:
 * one account can pull the liquidity, the supply sits with the owner or one holder, trades are
 * taxed; then what matters could not be measured, or nothing of all that was found among what was
 * measured. Never "safe": the best verdict says what was measured and found nothing. A value not
 * measured is never read as a pass: it is listed, and it keeps the best verdict away.
 *
 * One verdict for every place a person or an agent reads it (the MCP tools, the token page): the
 * module imports nothing but the report types and the risk scale, so the page's browser code
 * bundles it as it is.
 */
export type VerdictKind =
  | 'honeypot'
  | 'cannot-sell'
  | 'owner-can-take'
  | 'owner-can-mint'
  | 'risky-power'
  | 'liquidity-pullable'
  | 'supply-concentrated'
  | 'taxed'
  | 'not-measured'
  | 'no-risky-power-found'

/** A risky capability found, as the report's check states it, or a market grade (docs/scoring.md). */
export interface VerdictFinding {
  /** The check's name (docs/checks.md), or the market grade's kind (`liquidity-pullable`, …). */
  check: string
  /** The check's risk label (Critical, RISKY, Medium Risk). */
  risk: string
  /** The report's sentence for what was found. */
  sentence: string
}

/** Something that matters and could not be measured, with the report's reason. */
export interface VerdictUnknown {
  /** The check's name, or `sale` for whether a holder can sell. */
  check: string
  reason: string
}

export interface Verdict {
  kind: VerdictKind
  /** One line a person reads in a second; starts with the kind in capitals. */
  headline: string
  /** Every risky capability of the code found, worst first. */
  found: VerdictFinding[]
  /** The market's grades found (liquidity that can be pulled, concentrated supply, taxes), worst first. */
  market: VerdictFinding[]
  /** What could not be measured. */
  unknown: VerdictUnknown[]
  /** Taxes, score and anomalies: one line each. */
  notes: string[]
}

/** The verdict's first words, by kind. */
export const VERDICT_LABELS: Readonly<Record<VerdictKind, string>> = {
  honeypot: 'HONEYPOT',
  'cannot-sell': 'CANNOT SELL',
  'owner-can-take': 'OWNER CAN TAKE',
  'owner-can-mint': 'OWNER CAN MINT',
  'risky-power': 'RISKY POWER',
  'liquidity-pullable': 'LIQUIDITY CAN BE PULLED',
  'supply-concentrated': 'SUPPLY CONCENTRATED',
  taxed: 'TAXED',
  'not-measured': 'COULD NOT BE MEASURED',
  'no-risky-power-found': 'NO RISKY POWER FOUND',
}

/** Checks whose presence means a holder cannot sell (all or part of a balance), by engine. */
export const CANNOT_SELL_CHECKS: ReadonlySet<string> = new Set(['cannotSellAll', 'cannotBuy', 'nonTransferable', 'isPaused', 'defaultAccountFrozen'])
/** The check whose presence means a privileged account can take or change any holder's balance. */
export const TAKES = 'ownerChangeBalance'
/** The check whose presence means a privileged account can raise the supply. */
export const MINTS = 'isMintable'
/** Worst risk rating that makes a present check a risky power (0 Critical, 1 RISKY, 2 Medium Risk). */
const RISKY_RATING = 2
/** Longest reason quoted in a verdict line. */
const MAX_REASON_CHARS = 200

/**
 * The market's grades (docs/scoring.md, "The verdict"). One account holding at least this share of
 * a pool's LP tokens, unlocked, can withdraw that much of the liquidity at any moment.
 */
export const PULLABLE_LP_PERCENT = 20
/** LP tokens whose lock ends within this many days of the measurement count as pullable soon. */
export const UNLOCK_NEAR_DAYS = 30
/** The owner, the creator or one account (not a pool, a lock or a burn address) holding this share of the supply or more. */
export const CONCENTRATED_SUPPLY_PERCENT = 20
/** A trade tax above this, percent, on any pool makes the token taxed. */
export const TAXED_ABOVE_PERCENT = 0
const DAY_MS = 86_400_000
/** What a Solana report names an authority no one holds (as src/report/views/description-parts.ts writes it). */
const RENOUNCED = 'Renounced'

interface CheckLike {
  check: string
  status: string
  risk: string
  sentence: string
  comment: string
}

interface SaleLike {
  /** "1" a holder could not sell, "0" could, "" not measured. */
  honeypot: string
  where: string
  reason: string
}

/** A holder as the verdict reads it, whatever the engine: percent "" when unknown. */
interface HolderLike {
  address: string
  percent: string
  /** Held by a lock or a burn address: no one can move it now. */
  locked: boolean
}

/** The taxes measured on one pool (or, for a Solana mint with no pool, on every transfer). */
interface TaxLike {
  where: string
  buy: string
  sell: string
  transfer: string
}

/** What the market grades read of a report, whichever engine it comes from. */
interface MarketLike {
  owner: string
  creator: string
  ownerPercent: string
  creatorPercent: string
  /** The largest holders of the supply, pools and the token itself left out. */
  holders: HolderLike[]
  /** Whether any pool was found. */
  pooled: boolean
  /** The pool whose LP token is described ("" when no pool has an LP token), with its name. */
  lpPool: string
  lpWhere: string
  lpHolders: HolderLike[]
  unlocks: { percent: string; time: string }[]
  /** When the report was measured (ISO 8601, "" unknown): unlocks are counted from it. */
  measuredAt: string
  taxes: TaxLike[]
}

const clipped = (text: string) => (text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS - 1)}…` : text)
const ratingOf = (risk: string) => riskRating(risk as RiskLabel) ?? Number.POSITIVE_INFINITY
const reasonOf = (comment: string) => clipped(comment.replace(/^not determinable:\s*/, '') || 'no reason given')
const num = (value: string) => (value === '' ? Number.NaN : Number(value))
/** A percent as a person reads it: at most two decimals ("66.09", "3"). */
const pct = (value: number) => `${Number(value.toFixed(2))} %`
const same = (a: string, b: string) => a !== '' && a.toLowerCase() === b.toLowerCase()

/** Who an address is to the token: "the owner and creator", "the owner", "the creator" or "one account". */
function whoIs(address: string, market: MarketLike): string {
  const owner = same(address, market.owner)
  const creator = same(address, market.creator)
  return owner && creator ? 'the owner and creator' : owner ? 'the owner' : creator ? 'the creator' : 'one account'
}

/**
 * The market's grades found, worst first (liquidity one account can pull, supply concentrated, taxes),
 * and what of the market could not be measured.
 */
function judgeMarket(name: string, market: MarketLike): { found: VerdictFinding[]; unknown: VerdictUnknown[] } {
  const found: VerdictFinding[] = []
  const unknown: VerdictUnknown[] = []

  // Liquidity that one account can withdraw now, or that unlocks soon.
  if (market.pooled && market.lpPool === '') {
    unknown.push({ check: 'liquidity', reason: 'no pool with an LP token was found, so who can withdraw the liquidity (a concentrated-liquidity position\'s owner) is not measured' })
  } else if (market.lpPool !== '') {
    const known = market.lpHolders.filter((h) => Number.isFinite(num(h.percent)))
    const [largest] = known.filter((h) => !h.locked).sort((x, y) => num(y.percent) - num(x.percent))
    const measuredAt = Date.parse(market.measuredAt)
    const soon = Number.isFinite(measuredAt) ? market.unlocks.filter((u) => Date.parse(u.time) - measuredAt <= UNLOCK_NEAR_DAYS * DAY_MS && Number.isFinite(num(u.percent))) : []
    const unlocking = soon.reduce((sum, u) => sum + num(u.percent), 0)
    if (known.length === 0) unknown.push({ check: 'liquidity', reason: `who holds the LP tokens of ${market.lpWhere} could not be read` })
    else if (largest && num(largest.percent) >= PULLABLE_LP_PERCENT) {
      found.push({
        check: 'liquidity-pullable',
        risk: num(largest.percent) >= 50 ? 'Critical' : 'RISKY',
        sentence: `${whoIs(largest.address, market)} ${largest.address} holds ${pct(num(largest.percent))} of the LP tokens of ${market.lpWhere}, unlocked: it can withdraw that share of the liquidity at any moment.`,
      })
    } else if (unlocking >= PULLABLE_LP_PERCENT) {
      const last = soon.map((u) => u.time).sort().at(-1) ?? ''
      found.push({
        check: 'liquidity-pullable',
        risk: 'RISKY',
        sentence: `${pct(unlocking)} of the LP tokens of ${market.lpWhere} come out of their lock by ${last.slice(0, 10)}, within ${UNLOCK_NEAR_DAYS} days of the measurement: whoever locked them can then withdraw that liquidity.`,
      })
    }
  }

  // Supply concentrated in the owner, the creator or one account.
  const candidates: HolderLike[] = [
    { address: market.owner, percent: market.ownerPercent, locked: false },
    { address: market.creator, percent: market.creatorPercent, locked: false },
    ...market.holders.filter((h) => !h.locked),
  ].filter((h) => h.address !== '' && Number.isFinite(num(h.percent)))
  const [top] = candidates.sort((x, y) => num(y.percent) - num(x.percent))
  if (!top && market.holders.length === 0) unknown.push({ check: 'holders', reason: 'who holds the supply could not be read' })
  else if (top && num(top.percent) >= CONCENTRATED_SUPPLY_PERCENT) {
    found.push({
      check: 'supply-concentrated',
      risk: num(top.percent) >= 50 ? 'Critical' : 'RISKY',
      sentence: `${whoIs(top.address, market)} ${top.address} holds ${pct(num(top.percent))} of the supply of ${name}: one sale of it would move the price far down.`,
    })
  }

  // Taxes: the highest of each kind over the pools where they were measured.
  const highest = (kind: 'buy' | 'sell' | 'transfer') => {
    const values = market.taxes.map((t) => num(t[kind])).filter(Number.isFinite)
    return values.length > 0 ? Math.max(...values) : Number.NaN
  }
  const [buy, sell, transfer] = [highest('buy'), highest('sell'), highest('transfer')]
  const measured = [buy, sell, transfer].filter(Number.isFinite)
  if (market.taxes.length > 0 && measured.length === 0) unknown.push({ check: 'taxes', reason: 'no trade could be simulated to measure them' })
  else if (measured.some((t) => t > TAXED_ABOVE_PERCENT)) {
    const parts = [
      Number.isFinite(buy) ? `buy ${pct(buy)}` : 'buy not measured',
      Number.isFinite(sell) ? `sell ${pct(sell)}` : 'sell not measured',
      ...(Number.isFinite(transfer) && transfer > 0 ? [`transfer ${pct(transfer)}`] : []),
    ]
    const taxed = market.taxes.filter((t) => [t.buy, t.sell, t.transfer].some((v) => num(v) > TAXED_ABOVE_PERCENT))
    const where = taxed.length === 1 ? `on ${taxed[0].where}` : `the highest over ${taxed.length} pools`
    found.push({
      check: 'taxed',
      risk: Math.max(...measured) > 10 ? 'RISKY' : 'Medium Risk',
      sentence: `${parts.join(', ')} (${where}).`,
    })
  }
  return { found, unknown }
}

/** The verdict of checks, sale measurements and the market, whichever engine they come from. */
function judge(name: string, checks: CheckLike[], sales: SaleLike[], noSaleReason: string, market: MarketLike, notes: string[]): Verdict {
  const found = checks
    .filter((c) => c.status === '1' && ratingOf(c.risk) <= RISKY_RATING)
    .sort((a, b) => ratingOf(a.risk) - ratingOf(b.risk))
    .map((c) => ({ check: c.check, risk: c.risk, sentence: c.sentence }))
  const unknown: VerdictUnknown[] = checks.filter((c) => c.status === '').map((c) => ({ check: c.check, reason: reasonOf(c.comment) }))
  const honeypots = sales.filter((s) => s.honeypot === '1')
  const sellable = sales.some((s) => s.honeypot === '0')
  if (!sellable && honeypots.length === 0) {
    const reasons = sales.filter((s) => s.honeypot === '').map((s) => `${s.where}: ${clipped(s.reason || 'not simulated')}`)
    unknown.unshift({ check: 'sale', reason: reasons.length > 0 ? reasons.join('; ') : noSaleReason })
  }
  const graded = judgeMarket(name, market)
  unknown.push(...graded.unknown)
  const first = (predicate: (f: VerdictFinding) => boolean) => found.find(predicate)
  const verdict = (kind: VerdictKind, text: string): Verdict => ({ kind, headline: `${VERDICT_LABELS[kind]}: ${text}`, found, market: graded.found, unknown, notes })

  if (honeypots.length > 0) {
    const [pool] = honeypots
    const also = sellable ? ' (other pools let a holder sell)' : ''
    return verdict('honeypot', `a holder of ${name} cannot sell on ${pool.where}${pool.reason ? ` — ${clipped(pool.reason)}` : ''}${also}.`)
  }
  const cannotSell = first((f) => CANNOT_SELL_CHECKS.has(f.check))
  if (cannotSell) return verdict('cannot-sell', cannotSell.sentence)
  const takes = first((f) => f.check === TAKES)
  if (takes) return verdict('owner-can-take', takes.sentence)
  const mints = first((f) => f.check === MINTS)
  if (mints) return verdict('owner-can-mint', mints.sentence)
  if (found.length > 0) return verdict('risky-power', `${found[0].sentence}${found.length > 1 ? ` (and ${found.length - 1} more below)` : ''}`)
  const [grade] = graded.found
  if (grade) return verdict(grade.check as VerdictKind, grade.check === 'taxed' ? grade.sentence : `${grade.sentence.charAt(0).toUpperCase()}${grade.sentence.slice(1)}`)
  if (unknown.length > 0) {
    const what = unknown.map((u) => (u.check === 'sale' ? 'whether a holder can sell' : u.check)).join(', ')
    return verdict('not-measured', `${what} could not be measured for ${name}; nothing risky was found among what was. That is not a clean bill: treat the unknowns as risks.`)
  }
  return verdict(
    'no-risky-power-found',
    `every code check of ${name} was decided and none found a risky power, selling was simulated, trades are not taxed, no one account can pull the liquidity and none holds ${CONCENTRATED_SUPPLY_PERCENT} % of the supply. Not a guarantee.`,
  )
}

/** The lines of a verdict as a person reads them: headline, findings, unknowns, notes. */
export function verdictLines(verdict: Verdict): string[] {
  const lines = [verdict.headline]
  if (verdict.found.length > 0) lines.push('Found:', ...verdict.found.map((f) => `- [${f.risk}] ${f.sentence} (${f.check})`))
  const market = verdict.market.filter((f) => f.check !== verdict.kind)
  if (market.length > 0) lines.push(verdict.found.length > 0 ? 'Market:' : 'Also:', ...market.map((f) => `- ${VERDICT_LABELS[f.check as VerdictKind] ?? f.check}: ${f.sentence}`))
  if (verdict.unknown.length > 0) lines.push('Not measured:', ...verdict.unknown.map((u) => `- ${u.check}: ${u.reason}`))
  return [...lines, ...verdict.notes]
}

/** The check whose finding the fee ceiling completes. */
const FEE_SETTER = 'slippageModifiable'

const percent = (n: string | number) => (n === '' ? 'unknown' : `${n} %`)

/**
 * The verdict of an EVM token report (the contract's shape).
 *
 * @example
 * const verdict = evmVerdict(report)
 * verdict.kind // 'honeypot'
 */
export function evmVerdict(report: TokenReport): Verdict {
  const info = report.tokenInformation
  const name = `${info.tokenName || info.tokenAddress}${info.tokenSymbol ? ` (${info.tokenSymbol})` : ''}`
  // The fee ceiling (the highest tax a privileged account can reach, and who is paid) is what a
  // holder needs to read of a modifiable tax: it is said with that finding.
  const ceilings = [...new Set(report.honeypotDetails.map((p) => p.feeCeiling?.summary ?? '').filter((s) => s !== ''))]
  const checks = [...Object.entries(report.codeChecks.ownershipChecks), ...Object.entries(report.codeChecks.otherChecks)].map(([check, c]) => ({
    check,
    status: c.status,
    risk: c.risk,
    sentence: check === FEE_SETTER && c.status === '1' && ceilings.length > 0 ? `${c.description.replace(/\.$/, '')}: ${ceilings.join('; ')}.` : c.description,
    comment: c.comment,
  }))
  // A pool by its exchange and address; a V4 pool by its id too (its address is its PoolManager's, which holds every V4 pool).
  const poolWhere = (p: TokenReport['honeypotDetails'][number]) => `${p.dex || 'a pool'} ${p.pairAddress}${p.poolId ? ` pool ${shortPoolId(p.poolId)}` : ''}`
  const sales = report.honeypotDetails.map((p) => ({ honeypot: p.isPairHoneypot, where: poolWhere(p), reason: p.honeypotReason }))
  const notes = report.honeypotDetails.map(
    (p) => `Taxes on ${poolWhere(p)}: buy ${percent(p.buyTax.number)}, sell ${percent(p.sellTax.number)}, transfer ${percent(p.transferTax.number)}.`,
  )
  for (const anomaly of info.anomalies) notes.push(`Anomaly: ${anomaly}`)
  const holders = report.marketChecks.holdersChecks
  const lp = report.marketChecks.liquidityChecks
  const pools = new Set([...report.marketChecks.exchangabilityChecks.availableDex.map((d) => d.pair), ...report.honeypotDetails.map((p) => p.pairAddress)].map((a) => a.toLowerCase()))
  const notPool = (address: string) => !pools.has(address.toLowerCase()) && !same(address, info.tokenAddress)
  const holder = (h: { address: string; percent: string; isLocked: string }) => ({ address: h.address, percent: h.percent, locked: h.isLocked === '1' })
  const lpDex = report.marketChecks.exchangabilityChecks.availableDex.find((d) => same(d.pair, lp.pairAddress))?.name
  const market: MarketLike = {
    owner: info.ownerAddress,
    creator: info.creatorAddress,
    ownerPercent: holders.percentDistributed.owner.percent,
    creatorPercent: holders.percentDistributed.creator.percent,
    holders: holders.keyHolders.filter((h) => notPool(h.address)).map(holder),
    pooled: pools.size > 0,
    lpPool: lp.pairAddress,
    lpWhere: `${lpDex ?? 'the pool'} ${lp.pairAddress}`,
    lpHolders: lp.keyLpHolders.map(holder),
    unlocks: lp.liquidityLockedDetails.upcomingUnlockDetails.map((u) => ({ percent: u.percent, time: u.time })),
    measuredAt: info.lastUpdated,
    taxes: report.honeypotDetails.map((p) => ({ where: poolWhere(p), buy: p.buyTax.number, sell: p.sellTax.number, transfer: p.transferTax.number })),
  }
  const score = report.tokenScore
  notes.push(
    `Score ${percent(score.totalScorePercentage)} (code ${percent(score.codeScorePercentage)}, market ${percent(score.marketScorePercentage)}); ${score.checksPerformed} of ${score.checksTotal} code checks decided.`,
  )
  return judge(name, checks, sales, 'no pool was found to simulate a sale on', market, notes)
}

/**
 * The verdict of a Solana token report.
 *
 * @example
 * solanaVerdict(report).headline // 'RISKY POWER: The mint has a freeze authority …'
 */
export function solanaVerdict(report: SolanaReport): Verdict {
  const general = report.tokenInformation.generalInformation
  const name = `${general.tokenName || general.tokenAddress}${general.tokenSymbol ? ` (${general.tokenSymbol})` : ''}`
  const seen = new Set<string>()
  const checks = Object.values(report.codeChecks.codeCheckDescription)
    .flat()
    .filter((item) => !seen.has(item.check) && seen.add(item.check))
    .map((item) => ({ check: item.check, status: item.status, risk: item.riskStatus, sentence: item.description, comment: item.comment }))
  const hp = report.honeypotDetails
  const flag = (n: number | string | boolean) => (n === '' ? '' : String(n))
  // The token-level verdict (no pool found) traps every holder when it says so; when it does not,
  // no sale was simulated: without a pool, whether a holder can sell is not measured.
  const sales = hp.pools
    .filter((p) => p.pairAddress !== '' || p.isPairHoneypot !== 0)
    .map((p) => ({ honeypot: flag(p.isPairHoneypot), where: p.dex ? `${p.dex} ${p.pairAddress}` : 'any pool (token-level verdict)', reason: p.honeypotReason }))
  const notes = hp.pools.map(
    (p) => `Taxes on ${p.dex ? `${p.dex} ${p.pairAddress}` : 'every transfer'}: buy ${percent(p.buyTax.number)}, sell ${percent(p.sellTax.number)}, transfer ${percent(p.transferTax.number)}.`,
  )
  const code = report.codeChecks
  const description = report.marketChecks.marketCheckDescription
  const agg = description.liquidityDescription.aggregatedInformation
  const vaults = new Set(description.liquidityDescription.pairByPairInformation.flatMap((d) => d.pairsInformation.map((p) => p.pairAddress)))
  const holder = (h: { address: string; percent: number | ''; isLocked: boolean | ''; tag: string }) => ({ address: h.address, percent: flag(h.percent), locked: h.isLocked === true })
  const lpDex = description.liquidityDescription.pairByPairInformation.find((d) => d.pairsInformation.some((p) => p.pairAddress === agg.lpPool))?.dexName
  const market: MarketLike = {
    owner: general.ownerAddress === RENOUNCED ? '' : general.ownerAddress,
    creator: general.creatorAddress,
    ownerPercent: flag(description.holdersDescription.percentDistributed.owner.percent),
    creatorPercent: flag(description.holdersDescription.percentDistributed.creator.percent),
    holders: description.holdersDescription.keyHolders.filter((h) => !h.tag.startsWith('pool vault') && !vaults.has(h.address)).map(holder),
    pooled: hp.pools.some((p) => p.pairAddress !== ''),
    lpPool: agg.lpPool,
    lpWhere: `${lpDex ?? 'the pool'} ${agg.lpPool}`,
    lpHolders: agg.keyLpHolders.map(holder),
    unlocks: agg.liquidityLockedDetails.upcomingUnlockDetails.map((u) => ({ percent: flag(u.percent), time: u.time })),
    measuredAt: general.lastUpdated,
    taxes: hp.pools.map((p) => ({ where: p.dex ? `${p.dex} ${p.pairAddress}` : 'every transfer', buy: flag(p.buyTax.number), sell: flag(p.sellTax.number), transfer: flag(p.transferTax.number) })),
  }
  notes.push(`Score ${percent(hp.overAllScorePercentage)} (code ${percent(code.codeCheckScorePercentage)}); ${code.checksPerformed} of ${code.availableChecks} code checks decided.`)
  return judge(name, checks, sales, 'no pool was found to simulate a sale on', market, notes)
}
