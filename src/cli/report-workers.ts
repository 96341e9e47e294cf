import { Worker } from 'node:worker_threads'
import type { Config } from '../config/settings.ts'
import type { SolanaReport } from '../contract/solana-report.ts'
import type { TokenReport } from '../contract/token-report.ts'
import type { SolanaPricing } from '../engines/solana/collect/context.ts'
import type { SolanaReportComputer } from '../engines/solana/service.ts'
import type { EngineDeps } from './engines.ts'
import type { RpcStats } from '../engines/evm/chain/rpc.ts'
import type { StageTimings } from '../report/pipeline.ts'
import type { ReportComputer } from '../engines/evm/service.ts'
import { abortReason } from '../abort.ts'
import { BaseError, ConfigError, DeadlineError, InputError, NotConfiguredError, NotFoundError, SOLANA_NOT_CONFIGURED, UnsupportedChainError, UpstreamError } from '../errors.ts'
import { workerBoot } from './worker-boot.ts'

/** How long a worker may take to open the store and build its engine. */
export const REPORT_WORKER_START_TIMEOUT_MS = 30_000
/**
 * Scheduling priority (nice value, Linux) of a report worker thread: the kernel gives the serving
 * thread the CPU first, so that a burst of cold reports cannot delay `/healthz` and deadlines;
 * the workers take what the serving thread leaves, which is nearly all of it.
 */
export const REPORT_WORKER_NICENESS = 5
/**
 * Reports one worker computes at once. A burst past it waits its turn (EVM and Solana reports
 * taking turns), so that the reports running finish within their deadline rather than every one
 * of a hundred getting a hundredth of the thread and none finishing; a report whose deadline
 * passes while it waits is answered 503 without having cost the node anything.
 */
export const REPORTS_AT_ONCE_PER_WORKER = 8

/** What a report worker is built from: plain data, copied to its thread. */
export interface ReportWorkerData {
  index: number
  config: Config
  /** The environment variables the chain registry reads (`RPC_URL_<chainId>`, `CHAINS_FILE`). */
  env: Record<string, string>
  /** Chains given in code (the local world's), as the serving process has them. */
  chains?: EngineDeps['chains']
  /** The Solana RPC, when the workers compute Solana reports too. */
  solana?: WorkerSolana
  /** PostgreSQL schema (tests). */
  pgSchema?: string
  /** Nice value the worker gives its own thread (Linux; 0 leaves it at the serving thread's). */
  niceness: number
  /** The chains and the Solana RPC come in a first message (`WorkerWorlds`), once the local worlds are up. */
  awaitWorlds?: boolean
}

/** The chains and the Solana RPC of a worker started before the local worlds were ready. */
export interface WorkerWorlds {
  worlds: { chains?: EngineDeps['chains']; solana?: WorkerSolana }
}

export interface WorkerRequest {
  id: number
  chainId: number
  token: string
  /** When the report must be over (epoch ms; the threads share the clock): the worker stops it then by itself. */
  deadlineAt?: number
}

/** A Solana report to compute (the mint's address, already parsed by the serving thread). */
export interface SolanaWorkerRequest {
  id: number
  solana: string
}

/** The Solana RPC the workers read, when the service serves Solana reports. */
export interface WorkerSolana {
  rpcUrls: string[]
  pricing?: SolanaPricing
}

/** The serving thread gave up on a report (deadline, client gone): the worker stops computing it. */
/** The two kinds of reports a worker computes, which take turns when they wait. */
type ReportKind = 'evm' | 'solana'

export interface WorkerAbort {
  abort: number
}

/** A worker that could not start says why, before it exits. */
export interface WorkerStartFailure {
  failed: { name: string; message: string; details?: string }
}

export type WorkerReply =
  /** The report as JSON text: copied between threads as one string, parsed when it is delivered. */
  | { id: number; ok: true; report: string; stats: RpcStats; ms: number; stages: StageTimings }
  | { id: number; ok: true; solana: string }
  | { id: number; ok: false; error: { name: string; message: string; details?: string } }

const ERRORS: Record<string, new (message: string, options?: { details?: string }) => BaseError> = {
  ConfigError,
  InputError,
  UnsupportedChainError,
  NotFoundError,
  UpstreamError,
  DeadlineError,
  NotConfiguredError,
}

/** An error as it crosses to the serving thread: its class by name, its message and details. */
export function serializeError(error: unknown, failure = 'the token report could not be computed'): { name: string; message: string; details?: string } {
  if (error instanceof BaseError) return { name: error.name, message: error.message, details: error.details }
  return { name: 'UpstreamError', message: failure, details: error instanceof Error ? error.message : String(error) }
}

/** The error a worker thread reported, as an instance of its class again (`UpstreamError` for others). */
export function deserializeError(e: { name: string; message: string; details?: string }): BaseError {
  const Class = ERRORS[e.name] ?? UpstreamError
  return new Class(e.message, { details: e.details })
}

