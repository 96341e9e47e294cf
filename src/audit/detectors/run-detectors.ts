import { SEVERITIES, type Vulnerability } from '../../contract/audit-history.ts'
import type { Analyses } from '../analyses/analyses.ts'
import type { ContractIr, ProjectIr, SourceFileIr, SourceNode } from '../ir/types.ts'
import { nodeLines, snippet } from '../source.ts'
import type { DetectorContext, DetectorDefinition } from './define-detector.ts'
import { enumerate } from './helpers.ts'

/** A vulnerability with the id of the detector that found it. */
export interface Finding extends Vulnerability {
  detector: string
}

/** How many deployed contracts a finding found only through overrides names. */
const MAX_NAMED_CONTRACTS = 3

/** How many evidence lines of one file a finding lists. */
const MAX_EVIDENCE_LINES = 8

/**
 * Runs detectors over the IR and returns their findings in the project's own files, sorted
 * (severity, file, line) and without duplicates: a finding reported through several deployed
 * contracts (`foundIn`) is one finding, naming those contracts only when it comes from their
 * overrides. A detector that throws is reported as an error and the others still run.
 */
export function runDetectors(
  ir: ProjectIr,
  analyses: Analyses,
  detectors: readonly DetectorDefinition[],
): { findings: Finding[]; errors: { file: string; message: string }[] } {
  const ownFiles = ir.files.filter((f) => f.own)
  const contracts = ir.contracts.filter((c) => c.file.own)
  const functions = [
    ...contracts.flatMap((c) => [...c.functions, ...c.modifiers]),
    ...ir.freeFunctions.filter((f) => f.file.own),
  ]
  const findings: Finding[] = []
  const rank = (s: Finding['severity']): number => SEVERITIES.indexOf(s)
  const errors: { file: string; message: string }[] = []

  for (const detector of detectors) {
    /** Findings by key, with the contracts whose overrides they come from (null: found in a function's own contract). */
    const pending = new Map<string, { finding: Finding; message: string; evidence: string; overrides: ContractIr[] | null }>()
    const context: DetectorContext = {
      ir,
      analyses,
      contracts,
      functions,
      files: ownFiles,
      get entryPoints() {
        return analyses.dispatch.deployedEntryPoints()
      },
      report(node, file, rawMessage, options = {}) {
        if (!file.own) return
        const capitalised = rawMessage ? rawMessage[0].toUpperCase() + rawMessage.slice(1) : rawMessage
        // Every finding names its evidence: the line it is reported at, and the others it rests on.
        const evidence = evidenceLines(file, [{ node, file }, ...(options.evidence ?? [])])
        const message = capitalised
        const lineNumbers = nodeLines(file, node, options.header === true)
        const key = `${file.path}\0${lineNumbers[0]}\0${lineNumbers[1]}\0${message}\0${evidence}`
        const through = options.foundIn ?? []
        const overrides =
          through.length === 0 || through.some((f) => f.context === null || f.context === f.fn.contract)
            ? null
            : through.flatMap((f) => {
                const alike = analyses.dispatch.deployedAlike(f.fn, f.context)
                return alike.length > 0 ? alike : [f.context as ContractIr]
              })
        const known = pending.get(key)
        if (known) {
          if (known.overrides === null || overrides === null) known.overrides = null
          else for (const c of overrides) if (!known.overrides.includes(c)) known.overrides.push(c)
          return
        }
        const finding: Finding = {
          detector: detector.id,
          name: detector.title,
          severity: options.severity !== undefined && rank(options.severity) > rank(detector.severity) ? options.severity : detector.severity,
          confidence: detector.confidence,
          snippet: snippet(file, lineNumbers[0], lineNumbers[1]),
          lineNumbers,
          file: file.path,
          recommendation: detector.recommendation,
          explanation: '',
        }
        pending.set(key, { finding, message, evidence, overrides: overrides ? [...new Set(overrides)] : null })
      },
    }
    try {
      detector.detect(context)
    } catch (error) {
      errors.push({ file: '', message: `detector ${detector.id} failed: ${error instanceof Error ? error.message : String(error)}` })
    }
    for (const { finding, message, evidence, overrides } of pending.values()) {
      const where = overrides ? ` ${inContracts(overrides)}` : ''
      const specific = [message ? `${message}${where}` : where.trim(), evidence].filter((part) => part !== '').join(' ')
      finding.explanation = specific ? `${specific} ${detector.explanation}` : detector.explanation
      findings.push(finding)
    }
  }

  findings.sort(
    (a, b) =>
      rank(a.severity) - rank(b.severity) ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.lineNumbers[0] - b.lineNumbers[0] ||
      a.lineNumbers[1] - b.lineNumbers[1] ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  )
  return { findings, errors }
}

/** `Evidence: lines 12 and 18 (and line 4 of `src/Base.sol`).`: distinct lines, in order. */
function evidenceLines(reportedIn: SourceFileIr, evidence: readonly { node: SourceNode; file: SourceFileIr }[]): string {
  const here = new Set<number>()
  const elsewhere = new Map<string, Set<number>>()
  for (const { node, file } of evidence) {
    const line = node.loc?.start.line
    if (line === undefined) continue
    if (file === reportedIn) here.add(line)
    else elsewhere.set(file.path, (elsewhere.get(file.path) ?? new Set<number>()).add(line))
  }
  const lines = (set: Set<number>): string => {
    const sorted = [...set].sort((a, b) => a - b)
    return `line${sorted.length > 1 ? 's' : ''} ${enumerate(sorted.map(String), MAX_EVIDENCE_LINES)}`
  }
  const parts = [...(here.size > 0 ? [lines(here)] : []), ...[...elsewhere].map(([path, set]) => `${lines(set)} of \`${path}\``)]
  return parts.length > 0 ? `Evidence: ${parts.join('; ')}.` : ''
}

/** "This happens in `A` and `B`, whose overrides change what the inherited code runs." */
function inContracts(contracts: readonly ContractIr[]): string {
  return `This happens in ${enumerate(contracts.map((c) => `\`${c.name}\``), MAX_NAMED_CONTRACTS)}, whose overrides change what the inherited code runs.`
}
