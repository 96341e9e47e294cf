import { isAddress } from 'viem/utils'
import type { Address } from 'viem'
import { abortReason, raceSignal } from '../../abort.ts'
import type { Cache } from '../../cache/cache.ts'
import type { ChainEntry, ChainRegistry } from '../../config/chains.ts'
import { BaseError, ChainMismatchError, DeadlineError, InputError, NotFoundError, UnsupportedChainError, UpstreamError } from '../../errors.ts'
import { checksummed, evmAddressProblem } from '../../evm-address.ts'
import type { LogRangeLimit } from './chain/logs.ts'
import { CAPABILITIES_TTL_MS, assumedCapabilities, detectCapabilities, type NodeCapabilities } from './chain/capabilities.ts'
import { RpcError, createRpcSession, type RpcStats } from './chain/rpc.ts'
import type { TokenReport } from '../../contract/token-report.ts'
import type { ColdAdmission, EvmReportService } from '../../contract/services.ts'
import type { Store } from '../../store/database.ts'
import { createHolderRepository } from '../../store/repositories/holders.ts'
import type { Logger } from './collect/context.ts'
import type { EvmFacts } from './facts.ts'
import { createMemoryHolderStore, type HolderStore } from '../../store/holder-index.ts'
import type { CreationExplorer } from './explorer.ts'
import type { MetadataProvider } from '../../metadata/providers.ts'
import type { HolderIndexer } from './holder-indexer.ts'
import { runReport, type StageTimings } from '../../report/pipeline.ts'
import { EVM_REPORT_STAGES } from './stages.ts'

/** Reports are reused this long by default. */
export const DEFAULT_REPORT_TTL_MS = 30_000
/**
 * A report with checks or pools that could not be determined is reused at most this long: what
 * was unknown may be measurable a moment later, and must not stay unknown for the full TTL.
 */
export const INCOMPLETE_REPORT_TTL_MS = 5_000
/** A cold report must finish within this by default (the route may set a shorter deadline). */
export const DEFAULT_REPORT_DEADLINE_MS = 12_000
/** Gas given to each `eth_call`, simulations included (most nodes cap calls at 50 M). */
export const SIMULATION_GAS_CAP = 30_000_000n
/** A readiness ping must answer within this. */
export const PING_TIMEOUT_MS = 3_000
/**
 * A cold report waits this long at most for its chain's capabilities (detected once per chain);
 * past it the report goes on assuming every capability, as if none had been detected.
 */
export const CAPABILITY_WAIT_MS = 3_000
const DEADLINE_MESSAGE = 'the request deadline passed before the report was ready'

/** One finished report, for metrics (the integrator exposes it on /metrics). */
export interface ReportEvent {
  chainId: number
  /** 'ok', 'not_found', 'bad_request', 'deadline', 'upstream'. */
  outcome: 'ok' | 'not_found' | 'bad_request' | 'deadline' | 'upstream'
  cached: boolean
  ms: number
  roundTrips: number
  rpcCalls: number
  httpRequests: number
  retries: number
  /** Milliseconds per stage of the pipeline, when this report was computed (not cached, not failed). */
  stages?: StageTimings
}

export interface EvmReportMetrics {
  onReport(event: ReportEvent): void
}

export interface EvmReportServiceOptions {
  cacheTtlMs?: number
  deadlineMs?: number
  gasCap?: bigint
  /** How long a cold report waits for its chain's capabilities at most (`CAPABILITY_WAIT_MS` by default). */
  capabilityWaitMs?: number
}

/** How a report is bounded: `signal` abandons it, `deadlineAt` (epoch ms) is when it must be over. */
export interface ReportBounds {
  signal?: AbortSignal
  deadlineAt?: number
}

/**
 * Computes a report elsewhere (worker threads, `src/cli/report-workers.ts`): the service then
 * only validates, caches and answers. It throws the service's own errors. When `bounds.signal`
 * aborts, it rejects at once and stops the work where it runs; the work also stops by itself at
 * `bounds.deadlineAt`, should the abort reach it late.
 */
