import type { Confidence, Severity, Vulnerability, VulnerabilityCount } from '../contract/audit-history.ts'

/**
 * The audit security score (docs/scoring.md, "Audit security score"): 100 for a project without
 * findings, falling towards 0 as findings accumulate.
 *
 *   penalty = Σ over finding names, Σ over that name's findings k = 1, 2, … (heaviest first)
 *             SEVERITY_WEIGHT[severity] × CONFIDENCE_FACTOR[confidence] × REPEAT_DECAY^(k−1)
 *   score   = 100 × exp(−penalty / PENALTY_SCALE), rounded to two decimals
 *
 * Repeats of one kind of finding decay so that a pattern repeated twenty times weighs at most
 * twice one occurrence, while every distinct problem counts in full. Optimizations do not lower a
 * security score.
 */
export const SEVERITY_WEIGHT: Record<Severity, number> = {
  high: 25,
  medium: 10,
  low: 3,
  informational: 0.5,
  optimization: 0,
}

export const CONFIDENCE_FACTOR: Record<Confidence, number> = {
  high: 1,
  medium: 0.75,
  low: 0.5,
}

/** Weight of the k-th finding of the same name relative to the (k−1)-th. */
export const REPEAT_DECAY = 0.5

/** Penalty at which the score has fallen to 100/e ≈ 36.8. */
export const PENALTY_SCALE = 50

export function securityScore(vulnerabilities: readonly Pick<Vulnerability, 'name' | 'severity' | 'confidence'>[]): number {
  const weightsByName = new Map<string, number[]>()
  for (const v of vulnerabilities) {
    const weight = SEVERITY_WEIGHT[v.severity] * CONFIDENCE_FACTOR[v.confidence]
    const list = weightsByName.get(v.name)
    if (list) list.push(weight)
    else weightsByName.set(v.name, [weight])
  }
  let penalty = 0
  for (const weights of weightsByName.values()) {
    weights.sort((a, b) => b - a)
    weights.forEach((w, k) => {
      penalty += w * REPEAT_DECAY ** k
    })
  }
  return Math.round(100 * Math.exp(-penalty / PENALTY_SCALE) * 100) / 100
}

export function countBySeverity(vulnerabilities: readonly Pick<Vulnerability, 'severity'>[]): VulnerabilityCount {
  const count: VulnerabilityCount = { high: 0, medium: 0, low: 0, informational: 0, optimization: 0 }
  for (const v of vulnerabilities) count[v.severity]++
  return count
}
