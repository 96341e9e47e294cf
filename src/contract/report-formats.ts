/**
 * The shapes an EVM token report can be answered in: `v1`, the API contract's shape (the
 * default), and `quillcheck-v2`, the newer shape public clients of the hosted service read
 * (docs/compat.md). One report, two pure views (src/report/views/).
 */
export const REPORT_FORMATS = ['v1', 'quillcheck-v2'] as const
export type ReportFormat = (typeof REPORT_FORMATS)[number]

/** The format of a key that names none, and of a request without `?format`. */
export const DEFAULT_REPORT_FORMAT: ReportFormat = 'v1'

export function isReportFormat(value: unknown): value is ReportFormat {
  return typeof value === 'string' && (REPORT_FORMATS as readonly string[]).includes(value)
}

/** Why a format name is refused, naming the valid ones. */
export function reportFormatProblem(value: string): string {
  return `unknown format '${value.slice(0, 40)}': use one of ${REPORT_FORMATS.join(', ')}`
}
