// The shareable report page in a real browser: served without an API key, its numbers equal the
// API's, hostile snippets stay text, and a screenshot is kept in test-results/.
import { mkdirSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from './helpers/paths.ts'
import { createInProcessAuditQueue } from '../src/queue/audit-queue.ts'
import { createAuditJobRunner } from '../src/queue/run-audit.ts'
import { createAuditRepository } from '../src/store/repositories/audits.ts'
import { sampleAudit } from './helpers/audits.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { chromiumAvailable, launchChromium } from './helpers/chromium.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

const SCREENSHOT_DIR = join(PROJECT_ROOT, 'test-results')

describe.runIf(chromiumAvailable())('report page in Chromium', () => {
  let t: TestStore
  let api: TestApp
  let base = ''
  let browser: Browser
  let key: string

  beforeAll(async () => {
    t = await embeddedStore()
    const audits = createAuditRepository(t.store, { reportLink: (id) => `${base}/reports/${id}` })
    api = await buildTestApp(t.store, { audits })
    await api.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`
    key = (await api.keys.create({ userId: 'alice' })).key
    const queue = createInProcessAuditQueue(createAuditJobRunner({ audits }))
    await queue.submit({ path: join(import.meta.dirname, 'fixtures/projects/vault'), projectId: 'vault', userId: 'alice', projectName: 'Vault' })
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await api?.app.close()
    await t?.cleanup()
  })

  const history = async (projectId: string) => {
    const res = await fetch(`${base}/api/v1/projects/audit/history?projectId=${projectId}&userId=alice`, { headers: { 'x-api-key': key } })
    return (await res.json()) as { audits: { securityScore: number; totalLines: number; vulnerabilityCount: Record<string, number>; vulnerabilities: { name: string; file: string }[]; projectReportLink: string }[] }
  }

  it('shows the same numbers as the API, without an API key', async () => {
    const [audit] = (await history('vault')).audits
    expect(audit.projectReportLink.startsWith(`${base}/reports/`)).toBe(true)
    const page = await browser.newPage()
    const response = await page.goto(audit.projectReportLink)
    expect(response?.status()).toBe(200)
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'")
    expect(response?.headers()['referrer-policy']).toBe('no-referrer')
    const text = async (id: string) => (await page.getByTestId(id).first().textContent())?.trim()
    expect(await text('project-name')).toBe('Vault')
    expect(Number(await text('score'))).toBe(audit.securityScore)
    expect(Number(await text('total-lines'))).toBe(audit.totalLines)
    for (const severity of ['high', 'medium', 'low', 'informational', 'optimization']) {
      expect(Number(await text(`count-${severity}`)), severity).toBe(audit.vulnerabilityCount[severity])
    }
    const findings = page.getByTestId('finding')
    expect(await findings.count()).toBe(audit.vulnerabilities.length)
    const names = await page.getByTestId('finding-name').allTextContents()
    expect(names.sort()).toEqual(audit.vulnerabilities.map((v) => v.name).sort())
    expect(await page.getByTestId('finding-file').first().textContent()).toBe(audit.vulnerabilities[0].file)
    mkdirSync(SCREENSHOT_DIR, { recursive: true })
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'report-page.png'), fullPage: true })
    await page.close()
  })

  it('keeps a hostile snippet as text: no markup, no script', async () => {
    const hostile = sampleAudit(1, { findings: 1 })
    hostile.vulnerabilities[0].snippet = '</code><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'
    hostile.vulnerabilities[0].name = '<b>bold</b>'
    await api.audits.record({ projectId: 'hostile', userId: 'alice', audits: [hostile] })
    const [audit] = (await history('hostile')).audits
    const page = await browser.newPage()
    await page.goto(audit.projectReportLink)
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined()
    expect(await page.locator('script').count()).toBe(0)
    expect(await page.getByTestId('finding-name').textContent()).toBe('<b>bold</b>')
    expect(await page.getByTestId('finding').textContent()).toContain('<script>window.pwned = 1</script>')
    await page.close()
  })

  it('answers 404 for an unknown report id', async () => {
    const res = await fetch(`${base}/reports/AAAAAAAAAAAAAAAAAAAAAAAA`)
    expect(res.status).toBe(404)
    expect(((await res.json()) as { message: string }).message).toBe('no report at this address')
    expect((await fetch(`${base}/reports/..%2F..%2Fetc`)).status).toBe(404)
  })
})
