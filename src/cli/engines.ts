import type { Cache } from '../cache/cache.ts'
import { loadChainRegistry, type ChainRegistry, type LoadChainRegistryOptions } from '../config/chains.ts'
import type { Config } from '../config/settings.ts'
import { NotConfiguredError, SOLANA_NOT_CONFIGURED } from '../errors.ts'
import type { Metrics } from '../http/metrics.ts'
import type { SolanaReportService as RouteSolanaService } from '../contract/services.ts'
import type { ContentGateways } from '../net/content-uri.ts'
import { createSafeFetcher, type SafeFetcher } from '../net/safe-fetch.ts'
import type { SolanaPricing } from '../engines/solana/collect/context.ts'
import type { SolanaReportComputer } from '../engines/solana/service.ts'
import type { Store } from '../store/database.ts'
import type { Logger } from '../engines/evm/collect/context.ts'
import { createCreationExplorer } from '../engines/evm/explorer.ts'
import { createMarketDataProvider, createTokenListProvider, type MetadataProvider } from '../metadata/providers.ts'
import { createBundledTokenListProvider, layeredProvider } from '../metadata/bundled-lists.ts'
import { createEvmReportService, type EvmReportServiceExtended, type ReportComputer } from '../engines/evm/service.ts'
import { createInProcessHolderIndexer, createQueuedHolderIndexer, type HolderIndexer } from '../engines/evm/holder-indexer.ts'
import { createHolderRepository } from '../store/repositories/holders.ts'

export interface EngineDeps {
  config: Config
  env: NodeJS.ProcessEnv
  cache: Cache
  store?: Store
  logger: Logger & { debug(obj: object, msg?: string): void }
  metrics?: Metrics
  /** Where cold EVM reports are computed (report worker threads); in this thread when absent. */
  computer?: ReportComputer
  /**
   * Whether this engine finishes holder indexes in the background (default: when it computes
   * reports on a store): on the Redis queue with REDIS_URL, else in this process, taking up the
   * requests a stopped process left when `resumeHolderIndexing` is set (default true).
   */
  holderIndexing?: boolean
  resumeHolderIndexing?: boolean
  /** Chains given in code, before the user's chains file: the local world's, when it runs. */
  chains?: LoadChainRegistryOptions['chains']
}

const tokenLists = new WeakMap<Config, MetadataProvider>()

/** The ipfs:// and ar:// gateways the configuration names. */
const gatewaysOf = (config: Config): ContentGateways => ({ ipfs: config.ipfsGateway, arweave: config.arweaveGateway })

/**
 * The token lists, one provider per configuration (the EVM and Solana engines share its loads):
 * the configured TOKEN_LIST first (its values win), then the lists tokenrisk bundles.
 */
export function tokenListProvider(config: Config): MetadataProvider {
  let provider = tokenLists.get(config)
  if (!provider) {
    const bundled = createBundledTokenListProvider({ gateways: gatewaysOf(config) })
    provider = config.tokenList ? layeredProvider([createTokenListProvider(config.tokenList, { gateways: gatewaysOf(config) }), bundled]) : bundled
    tokenLists.set(config, provider)
  }
  return provider
}

/** Metadata providers: the token lists, and a market-data API when the configuration gives its key. */
export function metadataProviders(config: Config): MetadataProvider[] {
  const providers: MetadataProvider[] = []
  providers.push(tokenListProvider(config))
  if (config.marketDataApiKey) providers.push(createMarketDataProvider({ apiKey: config.marketDataApiKey, baseUrl: config.marketDataApiUrl }))
  return providers
}

/** The fetcher of off-chain metadata documents the configuration asks for; undefined when off. */
export function metadataFetcher(config: Config, logger: EngineDeps['logger']): SafeFetcher | undefined {
  if (config.metadataFetch === 'off') return undefined
  if (config.metadataFetchAllowLoopback) logger.warn({}, 'METADATA_FETCH_ALLOW_LOOPBACK=1: metadata URIs chosen by token creators may reach this machine; never use it outside tests')
  return createSafeFetcher({
    timeoutMs: config.metadataFetchTimeoutMs,
    allowHttp: config.metadataFetchAllowHttp,
    allowLoopback: config.metadataFetchAllowLoopback,
    gateways: gatewaysOf(config),
  })
}

