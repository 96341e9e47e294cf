import type { Address } from '@solana/kit'
import { raceSignal } from '../../abort.ts'
import type { Cache } from '../../cache/cache.ts'
import type { SafeFetcher } from '../../net/safe-fetch.ts'
import { METADATA_TIMEOUT_MS, SOLANA_TOKEN_LIST_CHAIN_IDS, type MetadataProvider } from '../../metadata/providers.ts'
import { DeadlineError, NotFoundError, UpstreamError } from '../../errors.ts'
import { runReport } from '../../report/pipeline.ts'
import type { SolanaReport } from '../../contract/solana-report.ts'
import { parseSolanaAddress } from './address.ts'
import { collectSolanaFacts } from './collect/collect.ts'
import { DEFAULT_COLLECT_LIMITS, MAINNET_PRICING, reasonOf, type CollectLimits, type SolanaPricing } from './collect/context.ts'
import { known, unknown, type ClusterName, type ListedMetadata, type SolanaFacts } from './collect/facts.ts'
import { createOffChainMetadataReader } from './collect/off-chain.ts'
import { readListedMetadata } from './collect/token-list.ts'
import { createAccountLoader } from './rpc/account-loader.ts'
import { createSolanaRpcClient, type SolanaRpcClient } from './rpc/client.ts'
import type { TransportStats } from './rpc/transport.ts'
import { solanaReportStages } from './stages.ts'
import { CLUSTER_GENESIS_HASHES } from './programs.ts'
import type { SolanaLogger } from './logger.ts'

/** A report's hard deadline: past it the caller gets a DeadlineError (HTTP 503). */
export const DEFAULT_SOLANA_DEADLINE_MS = 10_000
/** Share of the deadline after which optional facts are given up (reported "" instead). */
export const OPTIONAL_FACTS_SHARE_OF_DEADLINE = 0.6
export const DEFAULT_SOLANA_REPORT_TTL_MS = 60_000
/** How long "no such mint" is remembered, so repeated lookups of a bad address cost no RPC. */
export const DEFAULT_SOLANA_NOT_FOUND_TTL_MS = 15_000
export const SOLANA_PING_TIMEOUT_MS = 3_000

export interface SolanaReportServiceOptions {
  /** Hard deadline of one report computation, ms. */
  deadlineMs: number
  /** Time after which facts other than the mint are reported unknown; default 60 % of the deadline. */
  optionalFactsBudgetMs: number
  /** How long a report is served from the cache, ms (0: never cached). */
  cacheTtlMs: number
  notFoundTtlMs: number
  /** Prefix of cache keys, so two clusters sharing one Redis never mix. */
  cacheNamespace: string
  /** Stablecoins and SOL/USD reference pools (default: mainnet). */
  pricing: SolanaPricing
  limits: CollectLimits
  /** Transport limits (see src/engines/solana/rpc/transport.ts). */
  maxResponseBytes?: number
  attemptTimeoutMs?: number
  endpointCooldownMs?: number
}

/** Where cold Solana reports are computed when not in this thread (report worker threads). */
export interface SolanaReportComputer {
  /** The report of `address` (parsed), or `NotFoundError` and the other errors of `report()`. */
  computeSolana(address: string, options?: { signal?: AbortSignal }): Promise<SolanaReport>
}

export interface SolanaReportServiceDeps {
  /** Solana JSON-RPC endpoints, tried in order. */
  rpcUrls: string[]
  /**
   * Where cold reports are computed (report worker threads, each with its own RPC client): this
   * service then only parses, caches and shares them. In this thread when absent.
   */
  computer?: SolanaReportComputer
  cache: Cache
  logger: SolanaLogger
  /**
   * Reads the off-chain JSON at a mint's metadata uri (image, links). Without it the JSON is never
   * read and those fields stay "".
   */
  metadataFetcher?: SafeFetcher
  /** A token list naming Solana mints (chain ids 101-103): image, categories, links. Wins over the JSON. */
  tokenList?: MetadataProvider
  options?: Partial<SolanaReportServiceOptions>
}

export interface SolanaReportService {
  /**
   * The report of the mint at `address`. Throws InputError (not a 32-byte base58 address),
   * NotFoundError (no account, or not a mint: the message says which), SolanaRpcError /
   * DeadlineError (RPC failure, hostile answer, deadline).
   */
  report(address: string, options?: { signal?: AbortSignal; onCold?: () => Promise<void> }): Promise<SolanaReport>
  /** Readiness: resolves when one endpoint answers getHealth "ok"; throws UpstreamError otherwise. */
  ping(signal?: AbortSignal): Promise<void>
  /** Counters of the RPC transport (requests, fallbacks). */
  stats(): TransportStats
  close(): Promise<void>
}

