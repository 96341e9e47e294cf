import type { ColumnType, Generated } from 'kysely'

/**
 * Tables of the store, the same on SQLite and PostgreSQL. Timestamps are ISO 8601 UTC strings
 * with milliseconds (`Date#toISOString()`), which sort chronologically as text on both engines.
 */
export interface UsersTable {
  id: string
  created_at: string
}

export interface ApiKeysTable {
  id: string
  user_id: string
  name: string
  /** SHA-256 of the key's secret part, hex. The key itself is never stored. */
  secret_hash: string
  is_admin: number
  /** Requests per second allowed to this key; null = the service default. */
  rate_limit_rps: number | null
  created_at: string
  revoked_at: string | null
  /** Format of the token reports answered to this key, 'v1' or 'quillcheck-v2' (migration 0300). */
  report_format: ColumnType<string, string | undefined, string>
}

export interface ProjectsTable {
  id: string
  user_id: string
  name: string
  created_at: string
  /** Number of audits recorded, kept in the same transaction as each insert. */
  audit_count: ColumnType<number, number | undefined, number>
}

export interface AuditsTable {
  id: Generated<number>
  /** Unguessable id of the shareable report page (`/reports/<report_id>`). */
  report_id: string
  project_id: string
  created_at: string
  total_lines: number
  security_score: number
  count_high: number
  count_medium: number
  count_low: number
  count_informational: number
  count_optimization: number
  /** JSON of the audit in the contract's shape without `projectReportLink`; a read model of the row and its vulnerabilities. */
  body_json: string
  /** Files not analysed, JSON `[{file, reason}]` (migration 0200). */
  skipped_json: ColumnType<string, string | undefined, string>
  /** Findings counted but not listed, JSON `[{detector?, name, severity?, file, count, lines?}]` (migration 0200). */
  unlisted_json: ColumnType<string, string | undefined, string>
  /**
   * Offsets in `body_json`, comma-separated: after `"vulnerabilities":[`, then after each
   * vulnerability. NULL for audits recorded before migration 0200.
   */
  body_cuts: string | null
}

export interface VulnerabilitiesTable {
  id: Generated<number>
  audit_id: number
  ordinal: number
  name: string
  severity: string
  confidence: string
  snippet: string
  line_first: number
  line_last: number
  file: string
  recommendation: string
  explanation: string
  /** The id of the detector that found it; NULL when the audit names none (migration 0500). */
  detector: ColumnType<string | null, string | null | undefined, string | null>
}

export interface Schema {
  users: UsersTable
  api_keys: ApiKeysTable
  projects: ProjectsTable
  audits: AuditsTable
  vulnerabilities: VulnerabilitiesTable
}
