import { randomBytes } from 'node:crypto'
import type { Transaction } from 'kysely'
import { InputError } from '../../errors.ts'
import type { Audit, AuditHistory, Severity, Vulnerability } from '../../contract/audit-history.ts'
import { createTtlMap } from '../../cache/cache.ts'
import type { Store } from '../database.ts'
import { prepare } from '../prepared.ts'
import type { Schema } from '../schema.ts'
import { ensureUser } from './users.ts'

/** Bytes of randomness in a report id: the id is the only secret protecting a report page. */
export const REPORT_ID_BYTES = 18
/** Rows per multi-row INSERT of vulnerabilities (well under both engines' parameter limits). */
const VULNERABILITY_INSERT_CHUNK = 200

/** An audit to record: the contract's shape without the link (the store makes the report page). */
export interface NewAudit extends Omit<Audit, 'projectReportLink'> {
  /** When the audit was made; defaults to now. */
  createdAt?: string
}

export interface RecordedAudit {
  auditId: number
  reportId: string
  createdAt: string
}

export interface StoredReport {
  reportId: string
  projectId: string
  projectName: string
  userId: string
  createdAt: string
  audit: Omit<Audit, 'projectReportLink'>
}

export interface HistoryQuery {
  projectId: string
  userId: string
  limit: number
  page: number
}

/** Builds the public link of a report page from its id. */
export type ReportLink = (reportId: string) => string

function newReportId(): string {
  return randomBytes(REPORT_ID_BYTES).toString('base64url')
}

function toAudit(
  row: {
    report_id: string
    total_lines: number
    security_score: number
    count_high: number
    count_medium: number
    count_low: number
    count_informational: number
    count_optimization: number
  },
  vulnerabilities: Vulnerability[],
): Omit<Audit, 'projectReportLink'> {
  return {
    totalLines: Number(row.total_lines),
    securityScore: Number(row.security_score),
    vulnerabilityCount: {
      high: Number(row.count_high),
      medium: Number(row.count_medium),
      low: Number(row.count_low),
      informational: Number(row.count_informational),
      optimization: Number(row.count_optimization),
    },
    vulnerabilities,
  }
}

const AUDIT_COLUMNS = [
  'id',
  'report_id',
  'created_at',
  'total_lines',
  'security_score',
  'count_high',
  'count_medium',
  'count_low',
  'count_informational',
  'count_optimization',
] as const

const VULNERABILITY_COLUMNS = [
  'audit_id',
  'name',
  'severity',
  'confidence',
  'snippet',
  'line_first',
  'line_last',
  'file',
  'recommendation',
  'explanation',
] as const

/**
 * Checks what JSON Schema cannot: a finding's line range must be ordered and each severity count
 * must cover the findings listed with that severity (a list may be partial, never larger).
 */
export function checkAuditConsistency(audit: NewAudit, path = ''): void {
  audit.vulnerabilities.forEach((v, i) => {
    if (v.lineNumbers[0] > v.lineNumbers[1]) {
      throw new InputError(`${path}vulnerabilities[${i}].lineNumbers must be [first, last] with first <= last`)
    }
  })
  const listed: Record<Severity, number> = { high: 0, medium: 0, low: 0, informational: 0, optimization: 0 }
  for (const v of audit.vulnerabilities) listed[v.severity]++
  for (const severity of Object.keys(listed) as Severity[]) {
    if (audit.vulnerabilityCount[severity] < listed[severity]) {
      throw new InputError(
        `${path}vulnerabilityCount.${severity} is ${audit.vulnerabilityCount[severity]} but ${listed[severity]} listed vulnerabilities have severity ${severity}`,
      )
    }
  }
  if (audit.createdAt !== undefined && Number.isNaN(Date.parse(audit.createdAt))) {
    throw new InputError(`${path}createdAt must be an ISO 8601 timestamp`)
  }
}

/**
 * The audit's JSON as the history endpoint serves it, minus `projectReportLink` (which depends on
 * the public base URL and is appended when read). Keys in the contract's order.
 */
export function serializeAudit(audit: Omit<Audit, 'projectReportLink'>): string {
  return JSON.stringify({
    totalLines: audit.totalLines,
    securityScore: audit.securityScore,
    vulnerabilityCount: {
      high: audit.vulnerabilityCount.high,
      medium: audit.vulnerabilityCount.medium,
      low: audit.vulnerabilityCount.low,
      informational: audit.vulnerabilityCount.informational,
      optimization: audit.vulnerabilityCount.optimization,
    },
    vulnerabilities: audit.vulnerabilities.map((v) => ({
      name: v.name,
      severity: v.severity,
      snippet: v.snippet,
      lineNumbers: [v.lineNumbers[0], v.lineNumbers[1]],
      confidence: v.confidence,
      recommendation: v.recommendation,
      explanation: v.explanation,
      file: v.file,
    })),
  })
}

