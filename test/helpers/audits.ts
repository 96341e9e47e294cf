import type { Severity } from '../../src/contract/audit-history.ts'
import type { NewAudit } from '../../src/store/repositories/audits.ts'

const SEVERITIES: Severity[] = ['high', 'medium', 'low', 'informational', 'optimization']

/** A valid audit whose numbers identify it (`totalLines` = `n`), with `findings` vulnerabilities. */
export function sampleAudit(n: number, options: { findings?: number; createdAt?: string } = {}): NewAudit {
  const findings = options.findings ?? 2
  const vulnerabilities = Array.from({ length: findings }, (_, i) => ({
    name: `Finding ${i} of audit ${n}`,
    severity: SEVERITIES[i % SEVERITIES.length],
    snippet: `function f${i}() external {\n  target.call("");\n}`,
    lineNumbers: [10 + i, 12 + i],
    confidence: 'high' as const,
    recommendation: 'Check the return value.',
    explanation: `Explanation ${i}.`,
    file: `src/Contract${n}.sol`,
  }))
  const count = { high: 0, medium: 0, low: 0, informational: 0, optimization: 0 }
  for (const v of vulnerabilities) count[v.severity]++
  return {
    totalLines: n,
    securityScore: 50 + (n % 50) + 0.5,
    vulnerabilityCount: count,
    vulnerabilities,
    ...(options.createdAt ? { createdAt: options.createdAt } : {}),
  }
}
