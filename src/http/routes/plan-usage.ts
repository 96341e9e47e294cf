import { Type, type Static } from '@sinclair/typebox'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { errorResponses } from '../schemas/responses.ts'
import { USAGE_PERIOD, usagePeriod, type UsageCounter } from '../usage.ts'

/** The plan every key of a self-hosted tokenrisk has: no request allowance, a per-second rate limit. */
export const SELF_HOSTED_PLAN = 'self-hosted'

const Nullable = (description: string) => Type.Unsafe<number | null>({ type: ['integer', 'null'], description })

export const PlanUsage = Type.Object(
  {
    success: Type.Boolean({ description: 'true' }),
    data: Type.Object(
      {
        apiKeyId: Type.String({ description: 'the key\'s id (the part after `trk_`, never the secret), as `tokenrisk keys list` shows it' }),
        userName: Type.String({ description: 'the user the key belongs to' }),
        email: Type.String({ description: '"": tokenrisk keeps no e-mail addresses' }),
        usageStats: Type.Object(
          {
            plan: Type.String({ description: `"${SELF_HOSTED_PLAN}": a tokenrisk key has no request allowance, only a rate limit` }),
            remainingRequests: Nullable('requests left in the period; null: no allowance'),
            totalRequests: Nullable('requests the period allows; null: no allowance'),
            usedRequests: Type.Integer({ description: 'requests this key made in the period (this one included): every request that passed the key check and the rate limit; this process\'s since it started, or every instance\'s with REDIS_URL' }),
            period: Type.String({ description: `"${USAGE_PERIOD}": the calendar month, UTC` }),
            periodStart: Type.String({ description: 'start of the period, ISO 8601' }),
            periodEnd: Type.String({ description: 'end of the period (exclusive), ISO 8601' }),
            rateLimit: Type.String({ description: 'requests per second the key may make, as "<n> / Sec" (the key\'s own, else RATE_LIMIT_RPS); "unlimited" when neither sets one' }),
            rateLimitRps: Type.Integer({ description: 'the same, as a number; 0 when unlimited' }),
            error: Type.Null({ description: 'null' }),
          },
          { additionalProperties: false, description: 'the key\'s plan, rate limit and usage' },
        ),
      },
      { additionalProperties: false, description: 'the key and its usage' },
    ),
  },
  { additionalProperties: false, $id: 'PlanUsage', description: 'Plan, rate limit and usage of the calling API key, in the field names of the hosted service\'s quota endpoint.' },
)
export type PlanUsage = Static<typeof PlanUsage>

export interface PlanUsageDeps {
  usage: UsageCounter
  /** Requests per second of a key without its own limit (0: none). */
  defaultRateLimitRps: number
  logger?: FastifyBaseLogger
}

/**
 * `GET /api/v1/auth/user/plan/usage`, and the counting it reports: every request on a route that
 * needs a key counts once the key check and the rate limit let it through. Register after the
 * auth hook (hooks run in order), so that refused requests do not count.
 */
export function planUsageRoutes(app: FastifyInstance, deps: PlanUsageDeps) {
  app.addSchema(PlanUsage)
  app.addHook('onRequest', async (request) => {
    const keyId = request.principal?.keyId
    if (!request.routeOptions.config?.auth || request.routeOptions.config.meteredPerCall || !keyId) return
    // Counting never holds up or fails the request.
    deps.usage.count(keyId).catch((error: unknown) => deps.logger?.warn({ err: error }, 'usage not counted'))
  })

  app.get(
    '/api/v1/auth/user/plan/usage',
    {
      config: { auth: true },
      schema: {
        operationId: 'getPlanUsage',
        tags: ['account'],
        summary: 'Plan, rate limit and usage of the calling key',
        description:
          'The calling key\'s plan, rate limit and requests this month, in the field names of the hosted service\'s quota endpoint. ' +
          'A self-hosted tokenrisk has no request allowance: `totalRequests` and `remainingRequests` are null, and `usedRequests` says how many requests the key made.',
        security: [{ apiKey: [] }],
        response: { 200: Type.Ref('PlanUsage'), ...errorResponses(401, 429, 503) },
      },
    },
    async (request): Promise<PlanUsage> => {
      const principal = request.principal!
      const now = new Date()
      const period = usagePeriod(now)
      const rps = principal.rateLimitRps ?? deps.defaultRateLimitRps
      return {
        success: true,
        data: {
          apiKeyId: principal.keyId,
          userName: principal.userId,
          email: '',
          usageStats: {
            plan: SELF_HOSTED_PLAN,
            remainingRequests: null,
            totalRequests: null,
            usedRequests: await deps.usage.used(principal.keyId, now),
            period: USAGE_PERIOD,
            periodStart: period.start.toISOString(),
            periodEnd: period.end.toISOString(),
            rateLimit: rps > 0 ? `${rps} / Sec` : 'unlimited',
            rateLimitRps: rps,
            error: null,
          },
        },
      }
    },
  )
}
