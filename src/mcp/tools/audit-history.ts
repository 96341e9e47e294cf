import { Type } from '@sinclair/typebox'
import { AUDIT_LIMITS, HISTORY_PAGING, SEVERITIES, type AuditHistory, type VulnerabilityCount } from '../../contract/audit-history.ts'
import type { AuditRepository } from '../../store/repositories/audits.ts'
import { defineTool } from '../define-tool.ts'
import { projectUser } from '../project-user.ts'

/** Audits of a page described one line each in the verdict; the rest are in the structured answer. */
const MAX_AUDIT_LINES = 10
/** Findings of each audit an answer lists, by default and at most: the rest are on further findings pages and the report page. */
export const FINDINGS_PAGING = { defaultLimit: 10, maxLimit: 100 } as const
/** Characters of a finding's snippet, explanation and recommendation an answer keeps (the report page has them whole). */
const MAX_FINDING_TEXT_CHARS = 300
const clip = (text: string) => (text.length > MAX_FINDING_TEXT_CHARS ? `${text.slice(0, MAX_FINDING_TEXT_CHARS - 1)}…` : text)

const Input = Type.Object({
  projectId: Type.String({ minLength: 1, maxLength: AUDIT_LIMITS.id, description: 'identifier of the project (as `tokenrisk audit --project` recorded it)' }),
  userId: Type.Optional(
    Type.String({ minLength: 1, maxLength: AUDIT_LIMITS.id, description: "the user the project belongs to; default: the API key's user (another user's needs an admin key)" }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: HISTORY_PAGING.maxLimit, description: `audits per page, 1 to ${HISTORY_PAGING.maxLimit}; default ${HISTORY_PAGING.defaultLimit}` })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: HISTORY_PAGING.maxPage, description: '1-based page number; default 1' })),
  findingsPerPage: Type.Optional(
    Type.Integer({ minimum: 1, maximum: FINDINGS_PAGING.maxLimit, description: `findings listed per audit, 1 to ${FINDINGS_PAGING.maxLimit}; default ${FINDINGS_PAGING.defaultLimit}` }),
  ),
  findingsPage: Type.Optional(Type.Integer({ minimum: 1, maximum: HISTORY_PAGING.maxPage, description: "1-based page of each audit's findings; default 1" })),
})

/** "1 high, 2 medium, …": the counts of an audit by severity. */
export function severityCounts(count: VulnerabilityCount): string {
  return SEVERITIES.map((s) => `${count[s]} ${s}`).join(', ')
}

/** `audit_history`: the audits recorded for a project, as `GET /api/v1/projects/audit/history` answers them. */
export function auditHistoryTool(audits: Pick<AuditRepository, 'historyPage'>) {
  return defineTool({
    name: 'audit_history',
    title: 'Audit history of a Solidity project',
    description: [
      "Audits recorded for a Solidity project (by tokenrisk's analyzer: `tokenrisk audit`, or this server's audit_solidity with a projectId), newest first:",
      'each with its security score (0–100, higher is better), its findings counted by severity (high, medium, low, informational, optimization),',
      `its findings (name, severity, confidence, file, lines, snippet, explanation, recommendation; long texts cut), ${FINDINGS_PAGING.defaultLimit} per audit by default (findingsPerPage, findingsPage page through them) and the link to its report page, which lists them all.`,
      'Call it to see whether a project was audited and how its audits changed. The first text sums the page up; the structured answer is the history page with each audit\'s findings paged.',
    ].join(' '),
    input: Input,
    hints: { readOnly: true, openWorld: false },
    invalid: {
      projectId: `projectId must be a non-empty string of at most ${AUDIT_LIMITS.id} characters`,
      userId: `userId must be a non-empty string of at most ${AUDIT_LIMITS.id} characters`,
      limit: `limit must be a positive integer no greater than ${HISTORY_PAGING.maxLimit}`,
      page: `page must be a positive integer no greater than ${HISTORY_PAGING.maxPage}`,
      findingsPerPage: `findingsPerPage must be a positive integer no greater than ${FINDINGS_PAGING.maxLimit}`,
      findingsPage: `findingsPage must be a positive integer no greater than ${HISTORY_PAGING.maxPage}`,
    },
    async run(args, context) {
      const userId = projectUser(context.caller, args.userId, 'read')
      const limit = args.limit ?? HISTORY_PAGING.defaultLimit
      const page = args.page ?? 1
      const { body, truncatedAudits } = await context.bounded(() => audits.historyPage({ projectId: args.projectId, userId, limit, page }))
      const history = JSON.parse(body) as AuditHistory
      const first = (page - 1) * limit + 1
      const lines = [
        history.auditCount === 0
          ? `Project ${args.projectId} of user ${userId} has no recorded audit.`
          : `Project ${args.projectId} of user ${userId}: ${history.auditCount} audit${history.auditCount === 1 ? '' : 's'} recorded; ${history.audits.length === 0 ? `none on page ${page}` : `audits ${first}–${first + history.audits.length - 1} below, newest first`}.`,
      ]
      for (const audit of history.audits.slice(0, MAX_AUDIT_LINES)) {
        lines.push(`- security score ${audit.securityScore}/100 over ${audit.totalLines} lines: ${severityCounts(audit.vulnerabilityCount)} — ${audit.projectReportLink}`)
      }
      if (history.audits.length > MAX_AUDIT_LINES) lines.push(`- … and ${history.audits.length - MAX_AUDIT_LINES} more in the structured answer`)
      if (truncatedAudits > 0) lines.push(`${truncatedAudits} audit${truncatedAudits === 1 ? '' : 's'} of this page list only their first findings (the page is bounded in size); their report pages list them all.`)
      // Each audit's findings, a page of them: an audit may list thousands.
      const perPage = args.findingsPerPage ?? FINDINGS_PAGING.defaultLimit
      const findingsPage = args.findingsPage ?? 1
      const start = (findingsPage - 1) * perPage
      const paged = history.audits.map(({ vulnerabilities, ...audit }) => ({
        ...audit,
        findingsListed: vulnerabilities.length,
        findingsPage,
        findings: vulnerabilities.slice(start, start + perPage).map((v) => ({ ...v, snippet: clip(v.snippet), explanation: clip(v.explanation), recommendation: clip(v.recommendation) })),
      }))
      const most = Math.max(0, ...paged.map((a) => a.findingsListed))
      if (start + perPage < most) lines.push(`Findings ${start + 1}–${start + perPage} of each audit are listed; findingsPage: ${findingsPage + 1} lists the next ${perPage}.`)
      return { verdict: lines.join('\n'), structured: { audits: paged, auditCount: history.auditCount } }
    },
  })
}
