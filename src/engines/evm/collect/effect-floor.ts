/*
 * The floor under which a change of a balance (or of the supply) is the token's own rounding and
 * no power: a reflection token re-rating its holders moves 10^12 to 10^15 raw units between them,
 * less than a thousandth of a token, without anyone taking anything.
 */

/** Absolute floor: a change of at most one whole token divided by this (a thousandth of a token) is rounding. */
export const DUST_TOKEN_DIVISOR = 1_000n
/** Relative floor: a change of at most this many millionths of the balance it changes is rounding. */
export const DUST_PARTS_PER_MILLION = 1n
const MILLION = 1_000_000n

/** The absolute floor of a token in raw units (0 when its decimals are unknown: the relative floor only). */
export function dustFloor(decimals: number | undefined): bigint {
  return decimals === undefined ? 0n : 10n ** BigInt(decimals) / DUST_TOKEN_DIVISOR
}

/**
 * Whether a change from `before` to `after` is below the token's rounding: at most `floor` raw
 * units, or at most `DUST_PARTS_PER_MILLION` millionths of the larger of the two values.
 */
export function isDust(before: bigint, after: bigint, floor: bigint): boolean {
  const d = after > before ? after - before : before - after
  if (d === 0n) return true
  const larger = after > before ? after : before
  return d <= floor || d * MILLION <= larger * DUST_PARTS_PER_MILLION
}

/** The floors in words, as the checks' methods state them (docs/checks.md). */
export const DUST_RULE = `a change of a balance or of the supply counts (as taken, created or set) only above the token's own rounding: more than a ${DUST_TOKEN_DIVISOR === 1_000n ? 'thousandth' : `1/${DUST_TOKEN_DIVISOR}`} of one whole token (10^decimals / ${DUST_TOKEN_DIVISOR} raw units; no absolute floor when the decimals are unknown) and more than ${DUST_PARTS_PER_MILLION} millionth of the larger of the values before and after (a reflection token re-rating its holders moves dust between them, which is no power)`
