import { buildIr } from './ir/build-ir.ts'
import { Queries } from './ir/queries.ts'
import { loadProject } from './load/load-project.ts'
import type { DetectorDefinition } from './detectors/define-detector.ts'
import { DETECTORS } from './detectors/registry.ts'
import { runDetectors, type Finding } from './detectors/run-detectors.ts'
import type { AnalysisResult } from './result.ts'
import { countBySeverity, securityScore } from './score.ts'

export type { AnalysisResult } from './result.ts'

export interface AnalyzeProjectOptions {
  /** Extra import remappings (`prefix=target` or `context:prefix=target`), over the project's own. */
  remappings?: string[]
}

/**
 * Analyses a Solidity project — one file or a folder — and returns its audit: the findings of
 * every registered detector in the project's own files, their count by severity, the security
 * score and the number of lines analysed. Reads the project's files and nothing else.
 *
 * Throws `InputError` when the path does not exist or holds no Solidity; files that do not parse
 * and imports that cannot be found are listed in `errors` and the rest is still analysed.
 *
 * @example
 * const audit = await analyzeProject('./contracts', { remappings: ['@oz/=node_modules/@openzeppelin/'] })
 * console.log(audit.securityScore, audit.vulnerabilityCount.high)
 */
export async function analyzeProject(path: string, options: AnalyzeProjectOptions = {}): Promise<AnalysisResult> {
  return (await analyzeWithFindings(path, options)).result
}

/** `analyzeProject`, also returning each finding's detector id; `detectors` narrows the run (tests, tools). */
export async function analyzeWithFindings(
  path: string,
  options: AnalyzeProjectOptions & { detectors?: readonly DetectorDefinition[] } = {},
): Promise<{ result: AnalysisResult; findings: Finding[] }> {
  const project = await loadProject(path, { remappings: options.remappings })
  const { ir, scope, errors: irErrors } = buildIr(project)
  const queries = new Queries(ir, scope)
  const { findings, errors } = runDetectors(ir, queries, options.detectors ?? DETECTORS)
  const vulnerabilities = findings.map(({ detector: _detector, ...vulnerability }) => vulnerability)
  const files = project.files.filter((f) => f.own && f.ast !== null).map((f) => ({ path: f.path, lines: f.lines }))
  const result: AnalysisResult = {
    totalLines: files.reduce((sum, f) => sum + f.lines, 0),
    securityScore: securityScore(vulnerabilities),
    vulnerabilityCount: countBySeverity(vulnerabilities),
    vulnerabilities,
    files,
    errors: [...project.errors, ...irErrors, ...errors],
  }
  return { result, findings }
}
