import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { Redis } from 'ioredis'
import { pino, type Logger } from 'pino'
import { createMemoryCache, createRedisCache, type Cache } from '../cache/cache.ts'
import { loadChainRegistry } from '../config/chains.ts'
import { publicBaseUrl, type Config } from '../config/settings.ts'
import { DEFAULT_REPORT_FORMAT, type ReportFormat } from '../contract/report-formats.ts'
import { buildApp } from '../http/app.ts'
import { createMetrics } from '../http/metrics.ts'
import { createMemoryRateLimiter, createRedisRateLimiter } from '../http/rate-limit.ts'
import { createMemoryUsageCounter, createRedisUsageCounter } from '../http/usage.ts'
import type { ReadinessCheck } from '../http/routes/health.ts'
import { ConfigError } from '../errors.ts'
import { createDatabase, type Store } from '../store/database.ts'
import { createApiKeyRepository, type ApiKeyRepository } from '../store/repositories/api-keys.ts'
import { createAuditRepository } from '../store/repositories/audits.ts'
import { parseCommand } from './args.ts'
import { COMMANDS } from './commands.ts'
import { lockDataDir } from './data-dir.ts'
import { createEvmEngine, createSolanaEngine, type EngineDeps } from './engines.ts'
import { startReportWorkers, type WorkerSolana } from './report-workers.ts'
import type { SolanaReportComputer } from '../engines/solana/service.ts'
import { sourceAuditsOf } from './source-audits.ts'
import type { EvmReportServiceExtended, ReportComputer } from '../engines/evm/service.ts'
import { capabilityRows, degradation, formatCapabilityTable } from '../engines/evm/chain/capabilities.ts'
import type { Io } from './io.ts'
import { loadLocalWorlds, type LocalChain, type LocalSolana } from './local-worlds.ts'

const MB = 1024 * 1024
/** How long a graceful stop waits for in-flight requests before closing connections. */
export const SHUTDOWN_GRACE_MS = 20_000
/** Redis commands fail fast rather than queue while it is away. */
const REDIS_MAX_RETRIES_PER_REQUEST = 2
/** The user the demo key of the local world belongs to. */
export const DEMO_USER = 'demo'

export interface RunningService {
  app: FastifyInstance
  url: string
  config: Config
  store: Store
  /** The local worlds, when this service started them. */
  devnet?: { chain: LocalChain; solana?: LocalSolana }
  /** Stops accepting, lets in-flight requests finish, then closes the store and everything else. */
  close(): Promise<void>
}

/** Whether the user configured EVM chains (then the local world is not started in `auto`). */
export function evmChainsConfigured(config: Config, env: NodeJS.ProcessEnv): boolean {
  return Boolean(config.chainsFile) || Object.entries(env).some(([k, v]) => /^RPC_URL_\d+$/.test(k) && Boolean(v?.trim()))
}

/** Whether a service with `config` starts the local worlds (no EVM chain configured, or DEVNET=on). */
export function runsLocalWorld(config: Config, env: NodeJS.ProcessEnv): boolean {
  return config.only !== 'audits' && (config.devnet === 'on' || (config.devnet === 'auto' && !evmChainsConfigured(config, env)))
}

/** A port another process listens on, said in one line before anything starts (0: any free port). */
async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return
  const probe = createServer()
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject)
      probe.listen({ port, host, exclusive: true }, resolve)
    })
  } catch (error) {
    throw portProblem(error, host, port)
  } finally {
    await new Promise<void>((resolve) => probe.close(() => resolve()))
  }
}

/** A listen error as a one-line `ConfigError` when it is a port in use or refused; the error itself otherwise. */
function portProblem(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EADDRINUSE') return new ConfigError(`port ${port} on ${host} is in use by another process: stop it, or set PORT (--port) to another port`)
  if (code === 'EACCES') return new ConfigError(`port ${port} on ${host} may not be used by this user: set PORT (--port) to a port above 1023`)
  if (code === 'EADDRNOTAVAIL') return new ConfigError(`HOST=${host} is not an address of this machine: set HOST (--host), e.g. 127.0.0.1 or 0.0.0.0`)
  return error
}

