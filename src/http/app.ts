import compress from '@fastify/compress'
import cors from '@fastify/cors'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { Store } from '../store/database.ts'
import type { ApiKeyRepository } from '../store/repositories/api-keys.ts'
import type { AuditRepository } from '../store/repositories/audits.ts'
import { anonymousColdBudget, registerAuth, API_KEY_HEADER, type OpenPages } from './auth.ts'
import { errorBody, formatSchemaErrors, handleClientError, handleError, handleFrameworkError, quotedPath, requestIdOf, sendErrorPage, wantsHtml } from './errors.ts'
import { quoted } from '../web/error-page.ts'
import { redactedRequest } from './redact.ts'
import type { Metrics } from './metrics.ts'
import type { RateLimiter } from './rate-limit.ts'
import { auditHistoryRoute } from './routes/audit-history.ts'
import { healthRoutes, type ReadinessCheck } from './routes/health.ts'
import { reportPageRoute } from './routes/report-page.ts'
import { planUsageRoutes } from './routes/plan-usage.ts'
import { mcpRoutes } from './routes/mcp.ts'
import { createMemoryUsageCounter, type UsageCounter } from './usage.ts'
import { tokenRoutes } from './routes/tokens.ts'
import { AuditHistory } from '../contract/audit-history.ts'
import { ErrorBody, NotSupportedBody } from '../contract/common.ts'
import { SolanaReport } from '../contract/solana-report.ts'
import { TokenReport } from '../contract/token-report.ts'
import { QuillcheckV2Report } from '../contract/quillcheck-v2.ts'
import { QuillcheckDescriptionReport } from '../contract/quillcheck-description.ts'
import type { ReportFormat } from '../contract/report-formats.ts'
import type { EvmReportService, SolanaReportService } from '../contract/services.ts'
import type { McpServices } from '../mcp/server.ts'
import { loadWebAssets } from '../web/assets.ts'
import { webRoutes } from '../web/routes.ts'
import type { PageExample } from '../web/shell.ts'
import { createPageSessions } from '../web/session.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves when no handler runs any more (true) or after `timeoutMs` (false). */
    drain(timeoutMs: number): Promise<boolean>
  }
}

/** Largest request body accepted: every route but `/mcp` (which sets its own) is a GET, so bodies are refused early. */
const BODY_LIMIT_BYTES = 16 * 1024
/**
 * Every route's backstop deadline is the request deadline plus this: routes that run their own
 * deadline (token reports) answer first, with their own message.
 */
const HANDLER_DEADLINE_GRACE_MS = 1_000
/** Longest path parameter routed (longer ones answer 400 from the route's validation; Node caps a request line itself). */
const MAX_PARAM_LENGTH = 4096
/** Answers smaller than this are sent uncompressed. */
const COMPRESS_THRESHOLD_BYTES = 1024

export interface AppDeps {
  store: Store
  keys: ApiKeyRepository
  audits: AuditRepository
  rateLimiter: RateLimiter
  /** Requests per key and month, for the quota endpoint; in process memory when absent. */
  usage?: UsageCounter
  metrics: Metrics
  /** Token engines; when absent the token surface is not served (`--only audits`). */
  tokens?: { evm: EvmReportService; solana: SolanaReportService }
  /** Serve the audit surface (history and report pages); default true. */
  serveAudits?: boolean
  /** Audits of sources given as text, for the MCP endpoint's `audit_solidity` (with the audit surface); not offered when absent. */
  sourceAudits?: McpServices['sourceAudits']
  readiness?: ReadinessCheck[]
  options: {
    publicBaseUrl: string
    requestTimeoutMs: number
    reportCacheTtlSeconds: number
    defaultRateLimitRps: number
    corsOrigins: string[]
    /** Bearer token `/metrics` requires; open when absent. */
    metricsToken?: string
    /** The process's pino logger; no request logging when absent. */
    logger?: FastifyBaseLogger
    /** Tokens the home page offers to try (the local worlds' showcase). */
    pageExamples?: PageExample[]
    /** Each request's two log lines at debug level rather than info (the service's terminal shows its start banner). */
    quietRequestLogs?: boolean
    /** The view of token reports for a key without a format of its own (`DEFAULT_FORMAT`); `v1` when absent. */
    defaultFormat?: ReportFormat
    /**
     * The token pages (served with the token surface): open to anyone at `ratePerMinute` per client
     * address and `coldPerMinute` cold reports for all anonymous visitors together (`PUBLIC_PAGES=on`,
     * `PUBLIC_PAGES_COLD_REPORTS`), else a person pastes an API key into the page.
     */
    pages?: { open: boolean; ratePerMinute: number; coldPerMinute: number; secret?: string }
  }
}

