import { AUDIT_LIMITS, SEVERITIES, type Audit, type Severity, type UnlistedFindings, type Vulnerability } from '../../contract/audit-history.ts'
import { escapeHtml } from './escape.ts'
import { highlightSolidity } from './highlight.ts'

export interface ReportPageInput {
  projectId: string
  projectName: string
  /** ISO 8601 timestamp of the audit. */
  createdAt: string
  /** The audit, with all of its listed vulnerabilities or the page of them shown. */
  audit: Audit
  /** Files the audit did not analyse, and why. */
  skipped?: { file: string; reason: string }[]
  /** Findings counted but not listed (past the audit's size bound), per detector, severity and file. */
  unlisted?: UnlistedFindings[]
  /** When `audit.vulnerabilities` is one page of the list: where it starts, the list's length, and the page links. */
  paging?: { offset: number; listedCount: number; page: number; pages: number; href(page: number): string }
}

/** Findings shown on one page of a report: a page stays well under 2 MB of HTML however long the audit. */
export const FINDINGS_PER_PAGE = 50
/** Skipped files and unlisted groups shown; the rest are counted. */
const MAX_NOTES_SHOWN = 200

const SEVERITY_LABEL: Record<Severity, string> = {
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  informational: 'Informational',
  optimization: 'Optimization',
}

/** Score bands for the colour of the score (the number itself is the model's, docs/scoring.md). */
const SCORE_GOOD = 80
const SCORE_FAIR = 50

/** Width of the chart's bar area, in SVG units. */
const CHART_BAR_WIDTH = 420
const CHART_ROW_HEIGHT = 28

/**
 * The shareable HTML report of one audit: a complete, self-contained page (inline CSS and SVG, no
 * script, no external asset) with the project, the date, the security score, counts by severity
 * with a chart, and every finding with its file, lines, highlighted snippet, explanation and
 * recommendation. Every value is HTML-escaped. Numbers carry stable `data-testid`s:
 * `score`, `total-lines`, `count-<severity>`, `finding-count`, and one `finding` per vulnerability.
 *
 * @example
 * reply.type('text/html').send(renderReportPage({ projectId, projectName, createdAt, audit }))
 */
export function renderReportPage(input: ReportPageInput): string {
  const { audit } = input
  const title = `Audit of ${input.projectName || input.projectId}`
  const scoreBand = audit.securityScore >= SCORE_GOOD ? 'good' : audit.securityScore >= SCORE_FAIR ? 'fair' : 'poor'
  const offset = input.paging?.offset ?? 0
  const listedCount = input.paging?.listedCount ?? audit.vulnerabilities.length
  const countedCount = SEVERITIES.reduce((sum, s) => sum + audit.vulnerabilityCount[s], 0)
  const findings = audit.vulnerabilities.map((v, i) => renderFinding(v, offset + i)).join('\n')
  const skipped = input.skipped ?? []
  const unlisted = input.unlisted ?? []
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} — tokenrisk</title>
<style>${STYLE}</style>
</head>
<body>
<header>
  <p class="brand">tokenrisk · Solidity audit</p>
  <h1 data-testid="project-name">${escapeHtml(input.projectName || input.projectId)}</h1>
  <p class="meta">Project <code data-testid="project-id">${escapeHtml(input.projectId)}</code> · audited <time data-testid="created-at" datetime="${escapeHtml(input.createdAt)}">${escapeHtml(formatDate(input.createdAt))}</time></p>
</header>
<main>
<section class="summary" aria-label="Summary">
  <div class="score ${scoreBand}">
    <span class="label">Security score</span>
    <span class="value" data-testid="score">${escapeHtml(String(audit.securityScore))}</span>
    <span class="scale">/ 100</span>
  </div>
  <div class="facts">
    <p><span data-testid="total-lines">${escapeHtml(String(audit.totalLines))}</span> lines of Solidity analysed</p>
    <p><span data-testid="finding-count">${listedCount}</span> findings listed${countedCount > listedCount ? ` of <span data-testid="counted-count">${countedCount}</span> counted` : ''}</p>
    ${skipped.length > 0 ? `<p class="warn"><a href="#not-analysed"><span data-testid="skipped-count">${skipped.length}</span> file${skipped.length === 1 ? '' : 's'} not analysed</a>: the score covers the analysed files only</p>` : ''}
  </div>
  <table class="counts" aria-label="Findings by severity">
    <tbody>