/**
 * Waits for stages started at once: their values, or the first failure once every stage has
 * settled (so that none is still starting when the service stops what did start).
 */
async function allStarted<T extends readonly unknown[]>(stages: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(stages)
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failed) throw failed.reason
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T
}

/**
 * Starts the service for `config`, stage by stage: store (migrated) → Redis, cache, rate limits →
 * local worlds (when no chain is configured) and report workers, at once → token engines → HTTP
 * app, listening. Whatever started is stopped again when a later stage fails, and by `close()`.
 */
export async function startService(config: Config, io: Io, options: { logger?: Logger } = {}): Promise<RunningService> {
  const logger = options.logger ?? pino({ level: config.logLevel })
  const cleanups: (() => Promise<void>)[] = []
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup()
      } catch (error) {
        io.err(`while stopping: ${(error as Error).message}`)
      }
    }
  }
  /** `starting`, whose result is stopped with the service once it has started. */
  const started = <T>(starting: Promise<T>, stop: (value: T) => Promise<void>): Promise<T> =>
    starting.then((value) => {
      cleanups.push(() => stop(value))
      return value
    })
  const serveTokens = config.only !== 'audits'
  const serveAudits = config.only !== 'tokens'
  // The chains the user configured are read once here, before anything starts: a bad, missing or
  // unparsable chains file (or RPC_URL_<chainId>) is one line and exit 2, whichever thread would
  // have read it first.
  if (serveTokens) loadChainRegistry({ env: io.env, chainsFile: config.chainsFile })
  try {
    const store = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
    cleanups.push(() => store.close())

    let redis: Redis | undefined
    if (config.redisUrl) {
      redis = new Redis(config.redisUrl, { maxRetriesPerRequest: REDIS_MAX_RETRIES_PER_REQUEST, lazyConnect: true })
      await redis.connect()
      const client = redis
      cleanups.push(async () => {
        await client.quit()
      })
    }
    const cache: Cache = redis ? createRedisCache(redis) : createMemoryCache({ maxBytes: config.reportCacheMb * MB })
    const rateLimiter = redis ? createRedisRateLimiter(redis) : createMemoryRateLimiter()
    const usage = redis ? createRedisUsageCounter(redis) : createMemoryUsageCounter()
    const metrics = createMetrics()
    const baseUrl = publicBaseUrl(config)
    const readiness: ReadinessCheck[] = []
    if (redis) {
      const client = redis
      readiness.push({ name: 'redis', check: async () => void (await client.ping()) })
    }

    let tokens: Parameters<typeof buildApp>[0]['tokens']
    let devnet: RunningService['devnet']
    if (serveTokens) {
      const runWorld = runsLocalWorld(config, io.env)
      // The stages that take long start at once, each as soon as what it needs is there: the local
      // chain (anvil, a process of its own, loading the saved world), the local Solana (built in this
      // process) and the report workers (threads, which need the chain's entry). All are awaited
      // before a failure stops the service, so that whatever did start is stopped again.
      let chainStarting: Promise<LocalChain | undefined> = Promise.resolve(undefined)
      let solanaStarting: Promise<LocalSolana | undefined> = Promise.resolve(undefined)
      if (runWorld) {
        // The local worlds are a development dependency, loaded only when they run.
        const worlds = await loadLocalWorlds(config.devnet === 'on' ? 'DEVNET=on asks for the local worlds' : 'no EVM chain is configured (RPC_URL_<chainId> or CHAINS_FILE)')
        chainStarting = started(worlds.startLocalChain({ dataDir: config.dataDir, log: (line) => io.err(line) }), (chain) => chain.stop()).then((chain) => {
          io.err(`local chain world ready in ${chain.readyMs} ms at ${chain.rpcUrl} (${chain.tokenCount} zoo tokens)`)
          return chain
        })
        if (config.solanaRpcUrls.length === 0) {
          solanaStarting = started(worlds.startLocalSolana({ dataDir: config.dataDir, log: (line) => io.err(line) }), (solana) => solana.stop())
        }
      }
      const chainsOf = (chain: LocalChain | undefined): EngineDeps['chains'] => (chain ? { source: 'the local world', entries: [chain.chain] } : undefined)
      // The workers compute Solana reports too, on the Solana RPC the service reads.
      const solanaOf = (local: LocalSolana | undefined): WorkerSolana | undefined =>
        local ? { rpcUrls: [local.rpcUrl], pricing: local.pricing } : config.solanaRpcUrls.length > 0 ? { rpcUrls: config.solanaRpcUrls } : undefined
      const workersStarting: Promise<(ReportComputer & SolanaReportComputer) | undefined> =
        config.reportWorkers > 0
          ? started<Awaited<ReturnType<typeof startReportWorkers>>>(
              // The threads load their code while the worlds start, and take their endpoints after.
              startReportWorkers({
                count: config.reportWorkers,
                config,
                env: io.env,
                worlds: Promise.all([chainStarting, solanaStarting]).then(([chain, local]) => ({ chains: chainsOf(chain), solana: solanaOf(local) })),
              }),
              (workers) => workers.close(),
            )
          : Promise.resolve(undefined)
      const [chain, localSolana, computer] = await allStarted([chainStarting, solanaStarting, workersStarting] as const)
      const chains = chainsOf(chain)
      const solanaUrls = localSolana ? [localSolana.rpcUrl] : config.solanaRpcUrls
      const pricing = localSolana?.pricing
      if (chain) devnet = { chain, ...(localSolana ? { solana: localSolana } : {}) }
      const engineDeps = { config, env: io.env, cache, store, logger, metrics }
      const evm = createEvmEngine({ ...engineDeps, chains, computer })
      cleanups.push(() => evm.service.close())
      const solana = createSolanaEngine({ ...engineDeps, rpcUrls: solanaUrls, pricing, solanaComputer: computer })
      cleanups.push(() => solana.close())
      tokens = { evm: evm.service, solana }
      for (const chain of evm.registry.servable()) {
        readiness.push(evmChainReadiness(evm.service, chain.chainId))
      }
      if (solanaUrls.length > 0) readiness.push({ name: 'solana', check: (signal) => solana.ping(signal) })
    }

    const audits = createAuditRepository(store, {
      reportLink: (id) => `${baseUrl}/reports/${id}`,
      pageCacheSize: config.historyPageCacheSize,
      pageCacheBytes: config.historyPageCacheMb * MB,
      projectCacheMs: config.storeCacheMs,
    })
    const sourceAudits = sourceAuditsOf(audits, config)
    cleanups.push(() => sourceAudits.service.close())
    const app = await buildApp({
      store,
      keys: createApiKeyRepository(store, { cacheMs: config.storeCacheMs }),
      audits,
      rateLimiter,
      usage,
      metrics,
      tokens,
      serveAudits,
      sourceAudits,
      readiness,
      options: {
        publicBaseUrl: baseUrl,
        requestTimeoutMs: config.requestTimeoutMs,
        reportCacheTtlSeconds: config.reportCacheTtlSeconds,
        defaultRateLimitRps: config.rateLimitRps,
        corsOrigins: config.corsOrigins,
        metricsToken: config.metricsToken,
        logger,
        // On a terminal, the banner stays in view: request logs at debug level (LOG_LEVEL=debug shows them).
        quietRequestLogs: io.tty === true,
        // The home page offers the local worlds' showcase tokens to try.
        pageExamples: devnet
          ? [
              ...devnet.chain.showcase.map((t) => ({ label: `${t.name} (${t.behaviours.join(', ') || 'clean'})`, chain: String(devnet!.chain.chain.chainId), address: t.address })),
              ...(devnet.solana?.showcase ?? []).map((m) => ({ label: `${m.name} (Solana)`, chain: 'solana', address: m.address })),
            ]
          : undefined,
        defaultFormat: config.defaultFormat,
        pages: { open: config.publicPages === 'on', ratePerMinute: config.publicPagesRateLimit, coldPerMinute: config.publicPagesColdReports, secret: config.publicPagesSecret },
      },
    })
    cleanups.push(async () => {
      await app.close()
      if (!(await app.drain(SHUTDOWN_GRACE_MS))) io.err('some requests were still running when the service stopped')
    })
    const address = await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
      throw portProblem(error, config.host, config.port)
    })
    // Every configured chain's node is asked which chain it serves, once at start; reports check it
    // again in their first round trip (a node for another chain answers 503, never a report).
    if (tokens) {
      const evm = tokens.evm as EvmReportServiceExtended
      for (const chain of tokens.evm.chains()) {
        tokens.evm
          .ping(chain.chainId)
          .then(async () => {
            // What the node can do, detected once for every report of the chain, and what a missing capability costs.
            const caps = await evm.capabilities(chain.chainId)
            const degraded = degradation(caps)
            io.err([`chain ${chain.chainId} node capabilities${degraded ? ` (degraded: ${degraded})` : ''}:`, ...formatCapabilityTable(caps).map((l) => `  ${l}`)].join('\n'))
          })
          .catch((error: unknown) => io.err(`chain ${chain.chainId}: ${(error as Error).message}; its reports answer 503 until it does`))
      }
    }
    return { app, url: address, config, store, devnet, close: closeAll }
  } catch (error) {
    await closeAll()
    throw error
  }
}

