import { Type } from '@sinclair/typebox'
import { AUDIT_LIMITS, HISTORY_PAGING, SEVERITIES, type AuditHistory, type VulnerabilityCount } from '../../contract/audit-history.ts'
import type { AuditRepository } from '../../store/repositories/audits.ts'
import { defineTool } from '../define-tool.ts'
import { projectUser } from '../project-user.ts'

/** Audits of a page described one line each in the verdict; the rest are in the structured answer. */
const MAX_AUDIT_LINES = 10

const Input = Type.Object({
  projectId: Type.String({ minLength: 1, maxLength: AUDIT_LIMITS.id, description: 'identifier of the project (as `tokenrisk audit --project` recorded it)' }),
  userId: Type.Optional(
    Type.String({ minLength: 1, maxLength: AUDIT_LIMITS.id, description: "the user the project belongs to; default: the API key's user (another user's needs an admin key)" }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: HISTORY_PAGING.maxLimit, description: `audits per page, 1 to ${HISTORY_PAGING.maxLimit}; default ${HISTORY_PAGING.defaultLimit}` })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: HISTORY_PAGING.maxPage, description: '1-based page number; default 1' })),
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
      'every finding listed (name, severity, confidence, file, lines, snippet, explanation, recommendation) and the link to its report page.',
      'Call it to see whether a project was audited and how its audits changed. The first text sums the page up; the structured answer is the history page itself.',
    ].join(' '),
    input: Input,
    hints: { readOnly: true, openWorld: false },
    invalid: {
      projectId: `projectId must be a non-empty string of at most ${AUDIT_LIMITS.id} characters`,
      userId: `userId must be a non-empty string of at most ${AUDIT_LIMITS.id} characters`,
      limit: `limit must be a positive integer no greater than ${HISTORY_PAGING.maxLimit}`,
      page: `page must be a positive integer no greater than ${HISTORY_PAGING.maxPage}`,
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
      return { verdict: lines.join('\n'), structured: history }
    },
  })
}
