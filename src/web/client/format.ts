/**
 * How the page writes a report's values: pure functions of the report's strings (no DOM), so that
 * what a person reads follows from the JSON alone. A value the report leaves "" is never written
 * as a number here: the views say "not measured" for it.
 */

/** Characters kept at each end of a shortened address. */
const ADDRESS_ENDS = 4
/** Decimals shown of an amount of 1 or more. */
const AMOUNT_DECIMALS = 2
/** Significant digits shown of an amount below 1. */
const SMALL_AMOUNT_DIGITS = 4

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/
const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
/** Addresses inside a sentence: EVM (exactly 40 hex digits) or base58 (Solana, 32–44 characters). */
const ADDRESS_IN_TEXT = /\b(0x[0-9a-fA-F]{40})(?![0-9a-fA-F])|\b([1-9A-HJ-NP-Za-km-z]{32,44})\b/g

export const isEvmAddress = (text: string): boolean => EVM_ADDRESS.test(text)
export const isSolanaAddress = (text: string): boolean => BASE58_ADDRESS.test(text)

/** `0xf39F…2266`: an address as a person compares it, both ends. */
export function shortAddress(address: string): string {
  const head = address.startsWith('0x') ? ADDRESS_ENDS + 2 : ADDRESS_ENDS
  return address.length <= head + ADDRESS_ENDS + 1 ? address : `${address.slice(0, head)}…${address.slice(-ADDRESS_ENDS)}`
}

/** A sentence cut into its text and the addresses in it, in order. */
export type TextPart = { text: string } | { address: string }

/**
 * Splits `text` at the addresses it names (EVM, or base58 when it looks like a Solana address:
 * 32 to 44 characters with a digit in them), so that a view can shorten and link them.
 *
 * @example
 * splitAddresses('as 0xf39F…(full) (owner()), mint') // [{text:'as '}, {address:'0xf39F…'}, {text:' (owner()), mint'}]
 */
export function splitAddresses(text: string): TextPart[] {
  const parts: TextPart[] = []
  let last = 0
  for (const match of text.matchAll(ADDRESS_IN_TEXT)) {
    const address = match[1] ?? match[2]
    // A long word of letters alone is not an address; base58 addresses have digits.
    if (!match[1] && !/\d/.test(address)) continue
    const at = match.index ?? 0
    if (at > last) parts.push({ text: text.slice(last, at) })
    parts.push({ address })
    last = at + match[0].length
  }
  if (last < text.length) parts.push({ text: text.slice(last) })
  return parts
}

/** Digits of a whole number grouped by thousands. */
function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/**
 * A decimal amount as a person reads it, exactly from its digits (supplies exceed a float's
 * precision): thousands grouped, two decimals, or four significant digits below 1.
 *
 * @example
 * formatAmount('266053.340116061843613187') // '266,053.34'
 * formatAmount('0.000123456') // '0.0001234' (cut, never rounded up)
 */
export function formatAmount(value: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim())
  if (!match) return value
  const [, sign, whole, fraction = ''] = match
  if (/[1-9]/.test(whole)) {
    const kept = fraction.slice(0, AMOUNT_DECIMALS).replace(/0+$/, '')
    return `${sign}${group(whole.replace(/^0+(?=\d)/, ''))}${kept ? `.${kept}` : ''}`
  }
  const leadingZeros = /^0*/.exec(fraction)?.[0].length ?? 0
  const kept = fraction.slice(0, leadingZeros + SMALL_AMOUNT_DIGITS).replace(/0+$/, '')
  return kept ? `${sign}0.${kept}` : '0'
}

/** A percentage from the report ("65.3085", or a number in the Solana body) to two decimals. */
export function formatPercent(value: string | number): string {
  const n = typeof value === 'number' ? value : Number(value)
  if (!Number.isFinite(n)) return String(value)
  return `${Number(n.toFixed(2)).toLocaleString('en-US', { maximumFractionDigits: 2 })} %`
}

/** A USD figure: whole dollars grouped, cents; small prices keep their significant digits. */
export function formatUsd(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : value
  return `$${formatAmount(text)}`
}

/** A date of the report (ISO 8601) as "27 Dec 2026", in UTC so that every reader sees the same day. */
export function formatDate(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
}

/** A date and time of the report, in UTC. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return `${formatDate(iso)}, ${date.toISOString().slice(11, 16)} UTC`
}

/** How far `iso` is from `nowMs`, in words: "in 30 days", "3 months ago". */
export function relativeTime(iso: string, nowMs: number): string {
  const ms = new Date(iso).getTime() - nowMs
  if (Number.isNaN(ms)) return ''
  const day = 86_400_000
  const days = Math.round(Math.abs(ms) / day)
  const amount = days < 1 ? 'less than a day' : days < 60 ? `${days} day${days === 1 ? '' : 's'}` : days < 730 ? `${Math.round(days / 30)} months` : `${Math.round(days / 365)} years`
  return ms >= 0 ? `in ${amount}` : `${amount} ago`
}

/** The reason of a check's "not determinable: <reason>" comment, or the comment itself. */
export function unmeasuredReason(comment: string): string {
  return comment.replace(/^not determinable:\s*/i, '').trim()
}

/** How a check was decided, from its comment's first word, and the evidence after it. */
export function splitEvidence(comment: string): { how: string; evidence: string } {
  const match = /^(simulated|bytecode|state|metadata|trace|traced|not determinable):\s*/i.exec(comment)
  if (!match) return { how: '', evidence: comment }
  const how: Record<string, string> = {
    simulated: 'Simulated on the chain',
    bytecode: 'Read from the bytecode',
    state: "Read from the chain's state",
    metadata: 'Read from the metadata',
    trace: 'Traced on the chain',
    traced: 'Traced on the chain',
    'not determinable': 'Not measured',
  }
  return { how: how[match[1].toLowerCase()] ?? match[1], evidence: comment.slice(match[0].length) }
}
