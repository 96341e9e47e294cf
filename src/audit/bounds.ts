import { AUDIT_LIMITS, type Vulnerability } from '../contract/audit-history.ts'
import type { UnlistedFindings } from './result.ts'

/**
 * Findings of one detector listed per file; the rest are counted, not listed. A pattern repeated
 * a thousand times in a generated file says nothing more on its thousandth finding, and the score
 * (which decays repeats, docs/scoring.md) has stopped moving long before.
 */
export const MAX_FINDINGS_PER_DETECTOR_FILE = 20

/** Room kept in `AUDIT_LIMITS.auditBytes` for the audit's other fields. */
const AUDIT_ENVELOPE_BYTES = 1_024

/**
 * The findings an audit lists, within the store's bounds: at most
 * `MAX_FINDINGS_PER_DETECTOR_FILE` per detector and file, at most `AUDIT_LIMITS.vulnerabilities`
 * in all, and no more than fit in `AUDIT_LIMITS.auditBytes` of JSON, taken in the order given
 * (severity first). What is left out is counted per name and file.
 *
 * @example
 * const { listed, unlisted } = listFindings(findings)
 */
export function listFindings<F extends Vulnerability & { detector: string }>(
  findings: readonly F[],
  options: { perDetectorFile?: number; maxBytes?: number; maxCount?: number } = {},
): { listed: F[]; unlisted: UnlistedFindings[] } {
  const perDetectorFile = options.perDetectorFile ?? MAX_FINDINGS_PER_DETECTOR_FILE
  const maxBytes = (options.maxBytes ?? AUDIT_LIMITS.auditBytes) - AUDIT_ENVELOPE_BYTES
  const maxCount = options.maxCount ?? AUDIT_LIMITS.vulnerabilities
  const perGroup = new Map<string, number>()
  const unlisted = new Map<string, UnlistedFindings>()
  const listed: F[] = []
  let bytes = 0
  for (const finding of findings) {
    const group = `${finding.detector}\0${finding.file}`
    const seen = (perGroup.get(group) ?? 0) + 1
    perGroup.set(group, seen)
    let keep = seen <= perDetectorFile && listed.length < maxCount
    if (keep) {
      const { detector: _detector, ...vulnerability } = finding
      const size = Buffer.byteLength(JSON.stringify(vulnerability)) + 1
      keep = bytes + size <= maxBytes
      if (keep) bytes += size
    }
    if (keep) {
      listed.push(finding)
      continue
    }
    const key = `${finding.name}\0${finding.file}`
    const entry = unlisted.get(key)
    if (entry) entry.count++
    else unlisted.set(key, { name: finding.name, file: finding.file, count: 1 })
  }
  return { listed, unlisted: [...unlisted.values()] }
}

/** `text` cut to at most `max` characters, saying so when it is cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const note = ` … (${text.length - max} more characters)`
  return text.slice(0, Math.max(0, max - note.length)) + note
}
