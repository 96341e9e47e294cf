import type { UnlistedFindings, Vulnerability, VulnerabilityCount } from '../contract/audit-history.ts'

export type { UnlistedFindings } from '../contract/audit-history.ts'

/**
 * What an analysis (or a Slither import) produces: everything of an `Audit` but the report link,
 * which the service assigns when it records the audit.
 */
export interface AnalysisResult {
  /** Lines of the project's own Solidity that was analysed (see docs/detectors.md, "Scope"). */
  totalLines: number
  securityScore: number
  vulnerabilityCount: VulnerabilityCount
  vulnerabilities: Vulnerability[]
  /** The project's own files analysed, with their line counts. */
  files: { path: string; lines: number }[]
  /**
   * Files not analysed (unreadable, not text, too large, over the project's code or syntax budget, not
   * parsed), with the reason: the score and the findings cover the other files only.
   */
  skipped: { file: string; reason: string }[]
  /** Findings counted in `vulnerabilityCount` but not listed (past the size bound of `src/audit/bounds.ts`), per detector, severity and file. */
  unlisted: UnlistedFindings[]
  /** Files that could not be read or parsed, imports not found, detectors that failed. */
  errors: { file: string; message: string }[]
}
