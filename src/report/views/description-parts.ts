import { RISK_SCALE, riskRating, type RiskLabel } from '../../contract/common.ts'

/**
 * What the description shape — the hosted service's Solana body, which its report widgets also
 * read for EVM tokens (docs/compat.md) — writes the same way for both engines: risk numbers,
 * headings in their three states, check items, who holds a power, the verdict shown, the total on
 * its 0–100 scale, and the risk counts. Used by the Solana renderer and the EVM description view.
 */

/**
 * The risk number of a value whose rating is unknown or that carries none: 3, the Neutral rating,
 * which the widgets draw as a neutral dot. An empty value draws their Critical icon (their icon
 * switch falls through to it), and 7 would pass a client's `>= 4` "good" test. The item's
 * `riskStatus` ("") and `status` ("") say that it is unknown.
 */
export const UNKNOWN_RISK_NUMBER = 3

/** A label's rating on the published scale (0 Critical … 6 Great To Have); `UNKNOWN_RISK_NUMBER` for "". */
export function riskNumber(label: string): number {
  return riskRating(label as RiskLabel) ?? UNKNOWN_RISK_NUMBER
}

/**
 * Who holds a power, as clients read `ownerAddress`: the address, `RENOUNCED` when it was measured
 * that no one does (the widget shows "Renounced"), "" when it could not be determined (the widget
 * shows its unknown mark).
 */
export const RENOUNCED = 'Renounced'

/** A check's heading in each state, as the description shape writes them. */
export interface Heading {
  present: string
  absent: string
  /** What the check is about, for the undecided state ("<subject> is Unknown"). */
  subject: string
}

/** The heading for a check's status ("1" present, "0" absent, "" undecided). */
export function headingOf(heading: Heading, status: string): string {
  return status === '1' ? heading.present : status === '0' ? heading.absent : `${heading.subject} is Unknown`
}

/** One code check of the description shape (`codeCheckDescription.*[]`). */
export interface DescriptionItem {
  heading: string
  description: string
  risk: number
  riskStatus: string
  tags: string[]
  value: string
  check: string
  status: '0' | '1' | ''
  comment: string
}

/** The index of the transfer-fee item in `ownershipPermissionsDescription`: clients read its `risk === 0` as "modifiable". */
export const FEE_ITEM_INDEX = 3

/**
 * A check as an item. `riskyReadsCritical` (the transfer-fee item, `FEE_ITEM_INDEX`): its present
 * state carries risk 0 whatever its label, because the one client that reads it shows "modifiable"
 * only for `risk === 0`; its label stays in `riskStatus`.
 */
export function descriptionItem(input: {
  check: string
  group: string
  heading: Heading
  description: string
  risk: string
  status: '0' | '1' | ''
  comment: string
  value: string
  riskyReadsCritical?: boolean
}): DescriptionItem {
  const critical = input.riskyReadsCritical && input.status === '1'
  return {
    heading: headingOf(input.heading, input.status),
    description: input.description,
    risk: critical ? 0 : riskNumber(input.status === '' ? '' : input.risk),
    riskStatus: input.status === '' ? '' : input.risk,
    tags: [input.check, input.group],
    value: input.value,
    check: input.check,
    status: input.status,
    comment: input.comment,
  }
}

/**
 * The total score on its published 0–100 scale: a negative total is written 0, the bottom of the
 * scale (where a token no holder can sell is put), never below; "" stays "".
 */
export function scalePercent(percent: number | ''): number | '' {
  return percent === '' ? '' : Math.max(0, percent)
}

/**
 * The pool verdict a client shows when it shows one (`honeypotDetails.isPairHoneypot`, the taxes):
 * the deepest pool's, unless a pool traps sellers — then the deepest such pool's, so that a token
 * with a trap never reads "Not a Honeypot".
 */
export function shownVerdict<T extends { isPairHoneypot: number | '' }>(verdicts: readonly T[]): T | undefined {
  return verdicts.find((v) => v.isPairHoneypot === 1) ?? verdicts[0]
}

export interface RiskCount {
  id: number
  name: string
  count: number
}

/** One `{id, name, count}` per label of the scale, worst first, counting `labels` ("" counts nowhere). */
export function aggregatedCount(labels: readonly string[]): RiskCount[] {
  return RISK_SCALE.map((name, id) => ({ id, name, count: labels.filter((l) => l === name).length }))
}

/** `riskCategories`, which the first report widget counts risks from: a mirror of `aggregatedCount`. */
export function riskCategories(counts: readonly RiskCount[]): { critical: number; risky: number; medium: number; neutral: number } {
  const of = (name: string) => counts.find((c) => c.name === name)?.count ?? 0
  return { critical: of('Critical'), risky: of('RISKY'), medium: of('Medium Risk'), neutral: of('Neutral') }
}

/** DD/MM/YYYY (UTC), as the widgets parse `tokenCreationDate`; "" for an unknown or invalid time. */
export function dayMonthYear(date: Date | undefined): string {
  if (!date || Number.isNaN(date.getTime())) return ''
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(date.getUTCDate())}/${two(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`
}