/**
 * Readiness of one EVM chain: its node answers for the chain, and what it can do. A node that
 * answers but lacks a capability reports cost is "degraded" (the service answers, with less).
 */
export function evmChainReadiness(service: EvmReportServiceExtended, chainId: number): ReadinessCheck {
  return {
    name: `chain ${chainId}`,
    check: async (signal) => {
      await service.ping(chainId, signal)
      const caps = await service.capabilities(chainId)
      return { degraded: degradation(caps), capabilities: capabilityRows(caps) }
    },
  }
}

/**
 * The demo key of the local world for one view: kept in `<dataDir>/devnet/demo-api-key` (`v1`) or
 * `demo-api-key-<format>` so that every start prints the same one, with that format of its own; a
 * new one is created when it is missing or was revoked.
 */
export async function demoApiKey(keys: ApiKeyRepository, dataDir: string, format: ReportFormat = DEFAULT_REPORT_FORMAT): Promise<string> {
  const dir = join(dataDir, 'devnet')
  const file = join(dir, format === DEFAULT_REPORT_FORMAT ? 'demo-api-key' : `demo-api-key-${format}`)
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim()
    const principal = await keys.verify(key)
    if (principal) {
      if (principal.format !== format) await keys.setFormat(principal.keyId, format)
      return key
    }
  }
  const created = await keys.create({ userId: DEMO_USER, name: `local demo (${format})`, format })
  mkdirSync(dir, { recursive: true })
  writeFileSync(file, `${created.key}\n`, { mode: 0o600 })
  return created.key
}

