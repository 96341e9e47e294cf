import { Type, type Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { AuthError, InputError } from '../../errors.ts'
import { HISTORY_PAGE_MAX_BYTES, type AuditRepository } from '../../store/repositories/audits.ts'
import { AUDIT_LIMITS, AuditHistory, HISTORY_PAGING } from '../../contract/audit-history.ts'
import { errorResponses } from '../schemas/responses.ts'

const { defaultLimit: DEFAULT_LIMIT, maxLimit: MAX_LIMIT, maxPage: MAX_PAGE } = HISTORY_PAGING
/** Header of a history page some of whose audits list only their first vulnerabilities. */
export const TRUNCATED_HEADER = 'x-vulnerabilities-truncated'
const MIB = 1024 * 1024

const HistoryQuery = Type.Object({
  projectId: Type.String({ minLength: 1, maxLength: 200, description: 'identifier of the project' }),
  userId: Type.String({
    minLength: 1,
    maxLength: 200,
    description: "user identifier; a key reads only its own user's projects unless it is an admin key",
  }),
  limit: Type.Optional(
    Type.String({ pattern: '^[0-9]+$', description: `maximum number of audits to return: 1 to ${MAX_LIMIT}, default ${DEFAULT_LIMIT}` }),
  ),
  page: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: '1-based page number, default 1' })),
})
type HistoryQuery = Static<typeof HistoryQuery>

function positive(name: 'limit' | 'page', raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n < 1 || n > max) {
    throw new InputError(`${name} must be a positive integer no greater than ${max}`)
  }
  return n
}

export function auditHistoryRoute(app: FastifyInstance, deps: { audits: AuditRepository }) {
  app.get<{ Querystring: HistoryQuery }>(
    '/api/v1/projects/audit/history',
    {
      config: { auth: true },
      schema: {
        operationId: 'getProjectAuditHistory',
        tags: ['audits'],
        summary: 'Audit history of a project',
        description: [
          "Audits recorded for a project, newest first (audits recorded at the same instant: the later recorded first).",
          `Paging: \`page\` is 1-based (default 1); \`limit\` defaults to ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}.`,
          '`auditCount` is the total number of audits of the project, not the size of the page.',
          'A page past the end, or a project without audits, answers `{"audits":[],"auditCount":N}`.',
          "An API key reads only its own user's projects: another `userId` answers 401 unless the key is an admin key.",
          'A project that does not belong to `userId` reads as a project without audits.',
          `A page is at most ${HISTORY_PAGE_MAX_BYTES / MIB} MiB: when its audits do not fit, the largest list only their first vulnerabilities (their \`vulnerabilityCount\` stays whole; \`projectReportLink\` lists them all) and the answer carries \`${TRUNCATED_HEADER}: <number of such audits>\`.`,
          `An audit lists every finding, most severe first, up to its size bound of ${AUDIT_LIMITS.vulnerabilities} findings and ${AUDIT_LIMITS.auditBytes / MIB} MiB (far above any real project; the report page says what was not listed past it); \`vulnerabilityCount\` counts every finding, listed or not. A vulnerability found by tokenrisk's analyzer carries \`detector\`, its detector's stable id (docs/detectors.md), beyond the contract's fields.`,
        ].join('\n\n'),
        security: [{ apiKey: [] }],
        querystring: HistoryQuery,
        response: { 200: AuditHistory, ...errorResponses(400, 401, 429, 503) },
      },
    },
    async (request, reply) => {
      const { projectId, userId } = request.query
      const limit = positive('limit', request.query.limit, DEFAULT_LIMIT, MAX_LIMIT)
      const page = positive('page', request.query.page, 1, MAX_PAGE)
      const principal = request.principal
      if (!principal) throw new AuthError('an API key is required')
      if (!principal.admin && principal.userId !== userId) {
        throw new AuthError("this API key may only read its own user's projects")
      }
      // The store hands the page over as JSON text already in the response's shape.
      const { body, truncatedAudits } = await deps.audits.historyPage({ projectId, userId, limit, page })
      if (truncatedAudits > 0) reply.header(TRUNCATED_HEADER, String(truncatedAudits))
      return reply.type('application/json; charset=utf-8').send(body)
    },
  )
}
