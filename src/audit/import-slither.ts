import fs from 'node:fs'
import path from 'node:path'
import { InputError } from '../errors.ts'
import { AUDIT_LIMITS, DETECTOR_ID_PATTERN, type Confidence, type Severity, type Vulnerability } from '../contract/audit-history.ts'
import { clip, listFindings } from './bounds.ts'
import type { DetectorDefinition } from './detectors/define-detector.ts'
import { DETECTORS } from './detectors/registry.ts'
import { countLines, findOwnSources } from './load/load-project.ts'
import type { AnalysisResult } from './result.ts'
import { countBySeverity, securityScore } from './score.ts'
import { MAX_SNIPPET_LINES } from './source.ts'

export interface ImportSlitherOptions {
  /**
   * The folder Slither ran in. With it, snippets are read from the source files, file paths are
   * made relative to it, and `totalLines` counts the project's own Solidity; without it the
   * snippet is Slither's description and `totalLines` is 0 (not known).
   */
  projectRoot?: string
}

/** Slither impacts, to our severities. */
const IMPACTS: Record<string, Severity> = {
  high: 'high',
  medium: 'medium',
  low: 'low',
  informational: 'informational',
  optimization: 'optimization',
}

const DETECTOR_ID = new RegExp(DETECTOR_ID_PATTERN)
const CONFIDENCES: Record<string, Confidence> = { high: 'high', medium: 'medium', low: 'low' }

/**
 * Slither checks that find what one of our detectors finds; the finding then carries our
 * detector's title and recommendation (Slither's impact and confidence are kept).
 */
const EQUIVALENT_DETECTORS: Record<string, string> = {
  'reentrancy-eth': 'reentrancy-eth',
  'reentrancy-no-eth': 'reentrancy-no-eth',
  'reentrancy-benign': 'reentrancy-benign',
  'reentrancy-events': 'reentrancy-events',
  'unchecked-lowlevel': 'unchecked-lowlevel',
  'unchecked-send': 'unchecked-send',
  'unchecked-transfer': 'unchecked-transfer',
  'unused-return': 'unused-return',
  'arbitrary-send-eth': 'arbitrary-send-eth',
  'arbitrary-send-erc20': 'arbitrary-send-erc20',
  'tx-origin': 'tx-origin',
  'controlled-delegatecall': 'controlled-delegatecall',
  suicidal: 'unprotected-selfdestruct',
  'unprotected-upgrade': 'unprotected-upgrade',
  'weak-prng': 'weak-prng',
  timestamp: 'timestamp',
  'uninitialized-storage': 'uninitialized-storage',
  'uninitialized-state': 'uninitialized-state',
  'uninitialized-local': 'uninitialized-local',
  'shadowing-state': 'shadowing-state',
  'shadowing-local': 'shadowing-local',
  'locked-ether': 'locked-ether',
  'incorrect-equality': 'incorrect-equality',
  'calls-loop': 'calls-loop',
  'missing-zero-check': 'missing-zero-check',
  'events-access': 'events-access',
  'events-maths': 'events-maths',
  'divide-before-multiply': 'divide-before-multiply',
  'deprecated-standards': 'deprecated-constructs',
  assembly: 'assembly',
  'low-level-calls': 'low-level-calls',
  'naming-convention': 'naming-convention',
  'dead-code': 'dead-code',
  'constable-states': 'constable-states',
  'immutable-states': 'immutable-states',
  'external-function': 'external-function',
  'cache-array-length': 'cache-array-length',
  'costly-loop': 'costly-loop',
  'boolean-equal': 'boolean-equality',
  'too-many-digits': 'too-many-digits',
  'unused-state': 'unused-state',
  tautology: 'tautology',
  'msg-value-loop': 'msg-value-loop',
  'delegatecall-loop': 'delegatecall-loop',
  'encode-packed-collision': 'encode-packed-collision',
  'incorrect-modifier': 'incorrect-modifier',
  'controlled-array-length': 'array-length-assignment',
  'constant-function-state': 'constant-function-state',
  'constant-function-asm': 'constant-function-state',
}

