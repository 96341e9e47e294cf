import { AUDIT_LIMITS, type Vulnerability } from '../contract/audit-history.ts'
import type { UnlistedFindings } from './result.ts'

/** Room kept in `AUDIT_LIMITS.auditBytes` for the audit's other fields. */
const AUDIT_ENVELOPE_BYTES = 1_024

/**
 * The findings an audit lists: every one of them, up to the audit's size bound —
 * `AUDIT_LIMITS.vulnerabilities` findings and `AUDIT_LIMITS.auditBytes` of JSON (the store's
 * bounds, far above any real project: the whole of OpenZeppelin's contracts lists a few hundred
 * findings in well under a megabyte). A finding's `detector` is '' when unknown (an import).
 * Findings are taken in the order given (severity first), so
 * what a bound leaves out is the least severe. What is left out is said exactly: per detector,
 * severity and file, how many findings and the lines they start on (first and last).
 *
 * @example
 * const { listed, unlisted } = listFindings(findings)
 */
export function listFindings<F extends Vulnerability & { detector: string }>(
  findings: readonly F[],
  options: { maxBytes?: number; maxCount?: number } = {},
): { listed: F[]; unlisted: UnlistedFindings[] } {
  const maxBytes = (options.maxBytes ?? AUDIT_LIMITS.auditBytes) - AUDIT_ENVELOPE_BYTES
  const maxCount = options.maxCount ?? AUDIT_LIMITS.vulnerabilities
  const unlisted = new Map<string, UnlistedFindings>()
  const listed: F[] = []
  let bytes = 0
  // Once a bound is reached nothing more is listed: the list is a prefix of the ordered findings.
  let full = false
  for (const finding of findings) {
    if (!full) {
      const size = Buffer.byteLength(JSON.stringify(finding)) + 1
      if (listed.length < maxCount && bytes + size <= maxBytes) {
        bytes += size
        listed.push(finding)
        continue
      }
      full = true
    }
    const key = `${finding.detector}\0${finding.severity}\0${finding.file}`
    const [first] = finding.lineNumbers
    const entry = unlisted.get(key)
    if (entry) {
      entry.count++
      entry.lines = [Math.min(entry.lines?.[0] ?? first, first), Math.max(entry.lines?.[1] ?? first, first)]
    } else {
      unlisted.set(key, { ...(finding.detector ? { detector: finding.detector } : {}), name: finding.name, severity: finding.severity, file: finding.file, count: 1, lines: [first, first] })
    }
  }
  return { listed, unlisted: [...unlisted.values()] }
}

/** `text` cut to at most `max` characters, saying so when it is cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const note = ` … (${text.length - max} more characters)`
  return text.slice(0, Math.max(0, max - note.length)) + note
}