/**
 * Worker threads that compute token reports — EVM ones, and Solana ones when `solana` is given —
 * so that the serving thread's event loop only routes, caches and answers: however many cold reports run, `/healthz` and deadlines are served
 * on time. Reports of one token always go to the same worker (its holder indexing stays in one
 * place). A worker that dies is replaced; the reports it was computing fail with a 503.
 *
 * A report the serving thread gives up on (its deadline passed, its client left) is answered
 * at once, without waiting for the worker, and the worker is told to stop it; it also stops by
 * itself at the report's deadline, should the serving thread be too busy to tell it in time.
 * Either way its RPC is cancelled and no later stage runs: abandoned reports do not take the
 * CPU from the next ones.
 *
 * A worker computes at most `REPORTS_AT_ONCE_PER_WORKER` reports at once; the others wait in the
 * serving thread, in two queues (EVM and Solana) served in turn, so that a burst of one kind does
 * not starve the other of its share of the deadline, and leave their queue when they are abandoned.
 *
 * Reports of a burst finish together; answering each costs the serving thread a little (parse,
 * cache, serialize, compress, write). Replies are therefore delivered one per turn of the event
 * loop, so that other requests are served between two of them rather than after all of them.
 * The worker threads run at a lower scheduling priority (`REPORT_WORKER_NICENESS`).
 *
 * @example
 * const workers = await startReportWorkers({ count: 1, config, env: process.env })
 * const { report } = await workers.compute(1, '0xA0b8…')
 */
