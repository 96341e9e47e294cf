import { Type, type Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { FINDINGS_PER_PAGE, renderReportPage } from '../../audit/report/page.ts'
import { InputError, NotFoundError } from '../../errors.ts'
import { errorResponses } from '../schemas/responses.ts'
import type { AuditRepository } from '../../store/repositories/audits.ts'

/** How long browsers may keep a report page: audits never change once recorded. */
const REPORT_PAGE_MAX_AGE_SECONDS = 3600

const Params = Type.Object({ reportId: Type.String({ description: 'the unguessable id of the report' }) })
const Query = Type.Object({
  page: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: `1-based page of the findings (${FINDINGS_PER_PAGE} a page), default 1` })),
})

/**
 * `/reports/<id>`: the shareable HTML report of one audit. No API key: the unguessable link is
 * the secret, so the page tells browsers and crawlers not to pass it on or index it, and runs no
 * script at all.
 */
export function reportPageRoute(app: FastifyInstance, deps: { audits: AuditRepository }) {
  app.get<{ Params: Static<typeof Params>; Querystring: Static<typeof Query> }>(
    '/reports/:reportId',
    {
      config: { htmlErrors: true },
      schema: {
        tags: ['audits'],
        summary: 'Shareable HTML report of an audit (the `projectReportLink` of the history)',
        description: `Served without an API key: whoever holds the link can read the report. Findings are shown ${FINDINGS_PER_PAGE} a page (\`?page=N\`).`,
        params: Params,
        querystring: Query,
        produces: ['text/html'],
        response: {
          200: Type.String({ description: 'the report page (text/html)' }),
          ...errorResponses(400, 404, 503),
        },
      },
    },
    async (request, reply) => {
      const { reportId } = request.params
      const page = request.query.page === undefined ? 1 : Number(request.query.page)
      if (page < 1) throw new InputError('page must be a positive integer')
      const offset = (page - 1) * FINDINGS_PER_PAGE
      const report = /^[A-Za-z0-9_-]{16,64}$/.test(reportId)
        ? await deps.audits.report(reportId, { offset, limit: FINDINGS_PER_PAGE })
        : undefined
      if (!report) throw new NotFoundError('no report at this address')
      const pages = Math.max(1, Math.ceil(report.listedCount / FINDINGS_PER_PAGE))
      if (page > pages) throw new NotFoundError(`this report has ${pages} page${pages === 1 ? '' : 's'} of findings`)
      const html = renderReportPage({
        projectId: report.projectId,
        projectName: report.projectName,
        createdAt: report.createdAt,
        audit: { ...report.audit, projectReportLink: deps.audits.reportLink(report.reportId) },
        skipped: report.skipped,
        unlisted: report.unlisted,
        paging: { offset, listedCount: report.listedCount, page, pages, href: (n) => (n === 1 ? `./${reportId}` : `./${reportId}?page=${n}`) },
      })
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', `private, max-age=${REPORT_PAGE_MAX_AGE_SECONDS}`)
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
        .header('referrer-policy', 'no-referrer')
        .header('x-content-type-options', 'nosniff')
        .header('x-robots-tag', 'noindex, nofollow')
        .send(html)
    },
  )
}
