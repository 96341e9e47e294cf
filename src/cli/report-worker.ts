// Entry of a report worker thread (see report-workers.ts): builds the EVM engine from the
// serving process's configuration, on its own connection to the store, and computes the reports
// it is sent. Everything a report does on the CPU (encoding, decoding, simulation results,
// bytecode analysis, checks, rendering) happens here, off the serving thread's event loop.
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { pino } from 'pino'
import { createMemoryCache } from '../cache/cache.ts'
import { createDatabase, type Store } from '../store/database.ts'
import type { EvmReportServiceExtended } from '../engines/evm/service.ts'
import { createEvmEngine, createSolanaEngine } from './engines.ts'
import type { SolanaReport } from '../contract/solana-report.ts'
import type { SolanaReportService } from '../contract/services.ts'
import { serializeError, type ReportWorkerData, type WorkerWorlds, type WorkerStartFailure, type SolanaWorkerRequest, type WorkerAbort, type WorkerReply, type WorkerRequest } from './report-workers.ts'

const port = parentPort
if (!port) throw new Error('report-worker.ts runs as a worker thread')
// Started while the local worlds were starting: their chains and Solana RPC come first.
const data: ReportWorkerData = (workerData as ReportWorkerData).awaitWorlds
  ? { ...(workerData as ReportWorkerData), ...(await new Promise<WorkerWorlds>((resolve) => port.once('message', resolve))).worlds }
  : (workerData as ReportWorkerData)
lowerThreadPriority(data.niceness)

// A failure to start (a store that cannot be opened, a configuration error) crosses to the
// serving thread as an error of its class, so that it is told as one line like any other.
let started: { store: Store; service: EvmReportServiceExtended; solana?: SolanaReportService<SolanaReport> }
try {
  const store = await createDatabase({ databaseUrl: data.config.databaseUrl, dataDir: data.config.dataDir, pgSchema: data.pgSchema, migrate: false })
  const logger = pino({ level: data.config.logLevel, base: { worker: data.index } })
  // The serving thread caches reports; a worker computes each it is sent.
  // The workers index holders in the background (in process without Redis); the first takes up what a stopped process left.
  const { service } = createEvmEngine({
    config: data.config,
    env: data.env,
    cache: createMemoryCache({ maxEntries: 1 }),
    store,
    logger,
    chains: data.chains,
    holderIndexing: true,
    resumeHolderIndexing: data.index === 0,
  })
  // Solana reports, when the service serves them: this thread's own client, no cache (the
  // serving thread caches and shares them).
  const solana = data.solana
    ? (createSolanaEngine({ config: { ...data.config, reportCacheTtlSeconds: 0 }, env: data.env, cache: createMemoryCache({ maxEntries: 1 }), logger, rpcUrls: data.solana.rpcUrls, pricing: data.solana.pricing }) as SolanaReportService<SolanaReport>)
    : undefined
  started = { store, service, solana }
} catch (error) {
  port.postMessage({ failed: serializeError(error, 'a report worker could not start') } satisfies WorkerStartFailure)
  port.close()
  throw error
}
const { store, service, solana } = started

// Reports being computed, by id: the serving thread may abandon any of them.
const running = new Map<number, AbortController>()

port.on('message', (message: WorkerRequest | SolanaWorkerRequest | WorkerAbort | 'close') => {
  if (message === 'close') {
    void Promise.all([service.close(), solana?.close()])
      .then(() => store.close())
      .finally(() => port.close())
    return
  }
  if ('abort' in message) {
    running.get(message.abort)?.abort()
    return
  }
  const controller = new AbortController()
  running.set(message.id, controller)
  if ('solana' in message) {
    const failed = (error: unknown): WorkerReply => ({ id: message.id, ok: false, error: serializeError(error, 'the Solana report could not be computed') })
    ;(solana ? solana.report(message.solana, { signal: controller.signal }) : Promise.reject(new Error('this report worker has no Solana RPC')))
      .then(
        (report) => port.postMessage({ id: message.id, ok: true, solana: JSON.stringify(report) } satisfies WorkerReply),
        (error: unknown) => port.postMessage(failed(error)),
      )
      .finally(() => running.delete(message.id))
    return
  }
  service
    .reportWithFacts(message.chainId, message.token, { signal: controller.signal, deadlineAt: message.deadlineAt })
    .then(
      ({ report, stats, ms, stages }) => port.postMessage({ id: message.id, ok: true, report: JSON.stringify(report), stats, ms, stages } satisfies WorkerReply),
      (error: unknown) => port.postMessage({ id: message.id, ok: false, error: serializeError(error) } satisfies WorkerReply),
    )
    .finally(() => running.delete(message.id))
})
port.postMessage('ready')

/**
 * Gives this thread, and only it, a lower scheduling priority. Linux sets the nice value of the
 * thread whose id it is given (found through /proc/thread-self); elsewhere the call would change
 * the whole process, so nothing is done.
 */
function lowerThreadPriority(niceness: number): void {
  if (niceness <= 0 || process.platform !== 'linux') return
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop())
    if (Number.isInteger(threadId) && threadId > 0 && threadId !== process.pid) setPriority(threadId, niceness)
  } catch {
    // No /proc, or a sandbox refusing it: the thread keeps the serving thread's priority.
  }
}
