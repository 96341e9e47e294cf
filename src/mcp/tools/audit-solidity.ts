import { Type } from '@sinclair/typebox'
import { AUDIT_LIMITS, SEVERITIES } from '../../contract/audit-history.ts'
import type { SourceAuditService } from '../../contract/services.ts'
import { DeadlineError } from '../../errors.ts'
import { defineTool } from '../define-tool.ts'
import { projectUser } from '../project-user.ts'
import { severityCounts } from './audit-history.ts'

/** Findings named one line each in the verdict (worst first); all are in the structured answer. */
const MAX_FINDING_LINES = 15

/** The bounds the tool's description states. */
export interface AuditSolidityBounds {
  maxFiles: number
  maxBytes: number
  /** The deadline of one call, in ms. */
  deadlineMs: number
}

/** `audit_solidity`: an audit of Solidity sources the agent passes as text, recorded in a project's history on request. */
export function auditSolidityTool(sourceAudits: SourceAuditService, bounds: AuditSolidityBounds) {
  const Input = Type.Object({
    files: Type.Array(
      Type.Object({
        path: Type.String({ minLength: 1, description: 'path of the file in the project, relative and ending in .sol (e.g. "src/Vault.sol"); imports between the files resolve by these paths' }),
        content: Type.String({ description: 'the Solidity source text' }),
      }),
      { minItems: 1, maxItems: bounds.maxFiles, description: `the project's Solidity files, 1 to ${bounds.maxFiles}, at most ${bounds.maxBytes} bytes of source in all` },
    ),
    projectId: Type.Optional(
      Type.String({ minLength: 1, maxLength: AUDIT_LIMITS.id, description: 'record the audit in this project\'s history (audit_history reads it) and give it a report page; without it nothing is recorded' }),
    ),
    projectName: Type.Optional(Type.String({ minLength: 1, maxLength: AUDIT_LIMITS.name, description: "the project's name, when it is recorded" })),
    userId: Type.Optional(Type.String({ minLength: 1, maxLength: AUDIT_LIMITS.id, description: "the user the recorded project belongs to; default: the API key's user (another user's needs an admin key)" })),
  })
  return defineTool({
    name: 'audit_solidity',
    title: 'Audit Solidity source code',
    description: [
      "Audits Solidity source code with tokenrisk's analyzer (the one `tokenrisk audit` runs): pass the files as text.",
      'Answers the security score (0–100, higher is better), the findings counted by severity (high, medium, low, informational, optimization)',
      'and each finding with its file, lines, snippet, explanation and recommendation: reentrancy, unprotected functions, unchecked calls, tx.origin, weak randomness and more.',
      'Call it to review a contract before deploying it or interacting with it. Imports of files not given (e.g. @openzeppelin/…) are reported as not found, and the files given are analysed still.',
      `Bounded like tokenrisk audit: at most ${bounds.maxFiles} files and ${bounds.maxBytes} bytes of source, done within ${Math.round(bounds.deadlineMs / 1000)} s.`,
      'With projectId the audit is also recorded in that project\'s history, with a shareable report page.',
    ].join(' '),
    input: Input,
    hints: { readOnly: false, openWorld: false },
    invalid: {
      files: `files must be an array of 1 to ${bounds.maxFiles} objects {path, content}, path ending in .sol`,
      projectId: `projectId must be a non-empty string of at most ${AUDIT_LIMITS.id} characters`,
      projectName: `projectName must be a non-empty string of at most ${AUDIT_LIMITS.name} characters`,
      userId: `userId must be a non-empty string of at most ${AUDIT_LIMITS.id} characters`,
    },
    async run(args, context) {
      const record = args.projectId === undefined ? undefined : { projectId: args.projectId, userId: projectUser(context.caller, args.userId, 'record'), projectName: args.projectName }
      let result
      try {
        result = await context.bounded((signal, deadlineAt) => sourceAudits.audit(args.files, { signal, deadlineAt, record }))
      } catch (error) {
        // Trying the same audit again would end the same way: say what would finish.
        if (!(error instanceof DeadlineError)) throw error
        throw new DeadlineError(
          `the audit did not finish within the ${Math.round(bounds.deadlineMs / 1000)} s deadline: audit fewer files at a time, or the whole project with tokenrisk audit`,
          { cause: error },
        )
      }
      const { audit } = result
      const lines = [`Security score ${audit.securityScore}/100 over ${audit.totalLines} lines: ${severityCounts(audit.vulnerabilityCount)} findings.`]
      const worstFirst = [...audit.vulnerabilities].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity))
      for (const v of worstFirst.slice(0, MAX_FINDING_LINES)) lines.push(`- [${v.severity}/${v.confidence}] ${v.name} — ${v.file}:${v.lineNumbers[0]}-${v.lineNumbers[1]}`)
      if (worstFirst.length > MAX_FINDING_LINES) lines.push(`- … and ${worstFirst.length - MAX_FINDING_LINES} more in the structured answer`)
      const unlisted = result.unlisted.reduce((sum, u) => sum + u.count, 0)
      if (unlisted > 0) lines.push(`${unlisted} more findings are counted above but not listed (the audit's bounds).`)
      if (result.skipped.length > 0) lines.push(`Not analysed (the score covers the other files only): ${result.skipped.map((s) => `${s.file} (${s.reason})`).join('; ')}`)
      const problems = result.problems.filter((p) => !result.skipped.some((s) => s.file === p.file))
      if (problems.length > 0) lines.push(`Problems: ${problems.map((p) => `${p.file}: ${p.message}`).join('; ')}`)
      lines.push(audit.projectReportLink ? `Recorded in project ${args.projectId}: ${audit.projectReportLink}` : 'Not recorded (pass projectId to record it).')
      return { verdict: lines.join('\n'), structured: { ...result } }
    },
  })
}
