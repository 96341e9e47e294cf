import { randomBytes } from 'node:crypto'
import { sql, type Transaction } from 'kysely'
import { InputError } from '../../errors.ts'
import { AUDIT_LIMITS, type Audit, type AuditHistory, type Severity, type UnlistedFindings, type Vulnerability } from '../../contract/audit-history.ts'
import { createTtlMap } from '../../cache/cache.ts'
import type { Store } from '../database.ts'
import { prepare } from '../prepared.ts'
import type { Schema } from '../schema.ts'
import { ensureUser } from './users.ts'

/** Bytes of randomness in a report id: the id is the only secret protecting a report page. */
export const REPORT_ID_BYTES = 18
/** Rows per multi-row INSERT of vulnerabilities (well under both engines' parameter limits). */
const VULNERABILITY_INSERT_CHUNK = 200

/** A file an audit did not analyse, and why. */
export interface SkippedFile {
  file: string
  reason: string
}

export type { UnlistedFindings } from '../../contract/audit-history.ts'

/** An audit to record: the contract's shape without the link (the store makes the report page). */
export interface NewAudit extends Omit<Audit, 'projectReportLink'> {
  /** When the audit was made; defaults to now. */
  createdAt?: string
  /** Files the audit did not analyse (shown on the report page; not part of the history's shape). */
  skipped?: SkippedFile[]
  /** Findings counted in `vulnerabilityCount` but not listed (shown on the report page). */
  unlisted?: UnlistedFindings[]
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
  /** The audit, with the vulnerabilities asked for (all of them, or one page). */
  audit: Omit<Audit, 'projectReportLink'>
  /** Vulnerabilities the audit lists in all (`audit.vulnerabilities` may be a page of them). */
  listedCount: number
  /** Index in the audit's list of `audit.vulnerabilities[0]`. */
  offset: number
  skipped: SkippedFile[]
  unlisted: UnlistedFindings[]
}

/** One page of a project's history as the response's JSON text. */
export interface HistoryPage {
  body: string
  /** Audits of the page whose vulnerabilities were cut to keep the page under `HISTORY_PAGE_MAX_BYTES`. */
  truncatedAudits: number
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
  'detector',
] as const

/** Text fields of a vulnerability, with the longest each may be. */
const VULNERABILITY_TEXT_LIMITS = {
  name: AUDIT_LIMITS.name,
  detector: AUDIT_LIMITS.detector,
  snippet: AUDIT_LIMITS.snippet,
  file: AUDIT_LIMITS.file,
  recommendation: AUDIT_LIMITS.recommendation,
  explanation: AUDIT_LIMITS.explanation,
} as const

/**
 * Checks what JSON Schema cannot: a finding's line range must be ordered and each severity count
 * must cover the findings listed with that severity (a list may be partial, never larger). Also
 * holds every audit, whatever its source, to `AUDIT_LIMITS`.
 */
