import { describe, expect, it } from 'vitest'
import { riskRating, RISK_SCALE } from '../contract/common.ts'
import { checkRisk, type CheckResult, type CheckTier } from './define-check.ts'
import { rate } from './market.ts'
import { exitBlocked, formatScore, percentage, PRESENT_RISK_PENALTY, scoreChecks, scoreMarket, totalPercentage } from './score-model.ts'

const result = (status: CheckResult['status']): CheckResult => ({ status, method: 'simulated', evidence: '' })
const check = (tier: CheckTier, status: CheckResult['status']) => ({ definition: { tier }, result: result(status) })

describe('score model', () => {
  it('earns a weight for an absent risk and costs four for a present one; undecided checks do not count', () => {
    const figures = scoreChecks([check('Critical', 'absent'), check('Critical', 'present'), check('Neutral', 'undetermined')])
    expect(PRESENT_RISK_PENALTY).toBe(4)
    expect(figures).toEqual({ achievedScore: 10 - 40, maxScore: 20, minScore: -80 })
  })

  it('caps the total at 0 when no pool lets a holder sell, and only then', () => {
    const code = { achievedScore: 50, maxScore: 86, minScore: -344 }
    const market = { achievedScore: 10, maxScore: 21, minScore: -21 }
    expect(totalPercentage(code, market)).toBe('56.07')
    expect(totalPercentage(code, market, { exitBlocked: true })).toBe('0.00')
    expect(totalPercentage({ ...code, achievedScore: -60 }, market, { exitBlocked: true })).toBe('-46.73')
    expect(exitBlocked([{ isPairHoneypot: '1' }, { isPairHoneypot: '1' }])).toBe(true)
    expect(exitBlocked([{ isPairHoneypot: '1' }, { isPairHoneypot: '0' }])).toBe(false)
    expect(exitBlocked([])).toBe(false)
  })

  it('writes every score with two decimals, negative ones included', () => {
    expect(formatScore(73.6111)).toBe('73.61')
    expect(formatScore(-37.5)).toBe('-37.50')
    expect(formatScore(10)).toBe('10.00')
    expect(formatScore(-0.001)).toBe('0.00')
    expect(formatScore(Number.NaN)).toBe('')
    expect(percentage({ achievedScore: 1, maxScore: 3, minScore: -3 })).toBe('33.33')
    expect(percentage({ achievedScore: 0, maxScore: 0, minScore: 0 })).toBe('')
  })
})

describe('risk labels: one scale, worst to best', () => {
  it('numbers the published labels from 0 (Critical) to 6 (Great To Have); "" has no rating', () => {
    expect(RISK_SCALE).toEqual(['Critical', 'RISKY', 'Medium Risk', 'Neutral', 'Nice To Have', 'Good To Have', 'Great To Have'])
    expect(riskRating('Critical')).toBe(0)
    expect(riskRating('Great To Have')).toBe(6)
    expect(riskRating('')).toBeUndefined()
  })

  it('a present power carries its severity, its absence a positive label, the unknown nothing', () => {
    expect(checkRisk({ tier: 'Critical' }, result('present'))).toBe('Critical')
    expect(checkRisk({ tier: 'Critical' }, result('absent'))).toBe('Great To Have')
    expect(checkRisk({ tier: 'RISKY' }, result('absent'))).toBe('Good To Have')
    expect(checkRisk({ tier: 'Neutral' }, result('present'))).toBe('Neutral')
    expect(checkRisk({ tier: 'Neutral' }, result('absent'))).toBe('Nice To Have')
    expect(checkRisk({ tier: 'Critical' }, result('undetermined'))).toBe('')
    // A finding graver than the check's severity is labelled by the finding; its absence by the check.
    expect(checkRisk({ tier: 'RISKY' }, { ...result('present'), tier: 'Critical' })).toBe('Critical')
    for (const tier of ['Critical', 'RISKY', 'Medium Risk', 'Neutral'] as const) {
      expect(riskRating(checkRisk({ tier }, result('absent')))!).toBeGreaterThan(riskRating(checkRisk({ tier }, result('present')))!)
    }
  })

  it('rates market figures the way the published sample does: more is better where more is healthier', () => {
    expect(rate('numberOfTradingPairs', 13).label).toBe('Good To Have')
    expect(rate('currentLiquidityUsd', 40e9).label).toBe('Great To Have')
    expect(rate('numberOfTradingPairs', 1).label).toBe('Neutral')
    expect(rate('numberOfTradingPairs', 0).label).toBe('Critical')
    expect(rate('currentLiquidityUsd', 500).label).toBe('Critical')
    expect(rate('topTenPercent', 100).label).toBe('Critical')
    expect(rate('topTenPercent', 10).label).toBe('Great To Have')
    expect(rate('taxPercent', 0).label).toBe('Great To Have')
    expect(rate('taxPercent', 7).label).toBe('Medium Risk')
    expect(rate('holdersCount', undefined).label).toBe('')
  })

  it('market penalties can take the market score below zero; unknown figures do not count', () => {
    const figures = scoreMarket([
      { rating: rate('currentLiquidityUsd', 100), weight: 3 },
      { rating: rate('numberOfTradingPairs', 1), weight: 1 },
      { rating: rate('holdersCount', undefined), weight: 2 },
    ])
    expect(figures).toEqual({ achievedScore: -3, maxScore: 4, minScore: -4 })
    expect(percentage(figures)).toBe('-75.00')
  })
})
