/**
 * Reading the contract's strings as the hosted service's views write them: numbers, booleans,
 * sums and remainders, with "" (unknown) kept "" — never 0, never `false`. Pure helpers of the
 * views in this folder.
 */

/** Decimal places kept when two decimal strings are added or subtracted (more than any token has). */
const DECIMAL_SCALE = 36

/** A decimal string as a number; "" (unknown) stays "". */
export function num(s: string): number | '' {
  if (s === '') return ''
  const n = Number(s)
  return Number.isFinite(n) ? n : ''
}

/** A flag "1"/"0" as a boolean; "" (unknown) stays "". */
export function bool(flag: string): boolean | '' {
  return flag === '1' ? true : flag === '0' ? false : ''
}

/** A flag "1"/"0" as the number 1/0 clients compare with `=== 1`; "" (unknown) stays "". */
export function zeroOne(flag: string): 0 | 1 | '' {
  return flag === '1' ? 1 : flag === '0' ? 0 : ''
}

export function sameAddress(a: string, b: string): boolean {
  return a !== '' && a.toLowerCase() === b.toLowerCase()
}

/** A number rounded to two decimals, without a negative zero. */
export function round2(x: number): number {
  const r = Math.round(x * 100) / 100
  return r === 0 ? 0 : r
}

/** 100 − a percent, for the share outside the top ten; "" when unknown. */
export function remainderPercent(topTen: string): number | '' {
  const p = num(topTen)
  return p === '' ? '' : Math.max(0, Math.round((100 - p) * 10_000) / 10_000)
}

function scaled(s: string): bigint | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s)
  if (!m || (m[3]?.length ?? 0) > DECIMAL_SCALE) return undefined
  const v = BigInt(m[2] + (m[3] ?? '').padEnd(DECIMAL_SCALE, '0'))
  return m[1] ? -v : v
}

function unscaled(d: bigint): string {
  const abs = (d < 0n ? -d : d).toString().padStart(DECIMAL_SCALE + 1, '0')
  const whole = abs.slice(0, -DECIMAL_SCALE)
  const fraction = abs.slice(-DECIMAL_SCALE).replace(/0+$/, '')
  return `${d < 0n ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}

/** a − b for plain decimal strings, exact; "" when either is unknown. */
export function subtractDecimal(a: string, b: string): string {
  const x = scaled(a)
  const y = scaled(b)
  return x === undefined || y === undefined ? '' : unscaled(x - y)
}

/** The sum of plain decimal strings, exact; "" when any is unknown. */
export function addDecimals(values: readonly string[]): string {
  let total = 0n
  for (const v of values) {
    const x = scaled(v)
    if (x === undefined) return ''
    total += x
  }
  return unscaled(total)
}
