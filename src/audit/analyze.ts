import { InputError } from '../errors.ts'
import { clip, listFindings } from './bounds.ts'
import { buildIr } from './ir/build-ir.ts'
import { createAnalyses } from './analyses/analyses.ts'
import type { SourceFile } from '../contract/services.ts'
import { loadProject, loadSources, type LoadedProject } from './load/load-project.ts'
import type { DetectorDefinition } from './detectors/define-detector.ts'
import { DETECTORS } from './detectors/registry.ts'
import { runDetectors, type Finding } from './detectors/run-detectors.ts'
import type { AnalysisResult } from './result.ts'
import { countBySeverity, securityScore } from './score.ts'

export type { AnalysisResult } from './result.ts'

/** Longest reason kept for a file not analysed. */
const MAX_REASON_CHARS = 1_000

export interface AnalyzeProjectOptions {
  /** Extra import remappings (`prefix=target` or `context:prefix=target`), over the project's own. */
  remappings?: string[]
  /** Folders outside the project imports may be found in (solc's `--include-path`); nothing else outside is read. */
  includePaths?: string[]
  /** The project's code budget in bytes (default `MAX_PROJECT_CODE_BYTES`, load/load-project.ts). */
  maxCodeBytes?: number
  /** The project's syntax budget in tokens (default `MAX_PROJECT_TOKENS`, load/load-project.ts). */
  maxTokens?: number
}

/**
 * Analyses a Solidity project — one file or a folder — and returns its audit: the findings of
 * every registered detector in the project's own files, their count by severity, the security
 * score and the number of lines analysed. Reads the project's files (and the include paths') and
 * nothing else: an import leading out of them is not found.
 *
 * Throws `InputError` when the path does not exist, holds no Solidity, or none of its own files
 * could be analysed. Files that could not be analysed (unreadable, not text, too large, past the
 * project's code or syntax budget, not parsed) are listed in `skipped`, and the rest is still analysed: the
 * findings, their counts and the score cover the analysed files only. Every finding is listed,
 * with its detector's id, up to the audit's size bound (`listFindings`); findings past it are
 * counted (in `vulnerabilityCount` and the score) and summed up exactly in `unlisted`.
 * Problems that leave a file analysed (an import not found, a function or detector that failed)
 * are in `errors`, with every skipped file.
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
  const project = await loadProject(path, { remappings: options.remappings, includePaths: options.includePaths, maxCodeBytes: options.maxCodeBytes, maxTokens: options.maxTokens })
  return analyzeLoaded(project, `of ${path}`, options)
}

/**
 * Analyses Solidity sources given as text, as `analyzeProject` analyses a folder holding them:
 * their imports are resolved among them alone, in memory, and nothing is read from the disk
 * (an import of a file not given is reported not found, whatever the disk holds).
 *
 * @example
 * const audit = await analyzeSources([{ path: 'src/Vault.sol', content: source }])
 */
export async function analyzeSources(sources: readonly SourceFile[], options: Omit<AnalyzeProjectOptions, 'includePaths'> = {}): Promise<AnalysisResult> {
  const project = await loadSources(sources, { remappings: options.remappings, maxCodeBytes: options.maxCodeBytes, maxTokens: options.maxTokens })
  return (await analyzeLoaded(project, 'among the sources given', {})).result
}

/** The analysis of a loaded project; `where` words the project in the error when nothing could be analysed. */
async function analyzeLoaded(
  project: LoadedProject,
  where: string,
  options: { detectors?: readonly DetectorDefinition[] },
): Promise<{ result: AnalysisResult; findings: Finding[] }> {
  const files = project.files.filter((f) => f.own && f.ast !== null).map((f) => ({ path: f.path, lines: f.lines }))
  if (files.length === 0) {
    const why = project.skipped.filter((s) => s.own).map((s) => `${s.file}: ${s.reason}`)
    throw new InputError(`nothing was analysed: no Solidity file ${where} could be read and parsed (${why.join('; ')})`)
  }
  const { ir, scope, errors: irErrors } = buildIr(project)
  const analyses = createAnalyses(ir, scope)
  const { findings, errors } = runDetectors(ir, analyses, options.detectors ?? DETECTORS)
  const { listed, unlisted } = listFindings(findings)
  const result: AnalysisResult = {
    totalLines: files.reduce((sum, f) => sum + f.lines, 0),
    // Every finding counts in the score and the counts, listed or not.
    securityScore: securityScore(findings),
    vulnerabilityCount: countBySeverity(findings),
    vulnerabilities: listed,
    files,
    skipped: project.skipped.map(({ file, reason }) => ({ file, reason: clip(reason, MAX_REASON_CHARS) })),
    unlisted,
    errors: [...project.errors, ...irErrors, ...errors],
  }
  return { result, findings }
}