export function checkAuditConsistency(audit: NewAudit, path = ''): void {
  if (audit.vulnerabilities.length > AUDIT_LIMITS.vulnerabilities) {
    throw new InputError(`${path}vulnerabilities lists ${audit.vulnerabilities.length} vulnerabilities; at most ${AUDIT_LIMITS.vulnerabilities} are accepted`)
  }
  audit.vulnerabilities.forEach((v, i) => {
    for (const [field, max] of Object.entries(VULNERABILITY_TEXT_LIMITS) as [keyof typeof VULNERABILITY_TEXT_LIMITS, number][]) {
      const text = v[field] ?? ''
      if (text.length > max) {
        throw new InputError(`${path}vulnerabilities[${i}].${field} is ${text.length} characters long; at most ${max} are accepted`)
      }
    }
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
  if (audit.createdAt !== undefined && (audit.createdAt.length > AUDIT_LIMITS.createdAt || Number.isNaN(Date.parse(audit.createdAt)))) {
    throw new InputError(`${path}createdAt must be an ISO 8601 timestamp`)
  }
  const bytes = serializeAudit(audit).json.length
  if (bytes > AUDIT_LIMITS.auditBytes) {
    throw new InputError(`${path}the audit is ${bytes} bytes of JSON; at most ${AUDIT_LIMITS.auditBytes} are accepted (list fewer vulnerabilities)`)
  }
}

/** Every character past ASCII as a JSON escape, so that the text's length is its size in bytes. */
function asciiJson(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * The audit's JSON as the history endpoint serves it, minus `projectReportLink` (which depends on
 * the public base URL and is appended when read). Keys in the contract's order, `vulnerabilities`
 * last; ASCII only (other characters escaped), so that lengths are bytes. `cuts` are the offsets
 * after `"vulnerabilities":[` and after each vulnerability: `json.slice(0, cuts[k]) + ']}'` is
 * the same audit listing its first k vulnerabilities. A vulnerability's `detector` follows the
 * contract's fields when it has one.
 */
export function serializeAudit(audit: Omit<Audit, 'projectReportLink'>): { json: string; cuts: number[] } {
  const head = asciiJson(
    JSON.stringify({
      totalLines: audit.totalLines,
      securityScore: audit.securityScore,
      vulnerabilityCount: {
        high: audit.vulnerabilityCount.high,
        medium: audit.vulnerabilityCount.medium,
        low: audit.vulnerabilityCount.low,
        informational: audit.vulnerabilityCount.informational,
        optimization: audit.vulnerabilityCount.optimization,
      },
    }),
  )
  let json = `${head.slice(0, -1)},"vulnerabilities":[`
  const cuts = [json.length]
  audit.vulnerabilities.forEach((v, i) => {
    json += (i === 0 ? '' : ',') + asciiJson(
      JSON.stringify({
        name: v.name,
        severity: v.severity,
        snippet: v.snippet,
        lineNumbers: [v.lineNumbers[0], v.lineNumbers[1]],
        confidence: v.confidence,
        recommendation: v.recommendation,
        explanation: v.explanation,
        file: v.file,
        // The detector's id: a key beyond the contract's, when the audit names it.
        ...(v.detector !== undefined ? { detector: v.detector } : {}),
      }),
    )
    cuts.push(json.length)
  })
  return { json: `${json}]}`, cuts }
}

/** Largest history page served, in bytes: audits past their share list their first vulnerabilities only. */
export const HISTORY_PAGE_MAX_BYTES = 4 * 1024 * 1024

/**
 * Shares of `budget` for items of the given sizes: every item whole when they all fit, else the
 * small ones whole and the rest of the budget split equally among the big ones (water filling).
 */
export function shareBudget(sizes: readonly number[], budget: number): number[] {
  const order = sizes.map((size, i) => ({ size, i })).sort((a, b) => a.size - b.size)
  const out = new Array<number>(sizes.length)
  let left = budget
  order.forEach(({ size, i }, n) => {
    const fair = Math.floor(left / (order.length - n))
    out[i] = Math.min(size, fair)
    left -= out[i]
  })
  return out
}

/** The longest prefix of an audit's body, by its cuts, of at most `room` characters, closed. */
function cutBody(body: string, cuts: readonly number[], room: number): string {
  let k = cuts.length - 1
  while (k > 0 && cuts[k] + 2 > room) k--
  return `${body.slice(0, cuts[k])}]}`
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
    detector: v.detector ?? null,
  }))
}

/** Skipped files and unlisted groups kept per audit; the rest are summed up in one last entry. */
export const MAX_AUDIT_NOTES = 1_000

function boundNotes<T extends { file: string }>(notes: readonly T[], summary: (n: number, rest: readonly T[]) => T): T[] {
  if (notes.length <= MAX_AUDIT_NOTES) return notes.map((n) => ({ ...n, file: n.file.slice(0, AUDIT_LIMITS.file) }))
  const rest = notes.slice(MAX_AUDIT_NOTES - 1)
  return [...notes.slice(0, MAX_AUDIT_NOTES - 1).map((n) => ({ ...n, file: n.file.slice(0, AUDIT_LIMITS.file) })), summary(rest.length, rest)]
}

