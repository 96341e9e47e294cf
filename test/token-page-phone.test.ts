// The token pages on a phone, in a real Chromium at 360, 390 and 414 px: no sideways scrolling on
// a honeypot, a taxed token, a V4 pool's hook said under the taxes, a long error, a bad chain id or an unknown path; the sell verdict of
// each pool in view without a swipe; a search box on every page; HTML error pages with a way back;
// the home page offering the local world's tokens. Screenshots at 390 px go to test-results/.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { zooToken } from '@tokenrisk/devworld/manifest'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { loadConfig } from '../src/config/settings.ts'
import { createMetrics } from '../src/http/metrics.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { chromiumAvailable, launchChromium } from './helpers/chromium.ts'
import { PROJECT_ROOT, TEST_DEVNET_DIR } from './helpers/paths.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

const DATA_DIR = TEST_DEVNET_DIR
const SCREENSHOTS = join(PROJECT_ROOT, 'test-results')
const REPORT_WAIT_MS = 90_000
const PHONE_WIDTHS = [360, 390, 414] as const
const SHOT_WIDTH = 390
const PHONE_HEIGHT = 800
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

describe.runIf(chromiumAvailable())('token pages on a phone', () => {
  let world: World
  let t: TestStore
  let api: TestApp
  let base = ''
  let key = ''
  let browser: Browser

  beforeAll(async () => {
    world = await startWorld({ dataDir: DATA_DIR })
    const config = { ...loadConfig({ DATA_DIR }), devnet: 'on' as const }
    t = await embeddedStore()
    const metrics = createMetrics({ defaultMetrics: false })
    const deps = { config, env: {}, cache: createMemoryCache(), store: t.store, logger: silent, metrics }
    const evm = createEvmEngine({ ...deps, chains: localChains(world.manifest) })
    const solana = createSolanaEngine({ ...deps, rpcUrls: [] })
    const examples = ['honeypot', 'tax-3-7-1', 'clean'].map((k) => ({ label: zooToken(world.manifest, k).name, chain: '31337', address: zooToken(world.manifest, k).address }))
    api = await buildTestApp(t.store, { tokens: { evm: evm.service, solana }, metrics, options: { requestTimeoutMs: 30_000, pageExamples: examples } })
    base = await api.app.listen({ port: 0, host: '127.0.0.1' })
    key = (await api.keys.create({ userId: 'phone' })).key
    mkdirSync(SCREENSHOTS, { recursive: true })
    browser = await launchChromium()
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await api?.app.close()
    await t?.cleanup()
    await world?.stop()
  })

  const phone = async (width: number): Promise<BrowserContext> => {
    const context = await browser.newContext({ viewport: { width, height: PHONE_HEIGHT }, deviceScaleFactor: 2 })
    await context.addInitScript(`localStorage.setItem('tokenrisk.apiKey', ${JSON.stringify(key)})`)
    return context
  }
  const visit = async (context: BrowserContext, url: string): Promise<Page> => {
    const page = await context.newPage()
    await page.goto(url)
    await page.waitForSelector('body[data-state="report"], body[data-state="problem"], body[data-state="home"]', { timeout: REPORT_WAIT_MS })
    return page
  }
  const scrollWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth') as Promise<number>
  /** Whether an element's box lies inside the screen's width (seen without a swipe). */
  const inView = async (page: Page, selector: string, width: number) => {
    const box = await page.locator(selector).first().boundingBox()
    return box !== null && box.x >= 0 && box.x + box.width <= width
  }
  const shoot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `phone-${SHOT_WIDTH}-${name}.png`) })

  it('shows the honeypot and the taxed token without sideways scrolling, each pool\'s sell verdict in view', async () => {
    for (const width of PHONE_WIDTHS) {
      const context = await phone(width)
      // v4-owner-fee: its V4 pool's words (the hook, its privileged calls, a 64-digit pool id) under the taxes.
      for (const k of ['honeypot', 'tax-3-7-1', 'v4-owner-fee']) {
        const page = await visit(context, `${base}/t/31337/${zooToken(world.manifest, k).address}`)
        expect(await page.getAttribute('body', 'data-state')).toBe('report')
        expect(await scrollWidth(page), `${k} at ${width}`).toBeLessThanOrEqual(width)
        // Every column of the taxes table is in view: the sell tax and whether a holder can sell.
        for (const label of ['Sell tax', 'Can sell']) expect(await inView(page, `#taxes tbody [data-label="${label}"]`, width), `${k} ${label} at ${width}`).toBe(true)
        expect(await page.locator('#verdict').isVisible()).toBe(true)
        // A search box on the report page.
        expect(await page.locator('form[role="search"] #token').count()).toBe(1)
        if (width === SHOT_WIDTH) await shoot(page, k === 'honeypot' ? 'honeypot' : k === 'tax-3-7-1' ? 'taxed' : 'v4-hook')
        await page.close()
      }
      await context.close()
    }
  }, 180_000)

  it('keeps a long error message and a bad chain id within the screen, under headings that name the problem', async () => {
    const address = zooToken(world.manifest, 'clean').address
    for (const width of PHONE_WIDTHS) {
      const context = await phone(width)
      const long = await context.newPage()
      const message = `the node at http://node.example/${'x'.repeat(300)} failed`
      await long.route(`${base}/api/v1/tokens/information/**`, (route) => route.fulfill({ status: 503, json: { statusCode: 503, error: 'Service Unavailable', message }, headers: { 'retry-after': '5' } }))
      await long.goto(`${base}/t/31337/${address}`)
      await long.waitForSelector('body[data-state="problem"]', { timeout: REPORT_WAIT_MS })
      expect(await scrollWidth(long), `long error at ${width}`).toBeLessThanOrEqual(width)
      expect(await long.locator('form[role="search"] #token').count()).toBe(1)
      if (width === SHOT_WIDTH) await shoot(long, 'error')
      await long.close()
      const badChain = await visit(context, `${base}/t/abc/${address}`)
      expect(await badChain.locator('h2, h1').first().innerText()).toBe('“abc” is not a chain id')
      expect(await scrollWidth(badChain)).toBeLessThanOrEqual(width)
      await badChain.close()
      await context.close()
    }
  }, 120_000)

  it('answers unknown paths with an HTML page that says so, a way back and a search box that works', async () => {
    for (const width of PHONE_WIDTHS) {
      const context = await phone(width)
      for (const path of ['/nonexistent', '/t/', '/reports/doesnotexist']) {
        const page = await context.newPage()
        const response = await page.goto(`${base}${path}`)
        expect(response?.status(), path).toBe(404)
        expect(response?.headers()['content-type'], path).toMatch(/^text\/html/)
        expect(await page.locator('h1').innerText(), path).toBe(path.startsWith('/reports/') ? 'Nothing here' : 'No page here')
        expect(await page.locator('main p').first().innerText(), path).toMatch(path.startsWith('/reports/') ? /^No report at this address\.$/ : new RegExp(`^There is no page at ${path.replace(/\//g, '\\/')}\\.$`))
        expect(await page.locator('a.back').getAttribute('href')).toMatch(/^(\.\/|(\.\.\/)+)$/)
        expect(await scrollWidth(page), `${path} at ${width}`).toBeLessThanOrEqual(width)
        if (width === SHOT_WIDTH && path === '/nonexistent') await shoot(page, '404')
        await page.close()
      }
      await context.close()
    }
    // The way back leads home, and the search box to a token's page.
    const context = await phone(SHOT_WIDTH)
    const page = await context.newPage()
    await page.goto(`${base}/reports/doesnotexist`)
    await page.click('a.back')
    await page.waitForSelector('body[data-state="home"]')
    expect(new URL(page.url()).pathname).toBe('/')
    await page.goto(`${base}/nonexistent`)
    const address = zooToken(world.manifest, 'honeypot').address
    await page.fill('#token', address)
    await page.fill('#chain', '31337')
    await page.click('button[type="submit"]')
    await page.waitForSelector('body[data-state="report"]', { timeout: REPORT_WAIT_MS })
    expect(new URL(page.url()).pathname).toBe(`/t/31337/${address}`)
    await context.close()
    // A program still gets the one error shape.
    const json = await fetch(`${base}/nonexistent`)
    expect(json.status).toBe(404)
    expect(await json.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'no route GET /nonexistent' })
  }, 120_000)

  it('offers the local world\'s tokens on the home page', async () => {
    const context = await phone(SHOT_WIDTH)
    const page = await visit(context, `${base}/`)
    const links = page.locator('.examples a')
    expect(await links.allInnerTexts()).toEqual(['Honeypot Token', 'Taxed Token', 'Clean Token'])
    expect(await scrollWidth(page)).toBeLessThanOrEqual(SHOT_WIDTH)
    await links.first().click()
    await page.waitForSelector('body[data-state="report"]', { timeout: REPORT_WAIT_MS })
    expect(await page.getAttribute('#verdict', 'data-verdict')).toBe('honeypot')
    await context.close()
  }, 60_000)
})
