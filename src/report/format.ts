import { formatUnits } from 'viem/utils'

/**
 * Number formatting of reports: every value is a plain decimal string (no exponent, no grouping),
 * and an unknown value is "".
 */
const SIGNIFICANT = new Intl.NumberFormat('en-US', { useGrouping: false, maximumSignificantDigits: 8 })
const PERCENT = new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 4 })
const USD = new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 2 })

/** A token amount in whole units, exact. */
export function units(raw: bigint | undefined, decimals: number | undefined): string {
  if (raw === undefined || decimals === undefined) return ''
  return formatUnits(raw, decimals)
}

/** A percentage with at most four decimals ("3", "12.5", "0.0001"). */
export function percent(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return ''
  const s = PERCENT.format(x)
  return s === '-0' ? '0' : s
}

/** A price: eight significant digits, never in exponent notation. */
export function price(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return ''
  return SIGNIFICANT.format(x)
}

/** A USD amount (liquidity, market cap): cents. */
export function usd(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return ''
  return x >= 1 ? USD.format(x) : SIGNIFICANT.format(x)
}

/** part / whole × 100, computed on integers (exact to 1e-6 %). */
export function share(part: bigint | undefined, whole: bigint | undefined): number | undefined {
  if (part === undefined || whole === undefined || whole <= 0n) return undefined
  return Number((part * 100_000_000n) / whole) / 1_000_000
}

export function isoTime(unixSeconds: number | undefined): string {
  if (unixSeconds === undefined || !Number.isFinite(unixSeconds)) return ''
  return new Date(unixSeconds * 1000).toISOString()
}

export function count(n: number | undefined): string {
  return n === undefined ? '' : String(n)
}