async function insertAudit(tx: Transaction<Schema>, projectId: string, audit: NewAudit): Promise<RecordedAudit> {
  const createdAt = audit.createdAt ? new Date(audit.createdAt).toISOString() : new Date().toISOString()
  const reportId = newReportId()
  const body = serializeAudit(audit)
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
      body_json: body.json,
      body_cuts: body.cuts.join(','),
      skipped_json: JSON.stringify(boundNotes(audit.skipped ?? [], (n) => ({ file: '', reason: `${n} more files were not analysed` }))),
      unlisted_json: JSON.stringify(boundNotes(audit.unlisted ?? [], (n, rest) => ({ name: `${n} more kinds of findings`, file: '', count: rest.reduce((sum, u) => sum + u.count, 0) }))),
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
/** Bytes of history pages kept in memory by default. */
export const DEFAULT_PAGE_CACHE_BYTES = 64 * 1024 * 1024
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
  options: { pageCacheSize?: number; pageCacheBytes?: number; reportLink?: ReportLink; projectCacheMs?: number; historyPageMaxBytes?: number } = {},
) {
  const { db } = store
  const link = options.reportLink ?? ((id: string) => `/reports/${id}`)
  const pageMaxBytes = options.historyPageMaxBytes ?? HISTORY_PAGE_MAX_BYTES
  // Pages never go stale (their key holds the project's count): only their number and bytes are bounded.
  const pageCacheSize = options.pageCacheSize ?? DEFAULT_PAGE_CACHE_SIZE
  const pageCache = createTtlMap<HistoryPage>(Number.POSITIVE_INFINITY, pageCacheSize, {
    maxBytes: options.pageCacheBytes ?? DEFAULT_PAGE_CACHE_BYTES,
    sizeOf: (page: HistoryPage) => page.body.length,
  })
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
  // A page's audits: whole when each is within `share` characters; else its size and cuts.
  const pageOf = prepare(
    db,
    (projectId: string, limit: number, offset: number, share: number) =>
      db
        .selectFrom('audits')
        .select([
          'report_id',
          sql<string | null>`case when length(body_json) <= ${share} then body_json end`.as('body'),
          sql<string | null>`case when length(body_json) <= ${share} then null else body_cuts end`.as('cuts'),
          sql<number | string>`length(body_json)`.as('length'),
        ])
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
    4,
  )
  const headOf = (reportId: string, length: number) =>
    db
      .selectFrom('audits')
      .select(sql<string>`substr(body_json, 1, ${length})`.as('head'))
      .where('report_id', '=', reportId)
      .executeTakeFirstOrThrow()
  const bodyOf = (reportId: string) => db.selectFrom('audits').select('body_json').where('report_id', '=', reportId).executeTakeFirstOrThrow()

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
      if (input.projectId.length > AUDIT_LIMITS.id) throw new InputError(`a project id may be at most ${AUDIT_LIMITS.id} characters long`)
      if (input.userId.length > AUDIT_LIMITS.id) throw new InputError(`a user id may be at most ${AUDIT_LIMITS.id} characters long`)
      if (input.projectName !== undefined && input.projectName.length > AUDIT_LIMITS.name) {
        throw new InputError(`a project name may be at most ${AUDIT_LIMITS.name} characters long`)
      }
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
      return (await this.historyPage(query)).body
    },

    /**
     * `historyJson`, saying how many audits of the page list only their first vulnerabilities:
     * a page stays under `HISTORY_PAGE_MAX_BYTES` (audits within their equal share are whole,
     * the others share what is left; their counts stay whole, the report page lists them all).
     */
    async historyPage(query: HistoryQuery): Promise<HistoryPage> {
      const auditCount = await auditCountOf(query.projectId, query.userId)
      const offset = (query.page - 1) * query.limit
      if (auditCount === 0 || offset >= auditCount) return { body: `{"audits":[],"auditCount":${auditCount}}`, truncatedAudits: 0 }
      const cacheKey = `${query.projectId}\u0000${auditCount}\u0000${query.limit}\u0000${query.page}`
      const cached = pageCache.get(cacheKey)
      if (cached !== undefined) return cached
      const envelope = `{"audits":[],"auditCount":${auditCount}}`.length
      const share = Math.floor((pageMaxBytes - envelope) / query.limit)
      const rows = await pageOf(query.projectId, query.limit, offset, share)
      const suffixes = rows.map((r) => `,"projectReportLink":${JSON.stringify(link(r.report_id))}}`)
      // Audits within their share are whole; the others share what the page has left.
      const sizes = rows.map((r, i) => Number(r.length) + suffixes[i].length)
      const rooms = shareBudget(sizes, pageMaxBytes - envelope - rows.length)
      let truncatedAudits = 0
      const audits: string[] = []
      for (const [i, r] of rows.entries()) {
        let body = r.body
        if (body === null && sizes[i] <= rooms[i]) body = (await bodyOf(r.report_id)).body_json
        if (body === null) {
          truncatedAudits++
          const room = rooms[i] - suffixes[i].length + 1
          if (r.cuts !== null) {
            const cuts = r.cuts.split(',').map(Number)
            let k = cuts.length - 1
            while (k > 0 && cuts[k] + 2 > room) k--
            body = `${(await headOf(r.report_id, cuts[k])).head}]}`
          } else {
            // Recorded before the cuts were kept: serialize it again to find them.
            const again = serializeAudit(JSON.parse((await bodyOf(r.report_id)).body_json) as Omit<Audit, 'projectReportLink'>)
            body = cutBody(again.json, again.cuts, room)
          }
        }
        audits.push(`${body.slice(0, -1)}${suffixes[i]}`)
      }
      const page = { body: `{"audits":[${audits.join(',')}],"auditCount":${auditCount}}`, truncatedAudits }
      if (pageCacheSize > 0) pageCache.set(cacheKey, page)
      return page
    },

    /** The same page as an object. */
    async history(query: HistoryQuery): Promise<AuditHistory> {
      return JSON.parse(await this.historyJson(query)) as AuditHistory
    },

    /**
     * The audit behind a report page, or undefined; with `limit`, only the vulnerabilities from
     * `offset` (0-based) on, at most `limit` of them (a page of a long report).
     */
    async report(reportId: string, range: { offset?: number; limit?: number } = {}): Promise<StoredReport | undefined> {
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
          'audits.skipped_json',
          'audits.unlisted_json',
          'projects.id as project_id',
          'projects.name as project_name',
          'projects.user_id',
        ])
        .where('audits.report_id', '=', reportId)
        .executeTakeFirst()
      if (!row) return undefined
      const id = Number(row.id)
      const offset = Math.max(0, range.offset ?? 0)
      const [listed, byAudit] = await Promise.all([
        db
          .selectFrom('vulnerabilities')
          .select(sql<number | string>`count(*)`.as('n'))
          .where('audit_id', '=', id)
          .executeTakeFirstOrThrow(),
        loadVulnerabilities([id], offset, range.limit),
      ])
      return {
        reportId: row.report_id,
        projectId: row.project_id,
        projectName: row.project_name,
        userId: row.user_id,
        createdAt: row.created_at,
        audit: toAudit(row, byAudit.get(id) ?? []),
        listedCount: Number(listed.n),
        offset,
        skipped: JSON.parse(row.skipped_json) as SkippedFile[],
        unlisted: JSON.parse(row.unlisted_json) as UnlistedFindings[],
      }
    },
  }

  async function loadVulnerabilities(auditIds: number[], offset = 0, limit?: number): Promise<Map<number, Vulnerability[]>> {
    const out = new Map<number, Vulnerability[]>()
    if (auditIds.length === 0) return out
    let query = db.selectFrom('vulnerabilities').select(VULNERABILITY_COLUMNS).where('audit_id', 'in', auditIds)
    if (offset > 0) query = query.where('ordinal', '>=', offset)
    if (limit !== undefined) query = query.where('ordinal', '<', offset + limit)
    const rows = await query.orderBy('audit_id').orderBy('ordinal').execute()
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
        ...(r.detector !== null ? { detector: r.detector } : {}),
      })
    }
    return out
  }
}

export type AuditRepository = ReturnType<typeof createAuditRepository>
