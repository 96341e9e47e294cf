import { Worker } from 'node:worker_threads'
import { abortReason } from '../abort.ts'
import type { AnalysisResult } from '../audit/result.ts'
import { AUDIT_LIMITS } from '../contract/audit-history.ts'
import type { AuditRecordTarget, SourceAuditResult, SourceAuditService, SourceFile } from '../contract/services.ts'
import { InputError, UpstreamError } from '../errors.ts'
import type { Config } from '../config/settings.ts'
import type { AuditSolidityBounds } from '../mcp/tools/audit-solidity.ts'
import type { AuditRepository } from '../store/repositories/audits.ts'
import { deserializeError } from './report-workers.ts'
import { workerBoot } from './worker-boot.ts'

/** Files one audit of sources takes. */
export const MAX_SOURCE_AUDIT_FILES = 100
/**
 * Bytes of source one audit takes, all files together: at most the size of the largest file
 * `tokenrisk audit` reads (`MAX_SOURCE_BYTES` of audit/load/load-project.ts, which a test holds
 * it to; not imported, so that the analyzer loads with an audit, not with the service), and small
 * enough for a request body and an audit within a request's deadline.
 */
export const MAX_SOURCE_AUDIT_BYTES = 2 * 1024 * 1024
/**
 * Audits of sources run at once in one process; the others wait their turn (within their
 * deadline). An analysis holds up to about 1 GB at the analyzer's syntax budget (`npm run bench:audit-limits`).
 */
export const MAX_CONCURRENT_SOURCE_AUDITS = 1
/** Heap of an audit worker thread: past it the thread ends and the audit fails, the process lives on. */
export const SOURCE_AUDIT_HEAP_MB = 1_536
/** The answer when the analysis itself failed (the details go to the log). */
export const AUDIT_FAILED = 'the audit could not be completed'
/** A project path of a source: relative, `/`-separated segments of ordinary characters, ending `.sol`. */
const SOURCE_PATH = /^(?:[\w@+.-]+\/)*[\w@+.-]+\.sol$/

/** What a source-audit worker is given: the sources, which it analyses in memory. */
export interface SourceAuditWorkerData {
  files: SourceFile[]
}

/** What a source-audit worker answers. */
export type SourceAuditReply = { ok: true; analysis: AnalysisResult } | { ok: false; error: { name: string; message: string; details?: string } }

/** Why `files` cannot be audited, or undefined when they can. */
function filesProblem(files: readonly SourceFile[]): string | undefined {
  if (files.length === 0) return 'files must hold at least one Solidity file'
  if (files.length > MAX_SOURCE_AUDIT_FILES) return `files holds ${files.length} files; an audit takes at most ${MAX_SOURCE_AUDIT_FILES}`
  const seen = new Set<string>()
  let bytes = 0
  for (const file of files) {
    const segments = file.path.split('/')
    if (file.path.length > AUDIT_LIMITS.file || !SOURCE_PATH.test(file.path) || segments.some((s) => s === '.' || s === '..')) {
      return `path '${file.path.slice(0, 80)}' must be a relative path ending in .sol (letters, digits, _ @ + . - and / between folders; no . or .. folders)`
    }
    if (seen.has(file.path)) return `path '${file.path}' is given twice`
    seen.add(file.path)
    bytes += Buffer.byteLength(file.content)
  }
  if (bytes > MAX_SOURCE_AUDIT_BYTES) return `the sources are ${bytes} bytes; an audit takes at most ${MAX_SOURCE_AUDIT_BYTES} (audit larger projects with tokenrisk audit)`
  return undefined
}

/**
 * Audits of Solidity sources given as text (the MCP server's `audit_solidity`): the sources are
 * analysed in memory, their imports resolved among them alone (nothing is written to or read
 * from the disk, whatever a path or an import names). Each runs in a worker thread of its own, off the serving thread, and the thread is ended at the audit's
 * deadline or when its caller gives up, whatever the analyzer is doing then. Bounded like
 * `tokenrisk audit`: the analyzer's code budget and the findings it lists, plus
 * `MAX_SOURCE_AUDIT_FILES`, `MAX_SOURCE_AUDIT_BYTES` and a heap limit. A recorded audit goes
 * through the same job runner as the command's (analysis, then one transaction).
 *
 * @example
 * const audits = createSourceAuditService({ audits: repository })
 * const { audit } = await audits.audit([{ path: 'Vault.sol', content: source }], { signal })
 */
