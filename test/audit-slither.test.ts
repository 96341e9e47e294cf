import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { InputError } from '../src/errors.ts'
import { importSlither } from '../src/audit/import-slither.ts'
import { reentrancyEth } from '../src/audit/detectors/reentrancy/reentrancy-eth.ts'

const SAMPLE = path.join(import.meta.dirname, 'fixtures', 'audit', 'slither')
const sample = (): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(SAMPLE, 'results.json'), 'utf8'))

describe('importing Slither results', () => {
  it('maps impact, confidence and source mappings, reading snippets from the project', () => {
    const result = importSlither(sample(), { projectRoot: path.join(SAMPLE, 'project') })
    expect(result.errors).toEqual([])
    // The dead-code finding lies only in a dependency (lib/) and is left out, like our own findings.
    expect(result.vulnerabilities.map((v) => [v.name, v.severity, v.confidence, v.file, v.lineNumbers])).toEqual([
      [reentrancyEth.title, 'high', 'medium', 'src/Vault.sol', [14, 19]],
      ['Naming convention not followed', 'informational', 'high', 'src/Vault.sol', [21, 23]],
      ['Missing constant made up', 'optimization', 'high', 'src/Vault.sol', [8, 8]],
    ])
    const [reentrancy, , unknown] = result.vulnerabilities
    const source = fs.readFileSync(path.join(SAMPLE, 'project', 'src', 'Vault.sol'), 'utf8').split('\n')
    expect(reentrancy.snippet).toBe(source.slice(13, 19).join('\n'))
    expect(reentrancy.explanation).toContain('Reentrancy in Vault.withdraw()')
    expect(reentrancy.recommendation).toBe(reentrancyEth.recommendation)
    expect(unknown.recommendation).toContain('missing-constant-made-up')
    expect(result.vulnerabilityCount).toEqual({ high: 1, medium: 0, low: 0, informational: 1, optimization: 1 })
    expect(result.files).toEqual([{ path: 'src/Vault.sol', lines: source.length - 1 }])
    expect(result.totalLines).toBe(source.length - 1)
    expect(result.securityScore).toBeLessThan(100)
  })

  it('falls back to the description when no project root is given', () => {
    const result = importSlither(sample())
    expect(result.vulnerabilities[0].snippet).toContain('Reentrancy in Vault.withdraw()')
    expect(result.totalLines).toBe(0)
    expect(result.files).toEqual([{ path: 'src/Vault.sol', lines: 0 }])
  })

  it('accepts output without findings', () => {
    const result = importSlither({ success: true, error: null, results: {} })
    expect(result.vulnerabilities).toEqual([])
    expect(result.securityScore).toBe(100)
  })

  it('refuses malformed input and says what is wrong', () => {
    const broken = (mutate: (json: Record<string, any>) => unknown): unknown => {
      const json = sample() as Record<string, any>
      const replaced = mutate(json)
      return replaced === undefined ? json : replaced
    }
    const cases: [unknown, RegExp][] = [
      [[], /the Slither output must be a JSON object/],
      ['text', /the Slither output must be a JSON object/],
      [{ success: false, error: 'compilation failed' }, /Slither reported a failure: compilation failed/],
      [{ success: true }, /no "results" field/],
      [broken((j) => { j.results.detectors = {} }), /results\.detectors must be an array/],
      [broken((j) => { delete j.results.detectors[0].check }), /results\.detectors\[0\]\.check must be a non-empty string/],
      [broken((j) => { j.results.detectors[1].impact = 'Critical' }), /results\.detectors\[1\]\.impact must be one of High, Medium, Low, Informational, Optimization; got "Critical"/],
      [broken((j) => { j.results.detectors[0].confidence = 'Sure' }), /results\.detectors\[0\]\.confidence must be one of High, Medium, Low/],
      [broken((j) => { j.results.detectors[0].elements = 'x' }), /results\.detectors\[0\]\.elements must be an array/],
      [broken((j) => { j.results.detectors[0].elements[1].source_mapping.lines = ['16'] }), /results\.detectors\[0\]\.elements\[1\]\.source_mapping\.lines must hold positive integers/],
      [broken((j) => { delete j.results.detectors[2].elements[0].source_mapping.filename_relative; delete j.results.detectors[2].elements[0].source_mapping.filename_absolute }), /results\.detectors\[2\]\.elements\[0\]\.source_mapping has no filename/],
    ]
    for (const [input, message] of cases) {
      let error: unknown
      try {
        importSlither(input)
      } catch (e) {
        error = e
      }
      expect(error, String(message)).toBeInstanceOf(InputError)
      expect((error as Error).message).toMatch(message)
    }
  })
})
