import type { FastifyInstance } from 'fastify'
import { buildApp, type AppDeps } from '../../src/http/app.ts'
import { createMetrics } from '../../src/http/metrics.ts'
import { createMemoryRateLimiter, type RateLimiter } from '../../src/http/rate-limit.ts'
import type { Store } from '../../src/store/database.ts'
import { createApiKeyRepository, type ApiKeyRepository } from '../../src/store/repositories/api-keys.ts'
import { createAuditRepository, type AuditRepository } from '../../src/store/repositories/audits.ts'

export const TEST_BASE_URL = 'https://tokenrisk.test'

export interface TestApp {
  app: FastifyInstance
  keys: ApiKeyRepository
  audits: AuditRepository
}

/** The real app on a real store, as `serve` builds it, with overridable parts. */
export async function buildTestApp(
  store: Store,
  overrides: Partial<Omit<AppDeps, 'options'>> & { options?: Partial<AppDeps['options']>; rateLimiter?: RateLimiter } = {},
): Promise<TestApp> {
  const keys = createApiKeyRepository(store)
  const audits = overrides.audits ?? createAuditRepository(store, { reportLink: (id) => `${TEST_BASE_URL}/reports/${id}` })
  const { options, ...rest } = overrides
  const app = await buildApp({
    store,
    keys,
    audits,
    rateLimiter: createMemoryRateLimiter(),
    metrics: createMetrics({ defaultMetrics: false }),
    ...rest,
    options: {
      publicBaseUrl: TEST_BASE_URL,
      requestTimeoutMs: 5_000,
      reportCacheTtlSeconds: 30,
      defaultRateLimitRps: 0,
      corsOrigins: [],
      ...options,
    },
  })
  return { app, keys, audits }
}
