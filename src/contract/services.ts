import type { Audit, UnlistedFindings } from './audit-history.ts'
import type { TokenReport } from './token-report.ts'

/**
 * Asked before a report is computed rather than served from the cache (or from a computation
 * already running here): it may refuse the cold work by throwing (the open pages' budget of
 * anonymous cold reports), and then nothing is computed.
 */
export type ColdAdmission = () => Promise<void>

/**
 * What the routes need from the engines. The engines implement these; the routes never reach
 * past them (no chain I/O in a handler).
 */
export interface EvmReportService {
  /**
   * Throws InputError (unsupported chain), NotFoundError (no token), UpstreamError/DeadlineError.
   * `signal` abandons the report; `deadlineAt` (epoch ms) is when it must be over, for work done
   * elsewhere (worker threads) to stop on its own even before it hears of the abort. `onCold` is
   * asked before the report is computed rather than served from the cache (`ColdAdmission`).
   */
  report(chainId: number, address: string, options: { signal?: AbortSignal; deadlineAt?: number; onCold?: ColdAdmission }): Promise<TokenReport>
  /** The chains served; `addressLink` is the explorer's address page, `{address}` to replace (absent when none is configured). */
  chains(): { chainId: number; name: string; addressLink?: string }[]
  /** Resolves when the chain's RPC answers; throws UpstreamError otherwise. */
  ping(chainId: number, signal?: AbortSignal): Promise<void>
  close(): Promise<void>
}

export interface SolanaReportService<Report = unknown> {
  /** Throws InputError (malformed address), NotFoundError (no mint), UpstreamError/DeadlineError; `onCold` as for EVM reports. */
  report(address: string, options: { signal?: AbortSignal; onCold?: ColdAdmission }): Promise<Report>
  ping(signal?: AbortSignal): Promise<void>
  close(): Promise<void>
}

/** A Solidity file given as text: its path in the project (relative, `/`-separated) and its source. */
export interface SourceFile {
  path: string
  content: string
}

/** Where an audit of sources is recorded: a project of a user (its history, its report page). */
export interface AuditRecordTarget {
  projectId: string
  userId: string
  projectName?: string
}

/** An audit of sources given as text. */
export interface SourceAuditResult {
  /** The audit in the history's shape; `projectReportLink` only when it was recorded. */
  audit: Omit<Audit, 'projectReportLink'> & { projectReportLink?: string }
  /** The recorded audit's id, when it was recorded. */
  reportId?: string
  /** Files not analysed, and why: the score covers the others only. */
  skipped: { file: string; reason: string }[]
  /** Findings counted in `vulnerabilityCount` but not listed (past the audit's size bound), per detector, severity and file. */
  unlisted: UnlistedFindings[]
  /** Problems that left a file analysed: an import not found, a detector that failed. */
  problems: { file: string; message: string }[]
}

/**
 * Audits of Solidity sources given as text, bounded like `tokenrisk audit` (the analyzer's code
 * budget, the findings it lists) and by a deadline.
 */
export interface SourceAuditService {
  /**
   * Analyses `files` (and records the audit under `record` when given, all or nothing). Throws
   * InputError (no Solidity, a bad path, too much source), DeadlineError (not done by
   * `deadlineAt` or abandoned through `signal`), UpstreamError (the analysis failed).
   */
  audit(files: SourceFile[], options: { signal?: AbortSignal; deadlineAt?: number; record?: AuditRecordTarget }): Promise<SourceAuditResult>
  close(): Promise<void>
}