export interface ReportComputer {
  compute(chainId: number, token: Address, bounds?: ReportBounds): Promise<{ report: TokenReport; stats: RpcStats; ms: number; stages: StageTimings }>
}

export interface EvmReportServiceDeps {
  /** Where cold reports are computed; in this thread when absent. */
  computer?: ReportComputer
  /** Finishes holder indexes in the background (closed with the service); absent: later reports go on. */
  holderIndexer?: HolderIndexer
  registry: ChainRegistry
  cache: Cache
  /** The store: the holder index lives there. Without it (and without `holderStore`) it lives in memory. */
  store?: Store
  holderStore?: HolderStore
  metadata?: MetadataProvider[]
  /** Asked for a token's creation when the node can tell neither by Otterscan nor by search. */
  explorer?: CreationExplorer
  logger: Logger
  options?: EvmReportServiceOptions
  metrics?: EvmReportMetrics
  /** Test hook: replaces `fetch` for RPC calls. */
  fetch?: typeof fetch
}

export interface EvmReportServiceExtended extends EvmReportService {
  /**
   * What the chain's node can do: detected once (cheap probes in one round trip), again after
   * `CAPABILITIES_TTL_MS` or with `refresh`.
   */
  capabilities(chainId: number, options?: { refresh?: boolean }): Promise<NodeCapabilities>
  /** The report with its facts, RPC figures and stage timings (CLI, benchmarks, tests, report workers). */
  reportWithFacts(chainId: number, address: string, options: ReportBounds): Promise<{ report: TokenReport; facts: EvmFacts; stats: RpcStats; ms: number; stages: StageTimings }>
}

const NO_STATS: RpcStats = { roundTrips: 0, rpcCalls: 0, httpRequests: 0, retries: 0, requestBytes: 0 }

/** Whether a report leaves a code check or a pool's verdict undetermined (""). */
export function isIncomplete(report: TokenReport): boolean {
  const checks = [...Object.values(report.codeChecks.ownershipChecks), ...Object.values(report.codeChecks.otherChecks)]
  return checks.some((c) => c.status === '') || report.honeypotDetails.some((p) => p.isPairHoneypot === '')
}

/** The RPC figures a failed report carries (attached where it failed). */
function statsOf(error: unknown): RpcStats {
  return (error as { stats?: RpcStats }).stats ?? NO_STATS
}

function outcomeOf(error: unknown): ReportEvent['outcome'] {
  if (error instanceof NotFoundError) return 'not_found'
  if (error instanceof InputError) return 'bad_request'
  if (error instanceof DeadlineError) return 'deadline'
  return 'upstream'
}

/**
 * The EVM token report service: chain registry → cache (single-flight) → the report pipeline's
 * stages (src/report/pipeline.ts: collect → checks → score → render, `EVM_REPORT_STAGES`).
 *
 * @example
 * const service = createEvmReportService({ registry, cache: createMemoryCache(), store, logger })
 * const report = await service.report(1, '0xA0b8…', { signal })
 */