export async function startReportWorkers(options: {
  count: number
  config: Config
  env: NodeJS.ProcessEnv
  /** Chains given in code (the local world's), as the serving process has them. */
  chains?: EngineDeps['chains']
  /** The Solana RPC: the workers compute Solana reports too (`computeSolana`). */
  solana?: WorkerSolana
  /**
   * The chains and the Solana RPC when they are not known yet (the local worlds starting): the
   * threads load their code meanwhile and are ready once these are given (`chains`/`solana` unused).
   */
  worlds?: Promise<{ chains?: EngineDeps['chains']; solana?: WorkerSolana }>
  pgSchema?: string
  /** Nice value of the worker threads (default `REPORT_WORKER_NICENESS`; 0: the serving thread's). */
  niceness?: number
  /** Replies delivered per turn of the event loop (default 1; Infinity: all that arrived at once). */
  repliesPerTurn?: number
  /** Reports one worker computes at once (default `REPORTS_AT_ONCE_PER_WORKER`). */
  reportsAtOnce?: number
}): Promise<ReportComputer & SolanaReportComputer & { close(): Promise<void> }> {
  const env = Object.fromEntries(Object.entries(options.env).filter((e): e is [string, string] => /^(RPC_URL_\d+|CHAINS_FILE)$/.test(e[0]) && e[1] !== undefined))
  // The worker runs what the serving process runs: the compiled entry, or the TypeScript one.
  const boot = workerBoot(import.meta.url, 'report-worker')
  let nextId = 1
  let closing = false
  const pending = new Map<number, { resolve(reply: WorkerReply): void; worker: number }>()
  const atOnce = Math.max(1, options.reportsAtOnce ?? REPORTS_AT_ONCE_PER_WORKER)
  /** Per worker: reports it computes now, and those waiting their turn, by kind, served in turn. */
  const turns: { running: number; waiting: Record<ReportKind, (() => void)[]>; next: ReportKind }[] = []
  /** A report of `index` is over (answered, abandoned, or its worker died): the next waiting one starts. */
  const release = (index: number) => {
    const t = turns[index]
    t.running--
    const other: ReportKind = t.next === 'evm' ? 'solana' : 'evm'
    const kind = t.waiting[t.next].length > 0 ? t.next : other
    const start = t.waiting[kind].shift()
    if (!start) return
    t.next = kind === 'evm' ? 'solana' : 'evm'
    start()
  }
  const workers: Worker[] = []
  // Given now, or once the local worlds are up: a worker respawned later gets them at once.
  let worlds: { chains?: EngineDeps['chains']; solana?: WorkerSolana } | undefined = options.worlds ? undefined : { chains: options.chains, solana: options.solana }
  const niceness = options.niceness ?? REPORT_WORKER_NICENESS
  const perTurn = Math.max(1, options.repliesPerTurn ?? 1)

  // Replies wait here and are handed out `perTurn` at a time, one batch per turn of the loop.
  const arrived: (() => void)[] = []
  let delivering = false
  const deliverSome = () => {
    for (let i = 0; i < perTurn && arrived.length > 0; i++) arrived.shift()!()
    if (arrived.length > 0) setImmediate(deliverSome)
    else delivering = false
  }
  const deliver = (settle: () => void) => {
    arrived.push(settle)
    if (!delivering) {
      delivering = true
      setImmediate(deliverSome)
    }
  }

  const spawnWorker = (index: number): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const data: ReportWorkerData = { index, config: options.config, env, ...(worlds ?? { awaitWorlds: true }), pgSchema: options.pgSchema, niceness }
      const worker = new Worker(boot, { eval: true, workerData: data })
      // Its start is timed from when it has everything: the worlds may take their time.
      let timer: NodeJS.Timeout | undefined
      const arm = () => (timer = setTimeout(() => reject(new Error(`report worker ${index} did not start within ${REPORT_WORKER_START_TIMEOUT_MS} ms`)), REPORT_WORKER_START_TIMEOUT_MS))
      if (worlds) arm()
      else {
        options.worlds!.then(
          (given) => {
            worlds = given
            worker.postMessage({ worlds: given } satisfies WorkerWorlds)
            arm()
          },
          (error: unknown) => {
            void worker.terminate()
            reject(error)
          },
        )
      }
      worker.on('message', (message: WorkerReply | WorkerStartFailure | 'ready') => {
        if (message === 'ready') {
          clearTimeout(timer)
          resolve(worker)
          return
        }
        if ('failed' in message) {
          clearTimeout(timer)
          reject(deserializeError(message.failed))
          return
        }
        const waiting = pending.get(message.id)
        pending.delete(message.id)
        if (!waiting) return
        release(waiting.worker)
        deliver(() => waiting.resolve(message))
      })
      worker.once('error', (error) => {
        clearTimeout(timer)
        reject(error)
      })
      worker.once('exit', () => {
        clearTimeout(timer)
        // Reports in flight on this worker fail; a new worker takes its place.
        for (const [id, p] of pending) {
          if (p.worker !== index) continue
          pending.delete(id)
          release(index)
          p.resolve({ id, ok: false, error: { name: 'UpstreamError', message: 'the token report could not be computed', details: 'report worker exited' } })
        }
        if (!closing && workers[index] === worker) {
          spawnWorker(index).then(
            (w) => (workers[index] = w),
            () => {},
          )
        }
      })
    })

  // The threads start together; should one fail, those that started are stopped again.
  const count = Math.max(1, options.count)
  for (let i = 0; i < count; i++) turns.push({ running: 0, waiting: { evm: [], solana: [] }, next: 'solana' })
  const spawned = await Promise.allSettled(Array.from({ length: count }, (_, i) => spawnWorker(i)))
  const failed = spawned.find((r): r is PromiseRejectedResult => r.status === 'rejected')
  if (failed) {
    closing = true
    await Promise.all(spawned.map((r) => (r.status === 'fulfilled' ? r.value.terminate() : undefined)))
    throw failed.reason
  }
  for (const r of spawned) workers.push((r as PromiseFulfilledResult<Worker>).value)

  const pick = (token: string): number => {
    let h = 0
    for (const c of token.toLowerCase()) h = (h * 31 + c.charCodeAt(0)) >>> 0
    return h % workers.length
  }

  /**
   * Sends `request` to the worker of `key` when it has a turn free (else the request waits with
   * the others of its `kind`); resolves with its reply, rejects when `signal` aborts first.
   */
  const ask = (key: string, kind: ReportKind, request: (id: number) => WorkerRequest | SolanaWorkerRequest, signal: AbortSignal | undefined): Promise<WorkerReply> => {
    if (signal?.aborted) return Promise.reject(abortReason(signal))
    const index = pick(key)
    const t = turns[index]
    const id = nextId++
    return new Promise((resolve, reject) => {
      const start = () => {
        t.running++
        pending.set(id, {
          worker: index,
          resolve: (reply) => {
            signal?.removeEventListener('abort', onAbort)
            resolve(reply)
          },
        })
        workers[index].postMessage(request(id))
      }
      const onAbort = () => {
        const queued = t.waiting[kind].indexOf(start)
        if (queued >= 0) t.waiting[kind].splice(queued, 1)
        else if (pending.delete(id)) {
          workers[index].postMessage({ abort: id } satisfies WorkerAbort)
          release(index)
        } else return
        reject(abortReason(signal!))
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      if (t.running < atOnce) start()
      else t.waiting[kind].push(start)
    })
  }

  return {
    async compute(chainId, token, { signal, deadlineAt } = {}) {
      const reply = await ask(token, 'evm', (id) => ({ id, chainId, token, deadlineAt }), signal)
      if (!reply.ok) throw Object.assign(deserializeError(reply.error), { stats: undefined })
      if (!('report' in reply)) throw new UpstreamError('the token report could not be computed', { details: 'a report worker answered another kind of report' })
      return { report: JSON.parse(reply.report) as TokenReport, stats: reply.stats, ms: reply.ms, stages: reply.stages }
    },
    async computeSolana(address, { signal } = {}) {
      if (!worlds?.solana) throw new NotConfiguredError(SOLANA_NOT_CONFIGURED, { setting: 'SOLANA_RPC_URL' })
      const reply = await ask(address, 'solana', (id) => ({ id, solana: address }), signal)
      if (!reply.ok) throw deserializeError(reply.error)
      if (!('solana' in reply)) throw new UpstreamError('the Solana report could not be computed', { details: 'a report worker answered another kind of report' })
      return JSON.parse(reply.solana) as SolanaReport
    },
    async close() {
      closing = true
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve) => {
              const force = setTimeout(() => void w.terminate(), 5_000)
              w.once('exit', () => {
                clearTimeout(force)
                resolve()
              })
              w.postMessage('close')
            }),
        ),
      )
    },
  }
}
