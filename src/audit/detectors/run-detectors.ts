import { SEVERITIES, type Vulnerability } from '../../http/schemas/audit-history.ts'
import type { Queries } from '../ir/queries.ts'
import type { ProjectIr } from '../ir/types.ts'
import { nodeLines, snippet } from '../source.ts'
import type { DetectorContext, DetectorDefinition } from './define-detector.ts'

/** A vulnerability with the id of the detector that found it. */
export interface Finding extends Vulnerability {
  detector: string
}

/**
 * Runs detectors over the IR and returns their findings in the project's own files, sorted
 * (severity, file, line) and without duplicates. A detector that throws is reported as an error
 * and the others still run.
 */
export function runDetectors(
  ir: ProjectIr,
  queries: Queries,
  detectors: readonly DetectorDefinition[],
): { findings: Finding[]; errors: { file: string; message: string }[] } {
  const ownFiles = ir.files.filter((f) => f.own)
  const contracts = ir.contracts.filter((c) => c.file.own)
  const functions = [
    ...contracts.flatMap((c) => [...c.functions, ...c.modifiers]),
    ...ir.freeFunctions.filter((f) => f.file.own),
  ]
  const findings: Finding[] = []
  const errors: { file: string; message: string }[] = []
  const seen = new Set<string>()

  for (const detector of detectors) {
    const context: DetectorContext = {
      ir,
      queries,
      contracts,
      functions,
      files: ownFiles,
      report(node, file, rawMessage, options = {}) {
        if (!file.own) return
        const message = rawMessage ? rawMessage[0].toUpperCase() + rawMessage.slice(1) : rawMessage
        const lineNumbers = nodeLines(file, node, options.header === true)
        const key = `${detector.id}\0${file.path}\0${lineNumbers[0]}\0${lineNumbers[1]}\0${message}`
        if (seen.has(key)) return
        seen.add(key)
        findings.push({
          detector: detector.id,
          name: detector.title,
          severity: detector.severity,
          confidence: detector.confidence,
          snippet: snippet(file, lineNumbers[0], lineNumbers[1]),
          lineNumbers,
          file: file.path,
          recommendation: detector.recommendation,
          explanation: message ? `${message} ${detector.explanation}` : detector.explanation,
        })
      },
    }
    try {
      detector.detect(context)
    } catch (error) {
      errors.push({ file: '', message: `detector ${detector.id} failed: ${error instanceof Error ? error.message : String(error)}` })
    }
  }

  const rank = (s: Finding['severity']): number => SEVERITIES.indexOf(s)
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
