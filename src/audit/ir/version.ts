import type { VersionRange } from './types.ts'

/** Encodes `major.minor.patch` as one comparable number. */
export function encodeVersion(major: number, minor: number, patch: number): number {
  return major * 1_000_000 + minor * 1_000 + patch
}

/** 0.8.0: the first compiler with checked arithmetic by default. */
export const CHECKED_ARITHMETIC_SINCE = encodeVersion(0, 8, 0)

/**
 * The versions a `pragma solidity` value allows, as the hull of its `||` alternatives.
 * Returns null for a value we cannot read.
 *
 * @example versionRange('^0.8.20') // { min: 8020, max: 9000, pinned: false } (encoded)
 */
export function versionRange(value: string): VersionRange | null {
  let min = Infinity
  let max = -Infinity
  let pinned = false
  const alternatives = value.split('||').map((a) => a.trim()).filter(Boolean)
  for (const alternative of alternatives) {
    let low = 0
    let high = Infinity
    let exact = false
    const constraints = alternative.match(/(\^|~|>=|<=|>|<|=)?\s*v?\d+(?:\.(?:\d+|[xX*]))*(?:\.(?:\d+|[xX*]))?/g)
    if (!constraints) return null
    for (const raw of constraints) {
      const match = /^(\^|~|>=|<=|>|<|=)?\s*v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?/.exec(raw.trim())
      if (!match) return null
      const op = match[1] ?? '='
      const major = Number(match[2])
      const minorWild = match[3] === undefined || /[xX*]/.test(match[3])
      const patchWild = match[4] === undefined || /[xX*]/.test(match[4])
      const minor = minorWild ? 0 : Number(match[3])
      const patch = patchWild ? 0 : Number(match[4])
      const v = encodeVersion(major, minor, patch)
      const next = minorWild ? encodeVersion(major + 1, 0, 0) : patchWild ? encodeVersion(major, minor + 1, 0) : v + 1
      switch (op) {
        case '^':
          low = Math.max(low, v)
          high = Math.min(high, major > 0 ? encodeVersion(major + 1, 0, 0) : minorWild ? encodeVersion(1, 0, 0) : encodeVersion(0, minor + 1, 0))
          break
        case '~':
          low = Math.max(low, v)
          high = Math.min(high, minorWild ? encodeVersion(major + 1, 0, 0) : encodeVersion(major, minor + 1, 0))
          break
        case '>=':
          low = Math.max(low, v)
          break
        case '>':
          low = Math.max(low, next)
          break
        case '<':
          high = Math.min(high, v)
          break
        case '<=':
          high = Math.min(high, next)
          break
        default:
          low = Math.max(low, v)
          high = Math.min(high, next)
          exact = !minorWild && !patchWild
      }
    }
    if (low >= high) continue
    min = Math.min(min, low)
    max = Math.max(max, high)
    pinned = alternatives.length === 1 && constraints.length === 1 && exact
  }
  if (min === Infinity) return null
  return { min, max, pinned }
}
