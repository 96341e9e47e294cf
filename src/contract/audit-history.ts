import { Type, type Static } from '@sinclair/typebox'

export const SEVERITIES = ['high', 'medium', 'low', 'informational', 'optimization'] as const
export type Severity = (typeof SEVERITIES)[number]
export const CONFIDENCES = ['high', 'medium', 'low'] as const
export type Confidence = (typeof CONFIDENCES)[number]

/**
 * Bounds of what the store records: the analyzer keeps within them (capping and counting what it
 * does not list) and an import past any of them is refused, naming the field. Lengths are in
 * characters, `auditBytes` in bytes of the audit's JSON as stored and served (without its link).
 */
export const AUDIT_LIMITS = {
  auditBytes: 2 * 1024 * 1024,
  vulnerabilities: 10_000,
  /** Project and user ids and project names (the history query takes ids of at most this length). */
  id: 200,
  name: 200,
  snippet: 16_384,
  explanation: 8_192,
  recommendation: 8_192,
  file: 1_024,
  projectReportLink: 2_048,
  createdAt: 64,
  /** A finding's detector id. */
  detector: 100,
} as const

/** The shape of a detector id: stable, kebab-case (`reentrancy-eth`), listed in docs/detectors.md. */
export const DETECTOR_ID_PATTERN = '^[a-z][a-z0-9]*(-[a-z0-9]+)*$'

/** Paging of the audit history: the page size by default and at most, and the largest page number (far from OFFSET overflow). */
export const HISTORY_PAGING = { defaultLimit: 10, maxLimit: 100, maxPage: 1_000_000 } as const

export const Vulnerability = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    severity: Type.Union(SEVERITIES.map((s) => Type.Literal(s))),
    snippet: Type.String(),
    lineNumbers: Type.Array(Type.Integer({ minimum: 1 }), {
      minItems: 2,
      maxItems: 2,
      description: '[first line, last line], 1-based, in `file`',
    }),
    confidence: Type.Union(CONFIDENCES.map((c) => Type.Literal(c))),
    recommendation: Type.String(),
    explanation: Type.String(),
    file: Type.String({ description: 'path of the source file, relative to the project root' }),
    detector: Type.Optional(
      Type.String({
        pattern: DETECTOR_ID_PATTERN,
        maxLength: AUDIT_LIMITS.detector,
        description:
          "id of the detector that found it: stable and kebab-case, the rule id of the SARIF output (docs/detectors.md). A key beyond the contract's fields; absent when the audit's source names none (an audit imported without it).",
      }),
    ),
  },
  { additionalProperties: false },
)
export type Vulnerability = Static<typeof Vulnerability>

export const VulnerabilityCount = Type.Object(
  {
    high: Type.Integer({ minimum: 0 }),
    medium: Type.Integer({ minimum: 0 }),
    low: Type.Integer({ minimum: 0 }),
    informational: Type.Integer({ minimum: 0 }),
    optimization: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
)
export type VulnerabilityCount = Static<typeof VulnerabilityCount>

export const Audit = Type.Object(
  {
    totalLines: Type.Integer({ minimum: 0, description: "lines of the project's own Solidity analysed" }),
    securityScore: Type.Number({ minimum: 0, maximum: 100, description: '0–100, see docs/scoring.md' }),
    vulnerabilityCount: VulnerabilityCount,
    vulnerabilities: Type.Array(Vulnerability),
    projectReportLink: Type.String({ description: 'URL of the shareable HTML report' }),
  },
  { additionalProperties: false },
)
export type Audit = Static<typeof Audit>

export const AuditHistory = Type.Object(
  {
    audits: Type.Array(Audit),
    auditCount: Type.Integer({ minimum: 0, description: 'total number of audits of the project (not the page size)' }),
  },
  { additionalProperties: false, $id: 'AuditHistory' },
)
export type AuditHistory = Static<typeof AuditHistory>

/**
 * Findings of one detector and severity in one file that an audit counts but does not list (past
 * its size bound, `src/audit/bounds.ts`); kept beside the audit (its report page), never in the
 * history's shape. `detector`, `severity` and `lines` (the first and the
 * last line these findings start on) are absent in audits recorded before they were kept.
 */
export interface UnlistedFindings {
  detector?: string
  name: string
  severity?: Severity
  file: string
  count: number
  lines?: [number, number]
}