function demoBanner(service: RunningService, keys: Record<ReportFormat, string>): string[] {
  const base = service.url.replace('0.0.0.0', '127.0.0.1')
  const key = keys.v1
  const chainId = service.devnet?.chain.chain.chainId
  const lines = ['', 'The local world is running. Try (demo API keys of user "demo"):', '']
  for (const t of service.devnet?.chain.showcase ?? []) {
    lines.push(`  # ${t.name} (${t.behaviours.join(', ') || 'clean'})`)
    lines.push(`  curl -s -H 'x-api-key: ${key}' '${base}/api/v1/tokens/information/${t.address}?chainId=${chainId}'`)
  }
  for (const mint of service.devnet?.solana?.showcase ?? []) {
    lines.push(`  # Solana: ${mint.name}`)
    lines.push(`  curl -s -H 'x-api-key: ${key}' '${base}/api/v1/tokens/solana/${mint.address}'`)
  }
  const first = service.devnet?.chain.showcase[0]
  if (first) {
    lines.push(`  # ${first.name} in the view public clients of the hosted QuillCheck service read (its key has format quillcheck-v2)`)
    lines.push(`  curl -s -H 'x-api-key: ${keys['quillcheck-v2']}' '${base}/api/v1/tokens/information/${first.address}?chainId=${chainId}'`)
  }
  lines.push(`  # audit history (record audits with: npx tokenrisk audit <path> --project demo --user ${DEMO_USER})`)
  lines.push(`  curl -s -H 'x-api-key: ${key}' '${base}/api/v1/projects/audit/history?projectId=demo&userId=${DEMO_USER}'`)
  lines.push(
    '',
    `  Which key: v1 ${keys.v1} for clients written to the API contract; quillcheck-v2 ${keys['quillcheck-v2']} for clients of the hosted QuillCheck service (agents, chat formatters, MCP pass-throughs; its report widgets call /api/v1/tokens/frontend/information/<address>); a key made without --format answers in DEFAULT_FORMAT (${service.config.defaultFormat}). docs/compat.md`,
  )
  const pages = service.config.publicPages === 'on' ? 'open to anyone' : `paste the v1 key ${keys.v1} once`
  lines.push('', `  In the browser: ${base}/ (${pages})`)
  lines.push(`  AI agents: MCP at ${base}/mcp with an x-api-key header, or npx tokenrisk mcp over stdio (README, "AI agents (MCP)")`)
  lines.push(`  API docs: ${base}/docs    all zoo tokens: ${service.devnet?.chain.manifestPath ?? join(service.config.dataDir, 'devnet', 'manifest.json')}`, '')
  return lines
}