export function createEvmReportService(deps: EvmReportServiceDeps): EvmReportServiceExtended {
  const ttl = deps.options?.cacheTtlMs ?? DEFAULT_REPORT_TTL_MS
  const deadlineMs = deps.options?.deadlineMs ?? DEFAULT_REPORT_DEADLINE_MS
  const gasCap = deps.options?.gasCap ?? SIMULATION_GAS_CAP
  const capabilityWaitMs = deps.options?.capabilityWaitMs ?? CAPABILITY_WAIT_MS
  const holderStore = deps.holderStore ?? (deps.store ? createHolderRepository(deps.store) : createMemoryHolderStore())
  const log = deps.logger
  const logLimits = new Map<number, LogRangeLimit>()
  const logLimitOf = (chain: ChainEntry): LogRangeLimit => {
    let l = logLimits.get(chain.chainId)
    if (!l) logLimits.set(chain.chainId, (l = { maxRange: BigInt(chain.maxLogRange) }))
    return l
  }

  const nodes = new Map<number, { at: number; detecting: Promise<NodeCapabilities> }>()
  /** The batch size each chain's node was last found to take: the next detection's probes stay within it. */
  const learnedBatch = new Map<number, number>()
  /** The chain's node capabilities, detected once and shared by every report of the chain. */
  const capabilitiesOf = (chain: ChainEntry, refresh = false): Promise<NodeCapabilities> => {
    const hit = nodes.get(chain.chainId)
    if (hit && !refresh && Date.now() - hit.at < CAPABILITIES_TTL_MS) return hit.detecting
    const entry = {
      at: Date.now(),
      detecting: detectCapabilities({
        chainId: chain.chainId,
        urls: chain.rpcUrls,
        maxBatchSize: chain.maxBatchSize,
        learnedBatchSize: learnedBatch.get(chain.chainId),
        logLimit: logLimitOf(chain),
        evmVersion: chain.evmVersion,
        fetch: deps.fetch,
      }),
    }
    nodes.set(chain.chainId, entry)
    entry.detecting.then(
      (caps) => {
        if (caps.batch.support !== 'unknown' && caps.batch.max !== undefined) learnedBatch.set(chain.chainId, caps.batch.max)
        // A node that did not answer taught nothing: ask again next time rather than keep "unknown".
        if (caps.stateOverride === 'unknown' && caps.batch.support === 'unknown' && nodes.get(chain.chainId) === entry) nodes.delete(chain.chainId)
      },
      () => {
        if (nodes.get(chain.chainId) === entry) nodes.delete(chain.chainId)
      },
    )
    return entry.detecting
  }
  /**
   * State overrides a report's calls found refused (the node's words) before a detection said so:
   * every later report of the chain skips them at once, until a detection finished after the
   * refusal tells otherwise.
   */
  const refusedOverrides = new Map<number, { at: number; said: string }>()
  const withLearned = (chain: ChainEntry, caps: NodeCapabilities | undefined): NodeCapabilities | undefined => {
    const refused = refusedOverrides.get(chain.chainId)
    if (!refused || caps?.stateOverride === 'no') return caps
    if (caps && caps.detectedAt > refused.at && caps.stateOverride === 'yes') {
      refusedOverrides.delete(chain.chainId)
      return caps
    }
    const base = caps ?? assumedCapabilities(chain.chainId, logLimitOf(chain).maxRange, chain.maxBatchSize, chain.evmVersion)
    return { ...base, stateOverride: 'no', notes: { ...base.notes, stateOverride: refused.said.slice(0, 120) } }
  }
  /** The capabilities a report uses: undefined when detection takes longer than it may wait (and nothing was learned). */
  const capabilitiesFor = async (chain: ChainEntry, waitMs: number): Promise<NodeCapabilities | undefined> => {
    let timer: NodeJS.Timeout | undefined
    try {
      const caps = await Promise.race([
        capabilitiesOf(chain).catch(() => undefined),
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), Math.max(0, waitMs))
        }),
      ])
      return withLearned(chain, caps)
    } finally {
      clearTimeout(timer)
    }
  }

  const chainOf = (chainId: number): ChainEntry => {
    const chain = deps.registry.get(chainId)
    if (!chain || chain.rpcUrls.length === 0) {
      throw new UnsupportedChainError(`unsupported chainId '${chainId}'; GET /api/v1/chains lists the supported chains`)
    }
    return chain
  }

  const tokenOf = (address: string): Address => {
    if (typeof address !== 'string' || !isAddress(address, { strict: false })) {
      throw new InputError(`'${String(address).slice(0, 60)}' is not a token address (0x followed by 40 hex characters)`)
    }
    const problem = evmAddressProblem(address)
    if (problem) throw new InputError(`tokenAddress ${address} ${problem}`)
    return checksummed(address)
  }

  /** Computes a report in this thread; its RPC and its stages stop when `bounds` say so. */
  const compute = async (chain: ChainEntry, token: Address, bounds: ReportBounds = {}) => {
    const started = Date.now()
    const budgetMs = bounds.deadlineAt === undefined ? deadlineMs : Math.min(deadlineMs, bounds.deadlineAt - started)
    const capabilities = await capabilitiesFor(chain, Math.min(capabilityWaitMs, budgetMs / 4))
    const maxBatchSize = Math.min(chain.maxBatchSize, capabilities?.batch.max ?? chain.maxBatchSize)
    const onCapabilityMissing = (_: 'stateOverride', said: string) => {
      if (!refusedOverrides.has(chain.chainId)) refusedOverrides.set(chain.chainId, { at: Date.now(), said })
    }
    const rpc = createRpcSession({
      urls: chain.rpcUrls,
      maxBatchSize,
      deadlineMs: budgetMs - (Date.now() - started),
      signal: bounds.signal,
      fetch: deps.fetch,
      capabilities,
      onCapabilityMissing,
    })
    try {
      const input = { rpc, chain, token, gasCap, holderStore, metadata: deps.metadata ?? [], explorer: deps.explorer, log, logLimit: logLimitOf(chain), holderIndexer: deps.holderIndexer }
      const run = await runReport(EVM_REPORT_STAGES, input, { signal: rpc.signal })
      return { report: run.body, facts: run.facts, stats: rpc.stats(), ms: Date.now() - started, stages: run.timings }
    } catch (error) {
      const stats = rpc.stats()
      // Abandoned (nobody waits any more) or out of time: say so, whatever the stage made of it.
      if (bounds.signal?.aborted) throw Object.assign(abortReason(bounds.signal, DEADLINE_MESSAGE), { stats })
      if (error instanceof BaseError && !(error instanceof RpcError)) throw Object.assign(error, { stats })
      if (error instanceof RpcError) {
        throw Object.assign(new UpstreamError(`the node of chain ${chain.chainId} failed: ${error.message}`, { cause: error }), { stats })
      }
      log.error({ chainId: chain.chainId, token, err: error instanceof Error ? error.stack : String(error) }, 'token report failed')
      throw Object.assign(new UpstreamError('the token report could not be computed', { cause: error }), { stats })
    } finally {
      rpc.close()
    }
  }

  const emit = (event: ReportEvent) => {
    try {
      deps.metrics?.onReport(event)
    } catch {
      // metrics never fail a report
    }
  }

  /** Validates a request, counting a bad one. */
  const accept = (chainId: number, address: string): { chain: ChainEntry; token: Address } => {
    try {
      return { chain: chainOf(chainId), token: tokenOf(address) }
    } catch (error) {
      emit({ chainId, outcome: 'bad_request', cached: false, ms: 0, ...NO_STATS })
      throw error
    }
  }

  /**
   * Callers waiting for the same report share its computation (the cache's single flight): it is
   * abandoned — its RPC cancelled, its worker told — only when every one of them gave up, and it
   * must be over by the deadline of the caller that started it.
   */
  const flights = new Map<string, { controller: AbortController; waiters: number; deadlineAt?: number }>()
  const joinFlight = (key: string, options: ReportBounds) => {
    let flight = flights.get(key)
    if (!flight) flights.set(key, (flight = { controller: new AbortController(), waiters: 0, deadlineAt: options.deadlineAt }))
    const shared = flight
    shared.waiters++
    let left = false
    const leave = (abandon: boolean) => {
      if (left) return
      left = true
      options.signal?.removeEventListener('abort', onAbort)
      if (--shared.waiters > 0) return
      if (flights.get(key) === shared) flights.delete(key)
      if (abandon) shared.controller.abort(abortReason(options.signal!, DEADLINE_MESSAGE))
    }
    const onAbort = () => leave(true)
    if (options.signal?.aborted) onAbort()
    else options.signal?.addEventListener('abort', onAbort, { once: true })
    return {
      bounds: (): ReportBounds => ({ signal: shared.controller.signal, deadlineAt: shared.deadlineAt }),
      leave: () => leave(false),
    }
  }

  /**
   * Asks `onCold` before a report that is neither cached nor being computed here: a refusal
   * (thrown) leaves the cache and the computations of others as they are.
   */
  const admitCold = async (key: string, onCold: ColdAdmission | undefined): Promise<void> => {
    if (!onCold || flights.has(key) || (await deps.cache.get<TokenReport>(key)) !== undefined) return
    await onCold()
  }

  const logReport = (chainId: number, token: Address, ms: number, s: RpcStats, stages: StageTimings | undefined) =>
    log.info({ chainId, token, ms, roundTrips: s.roundTrips, rpcCalls: s.rpcCalls, httpRequests: s.httpRequests, retries: s.retries, stages }, 'token report')

  const reportWithFacts: EvmReportServiceExtended['reportWithFacts'] = async (chainId, address, options) => {
    const started = Date.now()
    const { chain, token } = accept(chainId, address)
    try {
      const result = await raceSignal(compute(chain, token, options), options.signal, DEADLINE_MESSAGE)
      logReport(chainId, token, result.ms, result.stats, result.stages)
      emit({ chainId, outcome: 'ok', cached: false, ms: Date.now() - started, ...result.stats, stages: result.stages })
      return result
    } catch (error) {
      emit({ chainId, outcome: outcomeOf(error), cached: false, ms: Date.now() - started, ...statsOf(error) })
      throw error
    }
  }

  return {
    reportWithFacts,

    capabilities: async (chainId, options) => {
      const chain = chainOf(chainId)
      const caps = await capabilitiesOf(chain, options?.refresh ?? false)
      return withLearned(chain, caps) ?? caps
    },

    async report(chainId, address, options) {
      const started = Date.now()
      const { chain, token } = accept(chainId, address)
      const key = `evm:report:${chainId}:${token.toLowerCase()}`
      await admitCold(key, options.onCold)
      let computed: { report: TokenReport; stats: RpcStats; ms: number; stages: StageTimings } | undefined
      const flight = joinFlight(key, options)
      try {
        const report = await raceSignal(
          deps.cache.getOrCompute<TokenReport>(key, (r) => (isIncomplete(r) ? Math.min(ttl, INCOMPLETE_REPORT_TTL_MS) : ttl), async () => {
            const bounds = flight.bounds()
            const result = deps.computer ? await deps.computer.compute(chain.chainId, token, bounds) : await compute(chain, token, bounds)
            computed = result
            return result.report
          }),
          options.signal,
          DEADLINE_MESSAGE,
        )
        if (computed) logReport(chainId, token, computed.ms, computed.stats, computed.stages)
        emit({ chainId, outcome: 'ok', cached: !computed, ms: Date.now() - started, ...(computed?.stats ?? NO_STATS), stages: computed?.stages })
        return report
      } catch (error) {
        emit({ chainId, outcome: outcomeOf(error), cached: false, ms: Date.now() - started, ...statsOf(error) })
        if (error instanceof BaseError) throw error
        throw new UpstreamError('the token report could not be computed', { cause: error })
      } finally {
        flight.leave()
      }
    },

    chains() {
      return deps.registry.servable().map((c) => ({ chainId: c.chainId, name: c.name, ...(c.links.explorerAddress ? { addressLink: c.links.explorerAddress } : {}) }))
    },

    async ping(chainId, signal) {
      const chain = chainOf(chainId)
      const rpc = createRpcSession({ urls: chain.rpcUrls, maxBatchSize: chain.maxBatchSize, deadlineMs: PING_TIMEOUT_MS, signal, fetch: deps.fetch })
      try {
        const id = await rpc.request<string>('eth_chainId')
        if (Number(BigInt(id)) !== chainId) throw new ChainMismatchError(`the RPC configured for chain ${chainId} answers for chain ${Number(BigInt(id))}`)
      } catch (error) {
        if (error instanceof UpstreamError) throw error
        throw new UpstreamError(`the RPC of chain ${chainId} does not answer`, { cause: error })
      } finally {
        rpc.close()
      }
    },

    async close() {
      // The cache and the store belong to the caller; the holder indexer stops with the service.
      await deps.holderIndexer?.close()
    },
  }
}
