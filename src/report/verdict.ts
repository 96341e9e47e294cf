import { riskRating, type RiskLabel } from '../contract/risk-scale.ts'
import type { SolanaReport } from '../contract/solana-report.ts'
import type { TokenReport } from '../contract/token-report.ts'

/**
 * What a person must know first about a token, worst first: it is a honeypot, it cannot be sold,
 * its owner can take balances, its owner can mint, it has another risky power, what matters could
 * not be measured, or no risky power was found among what was measured. Never "safe": the best
 * verdict says what was measured and found nothing.
 *
 * One verdict for every place a person or an agent reads it (the MCP tools, the token page): the
 * module imports nothing but the report types and the risk scale, so the page's browser code
 * bundles it as it is.
 */
export type VerdictKind = 'honeypot' | 'cannot-sell' | 'owner-can-take' | 'owner-can-mint' | 'risky-power' | 'not-measured' | 'no-risky-power-found'

/** A risky capability found, as the report's check states it. */
export interface VerdictFinding {
  /** The check's name (docs/checks.md). */
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
  /** Every risky capability found, worst first. */
  found: VerdictFinding[]
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

const clipped = (text: string) => (text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS - 1)}…` : text)
const ratingOf = (risk: string) => riskRating(risk as RiskLabel) ?? Number.POSITIVE_INFINITY
const reasonOf = (comment: string) => clipped(comment.replace(/^not determinable:\s*/, '') || 'no reason given')

/** The verdict of checks and sale measurements, whichever engine they come from. */
function judge(name: string, checks: CheckLike[], sales: SaleLike[], noSaleReason: string, notes: string[]): Verdict {
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
  const first = (predicate: (f: VerdictFinding) => boolean) => found.find(predicate)
  const verdict = (kind: VerdictKind, text: string): Verdict => ({ kind, headline: `${VERDICT_LABELS[kind]}: ${text}`, found, unknown, notes })

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
  if (unknown.length > 0) {
    const what = unknown.map((u) => (u.check === 'sale' ? 'whether a holder can sell' : u.check)).join(', ')
    return verdict('not-measured', `${what} could not be measured for ${name}; no risky power was found among what was. That is not a clean bill: treat the unknowns as risks.`)
  }
  return verdict('no-risky-power-found', `every code check of ${name} was decided and none found a risky power, and selling was simulated. Not a guarantee: see the taxes, holders and liquidity.`)
}

/** The lines of a verdict as a person reads them: headline, findings, unknowns, notes. */
export function verdictLines(verdict: Verdict): string[] {
  const lines = [verdict.headline]
  if (verdict.found.length > 0) lines.push('Found:', ...verdict.found.map((f) => `- [${f.risk}] ${f.sentence} (${f.check})`))
  if (verdict.unknown.length > 0) lines.push('Not measured:', ...verdict.unknown.map((u) => `- ${u.check}: ${u.reason}`))
  return [...lines, ...verdict.notes]
}

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
  const checks = [...Object.entries(report.codeChecks.ownershipChecks), ...Object.entries(report.codeChecks.otherChecks)].map(([check, c]) => ({
    check,
    status: c.status,
    risk: c.risk,
    sentence: c.description,
    comment: c.comment,
  }))
  const sales = report.honeypotDetails.map((p) => ({ honeypot: p.isPairHoneypot, where: `${p.dex || 'a pool'} ${p.pairAddress}`, reason: p.honeypotReason }))
  const notes = report.honeypotDetails.map(
    (p) => `Taxes on ${p.dex || 'a pool'} ${p.pairAddress}: buy ${percent(p.buyTax.number)}, sell ${percent(p.sellTax.number)}, transfer ${percent(p.transferTax.number)}.`,
  )
  for (const anomaly of info.anomalies) notes.push(`Anomaly: ${anomaly}`)
  const score = report.tokenScore
  notes.push(
    `Score ${percent(score.totalScorePercentage)} (code ${percent(score.codeScorePercentage)}, market ${percent(score.marketScorePercentage)}); ${score.checksPerformed} of ${score.checksTotal} code checks decided.`,
  )
  return judge(name, checks, sales, 'no pool was found to simulate a sale on', notes)
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
  const flag = (n: number | '') => (n === '' ? '' : String(n))
  const sales = hp.pools.map((p) => ({ honeypot: flag(p.isPairHoneypot), where: p.dex ? `${p.dex} ${p.pairAddress}` : 'any pool (token-level verdict)', reason: p.honeypotReason }))
  const notes = hp.pools.map(
    (p) => `Taxes on ${p.dex ? `${p.dex} ${p.pairAddress}` : 'every transfer'}: buy ${percent(p.buyTax.number)}, sell ${percent(p.sellTax.number)}, transfer ${percent(p.transferTax.number)}.`,
  )
  const code = report.codeChecks
  notes.push(`Score ${percent(hp.overAllScorePercentage)} (code ${percent(code.codeCheckScorePercentage)}); ${code.checksPerformed} of ${code.availableChecks} code checks decided.`)
  return judge(name, checks, sales, 'no pool was found to simulate a sale on', notes)
}
