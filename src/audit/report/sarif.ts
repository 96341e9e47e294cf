import { createHash } from 'node:crypto'
import type { Audit, Severity, UnlistedFindings, Vulnerability } from '../../contract/audit-history.ts'
import type { DetectorDefinition } from '../detectors/define-detector.ts'

/** The SARIF version written, and the schema it follows (OASIS SARIF 2.1.0, errata 01). */
export const SARIF_VERSION = '2.1.0'
export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json'
/** The key of tokenrisk's own fingerprint in `partialFingerprints`; its number changes if the way it is computed does. */
export const FINGERPRINT_KEY = 'tokenriskFinding/v1'
/** Where locations are relative to: the audited project's root (set by whoever uploads the file, or by `originalUriBaseIds`). */
const SRCROOT = '%SRCROOT%'
/** Hex characters of a fingerprint (128 bits). */
const FINGERPRINT_HEX = 32

export type SarifLevel = 'error' | 'warning' | 'note'

/** A severity as a SARIF level: high an error, medium a warning, the rest notes. */
export const LEVEL_OF: Readonly<Record<Severity, SarifLevel>> = {
  high: 'error',
  medium: 'warning',
  low: 'note',
  informational: 'note',
  optimization: 'note',
}

/**
 * A severity as GitHub code scanning's `security-severity` (0.0–10.0: 9.0 and above critical, 7.0
 * high, 4.0 medium, above 0 low); informational and optimization findings are not security alerts.
 */
const SECURITY_SEVERITY: Readonly<Record<Severity, string | null>> = {
  high: '8.0',
  medium: '5.5',
  low: '3.0',
  informational: null,
  optimization: null,
}

/** A detector's confidence as a rule's `precision`. */
const PRECISION: Readonly<Record<string, string>> = { high: 'high', medium: 'medium', low: 'low' }

/** The parts of SARIF 2.1.0 tokenrisk writes (a subset: see the OASIS specification for the rest). */
export interface SarifLog {
  $schema: string
  version: typeof SARIF_VERSION
  runs: SarifRun[]
}

export interface SarifMessage {
  text: string
  markdown?: string
}

export interface SarifRule {
  id: string
  name: string
  shortDescription: SarifMessage
  fullDescription: SarifMessage
  help: SarifMessage
  defaultConfiguration: { level: SarifLevel }
  properties: Record<string, unknown>
}

export interface SarifResult {
  ruleId: string
  ruleIndex: number
  level: SarifLevel
  message: SarifMessage
  locations: {
    physicalLocation: {
      artifactLocation: { uri: string; uriBaseId: string }
      region: { startLine: number; endLine: number; snippet: { text: string } }
    }
  }[]
  partialFingerprints: Record<string, string>
  properties: { severity: Severity; confidence: string }
}

export interface SarifRun {
  tool: { driver: { name: string; semanticVersion: string; informationUri?: string; rules: SarifRule[] } }
  originalUriBaseIds?: Record<string, { uri: string }>
  invocations: {
    executionSuccessful: boolean
    toolExecutionNotifications: { level: SarifLevel; message: SarifMessage; locations?: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string } } }[] }[]
  }[]
  results: SarifResult[]
  columnKind: 'utf16CodeUnits'
}

export interface ToSarifParameters {
  /** The audit's findings, each with its detector's id where known. */
  vulnerabilities: readonly Vulnerability[]
  /** The detectors whose metadata makes the rules (every registered one: rule indexes stay the same across runs). */
  detectors: readonly DetectorDefinition[]
  /** tokenrisk's version. */
  version: string
  /** The project root as a `file:` URI ending in `/`, when known: locations are relative to it. */
  rootUri?: string
  /** Files not analysed, with the reason: notifications of the run. */
  skipped?: readonly { file: string; reason: string }[]
  /** Findings counted but not listed (past the audit's size bound): notifications of the run. */
  unlisted?: readonly UnlistedFindings[]
  /** Problems that left files analysed (an import not found): notifications of the run. */
  problems?: readonly { file: string; message: string }[]
}

/**
 * An audit as a SARIF 2.1.0 log, the format GitHub code scanning, IDEs and CI gates read: one run
 * whose rules are the detectors (id, title as the short description, explanation as the full one,
 * recommendation as help, severity as the default level, confidence as precision) and whose
 * results are the findings (rule, level from the severity, the finding's explanation as message,
 * file and lines as location). A finding whose detector is not a registered one (an imported
 * audit's) gets a rule of its own from the finding. Files not analysed, findings not listed and
 * problems are the run's notifications.
 *
 * Each result carries a fingerprint stable across runs: a hash of its rule, file and snippet
 * (whitespace collapsed) and of how many findings of that rule with the same snippet come before it
 * in the file, so moving code up or down, or editing other code, keeps it.
 *
 * @example
 * const log = toSarif({ vulnerabilities: audit.vulnerabilities, detectors: DETECTORS, version: '0.1.0' })
 * fs.writeFileSync('tokenrisk.sarif', JSON.stringify(log, null, 2))
 */