/** The `vulnerabilities` rows of one audit, in order. */
export function vulnerabilityRows(auditId: number, vulnerabilities: readonly Vulnerability[]) {
  return vulnerabilities.map((v, ordinal) => ({
    audit_id: auditId,
    ordinal,
    name: v.name,
    severity: v.severity,
    confidence: v.confidence,
    snippet: v.snippet,
    line_first: v.lineNumbers[0],
    line_last: v.lineNumbers[1],
    file: v.file,
    recommendation: v.recommendation,
    explanation: v.explanation,
  }))
}

async function insertAudit(tx: Transaction<Schema>, projectId: string, audit: NewAudit): Promise<RecordedAudit> {
  const createdAt = audit.createdAt ? new Date(audit.createdAt).toISOString() : new Date().toISOString()
  const reportId = newReportId()
  const inserted = await tx
    .insertInto('audits')
    .values({
      report_id: reportId,
      project_id: projectId,
      created_at: createdAt,
      total_lines: audit.totalLines,
      security_score: audit.securityScore,
      count_high: audit.vulnerabilityCount.high,
      count_medium: audit.vulnerabilityCount.medium,
      count_low: audit.vulnerabilityCount.low,
      count_informational: audit.vulnerabilityCount.informational,
      count_optimization: audit.vulnerabilityCount.optimization,
      body_json: serializeAudit(audit),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const auditId = Number(inserted.id)
  const rows = vulnerabilityRows(auditId, audit.vulnerabilities)
  for (let i = 0; i < rows.length; i += VULNERABILITY_INSERT_CHUNK) {
    await tx.insertInto('vulnerabilities').values(rows.slice(i, i + VULNERABILITY_INSERT_CHUNK)).execute()
  }
  return { auditId, reportId, createdAt }
}

/** History pages kept in memory by default (about 10 KB each at the default page size). */
export const DEFAULT_PAGE_CACHE_SIZE = 1_000
/** How long a project's audit count is reused before the database is asked again. */
export const DEFAULT_PROJECT_CACHE_MS = 1_000
const PROJECT_CACHE_MAX_ENTRIES = 10_000

/**
 * Projects and their audits. Recording is one transaction: an audit is stored whole or not at all.
 *
 * History pages are cached in memory by (project, its number of audits, limit, page). Audits are
 * never changed or deleted, and every recording raises the project's count in the same
 * transaction, so a cached page is exactly what the database would answer for that count. The
 * count (and whether the project is the user's) is reused for `projectCacheMs` (default 1 s):
 * audits recorded through this repository show at once, audits recorded by another process
 * (`tokenrisk audit`, a worker) within that time.
 */
export function createAuditRepository(
  store: Store,
  options: { pageCacheSize?: number; reportLink?: ReportLink; projectCacheMs?: number } = {},
) {
  const { db } = store
  const link = options.reportLink ?? ((id: string) => `/reports/${id}`)
  // Pages never go stale (their key holds the project's count): only their number is bounded.
  const pageCacheSize = options.pageCacheSize ?? DEFAULT_PAGE_CACHE_SIZE
  const pageCache = createTtlMap<string>(Number.POSITIVE_INFINITY, pageCacheSize)
  const projects = createTtlMap<number>(options.projectCacheMs ?? DEFAULT_PROJECT_CACHE_MS, PROJECT_CACHE_MAX_ENTRIES)
  /** A project's audit count for `userId` (0 when it is not theirs or does not exist). */
  const auditCountOf = async (projectId: string, userId: string): Promise<number> => {
    const key = `${projectId}\u0000${userId}`
    const hit = projects.get(key)
    if (hit !== undefined) return hit
    const [project] = await projectOf(projectId, userId)
    const auditCount = project ? Number(project.audit_count) : 0
    projects.set(key, auditCount)
    return auditCount
  }
  // The history endpoint's two queries, compiled once.
  const projectOf = prepare(
    db,
    (projectId: string, userId: string) =>
      db.selectFrom('projects').select(['audit_count']).where('id', '=', projectId).where('user_id', '=', userId),
    2,
  )
  const pageOf = prepare(
    db,
    (projectId: string, limit: number, offset: number) =>
      db
        .selectFrom('audits')
        .select(['report_id', 'body_json'])
        // The page's ids come from the covering index alone; only those rows are read.
        .where(
          'id',
          'in',
          db
            .selectFrom('audits')
            .select('id')
            .where('project_id', '=', projectId)
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .limit(limit)
            .offset(offset),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc'),
    3,
  )

  async function ensureProject(tx: Transaction<Schema>, projectId: string, userId: string, name: string | undefined, now: string) {
    await ensureUser(tx, userId, now)
    const existing = await tx.selectFrom('projects').select(['user_id']).where('id', '=', projectId).executeTakeFirst()
    if (existing && existing.user_id !== userId) {
      throw new InputError(`project ${projectId} belongs to another user`)
    }
    if (!existing) {
      await tx.insertInto('projects').values({ id: projectId, user_id: userId, name: name ?? projectId, created_at: now }).execute()
    } else if (name !== undefined) {
      await tx.updateTable('projects').set({ name }).where('id', '=', projectId).execute()
    }
  }

  return {
    /** The public link of a report page. */
    reportLink: link,

    /**
     * Records audits of a project (creating the project for `userId` on first use), all or none.
     *
     * @example
     * const [{ reportId }] = await audits.record({ projectId: 'p1', userId: 'alice', audits: [result] })
     */
    async record(input: { projectId: string; userId: string; projectName?: string; audits: NewAudit[] }): Promise<RecordedAudit[]> {
      if (!input.projectId.trim()) throw new InputError('a project id is required')
      if (!input.userId.trim()) throw new InputError('a user id is required')
      input.audits.forEach((a, i) => checkAuditConsistency(a, input.audits.length > 1 ? `[${i}].` : ''))
      const now = new Date().toISOString()
      projects.delete(`${input.projectId}\u0000${input.userId}`)
      return db.transaction().execute(async (tx) => {
        await ensureProject(tx, input.projectId, input.userId, input.projectName, now)
        const recorded: RecordedAudit[] = []
        for (const audit of input.audits) recorded.push(await insertAudit(tx, input.projectId, audit))
        await tx
          .updateTable('projects')
          .set((eb) => ({ audit_count: eb('audit_count', '+', input.audits.length) }))
          .where('id', '=', input.projectId)
          .execute()
        return recorded
      })
    },

    /**
     * One page of a project's audits as the response's JSON text, newest first (ties: the later
     * recorded first), with the project's total number of audits. A project that does not exist,
     * or is not `userId`'s, reads as a project without audits.
     */
    async historyJson(query: HistoryQuery): Promise<string> {
      const auditCount = await auditCountOf(query.projectId, query.userId)
      const offset = (query.page - 1) * query.limit
      if (auditCount === 0 || offset >= auditCount) return `{"audits":[],"auditCount":${auditCount}}`
      const cacheKey = `${query.projectId}\u0000${auditCount}\u0000${query.limit}\u0000${query.page}`
      const cached = pageCache.get(cacheKey)
      if (cached !== undefined) return cached
      const rows = await pageOf(query.projectId, query.limit, offset)
      const audits = rows.map((r) => `${r.body_json.slice(0, -1)},"projectReportLink":${JSON.stringify(link(r.report_id))}}`)
      const body = `{"audits":[${audits.join(',')}],"auditCount":${auditCount}}`
      if (pageCacheSize > 0) pageCache.set(cacheKey, body)
      return body
    },

    /** The same page as an object. */
    async history(query: HistoryQuery): Promise<AuditHistory> {
      return JSON.parse(await this.historyJson(query)) as AuditHistory
    },

    /** The audit behind a report page, or undefined. */
    async report(reportId: string): Promise<StoredReport | undefined> {
      const row = await db
        .selectFrom('audits')
        .innerJoin('projects', 'projects.id', 'audits.project_id')
        .select([
          'audits.id',
          'audits.report_id',
          'audits.created_at',
          'audits.total_lines',
          'audits.security_score',
          'audits.count_high',
          'audits.count_medium',
          'audits.count_low',
          'audits.count_informational',
          'audits.count_optimization',
          'projects.id as project_id',
          'projects.name as project_name',
          'projects.user_id',
        ])
        .where('audits.report_id', '=', reportId)
        .executeTakeFirst()
      if (!row) return undefined
      const byAudit = await loadVulnerabilities([Number(row.id)])
      return {
        reportId: row.report_id,
        projectId: row.project_id,
        projectName: row.project_name,
        userId: row.user_id,
        createdAt: row.created_at,
        audit: toAudit(row, byAudit.get(Number(row.id)) ?? []),
      }
    },
  }

  async function loadVulnerabilities(auditIds: number[]): Promise<Map<number, Vulnerability[]>> {
    const out = new Map<number, Vulnerability[]>()
    if (auditIds.length === 0) return out
    const rows = await db
      .selectFrom('vulnerabilities')
      .select(VULNERABILITY_COLUMNS)
      .where('audit_id', 'in', auditIds)
      .orderBy('audit_id')
      .orderBy('ordinal')
      .execute()
    for (const r of rows) {
      const id = Number(r.audit_id)
      let list = out.get(id)
      if (!list) out.set(id, (list = []))
      list.push({
        name: r.name,
        severity: r.severity as Vulnerability['severity'],
        snippet: r.snippet,
        lineNumbers: [Number(r.line_first), Number(r.line_last)],
        confidence: r.confidence as Vulnerability['confidence'],
        recommendation: r.recommendation,
        explanation: r.explanation,
        file: r.file,
      })
    }
    return out
  }
}

export type AuditRepository = ReturnType<typeof createAuditRepository>
