import { setImmediate as yieldToLoop } from 'node:timers/promises'
import type { Queue } from 'bullmq'
import type { Address, Hex } from 'viem'
import type { ChainRegistry } from '../../config/chains.ts'
import { BaseError, UpstreamError } from '../../errors.ts'
import { redisConnection } from '../../queue/redis-connection.ts'
import type { BackfillRequest, HolderStore } from '../../store/holder-index.ts'
import { getLogsAdaptive, type LogRangeLimit, type RawLog } from './chain/logs.ts'
import { createRpcSession } from './chain/rpc.ts'
import type { Logger } from './collect/context.ts'
import { TRANSFER_TOPIC } from './collect/holders.ts'

/**
 * The holder index of a token with a long history, finished in the background: a report reads
 * what its deadline allows and leaves the rest here. Transfer logs are read wave by wave from the
 * index's last block to the chain's final head, each wave's balance changes applied to the store
 * in one transaction before the next wave is read (so the work survives a restart and memory
 * holds one wave), until the index reaches the head. Without Redis the serving process (its
 * report worker) does it; with Redis the queue's `tokenrisk worker` processes do.
 */

/** Deadline of one wave's `eth_getLogs` round trip (ranges the node refuses are split). */
export const BACKFILL_WAVE_DEADLINE_MS = 60_000
/** Logs a wave aims at: ranges grow while waves are lighter and shrink when heavier. */
export const BACKFILL_TARGET_LOGS = 20_000
/** Blocks a wave starts with, before it learns how dense the token's logs are. */
export const BACKFILL_FIRST_SPAN = 10_000n
/** Pause before a failed token is tried again, and how often before it is left for later. */
export const BACKFILL_RETRY_MS = 5_000
export const BACKFILL_MAX_FAILURES = 5
/** Name of the BullMQ queue of holder indexing. */
export const HOLDER_QUEUE_NAME = 'tokenrisk-holders'

export interface HolderIndexer {
  /** Finishes the token's index in the background, from `fromBlock` when it has none yet. */
  request(chainId: number, token: Address, fromBlock: bigint): Promise<void>
  /** Takes up the requests a stopped process left in the store. */
  resume(): Promise<void>
  /** Resolves when nothing is queued or running (tests, benchmarks). */
  idle(): Promise<void>
  close(): Promise<void>
}

export interface HolderIndexerDeps {
  registry: ChainRegistry
  store: HolderStore
  logger: Logger
  /** Test hook: replaces `fetch` for RPC calls. */
  fetch?: typeof fetch
}

/** One wave done, for progress and benchmarks. */
export interface WaveEvent {
  chainId: number
  token: Address
  from: bigint
  to: bigint
  head: bigint
  logs: number
}

/** Adds a Transfer log's balance changes to `deltas` (lowercase addresses; mints and burns change one side). */
function foldTransfer(deltas: Map<Address, bigint>, log: RawLog): void {
  const [, fromTopic, toTopic] = log.topics
  if (log.topics.length !== 3 || !fromTopic || !toTopic || fromTopic.length !== 66 || toTopic.length !== 66 || log.data.length < 66) return
  const value = BigInt(log.data.slice(0, 66))
  if (value === 0n) return
  const from = `0x${fromTopic.slice(26).toLowerCase()}` as Address
  const to = `0x${toTopic.slice(26).toLowerCase()}` as Address
  if (!/^0x0{40}$/.test(from)) deltas.set(from, (deltas.get(from) ?? 0n) - value)
  if (!/^0x0{40}$/.test(to)) deltas.set(to, (deltas.get(to) ?? 0n) + value)
}

/**
 * Brings one token's index to the chain's final head (head minus `finalityBlocks`), wave by wave,
 * and marks its request done. Stops early, leaving the request for later, when `signal` aborts.
 *
 * @example
 * await indexToHead({ registry, store, logger }, { chainId: 1, token, fromBlock: 0n })
 */