export function toSarif(parameters: ToSarifParameters): SarifLog {
  const rules: SarifRule[] = parameters.detectors.map(detectorRule)
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]))
  const ruleOf = (v: Vulnerability): number => {
    const id = v.detector ?? `imported-${slug(v.name)}`
    let index = ruleIndex.get(id)
    if (index === undefined) {
      index = rules.length
      rules.push(importedRule(id, v))
      ruleIndex.set(id, index)
    }
    return index
  }
  // Findings in a stable order (file, line, rule) for the occurrence counts of the fingerprints.
  const ordered = [...parameters.vulnerabilities].sort(
    (a, b) => compare(a.file, b.file) || a.lineNumbers[0] - b.lineNumbers[0] || a.lineNumbers[1] - b.lineNumbers[1] || compare(a.detector ?? a.name, b.detector ?? b.name),
  )
  const occurrences = new Map<string, number>()
  const results = ordered.map((v): SarifResult => {
    const index = ruleOf(v)
    const ruleId = rules[index].id
    const key = `${ruleId}\0${v.file}\0${normalise(v.snippet)}`
    const occurrence = occurrences.get(key) ?? 0
    occurrences.set(key, occurrence + 1)
    return {
      ruleId,
      ruleIndex: index,
      level: LEVEL_OF[v.severity],
      message: { text: v.explanation || v.name },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: fileUri(v.file), uriBaseId: SRCROOT },
            region: { startLine: v.lineNumbers[0], endLine: v.lineNumbers[1], snippet: { text: v.snippet } },
          },
        },
      ],
      partialFingerprints: { [FINGERPRINT_KEY]: createHash('sha256').update(`${key}\0${occurrence}`).digest('hex').slice(0, FINGERPRINT_HEX) },
      properties: { severity: v.severity, confidence: v.confidence },
    }
  })
  const at = (file: string) => (file ? { locations: [{ physicalLocation: { artifactLocation: { uri: fileUri(file), uriBaseId: SRCROOT } } }] } : {})
  const notifications = [
    ...(parameters.skipped ?? []).map((s) => ({ level: 'warning' as const, message: { text: `Not analysed: ${s.reason}` }, ...at(s.file) })),
    ...(parameters.unlisted ?? []).map((u) => ({
      level: 'warning' as const,
      message: {
        text: `${u.count} finding${u.count === 1 ? '' : 's'} of ${u.detector ?? u.name}${u.severity ? ` (${u.severity})` : ''} not listed: the audit reached its size bound${u.lines ? `; they start on lines ${u.lines[0]} to ${u.lines[1]}` : ''}.`,
      },
      ...at(u.file),
    })),
    ...(parameters.problems ?? []).map((p) => ({ level: 'note' as const, message: { text: p.message }, ...at(p.file) })),
  ]
  return {
    $schema: SARIF_SCHEMA_URI,
    version: SARIF_VERSION,
    runs: [
      {
        tool: { driver: { name: 'tokenrisk', semanticVersion: parameters.version, rules } },
        ...(parameters.rootUri ? { originalUriBaseIds: { [SRCROOT]: { uri: parameters.rootUri } } } : {}),
        invocations: [{ executionSuccessful: true, toolExecutionNotifications: notifications }],
        results,
        columnKind: 'utf16CodeUnits',
      },
    ],
  }
}

/** Findings of `audit` at or above `threshold` (counted ones, listed or not): what `--fail-on` gates on. */
export function countAtOrAbove(audit: Pick<Audit, 'vulnerabilityCount'>, threshold: Severity): number {
  const order: Severity[] = ['high', 'medium', 'low', 'informational', 'optimization']
  return order.slice(0, order.indexOf(threshold) + 1).reduce((sum, s) => sum + audit.vulnerabilityCount[s], 0)
}

function detectorRule(d: DetectorDefinition): SarifRule {
  const security = SECURITY_SEVERITY[d.severity]
  const help = d.lowered ? `${d.recommendation} ${d.lowered}` : d.recommendation
  return {
    id: d.id,
    name: pascal(d.id),
    shortDescription: { text: d.title },
    fullDescription: { text: d.explanation },
    help: { text: help, markdown: `${help}\n\nSee \`${d.id}\` in tokenrisk's docs/detectors.md.` },
    defaultConfiguration: { level: LEVEL_OF[d.severity] },
    properties: {
      category: d.category,
      severity: d.severity,
      precision: PRECISION[d.confidence],
      tags: [security === null ? 'maintainability' : 'security', d.category],
      ...(security === null ? {} : { 'security-severity': security }),
    },
  }
}

function importedRule(id: string, v: Vulnerability): SarifRule {
  const security = SECURITY_SEVERITY[v.severity]
  return {
    id,
    name: pascal(id),
    shortDescription: { text: v.name },
    fullDescription: { text: v.name },
    help: { text: v.recommendation || v.name },
    defaultConfiguration: { level: LEVEL_OF[v.severity] },
    properties: {
      severity: v.severity,
      precision: PRECISION[v.confidence],
      tags: [security === null ? 'maintainability' : 'security'],
      ...(security === null ? {} : { 'security-severity': security }),
    },
  }
}

/** A relative path as a URI reference: each segment percent-encoded, slashes kept. */
function fileUri(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/')
}

function normalise(snippet: string): string {
  return snippet.replace(/\s+/g, ' ').trim()
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'finding'
}

function pascal(id: string): string {
  return id
    .split('-')
    .map((part) => (part ? part[0].toUpperCase() + part.slice(1) : ''))
    .join('')
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