interface Location {
  file: string
  absolutePath: string | null
  first: number
  last: number
}

/**
 * Turns Slither's JSON output (`slither . --json out.json`) into an analysis result of our
 * shape: impact → severity, confidence, source mappings → file and line numbers, and a snippet
 * read from the source when `projectRoot` is given. Findings located only in dependencies are
 * left out, like ours. Malformed input throws `InputError` naming the offending field.
 *
 * @example
 * const result = importSlither(JSON.parse(fs.readFileSync('slither.json', 'utf8')), { projectRoot: '.' })
 */
export function importSlither(json: unknown, options: ImportSlitherOptions = {}): AnalysisResult {
  const root = options.projectRoot ? path.resolve(options.projectRoot) : null
  const top = asObject(json, 'the Slither output')
  if (top.success === false) {
    throw new InputError(`Slither reported a failure: ${typeof top.error === 'string' && top.error ? top.error : 'no reason given'}`)
  }
  if (top.results === undefined) throw new InputError('the Slither output has no "results" field')
  const results = asObject(top.results, 'results')
  const detectors = results.detectors === undefined ? [] : results.detectors
  if (!Array.isArray(detectors)) throw new InputError('results.detectors must be an array')

  const byId = new Map<string, DetectorDefinition>(DETECTORS.map((d) => [d.id, d]))
  const vulnerabilities: Vulnerability[] = []
  const errors: AnalysisResult['errors'] = []
  const referenced = new Map<string, string | null>()
  const seen = new Set<string>()
  const sourceCache = new Map<string, string[] | null>()

  detectors.forEach((raw, index) => {
    const where = `results.detectors[${index}]`
    const result = asObject(raw, where)
    const check = requireString(result.check, `${where}.check`)
    const impact = IMPACTS[requireString(result.impact, `${where}.impact`).toLowerCase()]
    if (!impact) throw new InputError(`${where}.impact must be one of High, Medium, Low, Informational, Optimization; got ${JSON.stringify(result.impact)}`)
    const confidence = CONFIDENCES[requireString(result.confidence, `${where}.confidence`).toLowerCase()]
    if (!confidence) throw new InputError(`${where}.confidence must be one of High, Medium, Low; got ${JSON.stringify(result.confidence)}`)
    const description = requireString(result.description, `${where}.description`).trim()
    if (!Array.isArray(result.elements)) throw new InputError(`${where}.elements must be an array`)

    const locations = result.elements.map((element, i) => readLocation(element, `${where}.elements[${i}]`, root)).filter((l): l is Location & { dependency: boolean } => l !== null)
    if (locations.length > 0 && locations.every((l) => l.dependency)) return
    const location = locations.find((l) => !l.dependency)
    if (!location) {
      errors.push({ file: '', message: `${where} (${check}) has no source location and was not imported` })
      return
    }
    referenced.set(location.file, location.absolutePath)

    const ours = byId.get(EQUIVALENT_DETECTORS[check] ?? '')
    let snippet = clip(description, AUDIT_LIMITS.snippet)
    if (location.absolutePath) {
      const lines = readLines(location.absolutePath, sourceCache)
      if (lines) {
        const end = Math.min(location.last, location.first + MAX_SNIPPET_LINES - 1, lines.length)
        snippet = clip(lines.slice(location.first - 1, end).join('\n'), AUDIT_LIMITS.snippet)
      } else {
        errors.push({ file: location.file, message: `cannot read the source for ${where} (${check}); the snippet is Slither's description` })
      }
    }
    const vulnerability: Vulnerability = {
      name: ours?.title ?? humanize(check),
      severity: impact,
      confidence,
      snippet,
      lineNumbers: [location.first, location.last],
      file: location.file,
      recommendation: ours?.recommendation ?? `See the documentation of Slither's \`${check}\` detector.`,
      explanation: clip(ours ? `${description} ${ours.explanation}` : description, AUDIT_LIMITS.explanation),
      // Our detector's id when it is the same check; else Slither's own check id (kebab-case too).
      ...(ours ? { detector: ours.id } : DETECTOR_ID.test(check) && check.length <= AUDIT_LIMITS.detector ? { detector: check } : {}),
    }
    const key = `${vulnerability.name}\0${vulnerability.file}\0${location.first}\0${location.last}\0${description}`
    if (seen.has(key)) return
    seen.add(key)
    vulnerabilities.push(vulnerability)
  })

  let files: AnalysisResult['files']
  if (root) {
    const own = fs.existsSync(root) ? findOwnSources(root) : []
    files = own.map((absolute) => ({ path: toForward(path.relative(root, absolute)), lines: countLines(fs.readFileSync(absolute, 'utf8')) }))
  } else {
    files = [...referenced.keys()].sort().map((file) => ({ path: file, lines: 0 }))
  }

  // Slither's own order is kept; what is past the store's bounds is counted, not listed.
  const { listed, unlisted } = listFindings(vulnerabilities.map((v) => ({ ...v, detector: v.detector ?? '' })))
  return {
    totalLines: files.reduce((sum, f) => sum + f.lines, 0),
    securityScore: securityScore(vulnerabilities),
    vulnerabilityCount: countBySeverity(vulnerabilities),
    vulnerabilities: listed.map(({ detector, ...v }) => (detector ? { ...v, detector } : v)),
    files,
    skipped: [],
    unlisted,
    errors,
  }
}