export async function indexToHead(
  deps: HolderIndexerDeps,
  request: BackfillRequest,
  options: { signal?: AbortSignal; onWave?: (wave: WaveEvent) => void } = {},
): Promise<'done' | 'stopped'> {
  const { chainId, token } = request
  const chain = deps.registry.get(chainId)
  if (!chain || chain.rpcUrls.length === 0) {
    await deps.store.finishBackfill(chainId, token)
    return 'done'
  }
  const limit: LogRangeLimit = { maxRange: BigInt(chain.maxLogRange) }
  let span = BACKFILL_FIRST_SPAN < limit.maxRange * 8n ? BACKFILL_FIRST_SPAN : limit.maxRange * 8n
  for (;;) {
    if (options.signal?.aborted) return 'stopped'
    const rpc = createRpcSession({ urls: chain.rpcUrls, maxBatchSize: chain.maxBatchSize, deadlineMs: BACKFILL_WAVE_DEADLINE_MS, signal: options.signal, fetch: deps.fetch })
    try {
      const [state, headHex] = await Promise.all([deps.store.state(chainId, token), rpc.request<Hex>('eth_blockNumber')])
      const head = BigInt(headHex)
      const safeHead = head - BigInt(chain.finalityBlocks) > 0n ? head - BigInt(chain.finalityBlocks) : 0n
      const from = state ? state.lastBlock + 1n : request.fromBlock
      if (from > safeHead) {
        await deps.store.finishBackfill(chainId, token)
        deps.logger.info({ chainId, token, lastBlock: String(state?.lastBlock ?? safeHead) }, 'holder index reached the head')
        return 'done'
      }
      const to = from + span - 1n < safeHead ? from + span - 1n : safeHead
      const wave = await getLogsAdaptive(rpc, { address: [token], topics: [TRANSFER_TOPIC] }, from, to, limit)
      // Logs are usable up to the first range the node refused.
      const end = wave.missing.length > 0 ? wave.missing.map((m) => m[0]).reduce((a, b) => (a < b ? a : b)) - 1n : to
      if (end < from) throw new UpstreamError(`the node refuses eth_getLogs of block ${from} for ${token}, even alone`)
      const deltas = new Map<Address, bigint>()
      let used = 0
      for (const log of wave.logs) {
        if (BigInt(log.blockNumber) > end) continue
        foldTransfer(deltas, log)
        used++
      }
      const applied = await deps.store.apply(chainId, token, state, { fromBlock: state?.fromBlock ?? request.fromBlock, lastBlock: end }, deltas)
      if (applied) options.onWave?.({ chainId, token, from, to: end, head, logs: used })
      // Aim at BACKFILL_TARGET_LOGS a wave: the next span follows this wave's density.
      const covered = end - from + 1n
      const logs = BigInt(Math.max(1, used))
      const next = (covered * BigInt(BACKFILL_TARGET_LOGS)) / logs
      span = next < 1n ? 1n : next > covered * 4n ? covered * 4n : next
    } finally {
      rpc.close()
    }
    // A wave's decoding ran on this thread: let other work of the loop run before the next.
    await yieldToLoop()
  }
}

/**
 * The indexer of a process without Redis: requests are kept in the store and run here, one token
 * at a time, oldest first; a failing token is tried again a few times, then left for the next
 * request or restart.
 *
 * @example
 * const indexer = createInProcessHolderIndexer({ registry, store, logger })
 * await indexer.resume()
 */
export function createInProcessHolderIndexer(deps: HolderIndexerDeps & { onWave?: (wave: WaveEvent) => void }): HolderIndexer {
  const queue: BackfillRequest[] = []
  const queued = new Set<string>()
  const failures = new Map<string, number>()
  const retries = new Set<NodeJS.Timeout>()
  const controller = new AbortController()
  let running: Promise<void> | undefined
  let idleWaiters: (() => void)[] = []
  const keyOf = (r: { chainId: number; token: Address }) => `${r.chainId}:${r.token.toLowerCase()}`

  const settleIdle = () => {
    if (running || queue.length > 0 || retries.size > 0) return
    for (const resolve of idleWaiters) resolve()
    idleWaiters = []
  }

  const drain = async () => {
    while (queue.length > 0 && !controller.signal.aborted) {
      const request = queue.shift() as BackfillRequest
      const key = keyOf(request)
      try {
        const outcome = await indexToHead(deps, request, { signal: controller.signal, onWave: deps.onWave })
        if (outcome === 'done') failures.delete(key)
      } catch (error) {
        if (controller.signal.aborted) break
        const n = (failures.get(key) ?? 0) + 1
        failures.set(key, n)
        deps.logger.warn({ chainId: request.chainId, token: request.token, failures: n, err: error instanceof BaseError ? error.message : String(error) }, 'holder indexing failed')
        if (n < BACKFILL_MAX_FAILURES) {
          const timer = setTimeout(() => {
            retries.delete(timer)
            queued.delete(key)
            enqueue(request)
            settleIdle()
          }, BACKFILL_RETRY_MS)
          timer.unref()
          retries.add(timer)
          continue
        }
      }
      queued.delete(key)
    }
  }

  const kick = () => {
    if (running || queue.length === 0 || controller.signal.aborted) return
    running = drain().finally(() => {
      running = undefined
      kick()
      settleIdle()
    })
  }

  const enqueue = (request: BackfillRequest) => {
    if (controller.signal.aborted || queued.has(keyOf(request))) return
    queued.add(keyOf(request))
    queue.push(request)
    kick()
  }

  return {
    async request(chainId, token, fromBlock) {
      const request = { chainId, token, fromBlock }
      await deps.store.requestBackfill(request)
      enqueue(request)
    },
    async resume() {
      for (const request of await deps.store.backfills()) enqueue(request)
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve)
        settleIdle()
      })
    },
    async close() {
      controller.abort()
      for (const timer of retries) clearTimeout(timer)
      retries.clear()
      await running
      settleIdle()
    },
  }
}