interface NotFoundMarker {
  notFound: string
}

/**
 * Creates the Solana report service: parse → cache (single-flight per address) → the report
 * pipeline's stages (src/report/pipeline.ts): collect (batched RPC reads, the cluster and the
 * token list's entry) → checks → score → render.
 *
 * @example
 * const solana = createSolanaReportService({ rpcUrls: [process.env.SOLANA_RPC_URL!], cache: createMemoryCache(), logger })
 * const report = await solana.report('So11111111111111111111111111111111111111112', { signal })
 */
export function createSolanaReportService(deps: SolanaReportServiceDeps): SolanaReportService {
  if (deps.rpcUrls.length === 0) throw new Error('createSolanaReportService: rpcUrls is empty')
  const deadlineMs = deps.options?.deadlineMs ?? DEFAULT_SOLANA_DEADLINE_MS
  const options: SolanaReportServiceOptions = {
    deadlineMs,
    optionalFactsBudgetMs: Math.round(deadlineMs * OPTIONAL_FACTS_SHARE_OF_DEADLINE),
    cacheTtlMs: DEFAULT_SOLANA_REPORT_TTL_MS,
    notFoundTtlMs: DEFAULT_SOLANA_NOT_FOUND_TTL_MS,
    cacheNamespace: 'solana',
    pricing: MAINNET_PRICING,
    ...deps.options,
    limits: { ...DEFAULT_COLLECT_LIMITS, ...deps.options?.limits },
  }
  const { cache, logger } = deps
  const client: SolanaRpcClient = createSolanaRpcClient({
    urls: deps.rpcUrls,
    logger,
    maxResponseBytes: options.maxResponseBytes,
    attemptTimeoutMs: options.attemptTimeoutMs,
    cooldownMs: options.endpointCooldownMs,
  })
  let cluster: Promise<ClusterName> | undefined
  let closed = false
  const offChain = deps.metadataFetcher ? createOffChainMetadataReader(deps.metadataFetcher) : undefined
  const tokenList = deps.tokenList

  /** The cluster behind the RPC, from its genesis hash; asked once, again only after a failure. */
  const clusterName = (): Promise<ClusterName> => {
    if (!cluster) {
      // Its own deadline: this answer is shared by every report, not owned by the first one.
      cluster = client.getGenesisHash(AbortSignal.timeout(options.deadlineMs)).then(
        (hash) => CLUSTER_GENESIS_HASHES[hash] ?? 'unknown',
        () => {
          cluster = undefined
          return 'unknown' as const
        },
      )
    }
    return cluster
  }

  /** The token list's entry, bounded like any metadata provider; null when it fails or is slow. */
  const listed = async (address: Address, signal: AbortSignal): Promise<ListedMetadata | null> => {
    if (!tokenList) return null
    const bounded = AbortSignal.any([signal, AbortSignal.timeout(Math.min(METADATA_TIMEOUT_MS, options.optionalFactsBudgetMs))])
    try {
      return await raceSignal(clusterName().then((name) => readListedMetadata(tokenList, name, address, bounded)), bounded)
    } catch (error) {
      logger.debug({ mint: address, provider: tokenList.name, reason: reasonOf(error) }, 'token list gave nothing')
      return null
    }
  }

  /**
   * Adds the listed well-known tokens of the mint's cluster sharing its symbol or name to the
   * configured references the collect stage compared. A list that cannot answer leaves the fact
   * unknown unless a reference already matched.
   */
  const sameNameListed = async (facts: SolanaFacts, signal: AbortSignal): Promise<SolanaFacts['sameName']> => {
    const current = facts.sameName
    if (!current.ok || !tokenList?.sameName || facts.cluster === 'unknown') return current
    const own = facts.embeddedMetadata ?? (facts.metaplex.ok ? facts.metaplex.value.metadata : null)
    if (!own) return current
    const bounded = AbortSignal.any([signal, AbortSignal.timeout(Math.min(METADATA_TIMEOUT_MS, options.optionalFactsBudgetMs))])
    try {
      const listed = await raceSignal(tokenList.sameName(SOLANA_TOKEN_LIST_CHAIN_IDS[facts.cluster], own.name, own.symbol, bounded), bounded)
      return known([...current.value, ...listed])
    } catch (error) {
      logger.debug({ mint: facts.address, provider: tokenList.name, reason: reasonOf(error) }, 'token list could not say which tokens share the name')
      return current.value.length > 0 ? current : unknown(`the token lists could not be searched for the name: ${reasonOf(error)}`)
    }
  }

  /** The collect stage: the mint's facts, the cluster's name and the token list's entry, read together. */
  const stages = solanaReportStages(async ({ address, signal }: { address: Address; signal: AbortSignal }) => {
    const ctx = { client, loader: createAccountLoader(client, signal), signal, logger, pricing: options.pricing, limits: options.limits, offChain }
    const [name, facts, entry] = await Promise.all([
      clusterName(),
      collectSolanaFacts(ctx, address, { cluster: 'unknown', optionalBudgetMs: options.optionalFactsBudgetMs }),
      listed(address, signal),
    ])
    facts.cluster = name
    facts.listed = entry
    facts.sameName = await sameNameListed(facts, signal)
    return facts
  })

  /** A report computed by `deps.computer`, bounded by the same deadline. */
  async function computeElsewhere(computer: SolanaReportComputer, address: Address): Promise<SolanaReport | NotFoundMarker> {
    const signal = AbortSignal.timeout(options.deadlineMs)
    try {
      return await computer.computeSolana(address, { signal })
    } catch (error) {
      if (error instanceof NotFoundError) return { notFound: error.message }
      if (signal.aborted) throw new DeadlineError(`the Solana report of ${address} was not ready within ${options.deadlineMs} ms`)
      throw error
    }
  }

  async function compute(address: Address): Promise<SolanaReport | NotFoundMarker> {
    if (deps.computer) return computeElsewhere(deps.computer, address)
    const started = performance.now()
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new DeadlineError(`the Solana report of ${address} was not ready within ${options.deadlineMs} ms`)), options.deadlineMs)
    const before = client.stats().requests
    try {
      const { body, timings } = await runReport(stages, { address, signal: controller.signal }, { signal: controller.signal })
      logger.debug({ mint: address, ms: Math.round(performance.now() - started), rpcRequests: client.stats().requests - before, stages: timings }, 'solana report computed')
      return body
    } catch (error) {
      if (error instanceof NotFoundError) return { notFound: error.message }
      if (controller.signal.aborted && controller.signal.reason instanceof DeadlineError) throw controller.signal.reason
      throw error
    } finally {
      clearTimeout(timer)
      // Reads still running (optional facts given up on) are cancelled.
      controller.abort(new DeadlineError('report finished'))
    }
  }

  return {
    async report(input, { signal, onCold } = {}) {
      if (closed) throw new UpstreamError('the Solana report service is closed')
      const address = parseSolanaAddress(input)
      const key = `${options.cacheNamespace}:report:${address}`
      const notFoundKey = `${options.cacheNamespace}:not-found:${address}`
      const remembered = await cache.get<string>(notFoundKey)
      if (remembered !== undefined) throw new NotFoundError(remembered)
      // Neither cached nor answered: the caller may refuse the cold work (it computes nothing then).
      if (onCold && (await cache.get(key)) === undefined) await onCold()
      const work = cache.getOrCompute<SolanaReport | NotFoundMarker>(key, 0, async () => {
        const value = await compute(address)
        if ('notFound' in value) await cache.set(notFoundKey, value.notFound, options.notFoundTtlMs)
        else if (options.cacheTtlMs > 0) await cache.set(key, value, options.cacheTtlMs)
        return value
      })
      const value = await raceSignal(work, signal, 'the request deadline passed before the Solana report was ready')
      if ('notFound' in value) throw new NotFoundError(value.notFound)
      return value
    },

    async ping(signal) {
      const timeout = AbortSignal.timeout(SOLANA_PING_TIMEOUT_MS)
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout
      let health: string
      try {
        health = await client.getHealth(combined)
      } catch (error) {
        if (timeout.aborted) throw new DeadlineError(`no Solana RPC answered getHealth within ${SOLANA_PING_TIMEOUT_MS} ms`)
        if (error instanceof UpstreamError) throw error
        throw new UpstreamError('Solana RPC health check failed', { cause: error })
      }
      if (health !== 'ok') throw new UpstreamError(`Solana RPC is not healthy: ${health.slice(0, 100)}`)
    },

    stats: () => client.stats(),

    async close() {
      closed = true
      offChain?.close()
    },
  }
}

/** Waits for `work` unless the caller's signal aborts first (the shared computation goes on). */
