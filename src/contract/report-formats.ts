/**
 * The views a token report can be answered in: `v1`, the API contract's (the software's default),
 * and `quillcheck-v2`, the hosted QuillCheck service's, which its public clients read
 * (docs/compat.md). One report, pure views of it (src/report/views/). Every token route takes the
 * same `format` parameter; what each view means on each route is in docs/compat.md ("Formats").
 */
export const REPORT_FORMATS = ['v1', 'quillcheck-v2'] as const
export type ReportFormat = (typeof REPORT_FORMATS)[number]

/** The software's default view: an instance's `DEFAULT_FORMAT` when it sets none. */
export const DEFAULT_REPORT_FORMAT: ReportFormat = 'v1'

/**
 * What `keys create --format` and `keys set-format` take, beside the formats, for a key without a
 * format of its own: it answers in the instance's `DEFAULT_FORMAT`.
 */
export const INSTANCE_DEFAULT_FORMAT = 'default'

export function isReportFormat(value: unknown): value is ReportFormat {
  return typeof value === 'string' && (REPORT_FORMATS as readonly string[]).includes(value)
}

/** Why a format name is refused, naming the valid ones. */
export function reportFormatProblem(value: string): string {
  return `unknown format '${value.slice(0, 40)}': use one of ${REPORT_FORMATS.join(', ')}, or ${INSTANCE_DEFAULT_FORMAT} (the instance's DEFAULT_FORMAT)`
}

/**
 * Whether a view follows the hosted service's conventions beside its shape: an address that is
 * not a supported token answers 200 with `errorStatus: 420` there, where the contract's view
 * answers 404.
 */
export function isHostedFormat(format: ReportFormat): boolean {
  return format !== 'v1'
}