interface HolderJob {
  chainId: number
  token: Address
  fromBlock: string
}

const jobIdOf = (chainId: number, token: Address) => `holders-${chainId}-${token.toLowerCase()}`

/**
 * The indexer of a process with Redis: requests are kept in the store and queued on BullMQ, one
 * job per token at a time; `tokenrisk worker` processes run them (`startHolderIndexWorker`).
 */
export function createQueuedHolderIndexer(redisUrl: string, store: HolderStore, options: { queueName?: string } = {}): HolderIndexer {
  // BullMQ loads when the first request is queued: a one-off command (a scan) never pays for it.
  let queuePromise: Promise<Queue<HolderJob>> | undefined
  const queue = () =>
    (queuePromise ??= import('bullmq').then(({ Queue }) => new Queue<HolderJob>(options.queueName ?? HOLDER_QUEUE_NAME, { connection: redisConnection(redisUrl) })))
  const add = async (r: BackfillRequest) =>
    (await queue()).add('holders', { chainId: r.chainId, token: r.token, fromBlock: r.fromBlock.toString() }, {
      jobId: jobIdOf(r.chainId, r.token),
      removeOnComplete: true,
      removeOnFail: true,
      attempts: BACKFILL_MAX_FAILURES,
      backoff: { type: 'fixed', delay: BACKFILL_RETRY_MS },
    })
  return {
    async request(chainId, token, fromBlock) {
      const request = { chainId, token, fromBlock }
      await store.requestBackfill(request)
      await add(request)
    },
    async resume() {
      for (const request of await store.backfills()) await add(request)
    },
    async idle() {
      for (;;) {
        const counts = await (await queue()).getJobCounts('waiting', 'active', 'delayed', 'prioritized')
        if (Object.values(counts).every((n) => n === 0)) return
        await new Promise((r) => setTimeout(r, 100))
      }
    },
    async close() {
      if (queuePromise) await (await queuePromise).close()
    },
  }
}

/**
 * Runs queued holder indexing (in `tokenrisk worker`): each job brings one token's index to the
 * head; the requests the store still holds are queued again at start, so none is lost to a stop.
 */
export async function startHolderIndexWorker(
  redisUrl: string,
  deps: HolderIndexerDeps & { onWave?: (wave: WaveEvent) => void },
  options: { queueName?: string; concurrency?: number } = {},
): Promise<{ close(): Promise<void> }> {
  const name = options.queueName ?? HOLDER_QUEUE_NAME
  const controller = new AbortController()
  const { Worker } = await import('bullmq')
  const worker = new Worker<HolderJob>(
    name,
    async (job) => {
      const outcome = await indexToHead(deps, { chainId: job.data.chainId, token: job.data.token, fromBlock: BigInt(job.data.fromBlock) }, { signal: controller.signal, onWave: deps.onWave })
      // Stopped by a shutdown: fail the attempt so that the job runs again.
      if (outcome === 'stopped') throw new UpstreamError('stopped before the index reached the head')
    },
    { connection: redisConnection(redisUrl), concurrency: options.concurrency ?? 1 },
  )
  const producer = createQueuedHolderIndexer(redisUrl, deps.store, { queueName: name })
  await producer.resume()
  await producer.close()
  return {
    async close() {
      controller.abort()
      await worker.close()
    },
  }
}
