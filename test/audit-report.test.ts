import { describe, expect, it } from 'vitest'
import type { Audit } from '../src/contract/audit-history.ts'
import { highlightSolidity } from '../src/audit/report/highlight.ts'
import { renderReportPage } from '../src/audit/report/page.ts'

const HOSTILE = '</code></pre><script>alert(document.cookie)</script><img src=x onerror="alert(1)">'

const audit: Audit = {
  totalLines: 120,
  securityScore: 60.65,
  vulnerabilityCount: { high: 1, medium: 0, low: 1, informational: 0, optimization: 0 },
  vulnerabilities: [
    {
      name: 'Reentrancy with ETH transfer',
      severity: 'high',
      confidence: 'medium',
      snippet: '(bool ok, ) = msg.sender.call{value: amount}(""); // pay\nbalances[msg.sender] = 0;',
      lineNumbers: [27, 28],
      file: 'src/Bank.sol',
      recommendation: 'Update state first.',
      explanation: '`Bank.withdraw()` sends ETH before updating `balances`.',
    },
    {
      name: `Hostile ${HOSTILE}`,
      severity: 'low',
      confidence: 'high',
      snippet: `string s = "${HOSTILE}"; /* ${HOSTILE} */`,
      lineNumbers: [3, 3],
      file: `src/${HOSTILE}.sol`,
      recommendation: HOSTILE,
      explanation: HOSTILE,
    },
  ],
  projectReportLink: 'https://tokenrisk.example/reports/abc',
}

describe('report page', () => {
  const html = renderReportPage({ projectId: 'vault', projectName: `Vault ${HOSTILE}`, createdAt: '2025-01-02T03:04:05.000Z', audit })

  it('is a complete self-contained page with the numbers under stable test ids', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).toContain('</html>')
    expect(html).toContain('data-testid="score">60.65<')
    expect(html).toContain('data-testid="total-lines">120<')
    expect(html).toContain('data-testid="count-high">1<')
    expect(html).toContain('data-testid="count-medium">0<')
    expect(html).toContain('data-testid="count-low">1<')
    expect(html.match(/data-testid="finding"/g)).toHaveLength(2)
    expect(html).toContain('<svg class="chart"')
    expect(html).toContain('2025-01-02 03:04 UTC')
    expect(html).toContain('lines 27–28')
    // No script, no external asset: nothing is fetched when the page opens.
    expect(html).not.toMatch(/<(script|link|img|iframe|object|embed)\b/i)
    expect(html).not.toMatch(/<[a-z][^>]*\s(src|href)=/i)
    expect(html).toContain("Content-Security-Policy\" content=\"default-src 'none'")
  })

  it('escapes every untrusted value, snippets included', () => {
    expect(html).not.toContain('<script>')
    expect(html).not.toContain('<img')
    expect(html).not.toContain('onerror="')
    expect(html).toContain('&lt;script&gt;alert(document.cookie)&lt;/script&gt;')
    expect(html).toContain('src/&lt;/code&gt;')
  })

  it('shows names quoted in backticks as code, still escaped', () => {
    expect(html).toContain('<code>Bank.withdraw()</code> sends ETH before updating <code>balances</code>.')
  })

  it('highlights Solidity and numbers snippet lines from the finding’s first line', () => {
    expect(html).toContain('<span class="ln">27</span>')
    expect(html).toContain('<span class="ln">28</span>')
    expect(highlightSolidity('uint256 x = 1; // note')).toBe('<span class="t">uint256</span> x = <span class="n">1</span>; <span class="c">// note</span>')
    expect(highlightSolidity('require(msg.sender == owner, "no");')).toBe(
      '<span class="b">require</span>(<span class="b">msg</span>.sender == owner, <span class="s">&quot;no&quot;</span>);',
    )
    expect(highlightSolidity('/* a\nb */ x').split('\n')).toHaveLength(2)
  })

  it('says so when there are no findings', () => {
    const clean = renderReportPage({
      projectId: 'p',
      projectName: '',
      createdAt: 'not a date',
      audit: { ...audit, securityScore: 100, vulnerabilities: [], vulnerabilityCount: { high: 0, medium: 0, low: 0, informational: 0, optimization: 0 } },
    })
    expect(clean).toContain('data-testid="no-findings"')
    expect(clean).toContain('data-testid="score">100<')
    expect(clean).toContain('not a date')
  })
})
