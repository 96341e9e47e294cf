import { createHash, timingSafeEqual } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { AuthError } from '../../errors.ts'
import { withDeadline } from '../deadline.ts'
import type { Metrics } from '../metrics.ts'

/** How long readiness waits for each dependency. */
export const READINESS_TIMEOUT_MS = 3_000

/** What a dependency that answers says of itself: degraded (it answers, with less), and its capabilities. */
export interface ReadinessDetail {
  /** Why answers are degraded ("" when they are not). */
  degraded: string
  /** Capabilities of the dependency (a chain's node), each with what its absence costs. */
  capabilities?: { capability: string; value: string; cost: string }[]
}

export interface ReadinessCheck {
  name: string
  check(signal: AbortSignal): Promise<void | ReadinessDetail>
}

const Status = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('unavailable')]),
  checks: Type.Optional(Type.Record(Type.String(), Type.String())),
  capabilities: Type.Optional(
    Type.Record(Type.String(), Type.Array(Type.Object({ capability: Type.String(), value: Type.String(), cost: Type.String() }))),
  ),
})

/**
 * `/healthz` (the process answers), `/readyz` (its dependencies answer), `/metrics`. With a
 * metrics token, `/metrics` answers only `Authorization: Bearer <token>` (compared in constant
 * time): route names, chains and traffic figures are not for everyone.
 */
export function healthRoutes(app: FastifyInstance, deps: { metrics: Metrics; checks: ReadinessCheck[]; metricsToken?: string }) {
  const expected = deps.metricsToken ? digest(deps.metricsToken) : undefined
  app.get(
    '/healthz',
    { schema: { tags: ['operations'], summary: 'Liveness: the process answers', response: { 200: Status } } },
    async () => ({ status: 'ok' as const }),
  )

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness: the store and every configured chain answer',
        description: `Each dependency gets ${READINESS_TIMEOUT_MS} ms. 503 when any fails; \`checks\` names each with "ok", "degraded: <why>" (it answers, with less: a chain's node that refuses state overrides) or the reason it failed. \`capabilities\` gives each chain's node capabilities and what a missing one costs in the reports.`,
        response: { 200: Status, 503: Status },
      },
    },
    async (_request, reply) => {
      const capabilities: Record<string, NonNullable<ReadinessDetail['capabilities']>> = {}
      const results = await Promise.all(
        deps.checks.map(async ({ name, check }) => {
          try {
            const detail = await withDeadline(READINESS_TIMEOUT_MS, undefined, check)
            if (detail?.capabilities) capabilities[name] = detail.capabilities
            return [name, detail?.degraded ? `degraded: ${detail.degraded}` : 'ok'] as const
          } catch (error) {
            return [name, (error as Error).message || 'failed'] as const
          }
        }),
      )
      const failed = results.some(([, r]) => r !== 'ok' && !r.startsWith('degraded: '))
      const degraded = results.some(([, r]) => r.startsWith('degraded: '))
      reply.status(failed ? 503 : 200)
      const status = failed ? ('unavailable' as const) : degraded ? ('degraded' as const) : ('ok' as const)
      return { status, checks: Object.fromEntries(results), ...(Object.keys(capabilities).length > 0 ? { capabilities } : {}) }
    },
  )

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (expected) {
      const match = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')
      if (!match || !timingSafeEqual(digest(match[1].trim()), expected)) {
        reply.header('www-authenticate', 'Bearer')
        throw new AuthError('/metrics needs the metrics token: send Authorization: Bearer <METRICS_TOKEN>')
      }
    }
    reply.type(deps.metrics.registry.contentType)
    return deps.metrics.registry.metrics()
  })
}

const digest = (token: string): Buffer => createHash('sha256').update(token).digest()