/**
 * Request logs at debug level: on the terminal that shows the start banner, two lines a request
 * would scroll it away. Failed requests are still logged as errors.
 */
class QuietRequestLogs extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request')
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored')
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed')
  }
}

/**
 * Builds the HTTP application: plugins, then app plugins (auth, metrics), then routes. It does
 * not listen; `main` does, tests use `app.inject()`.
 *
 * @example
 * const app = await buildApp(deps)
 * const res = await app.inject({ url: '/healthz' })
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { options } = deps
  const app = Fastify({
    // Request logs carry the URL with any API key in it redacted (a key put in the query string by mistake).
    ...(options.logger ? { loggerInstance: options.logger.child({}, { serializers: { req: redactedRequest } }) } : { logger: false }),
    ...(options.quietRequestLogs ? { logController: new QuietRequestLogs() } : {}),
    bodyLimit: BODY_LIMIT_BYTES,
    handlerTimeout: options.requestTimeoutMs + HANDLER_DEADLINE_GRACE_MS,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // A caller's x-request-id is kept when short and plain, else replaced (it is echoed and logged).
    requestIdHeader: false,
    genReqId: (req) => requestIdOf(req.headers['x-request-id']),
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
    schemaErrorFormatter: formatSchemaErrors,
    // Over-long path parameters reach the routes' own validation (a 400 that says which value is
    // wrong, in the contract's shape, with x-request-id) instead of the framework's bare 414.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    ajv: { customOptions: { allErrors: false, coerceTypes: false } },
  })

  // Handlers still running (also for clients that went away): a graceful stop waits for them
  // before the store closes under them. A handler keeps its kind: one that answers with
  // `reply.send()` and returns nothing must not become an async one resolving `undefined`, which
  // Fastify would send a second time, as an empty body, over the first (plugins' routes do that).
  let running = 0
  const idle: (() => void)[] = []
  const finished = () => {
    if (--running === 0) for (const resolve of idle.splice(0)) resolve()
  }
  app.addHook('onRoute', (route) => {
    const handler = route.handler
    route.handler = function tracked(this: FastifyInstance, request, reply) {
      running++
      let result: unknown
      try {
        result = handler.call(this, request, reply)
      } catch (error) {
        finished()
        throw error
      }
      if (result instanceof Promise) return result.finally(finished)
      finished()
      return result
    }
  })
  app.decorate('drain', (timeoutMs: number) =>
    running === 0
      ? Promise.resolve(true)
      : new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), timeoutMs)
          idle.push(() => {
            clearTimeout(timer)
            resolve(true)
          })
        }),
  )

  // Once closing, answers of requests still in flight close their connection, so that the
  // server's close is not held up by keep-alive connections that would otherwise stay open.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id)
    if (closing) reply.header('connection', 'close')
    return payload
  })
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched'
    deps.metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000)
  })
  app.setErrorHandler(handleError)
  app.setNotFoundHandler((request, reply) => {
    // A browser gets a page with a way back; a program, the one error shape.
    if (wantsHtml(request)) return sendErrorPage(reply, 404, 'No page here', `There is no page at ${quoted(request.url)}.`, request.url)
    return reply.status(404).send(errorBody(404, `no route ${request.method} ${quotedPath(request.url)}`))
  })

  if (options.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: options.corsOrigins.includes('*') ? '*' : options.corsOrigins,
      methods: ['GET', 'HEAD', 'OPTIONS', 'POST'],
      // The key travels in x-api-key or as `Authorization: Bearer` (hosted agents send only that).
      allowedHeaders: [API_KEY_HEADER, 'authorization', 'if-none-match', 'content-type', 'mcp-protocol-version'],
      exposedHeaders: ['etag', 'retry-after', 'x-request-id', 'x-vulnerabilities-truncated'],
    })
  }
  await app.register(compress, { threshold: COMPRESS_THRESHOLD_BYTES, global: true })

  app.addSchema(ErrorBody)
  app.addSchema(TokenReport)
  app.addSchema(QuillcheckV2Report)
  app.addSchema(QuillcheckDescriptionReport)
  app.addSchema(NotSupportedBody)
  app.addSchema(SolanaReport)
  app.addSchema(AuditHistory)

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'tokenrisk',
        version: '1.0.0',
        description: [
          'Token risk reports (EVM and Solana) and the audit history of Solidity projects. Read-only.',
          'Every endpoint under `/api/v1` requires an API key in the `x-api-key` header (`tokenrisk keys create`);',
          'with open token pages (`PUBLIC_PAGES=on`) the pages\' own calls to the token reports and the chain list carry a page session (a cookie their HTML sets) instead.',
          'Errors are JSON objects with a `message` string. A missing required query parameter answers 400 with',
          "`message` exactly `must have required property '<name>'`.",
        ].join(' '),
      },
      servers: [{ url: options.publicBaseUrl }],
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } },
      },
      tags: [
        { name: 'tokens', description: 'token risk reports' },
        { name: 'audits', description: 'audit history of projects' },
        { name: 'account', description: 'the calling key: plan, rate limit, usage' },
        { name: 'agents', description: 'the MCP endpoint: the same reports and audits as tools for AI agents' },
        { name: 'operations', description: 'health, readiness, metrics' },
      ],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  })
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } })
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())

  const openPages: OpenPages | undefined =
    deps.tokens && options.pages?.open
      ? {
          sessions: createPageSessions({ secret: options.pages.secret }),
          ratePerMinute: options.pages.ratePerMinute,
          coldPerMinute: options.pages.coldPerMinute,
        }
      : undefined
  registerAuth(app, { keys: deps.keys, rateLimiter: deps.rateLimiter, defaultRateLimitRps: options.defaultRateLimitRps, pages: openPages })
  const usage = deps.usage ?? createMemoryUsageCounter()
  planUsageRoutes(app, { usage, defaultRateLimitRps: options.defaultRateLimitRps, logger: options.logger })

  healthRoutes(app, { metrics: deps.metrics, metricsToken: options.metricsToken, checks: [{ name: 'store', check: () => deps.store.ping() }, ...(deps.readiness ?? [])] })
  if (deps.tokens) {
    tokenRoutes(app, {
      evm: deps.tokens.evm,
      solana: deps.tokens.solana,
      requestTimeoutMs: options.requestTimeoutMs,
      cacheTtlSeconds: options.reportCacheTtlSeconds,
      defaultFormat: options.defaultFormat,
      compressFromBytes: COMPRESS_THRESHOLD_BYTES,
      anonymousCold: openPages && anonymousColdBudget(deps.rateLimiter, openPages.coldPerMinute),
    })
    webRoutes(app, { assets: loadWebAssets(), sessions: openPages?.sessions, basePath: new URL(options.publicBaseUrl).pathname.replace(/\/+$/, ''), examples: options.pageExamples })
  }
  if (deps.serveAudits !== false) {
    auditHistoryRoute(app, { audits: deps.audits })
    reportPageRoute(app, { audits: deps.audits })
  }
  mcpRoutes(app, {
    services: {
      ...deps.tokens,
      ...(deps.serveAudits !== false ? { audits: deps.audits, sourceAudits: deps.sourceAudits } : {}),
    },
    requestTimeoutMs: options.requestTimeoutMs,
    defaultFormat: options.defaultFormat,
    rateLimiter: deps.rateLimiter,
    usage,
    defaultRateLimitRps: options.defaultRateLimitRps,
    logger: options.logger,
    linkBase: options.publicBaseUrl.replace(/\/+$/, ''),
  })
  return app
}
