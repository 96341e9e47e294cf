import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { DETECTORS } from '../src/audit/detectors/registry.ts'
import { renderDetectorsDoc } from '../src/audit/detectors/render-docs.ts'
import { securityScore } from '../src/audit/score.ts'

const DOCS = path.join(import.meta.dirname, '..', 'docs')

describe('documentation', () => {
  it('docs/detectors.md is generated from the current registry (npm run docs)', () => {
    expect(fs.readFileSync(path.join(DOCS, 'detectors.md'), 'utf8')).toBe(renderDetectorsDoc(DETECTORS))
  })

  it('the examples of the audit security score in docs/scoring.md are what the model computes', () => {
    const scoring = fs.readFileSync(path.join(DOCS, 'scoring.md'), 'utf8')
    const section = scoring.slice(scoring.indexOf('## Audit security score'))
    const f = (name: string, severity: 'high' | 'medium' | 'low' | 'informational', confidence: 'high' | 'medium') => ({ name, severity, confidence })
    const examples: [string, ReturnType<typeof f>[]][] = [
      ['one informational', [f('a', 'informational', 'high')]],
      ['one low, high confidence', [f('a', 'low', 'high')]],
      ['one medium, medium confidence', [f('a', 'medium', 'medium')]],
      ['one high, medium confidence', [f('a', 'high', 'medium')]],
      ['one high, high confidence', [f('a', 'high', 'high')]],
      ['the same high/high finding ten times', Array.from({ length: 10 }, () => f('a', 'high', 'high'))],
      ['two different high/high findings', [f('a', 'high', 'high'), f('b', 'high', 'high')]],
      ['ten different low/high findings', Array.from({ length: 10 }, (_, i) => f(`l${i}`, 'low', 'high'))],
    ]
    for (const [label, findings] of examples) expect(section).toContain(`| ${label} | ${securityScore(findings)} |`)
  })
})