${SEVERITIES.map((s) => `      <tr class="sev-${s}"><th scope="row">${SEVERITY_LABEL[s]}</th><td data-testid="count-${s}">${audit.vulnerabilityCount[s]}</td></tr>`).join('\n')}
    </tbody>
  </table>
  ${renderChart(audit)}
</section>
${renderSkipped(skipped)}
<section class="findings" aria-label="Findings">
  <h2>Findings</h2>
${renderPager(input.paging, listedCount)}
${findings || '  <p class="empty" data-testid="no-findings">No findings.</p>'}
${renderPager(input.paging, listedCount)}
</section>
${renderUnlisted(unlisted)}
</main>
<footer><p>Generated by tokenrisk. Scores and detectors are documented in docs/scoring.md and docs/detectors.md.</p></footer>
</body>
</html>
`
}

function renderSkipped(skipped: readonly { file: string; reason: string }[]): string {
  if (skipped.length === 0) return ''
  const rows = skipped
    .slice(0, MAX_NOTES_SHOWN)
    .map((s) => `    <li data-testid="skipped-file"><code>${escapeHtml(s.file || '(project)')}</code>: ${escapeHtml(s.reason)}</li>`)
  const more = skipped.length > MAX_NOTES_SHOWN ? `\n    <li>… and ${skipped.length - MAX_NOTES_SHOWN} more</li>` : ''
  return `<section class="notes" id="not-analysed" aria-label="Files not analysed">
  <h2>Files not analysed</h2>
  <p>These files were not analysed: their code is not in the score, the counts or the findings.</p>
  <ul>
${rows.join('\n')}${more}
  </ul>
</section>`
}

function renderUnlisted(unlisted: readonly UnlistedFindings[]): string {
  if (unlisted.length === 0) return ''
  const total = unlisted.reduce((sum, u) => sum + u.count, 0)
  const rows = unlisted.slice(0, MAX_NOTES_SHOWN).map((u) => {
    const severity = u.severity ? `<span class="badge sev-${escapeHtml(u.severity)}">${escapeHtml(SEVERITY_LABEL[u.severity] ?? u.severity)}</span> ` : ''
    const id = u.detector ? ` (<code>${escapeHtml(u.detector)}</code>)` : ''
    const lines = u.lines ? `, starting on lines ${u.lines[0]}–${u.lines[1]}` : ''
    return `    <li data-testid="unlisted">${severity}<span>${escapeHtml(u.name)}</span>${id} in <code>${escapeHtml(u.file || '(project)')}</code>: ${u.count} more${lines}</li>`
  })
  const more = unlisted.length > MAX_NOTES_SHOWN ? `\n    <li>… and ${unlisted.length - MAX_NOTES_SHOWN} more groups</li>` : ''
  // Folded: the list can be long, and the findings above come first.
  return `<section class="notes" id="not-listed" aria-label="Findings not listed">
  <h2>Findings not listed</h2>
  <p><span data-testid="unlisted-count">${total}</span> findings are counted above (and in the score) but not listed: the audit reached its size bound of ${AUDIT_LIMITS.vulnerabilities.toLocaleString('en-US')} findings and ${AUDIT_LIMITS.auditBytes / 1024 / 1024} MB, listing the most severe first.</p>
  <details data-testid="unlisted-groups">
  <summary>What was not listed, by detector and file (${unlisted.length} group${unlisted.length === 1 ? '' : 's'})</summary>
  <ul>
${rows.join('\n')}${more}
  </ul>
  </details>