export function createSourceAuditService(deps: { audits: AuditRepository; concurrency?: number }): SourceAuditService {
  const concurrency = deps.concurrency ?? MAX_CONCURRENT_SOURCE_AUDITS
  const boot = workerBoot(import.meta.url, 'audit-worker')
  const running = new Set<Worker>()
  const waiting: (() => void)[] = []
  let active = 0
  let closed = false

  /** Waits for a turn; rejects when `signal` aborts first. */
  const turn = (signal: AbortSignal | undefined): Promise<void> => {
    if (active < concurrency) {
      active++
      return Promise.resolve()
    }
    return new Promise((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', onAbort)
        active++
        resolve()
      }
      const onAbort = () => {
        const i = waiting.indexOf(go)
        if (i >= 0) waiting.splice(i, 1)
        reject(abortReason(signal!))
      }
      waiting.push(go)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }
  const release = () => {
    active--
    waiting.shift()?.()
  }

  /** The analysis of `files` in a worker thread, ended when `signal` aborts or `deadlineAt` passes. */
  const analyse = (files: SourceFile[], signal: AbortSignal | undefined, deadlineAt: number | undefined): Promise<AnalysisResult> =>
    new Promise((resolve, reject) => {
      const data: SourceAuditWorkerData = { files: files.map(({ path, content }) => ({ path, content })) }
      const worker = new Worker(boot, { eval: true, workerData: data, resourceLimits: { maxOldGenerationSizeMb: SOURCE_AUDIT_HEAP_MB } })
      running.add(worker)
      let settled = false
      const timer = deadlineAt === undefined ? undefined : setTimeout(() => stop(abortReason(AbortSignal.abort())), Math.max(0, deadlineAt - Date.now()))
      const onAbort = () => stop(abortReason(signal!))
      const finish = () => {
        settled = true
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        running.delete(worker)
      }
      const stop = (error: Error) => {
        if (settled) return
        finish()
        void worker.terminate()
        reject(error)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      worker.once('message', (reply: SourceAuditReply) => {
        if (settled) return
        finish()
        void worker.terminate()
        if (reply.ok) resolve(reply.analysis)
        else reject(deserializeError(reply.error))
      })
      // A thread that fails or ends without an answer (out of memory included) fails the audit only.
      worker.once('error', (error) => stop(new UpstreamError(AUDIT_FAILED, { details: error.message, cause: error })))
      worker.once('exit', (code) => stop(new UpstreamError(AUDIT_FAILED, { details: `audit worker exited with code ${code}` })))
    })

  const result = (analysis: AnalysisResult): SourceAuditResult => ({
    audit: {
      totalLines: analysis.totalLines,
      securityScore: analysis.securityScore,
      vulnerabilityCount: analysis.vulnerabilityCount,
      vulnerabilities: analysis.vulnerabilities,
    },
    skipped: analysis.skipped,
    unlisted: analysis.unlisted,
    problems: analysis.errors,
  })

  const record = async (analysis: AnalysisResult, target: AuditRecordTarget): Promise<SourceAuditResult> => {
    const { createAuditJobRunner } = await import('../queue/run-audit.ts')
    const run = createAuditJobRunner({ audits: deps.audits, source: async () => analysis })
    const recorded = await run({ ...target, path: 'sources given as text' })
    return { ...result(analysis), audit: recorded.audit, reportId: recorded.reportId }
  }

  return {
    async audit(files, { signal, deadlineAt, record: target } = {}) {
      if (closed) throw new UpstreamError('the audit service is stopping; try again')
      const problem = filesProblem(files)
      if (problem) throw new InputError(problem)
      if (signal?.aborted) throw abortReason(signal)
      await turn(signal)
      try {
        const analysis = await analyse(files, signal, deadlineAt)
        if (signal?.aborted) throw abortReason(signal)
        return target ? await record(analysis, target) : result(analysis)
      } finally {
        release()
      }
    },
    async close() {
      closed = true
      await Promise.all([...running].map((w) => w.terminate()))
    },
  }
}

/** The source-audit service of a process on `audits`, with the bounds its tool states (the request deadline). */
export function sourceAuditsOf(audits: AuditRepository, config: Config): { service: SourceAuditService; bounds: AuditSolidityBounds } {
  return {
    service: createSourceAuditService({ audits }),
    bounds: { maxFiles: MAX_SOURCE_AUDIT_FILES, maxBytes: MAX_SOURCE_AUDIT_BYTES, deadlineMs: config.requestTimeoutMs },
  }
}
