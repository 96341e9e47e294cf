import { readFile, stat } from 'node:fs/promises'
import { analyzeProject, type AnalysisResult } from '../audit/analyze.ts'
import { importSlither } from '../audit/import-slither.ts'
import { InputError } from '../errors.ts'
import { MAX_IMPORT_FILE_BYTES } from '../store/import-audits.ts'
import type { AuditRepository } from '../store/repositories/audits.ts'
import type { AuditJob, AuditJobResult, AuditJobRunner } from './audit-queue.ts'

/** Turns a job's input into an analysis: Solidity sources, or an imported tool output. */
export type AuditSource = (job: AuditJob) => Promise<AnalysisResult>

/** Analyses `job.path` with tokenrisk's own analyzer, or imports `job.slitherFile`. */
export const analyzeSources: AuditSource = async (job) => {
  if (job.slitherFile) {
    let json: unknown
    try {
      const { size } = await stat(job.slitherFile)
      if (size > MAX_IMPORT_FILE_BYTES) throw new Error(`the file is ${size} bytes; at most ${MAX_IMPORT_FILE_BYTES} are read`)
      json = JSON.parse(await readFile(job.slitherFile, 'utf8'))
    } catch (error) {
      throw new InputError(`cannot read ${job.slitherFile} as JSON: ${(error as Error).message}`)
    }
    return importSlither(json, { projectRoot: job.path })
  }
  if (!job.path) throw new InputError('no path to analyse')
  return analyzeProject(job.path, { remappings: job.remappings, includePaths: job.includePaths })
}

/**
 * The job every queue runs: produce the analysis, then record it in one transaction. Nothing
 * is written unless the analysis completed, and the recording is all or nothing.
 *
 * @example
 * const run = createAuditJobRunner({ audits })
 * const { audit } = await run({ path: './contracts', projectId: 'vault', userId: 'alice' })
 */
export function createAuditJobRunner(deps: {
  audits: AuditRepository
  /** Picks the source of a job (defaults to the analyzer). */
  source?: AuditSource
}): AuditJobRunner {
  const source = deps.source ?? analyzeSources
  return async (job: AuditJob): Promise<AuditJobResult> => {
    const analysis = await source(job)
    const audit = {
      totalLines: analysis.totalLines,
      securityScore: analysis.securityScore,
      vulnerabilityCount: analysis.vulnerabilityCount,
      vulnerabilities: analysis.vulnerabilities,
    }
    const [recorded] = await deps.audits.record({
      projectId: job.projectId,
      userId: job.userId,
      projectName: job.projectName,
      audits: [{ ...audit, skipped: analysis.skipped, unlisted: analysis.unlisted }],
    })
    return {
      reportId: recorded.reportId,
      createdAt: recorded.createdAt,
      audit: { ...audit, projectReportLink: deps.audits.reportLink(recorded.reportId) },
      problems: analysis.errors,
      skipped: analysis.skipped,
      unlisted: analysis.unlisted,
    }
  }
}