/** The EVM report engine for the configured chains (and the local world when it runs). */
export function createEvmEngine(deps: EngineDeps): { service: EvmReportServiceExtended; registry: ChainRegistry } {
  const registry = loadChainRegistry({ env: deps.env, chainsFile: deps.config.chainsFile, chains: deps.chains })
  const metrics = deps.metrics
  let holderIndexer: HolderIndexer | undefined
  if (deps.store && (deps.holderIndexing ?? !deps.computer)) {
    const holderStore = createHolderRepository(deps.store)
    holderIndexer = deps.config.redisUrl
      ? createQueuedHolderIndexer(deps.config.redisUrl, holderStore)
      : createInProcessHolderIndexer({ registry, store: holderStore, logger: deps.logger })
    if (deps.resumeHolderIndexing !== false && !deps.config.redisUrl) {
      holderIndexer.resume().catch((error: unknown) => deps.logger.warn({ err: (error as Error).message }, 'holder indexing could not resume'))
    }
  }
  const service = createEvmReportService({
    registry,
    computer: deps.computer,
    holderIndexer,
    cache: deps.cache,
    store: deps.store,
    metadata: metadataProviders(deps.config),
    explorer: deps.config.explorerApiKey
      ? createCreationExplorer({ apiKey: deps.config.explorerApiKey, baseUrl: deps.config.explorerApiUrl })
      : undefined,
    logger: deps.logger,
    options: { cacheTtlMs: deps.config.reportCacheTtlSeconds * 1000, deadlineMs: deps.config.requestTimeoutMs },
    metrics: metrics
      ? {
          onReport: (e) =>
            metrics.observeReport({ chain: String(e.chainId), cached: e.cached, ms: e.ms, roundTrips: e.roundTrips, rpcCalls: e.rpcCalls, stages: e.stages }),
        }
      : undefined,
  })
  return { service, registry }
}

/**
 * The Solana report engine on `rpcUrls` (its cold reports computed by `solanaComputer`, the report
 * worker threads, when given); without any, a service that answers every request
 * with a 503 saying that no Solana RPC is configured (the route exists either way). `pricing`
 * replaces mainnet's reference pools (the local Solana prices with its own).
 */
export function createSolanaEngine(deps: EngineDeps & { rpcUrls: string[]; pricing?: SolanaPricing; solanaComputer?: SolanaReportComputer }): RouteSolanaService {
  if (deps.rpcUrls.length === 0) {
    const unavailable = () => new NotConfiguredError(SOLANA_NOT_CONFIGURED, { setting: 'SOLANA_RPC_URL' })
    return {
      report: async () => Promise.reject(unavailable()),
      ping: async () => Promise.reject(unavailable()),
      close: async () => {},
    }
  }
  // The Solana engine (and its client library) loads when an engine is created, not with this
  // module: a command that reads only EVM chains never loads it.
  const loading = import('../engines/solana/service.ts').then(({ createSolanaReportService }) =>
    createSolanaReportService({
      rpcUrls: deps.rpcUrls,
      computer: deps.solanaComputer,
      cache: deps.cache,
      logger: deps.logger,
      metadataFetcher: metadataFetcher(deps.config, deps.logger),
      tokenList: tokenListProvider(deps.config),
      options: {
        deadlineMs: deps.config.requestTimeoutMs,
        cacheTtlMs: deps.config.reportCacheTtlSeconds * 1000,
        ...(deps.pricing ? { pricing: deps.pricing } : {}),
      },
    }),
  )
  loading.catch(() => {}) // a failure is reported by the first call that needs the engine
  return {
    report: async (address, options) => (await loading).report(address, options),
    ping: async (signal) => (await loading).ping(signal),
    close: async () => (await loading).close(),
  }
}
