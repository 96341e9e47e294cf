import { createHash, timingSafeEqual } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { AuthError } from '../../errors.ts'
import { withDeadline } from '../deadline.ts'
import type { Metrics } from '../metrics.ts'

/** How long readiness waits for each dependency. */
export const READINESS_TIMEOUT_MS = 3_000

export interface ReadinessCheck {
  name: string
  check(signal: AbortSignal): Promise<void>
}

const Status = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  checks: Type.Optional(Type.Record(Type.String(), Type.String())),
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
        description: `Each dependency gets ${READINESS_TIMEOUT_MS} ms. 503 when any fails; \`checks\` names each with "ok" or the reason.`,
        response: { 200: Status, 503: Status },
      },
    },
    async (_request, reply) => {
      const results = await Promise.all(
        deps.checks.map(async ({ name, check }) => {
          try {
            await withDeadline(READINESS_TIMEOUT_MS, undefined, check)
            return [name, 'ok'] as const
          } catch (error) {
            return [name, (error as Error).message || 'failed'] as const
          }
        }),
      )
      const ok = results.every(([, r]) => r === 'ok')
      reply.status(ok ? 200 : 503)
      return { status: ok ? ('ok' as const) : ('unavailable' as const), checks: Object.fromEntries(results) }
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
