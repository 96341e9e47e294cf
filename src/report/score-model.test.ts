import { describe, expect, it } from 'vitest'
import type { CheckResult, CheckTier } from './define-check.ts'
import { exitBlocked, PRESENT_RISK_PENALTY, scoreChecks, totalPercentage } from './score-model.ts'

const result = (status: CheckResult['status']): CheckResult => ({ status, method: 'simulated', evidence: '' })
const check = (tier: CheckTier, status: CheckResult['status']) => ({ definition: { tier }, result: result(status) })

describe('score model', () => {
  it('earns a weight for an absent risk and costs four for a present one; undecided checks do not count', () => {
    const figures = scoreChecks([check('Critical', 'absent'), check('Critical', 'present'), check('Nice To Have', 'undetermined')])
    expect(PRESENT_RISK_PENALTY).toBe(4)
    expect(figures).toEqual({ achievedScore: 10 - 40, maxScore: 20, minScore: -80 })
  })

  it('caps the total at 0 when no pool lets a holder sell, and only then', () => {
    const code = { achievedScore: 50, maxScore: 86, minScore: -344 }
    const market = { achievedScore: 10, maxScore: 21, minScore: 0 }
    expect(totalPercentage(code, market)).toBe('56.07')
    expect(totalPercentage(code, market, { exitBlocked: true })).toBe('0')
    expect(totalPercentage({ ...code, achievedScore: -60 }, market, { exitBlocked: true })).toBe('-46.73')
    expect(exitBlocked([{ isPairHoneypot: '1' }, { isPairHoneypot: '1' }])).toBe(true)
    expect(exitBlocked([{ isPairHoneypot: '1' }, { isPairHoneypot: '0' }])).toBe(false)
    expect(exitBlocked([])).toBe(false)
  })
})
