// The API's documentation page in a real browser: /docs renders the OpenAPI document (fetched
// compressed, as every browser asks for it) and lists the three endpoints of the contract.
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { loadConfig } from '../src/config/settings.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { chromiumAvailable, launchChromium } from './helpers/chromium.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

const CONTRACT_PATHS = ['/api/v1/tokens/information/{tokenAddress}', '/api/v1/tokens/solana/{tokenAddress}', '/api/v1/projects/audit/history']
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

describe.runIf(chromiumAvailable())('API docs page in Chromium', () => {
  let t: TestStore
  let api: TestApp
  let base = ''
  let browser: Browser

  beforeAll(async () => {
    t = await embeddedStore()
    // The real engines, with no chain configured: the docs page never calls them.
    const deps = { config: loadConfig({}), env: {}, cache: createMemoryCache(), store: t.store, logger: silent }
    const evm = createEvmEngine(deps)
    const solana = createSolanaEngine({ ...deps, rpcUrls: [] })
    api = await buildTestApp(t.store, { tokens: { evm: evm.service, solana } })
    await api.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await api?.app.close()
    await t?.cleanup()
  })

  it('serves the document the page reads, compressed and whole', async () => {
    const res = await fetch(`${base}/docs/json`, { headers: { 'accept-encoding': 'gzip, deflate, br' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-encoding')).toMatch(/^(gzip|br|deflate)$/)
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> }
    expect(doc.openapi).toBe('3.1.0')
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(CONTRACT_PATHS))
  })

  it('renders the three endpoints of the contract', async () => {
    const page = await browser.newPage()
    const response = await page.goto(`${base}/docs`)
    expect(response?.status()).toBe(200)
    const paths = page.locator('.opblock-summary-path')
    await paths.first().waitFor({ timeout: 20_000 })
    const shown = await paths.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-path') ?? ''))
    expect(shown).toEqual(expect.arrayContaining(CONTRACT_PATHS))
    expect(await page.locator('.information-container .title').textContent()).toContain('tokenrisk')
    await page.close()
  })
})
