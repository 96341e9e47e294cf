import { Queue, QueueEvents, Worker } from 'bullmq'
import { BaseError, InputError, UpstreamError } from '../errors.ts'
import type { Audit, UnlistedFindings } from '../contract/audit-history.ts'
import { redisConnection } from './redis-connection.ts'

/** What to audit and where to record it. Paths must be readable by whichever process runs the job. */
export interface AuditJob {
  projectId: string
  userId: string
  projectName?: string
  /** A Solidity file or folder to analyse… */
  path?: string
  /** …or a Slither JSON output to import (with `path` as the project root for snippets). */
  slitherFile?: string
  remappings?: string[]
  /** Folders outside the project its imports may be found in (solc's `--include-path`). */
  includePaths?: string[]
}

/** A recorded audit. */
export interface AuditJobResult {
  reportId: string
  createdAt: string
  /** The audit as the history endpoint serves it. */
  audit: Audit
  /** Files that could not be analysed (unparseable, imports not found), for the operator. */
  problems: { file: string; message: string }[]
  /** Files not analysed, with the reason (also on the report page). */
  skipped?: { file: string; reason: string }[]
  /** Findings counted but not listed, per name and file (also on the report page). */
  unlisted?: UnlistedFindings[]
}

/** Runs one job: analyse (or import), then record, all or nothing. */
export type AuditJobRunner = (job: AuditJob) => Promise<AuditJobResult>

/**
 * Where audit jobs go. `submit` resolves with the recorded audit or rejects with the job's
 * failure (an `AuditJobError` carrying the reason); a failed job records nothing.
 */
export interface AuditQueue {
  readonly kind: 'in-process' | 'redis'
  submit(job: AuditJob, options?: { timeoutMs?: number }): Promise<AuditJobResult>
  close(): Promise<void>
}

/** The reason a job failed, as the runner reported it. */
export class AuditJobError extends BaseError {
  override name = 'AuditJobError'
  override readonly statusCode = 422
}

/** Name of the BullMQ queue of audits. */
export const AUDIT_QUEUE_NAME = 'tokenrisk-audits'
/** How long a submitter waits for a queued audit by default. */
export const DEFAULT_AUDIT_TIMEOUT_MS = 10 * 60_000
/** Finished and failed jobs kept in Redis for inspection. */
const KEEP_FINISHED_JOBS = 1_000
/**
 * How long a worker's hold on a running job lasts; BullMQ renews it at half this while the worker
 * lives. A worker that dies (kill -9, a lost host) stops renewing, and its job is taken over.
 * An audit's analysis may keep the worker's thread busy for seconds between renewals: long enough.
 */
export const AUDIT_JOB_LOCK_MS = 30_000
/**
 * How often each worker looks for jobs whose hold lapsed (their worker died) and puts them back
 * in the queue: a dead worker's running job is taken over within `AUDIT_JOB_LOCK_MS` plus this.
 */
export const AUDIT_STALLED_CHECK_MS = 5_000
/** Times a job may be taken over from a dead worker before it fails (its worker died each time). */
const MAX_STALLED_TAKEOVERS = 2

export function validateJob(job: AuditJob): void {
  if (!job.projectId?.trim()) throw new InputError('an audit job needs a project id')
  if (!job.userId?.trim()) throw new InputError('an audit job needs a user id')
  if (!job.path && !job.slitherFile) throw new InputError('an audit job needs a path to analyse or a Slither file to import')
}

/**
 * The default queue: jobs run in this process, at most `concurrency` at a time, in order.
 *
 * @example
 * const queue = createInProcessAuditQueue(runner)
 * const { projectReportLink } = await queue.submit({ path: './contracts', projectId: 'p', userId: 'u' })
 */
