import { Type } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { InputError } from '../errors.ts'
import { AUDIT_LIMITS, Audit, Vulnerability } from '../contract/audit-history.ts'
import { checkAuditConsistency, type NewAudit } from './repositories/audits.ts'

/** Largest import file read. */
export const MAX_IMPORT_FILE_BYTES = 64 * 1024 * 1024
/** Audits one import file may hold. */
export const MAX_IMPORTED_AUDITS = 1_000

/** A vulnerability of an import file: the response's shape, every string within `AUDIT_LIMITS`. */
const ImportedVulnerability = Type.Object(
  {
    ...Vulnerability.properties,
    name: Type.String({ minLength: 1, maxLength: AUDIT_LIMITS.name }),
    snippet: Type.String({ maxLength: AUDIT_LIMITS.snippet }),
    recommendation: Type.String({ maxLength: AUDIT_LIMITS.recommendation }),
    explanation: Type.String({ maxLength: AUDIT_LIMITS.explanation }),
    file: Type.String({ maxLength: AUDIT_LIMITS.file }),
  },
  { additionalProperties: false },
)

/**
 * One audit of an import file: the response's shape, within `AUDIT_LIMITS`. `projectReportLink`
 * may be present and is replaced by tokenrisk's own report page; `createdAt` (ISO 8601) may date
 * the audit.
 */
const ImportedAudit = Type.Object(
  {
    ...Type.Omit(Audit, ['projectReportLink', 'vulnerabilities']).properties,
    vulnerabilities: Type.Array(ImportedVulnerability, { maxItems: AUDIT_LIMITS.vulnerabilities }),
    projectReportLink: Type.Optional(Type.String({ maxLength: AUDIT_LIMITS.projectReportLink })),
    createdAt: Type.Optional(Type.String({ minLength: 1, maxLength: AUDIT_LIMITS.createdAt })),
  },
  { additionalProperties: false },
)
const check = TypeCompiler.Compile(Type.Union([ImportedAudit, Type.Array(ImportedAudit, { minItems: 1, maxItems: MAX_IMPORTED_AUDITS })]))
const checkOne = TypeCompiler.Compile(ImportedAudit)

/** `/1/vulnerabilities/0/severity` → `[1].vulnerabilities[0].severity` */
function fieldName(pointer: string): string {
  const out = pointer
    .split('/')
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('')
  return out.startsWith('.') ? out.slice(1) : out || '(root)'
}

/**
 * Validates an import file's JSON (one audit, or a non-empty array of audits) and returns the
 * audits to record. Throws `InputError` naming the first bad field.
 *
 * @example
 * const audits = parseAuditImport(JSON.parse(readFileSync('audits.json', 'utf8')))
 */
export function parseAuditImport(json: unknown): NewAudit[] {
  const list = Array.isArray(json) ? json : [json]
  if (Array.isArray(json) && json.length === 0) throw new InputError('the file holds an empty array: no audit to import')
  if (list.length > MAX_IMPORTED_AUDITS) throw new InputError(`the file holds ${list.length} audits; at most ${MAX_IMPORTED_AUDITS} are imported at once`)
  for (let i = 0; i < list.length; i++) {
    const item = list[i]
    if (!checkOne.Check(item)) {
      const first = checkOne.Errors(item).First()
      const prefix = Array.isArray(json) ? `[${i}]` : ''
      const field = first ? fieldName(first.path) : '(root)'
      const where = prefix ? (field === '(root)' ? prefix : `${prefix}${field.startsWith('[') ? '' : '.'}${field}`) : field
      throw new InputError(`invalid audit file: ${where}: ${first?.message ?? 'does not match the audit shape'}`)
    }
  }
  if (!check.Check(json)) throw new InputError('invalid audit file: expected an audit object or an array of audits')
  return list.map((raw, i) => {
    const { projectReportLink: _ignored, ...audit } = raw as NewAudit & { projectReportLink?: string }
    checkAuditConsistency(audit, Array.isArray(json) ? `[${i}].` : '')
    return audit
  })
}