/** How often a service run by npm looks whether npm is still there. */
const PARENT_CHECK_MS = 1_000

/**
 * `tokenrisk serve`: runs until SIGTERM or SIGINT, then stops gracefully, with everything it
 * started (report workers, the local chain's anvil, the local Solana). It first takes its data
 * directory (data-dir.ts): a second service on the same directory stops there, in one line, before
 * it starts or writes anything. Run by `npm start`, it also stops when npm is gone (npm's shell
 * does not always pass a signal on).
 */
export async function serveCommand(argv: string[], io: Io): Promise<number> {
  const { config } = parseCommand(COMMANDS.serve, argv, io.env)
  const started = Date.now()
  // With PostgreSQL and configured chains the data directory holds nothing of the service's:
  // instances behind one address may share it.
  // A configuration error is told before the data directory is taken (or created).
  if (config.only !== 'audits') loadChainRegistry({ env: io.env, chainsFile: config.chainsFile })
  const lock = !config.databaseUrl || runsLocalWorld(config, io.env) ? lockDataDir(config.dataDir, 'serve') : undefined
  let service: RunningService
  try {
    await assertPortFree(config.host, config.port)
    service = await startService(config, io)
  } catch (error) {
    lock?.release()
    throw error
  }
  lock?.setUrl(service.url.replace('0.0.0.0', '127.0.0.1'))
  io.err(`tokenrisk listening on ${service.url} (store: ${service.store.location}; ready in ${Date.now() - started} ms)`)
  if (service.devnet) {
    const repository = createApiKeyRepository(service.store)
    const keys = { v1: await demoApiKey(repository, config.dataDir, 'v1'), 'quillcheck-v2': await demoApiKey(repository, config.dataDir, 'quillcheck-v2') }
    for (const line of demoBanner(service, keys)) io.out(line)
  }
  return new Promise<number>((resolve) => {
    let stopping = false
    const stop = (why: string) => {
      if (stopping) return
      stopping = true
      io.err(`${why}: finishing in-flight requests, then stopping`)
      const force = setTimeout(() => {
        io.err('graceful stop took too long; exiting')
        lock?.release()
        resolve(1)
      }, SHUTDOWN_GRACE_MS + 5_000)
      force.unref()
      service.close().then(
        () => {
          clearTimeout(force)
          lock?.release()
          resolve(0)
        },
        () => {
          lock?.release()
          resolve(1)
        },
      )
    }
    // A second signal while stopping (Ctrl-C reaches npm and the service both) changes nothing.
    process.on('SIGTERM', () => stop('SIGTERM'))
    process.on('SIGINT', () => stop('SIGINT'))
    if (io.env.npm_lifecycle_event) {
      const parent = process.ppid
      const watch = setInterval(() => {
        if (process.ppid !== parent) stop('npm has stopped')
      }, PARENT_CHECK_MS)
      watch.unref()
    }
  })
}