function readLocation(raw: unknown, where: string, root: string | null): (Location & { dependency: boolean }) | null {
  const element = asObject(raw, where)
  if (element.source_mapping === undefined || element.source_mapping === null) return null
  const mapping = asObject(element.source_mapping, `${where}.source_mapping`)
  if (!Array.isArray(mapping.lines)) throw new InputError(`${where}.source_mapping.lines must be an array of line numbers`)
  const lines = mapping.lines
  if (!lines.every((l): l is number => Number.isInteger(l) && (l as number) >= 1)) {
    throw new InputError(`${where}.source_mapping.lines must hold positive integers`)
  }
  const relative = firstString(mapping.filename_relative, mapping.filename_short, mapping.filename_used)
  const absolute = firstString(mapping.filename_absolute)
  if (!relative && !absolute) throw new InputError(`${where}.source_mapping has no filename`)
  if (lines.length === 0) return null
  let file = toForward(relative ?? absolute ?? '')
  let absolutePath: string | null = null
  if (root) {
    if (absolute && absolute.startsWith(root + path.sep)) {
      absolutePath = absolute
      file = toForward(path.relative(root, absolute))
    } else if (relative) {
      absolutePath = path.resolve(root, relative)
    } else if (absolute) {
      absolutePath = absolute
    }
  }
  return { file, absolutePath, first: Math.min(...lines), last: Math.max(...lines), dependency: mapping.is_dependency === true }
}

function readLines(file: string, cache: Map<string, string[] | null>): string[] | null {
  if (cache.has(file)) return cache.get(file) ?? null
  let lines: string[] | null = null
  try {
    lines = fs.readFileSync(file, 'utf8').split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
  } catch {
    lines = null
  }
  cache.set(file, lines)
  return lines
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputError(`${what} must be a JSON object`)
  return value as Record<string, unknown>
}

function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new InputError(`${what} must be a non-empty string`)
  return value
}

function firstString(...values: unknown[]): string | null {
  for (const v of values) if (typeof v === 'string' && v.trim() !== '') return v
  return null
}

function toForward(p: string): string {
  return p.split(path.sep).join('/').replace(/^\.\//, '')
}

/** `missing-inheritance` → "Missing inheritance". */
function humanize(check: string): string {
  const words = check.replace(/[-_]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}
