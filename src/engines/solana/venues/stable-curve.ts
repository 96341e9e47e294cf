/**
 * The stable-swap invariant of two tokens, as Meteora DAMM v1's stable curve keeps it (the
 * StableSwap form whose leverage is the amplification times the number of tokens):
 * L·(x + y) + D = L·D + D³ / (4·x·y), with L = amp · 2, over amounts scaled by each token's
 * multiplier to one precision.
 */
const TOKENS = 2n
/** Newton steps before D is given up on; it converges in a few dozen for any real pool. */
const MAX_STEPS = 256

/** The invariant D of reserves x and y (scaled); null when it does not converge. */
export function stableInvariant(amp: bigint, x: bigint, y: bigint): bigint | null {
  const sum = x + y
  if (sum === 0n) return 0n
  if (x === 0n || y === 0n) return null
  const leverage = amp * TOKENS
  let d = sum
  for (let i = 0; i < MAX_STEPS; i++) {
    const dP = (((d * d) / (x * TOKENS)) * d) / (y * TOKENS)
    const previous = d
    d = ((leverage * sum + dP * TOKENS) * d) / ((leverage - 1n) * d + (TOKENS + 1n) * dP)
    if (d - previous <= 1n && previous - d <= 1n) return d
  }
  return null
}

/**
 * Spot price of one unit of x in units of y on the curve: the ratio of the invariant's partial
 * derivatives, (L + D³/(4x²y)) / (L + D³/(4xy²)). undefined when the reserves have no invariant.
 */
export function stableSpotPrice(amp: bigint, x: bigint, y: bigint): number | undefined {
  if (amp <= 0n || x <= 0n || y <= 0n) return undefined
  const d = stableInvariant(amp, x, y)
  if (d === null) return undefined
  const [dn, xn, yn, leverage] = [Number(d), Number(x), Number(y), Number(amp * TOKENS)]
  // D³/(4xy) divided by x (or y): computed as ratios to stay within a double's range.
  const k = (dn / xn) * (dn / yn) * (dn / 4)
  const price = (leverage + k / xn) / (leverage + k / yn)
  return Number.isFinite(price) && price > 0 ? price : undefined
}
