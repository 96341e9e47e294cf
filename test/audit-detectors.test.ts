import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { analyzeWithFindings } from '../src/audit/analyze.ts'
import { DETECTORS } from '../src/audit/detectors/registry.ts'
import { NODE_MODULES } from './helpers/paths.ts'

/**
 * Every detector has a folder of test contracts under test/fixtures/audit/detectors/<id>/ holding
 * the bug and legitimate look-alikes. A line that must be flagged ends with `// expect: <id>`;
 * look-alikes carry an `// ok:` comment saying why they are fine. The detector must flag exactly
 * the expected lines (by first line of the finding) — no more, no fewer.
 */
const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'audit', 'detectors')

function expectedLines(folder: string, id: string): { expected: string[]; lookAlikes: number } {
  const expected: string[] = []
  let lookAlikes = 0
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.name.endsWith('.sol')) {
        const lines = fs.readFileSync(full, 'utf8').split('\n')
        lines.forEach((line, i) => {
          const marker = /\/\/\s*expect:\s*([a-z0-9-, ]+)/.exec(line)
          // One entry per mention: `// expect: a, a` means two findings of `a` on that line.
          for (const mentioned of marker ? marker[1].split(',').map((s) => s.trim()) : []) {
            if (mentioned === id) expected.push(`${path.relative(folder, full).split(path.sep).join('/')}:${i + 1}`)
          }
          if (/\/\/\s*ok:/.test(line)) lookAlikes++
        })
      }
    }
  }
  walk(folder)
  return { expected: expected.sort(), lookAlikes }
}

describe('detectors against their test contracts', () => {
  for (const detector of DETECTORS) {
    it(`${detector.id}: flags the bugs and none of the look-alikes`, async () => {
      const folder = path.join(FIXTURES, detector.id)
      expect(fs.existsSync(folder), `missing fixture folder ${folder}`).toBe(true)
      const { expected, lookAlikes } = expectedLines(folder, detector.id)
      expect(expected.length, 'a fixture needs at least one expected finding').toBeGreaterThan(0)
      expect(lookAlikes, 'a fixture needs at least one look-alike marked // ok:').toBeGreaterThan(0)
      const { result, findings } = await analyzeWithFindings(folder, { detectors: [detector], includePaths: [NODE_MODULES] })
      expect(result.errors).toEqual([])
      const actual = findings.filter((f) => f.detector === detector.id).map((f) => `${f.file}:${f.lineNumbers[0]}`).sort()
      expect(actual).toEqual(expected)
      for (const finding of findings) {
        expect(finding.name).toBe(detector.title)
        expect(finding.snippet.length).toBeGreaterThan(0)
        expect(finding.lineNumbers[1]).toBeGreaterThanOrEqual(finding.lineNumbers[0])
      }
    })
  }
})