export function createInProcessAuditQueue(run: AuditJobRunner, options: { concurrency?: number } = {}): AuditQueue {
  const concurrency = options.concurrency ?? 1
  let active = 0
  const waiting: (() => void)[] = []
  let closed = false
  return {
    kind: 'in-process',
    async submit(job) {
      if (closed) throw new UpstreamError('the audit queue is closed')
      validateJob(job)
      if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve))
      active++
      try {
        return await run(job)
      } catch (error) {
        if (error instanceof InputError) throw error
        throw new AuditJobError(`audit failed: ${(error as Error).message}`, { cause: error })
      } finally {
        active--
        waiting.shift()?.()
      }
    },
    async close() {
      closed = true
    },
  }
}

/**
 * The queue of a deployment: jobs go to Redis (BullMQ) and run in `tokenrisk worker` processes.
 */
export function createRedisAuditQueue(redisUrl: string, options: { queueName?: string } = {}): AuditQueue {
  const name = options.queueName ?? AUDIT_QUEUE_NAME
  const queue = new Queue<AuditJob, AuditJobResult>(name, { connection: redisConnection(redisUrl) })
  const events = new QueueEvents(name, { connection: redisConnection(redisUrl) })
  return {
    kind: 'redis',
    async submit(job, submitOptions = {}) {
      validateJob(job)
      await events.waitUntilReady()
      const added = await queue.add('audit', job, {
        removeOnComplete: KEEP_FINISHED_JOBS,
        removeOnFail: KEEP_FINISHED_JOBS,
        attempts: 1,
      })
      try {
        return await added.waitUntilFinished(events, submitOptions.timeoutMs ?? DEFAULT_AUDIT_TIMEOUT_MS)
      } catch (error) {
        const message = (error as Error).message
        if (/timed out/i.test(message)) {
          throw new UpstreamError(`audit job ${added.id} did not finish in time; is a \`tokenrisk worker\` running?`, { cause: error })
        }
        throw new AuditJobError(`audit failed: ${message}`, { cause: error })
      }
    },
    async close() {
      await events.close()
      await queue.close()
    },
  }
}

export interface AuditWorker {
  close(): Promise<void>
}

/**
 * Consumes the Redis queue: each job runs `run`; a throw marks the job failed with its message.
 * Jobs queued behind a worker that dies are run by the others; the job it was running is taken
 * over once its hold lapses (`AUDIT_JOB_LOCK_MS`, found within `AUDIT_STALLED_CHECK_MS`).
 */
export function startRedisAuditWorker(
  redisUrl: string,
  run: AuditJobRunner,
  options: {
    queueName?: string
    concurrency?: number
    onEvent?: (event: string, detail: Record<string, unknown>) => void
    /** The hold on a running job (`AUDIT_JOB_LOCK_MS`). */
    lockMs?: number
    /** How often lapsed holds are looked for (`AUDIT_STALLED_CHECK_MS`). */
    stalledCheckMs?: number
  } = {},
): AuditWorker {
  const worker = new Worker<AuditJob, AuditJobResult>(options.queueName ?? AUDIT_QUEUE_NAME, async (job) => run(job.data), {
    connection: redisConnection(redisUrl),
    concurrency: options.concurrency ?? 1,
    lockDuration: options.lockMs ?? AUDIT_JOB_LOCK_MS,
    stalledInterval: options.stalledCheckMs ?? AUDIT_STALLED_CHECK_MS,
    maxStalledCount: MAX_STALLED_TAKEOVERS,
  })
  worker.on('stalled', (jobId) => options.onEvent?.('taken over', { id: jobId, reason: 'its worker stopped holding it (it died); queued again' }))
  worker.on('completed', (job, result) => options.onEvent?.('completed', { id: job.id, projectId: job.data.projectId, reportId: result.reportId }))
  worker.on('failed', (job, error) => options.onEvent?.('failed', { id: job?.id, projectId: job?.data.projectId, reason: error.message }))
  worker.on('error', (error) => options.onEvent?.('error', { reason: error.message }))
  return { close: () => worker.close() }
}