</section>`
}

function renderPager(paging: ReportPageInput['paging'], listedCount: number): string {
  if (!paging || paging.pages <= 1) return ''
  const first = paging.offset + 1
  const last = Math.min(paging.offset + FINDINGS_PER_PAGE, listedCount)
  const link = (page: number, label: string, rel: string) =>
    page >= 1 && page <= paging.pages ? `<a href="${escapeHtml(paging.href(page))}" rel="${rel}" data-testid="page-${rel}">${label}</a>` : `<span class="off">${label}</span>`
  return `  <nav class="pager" aria-label="Pages of findings"><span data-testid="page-range">findings ${first}–${last} of ${listedCount}</span> · page ${paging.page} of ${paging.pages} · ${link(paging.page - 1, '← previous', 'prev')} ${link(paging.page + 1, 'next →', 'next')}</nav>`
}

function renderChart(audit: Audit): string {
  const max = Math.max(1, ...SEVERITIES.map((s) => audit.vulnerabilityCount[s]))
  const labelWidth = 120
  const height = SEVERITIES.length * CHART_ROW_HEIGHT
  const rows = SEVERITIES.map((s, i) => {
    const count = audit.vulnerabilityCount[s]
    const width = count === 0 ? 0 : Math.max(2, Math.round((count / max) * CHART_BAR_WIDTH))
    const y = i * CHART_ROW_HEIGHT
    return `<g class="sev-${s}"><text x="0" y="${y + 18}">${SEVERITY_LABEL[s]}</text><rect data-testid="bar-${s}" x="${labelWidth}" y="${y + 5}" width="${width}" height="${CHART_ROW_HEIGHT - 10}" rx="3"></rect><text x="${labelWidth + width + 6}" y="${y + 18}">${count}</text></g>`
  }).join('')
  return `<svg class="chart" role="img" aria-label="Findings by severity" viewBox="0 0 ${labelWidth + CHART_BAR_WIDTH + 40} ${height}" width="100%" preserveAspectRatio="xMinYMin meet">${rows}</svg>`
}

function renderFinding(v: Vulnerability, index: number): string {
  const [first, last] = v.lineNumbers
  const lines = highlightSolidity(v.snippet).split('\n')
  const numbered = lines.map((line, i) => `<span class="ln">${first + i}</span>${line}`).join('\n')
  const where = first === last ? `line ${first}` : `lines ${first}–${last}`
  return `  <article class="finding sev-${escapeHtml(v.severity)}" data-testid="finding" data-severity="${escapeHtml(v.severity)}" id="finding-${index + 1}">
    <h3><span class="badge">${escapeHtml(SEVERITY_LABEL[v.severity] ?? v.severity)}</span> <span data-testid="finding-name">${escapeHtml(v.name)}</span>${v.detector ? ` <code class="rule" data-testid="finding-detector">${escapeHtml(v.detector)}</code>` : ''}</h3>
    <p class="where"><code data-testid="finding-file">${escapeHtml(v.file)}</code>, <span data-testid="finding-lines">${escapeHtml(where)}</span> · confidence <span data-testid="finding-confidence">${escapeHtml(v.confidence)}</span></p>
    <pre class="snippet"><code>${numbered}</code></pre>
    <p class="explanation">${prose(v.explanation)}</p>
    <p class="recommendation"><strong>Recommendation:</strong> ${prose(v.recommendation)}</p>
  </article>`
}

/** Escaped text with `code spans` shown as code (the backticks detectors put around names). */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`\n]+)`/g, '<code>$1</code>')
}

function formatDate(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

const STYLE = `
:root{--fg:#1c2330;--muted:#5b6575;--bg:#f6f7f9;--card:#fff;--line:#e3e6eb;--high:#c62828;--medium:#e67700;--low:#c9a400;--informational:#3b6fd6;--optimization:#2e8b57}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header,main,footer{max-width:1000px;margin:0 auto;padding:0 20px}header{padding-top:28px}
.brand{margin:0;color:var(--muted);font-size:13px;letter-spacing:.04em;text-transform:uppercase}h1{margin:4px 0 6px;font-size:28px;word-break:break-word}
.meta{margin:0 0 20px;color:var(--muted)}code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
.summary{display:grid;grid-template-columns:200px 1fr 200px;gap:20px;align-items:center;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:20px}
.score{display:flex;flex-direction:column;align-items:center;border-radius:10px;padding:14px;color:#fff}.score.good{background:#2e7d32}.score.fair{background:#b26a00}.score.poor{background:#b71c1c}
.score .label{font-size:12px;text-transform:uppercase;letter-spacing:.05em;opacity:.9}.score .value{font-size:44px;font-weight:700;line-height:1.1}.score .scale{opacity:.85}
.facts p{margin:4px 0}.counts{border-collapse:collapse;width:100%}.counts th{text-align:left;font-weight:500;padding:3px 8px}.counts td{text-align:right;font-variant-numeric:tabular-nums;padding:3px 8px;font-weight:600}
.chart{grid-column:1/-1;max-height:170px}.chart text{font-size:13px;fill:var(--fg)}
.sev-high rect{fill:var(--high)}.sev-medium rect{fill:var(--medium)}.sev-low rect{fill:var(--low)}.sev-informational rect{fill:var(--informational)}.sev-optimization rect{fill:var(--optimization)}
.counts .sev-high th{border-left:4px solid var(--high)}.counts .sev-medium th{border-left:4px solid var(--medium)}.counts .sev-low th{border-left:4px solid var(--low)}.counts .sev-informational th{border-left:4px solid var(--informational)}.counts .sev-optimization th{border-left:4px solid var(--optimization)}
.findings h2{margin:28px 0 12px}.finding{background:var(--card);border:1px solid var(--line);border-left:5px solid var(--muted);border-radius:8px;padding:14px 18px;margin:0 0 14px}
.finding.sev-high{border-left-color:var(--high)}.finding.sev-medium{border-left-color:var(--medium)}.finding.sev-low{border-left-color:var(--low)}.finding.sev-informational{border-left-color:var(--informational)}.finding.sev-optimization{border-left-color:var(--optimization)}
.finding h3{margin:0 0 4px;font-size:17px}.badge{display:inline-block;font-size:12px;font-weight:600;color:#fff;background:var(--muted);border-radius:4px;padding:1px 7px;vertical-align:2px}
.sev-high .badge{background:var(--high)}.sev-medium .badge{background:var(--medium)}.sev-low .badge{background:var(--low)}.sev-informational .badge{background:var(--informational)}.sev-optimization .badge{background:var(--optimization)}
.badge.sev-high{background:var(--high)}.badge.sev-medium{background:var(--medium)}.badge.sev-low{background:var(--low)}.badge.sev-informational{background:var(--informational)}.badge.sev-optimization{background:var(--optimization)}
.finding h3 .rule{font-weight:400;color:var(--muted)}details summary{cursor:pointer;margin:6px 0}
.where{margin:0 0 8px;color:var(--muted)}.snippet{margin:0 0 10px;background:#0f1720;color:#e6edf3;border-radius:6px;padding:10px 12px;overflow-x:auto;font-size:13px;line-height:1.45}
.snippet .ln{display:inline-block;width:3.2em;margin-right:10px;color:#6e7681;text-align:right;user-select:none}.snippet .c{color:#8b949e;font-style:italic}.snippet .s{color:#a5d6ff}.snippet .n{color:#79c0ff}.snippet .k{color:#ff7b72}.snippet .t{color:#ffa657}.snippet .b{color:#d2a8ff}
.notes{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:4px 18px;margin:20px 0}.notes li{margin:3px 0}.warn{color:var(--high)}.warn a{color:inherit}
.pager{margin:0 0 14px;color:var(--muted)}.pager .off{opacity:.5}
.explanation,.recommendation{margin:6px 0}.empty{color:var(--muted)}footer{color:var(--muted);font-size:13px;padding-top:10px;padding-bottom:30px}
@media (max-width:760px){.summary{grid-template-columns:1fr}}
`
