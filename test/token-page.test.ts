// The token pages as a person meets them, in a real Chromium, on reports of the local worlds:
// the home page and its key, a honeypot, a clean token, a mintable token, locked liquidity, a
// Solana mint with a freeze authority, an unknown chain, a node that is down, a bad address, open
// pages and their per-address limit; at phone width, on paper, by keyboard; nothing loaded from
// another origin. A screenshot of each is kept in test-results/.
import { mkdirSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { loadConfig } from '../src/config/settings.ts'
import { createMetrics } from '../src/http/metrics.ts'
import { startSolanaWorld, type StartedSolanaWorld } from '@tokenrisk/devworld/solana/world'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { zooToken } from '@tokenrisk/devworld/manifest'
import { solanaMint } from '@tokenrisk/devworld/solana/manifest'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { chromiumAvailable, launchChromium } from './helpers/chromium.ts'
import { PROJECT_ROOT, TEST_DEVNET_DIR } from './helpers/paths.ts'
import { withHoldersUnread } from './helpers/unread-holders.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

const DATA_DIR = TEST_DEVNET_DIR
const SCREENSHOTS = join(PROJECT_ROOT, 'test-results')
const EXPLORER = 'https://explorer.test/address/{address}'
const POOL_PAGE = 'https://pools.test/{pair}'
/** A report page's requests per minute per address with open pages, in this test. */
const OPEN_RATE_PER_MINUTE = 2
const REPORT_WAIT_MS = 90_000
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

describe.runIf(chromiumAvailable())('token pages in Chromium', () => {
  let world: World
  let solanaWorld: StartedSolanaWorld
  let t: TestStore
  let keyed: TestApp
  let open: TestApp
  let base = ''
  let openBase = ''
  let key = ''
  let browser: Browser
  let context: BrowserContext
  /** Every URL the pages asked for, to show that nothing came from another origin. */
  const requested: string[] = []

  beforeAll(async () => {
    world = await startWorld({ dataDir: DATA_DIR })
    solanaWorld = await startSolanaWorld({ dataDir: DATA_DIR })
    const config = { ...loadConfig({ DATA_DIR }), devnet: 'on' as const }
    t = await embeddedStore()
    const metrics = createMetrics({ defaultMetrics: false })
    // Ethereum's entry points at a closed port: its node is down.
    const deps = { config, env: { RPC_URL_1: 'http://127.0.0.1:9' }, cache: createMemoryCache(), store: t.store, logger: silent, metrics }
    const local = localChains(world.manifest)
    const chains = { ...local, entries: local.entries.map((e) => ({ ...e, links: { ...e.links, explorerAddress: EXPLORER, pool: POOL_PAGE } })) }
    const evm = createEvmEngine({ ...deps, chains })
    const solana = createSolanaEngine({ ...deps, rpcUrls: [solanaWorld.rpcUrl], pricing: solanaWorld.manifest.pricing })
    const tokens = { evm: evm.service, solana }
    keyed = await buildTestApp(t.store, { tokens, metrics, options: { requestTimeoutMs: 20_000 } })
    open = await buildTestApp(t.store, { tokens, metrics: createMetrics({ defaultMetrics: false }), options: { requestTimeoutMs: 20_000, pages: { open: true, ratePerMinute: OPEN_RATE_PER_MINUTE, coldPerMinute: 20 } } })
    for (const api of [keyed, open]) await api.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(keyed.app.server.address() as AddressInfo).port}`
    openBase = `http://127.0.0.1:${(open.app.server.address() as AddressInfo).port}`
    key = (await keyed.keys.create({ userId: 'reader' })).key
    mkdirSync(SCREENSHOTS, { recursive: true })
    browser = await launchChromium()
    context = await browser.newContext({ viewport: { width: 1100, height: 900 } })
    // The reports' pages find the key a person pasted before (the first test pastes it on a page of its own).
    await withKey(context)
    context.on('request', (request) => requested.push(request.url()))
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await keyed?.app.close()
    await open?.app.close()
    await t?.cleanup()
    await world?.stop()
    await solanaWorld?.stop()
  })

  const zoo = (k: string) => zooToken(world.manifest, k)
  const mint = (k: string) => solanaMint(solanaWorld.manifest, k)
  const short = (address: string) => `${address.slice(0, address.startsWith('0x') ? 6 : 4)}…${address.slice(-4)}`

  /** Opens a page and waits until it shows a report, a problem, the home page or the key form. */
  async function visit(url: string, on: BrowserContext = context): Promise<Page> {
    const page = await on.newPage()
    await page.goto(url)
    await page.waitForSelector('body[data-state="report"], body[data-state="problem"], body[data-state="home"], body[data-state="key"]', { timeout: REPORT_WAIT_MS })
    return page
  }
  const shoot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: join(SCREENSHOTS, `token-page-${name}.png`), fullPage })
  /** The text a person sees (hidden parts, such as an address's full form on screen, left out). */
  const text = async (page: Page, selector: string) => (await page.locator(selector).first().innerText()).replace(/\s+/g, ' ').trim()

  /**
   * Text whose contrast with what is behind it is under WCAG AA (4.5:1, 3:1 for large text). The
   * page's own code, as the browser runs it (a script, since the tests are checked without the
   * DOM's types).
   */
  const lowContrast = (page: Page): Promise<string[]> =>
    page.evaluate(`(() => {
      const rgb = (css) => {
        const m = /rgba?\\(([^)]+)\\)/.exec(css)
        if (!m) return undefined
        const [r, g, b, a = 1] = m[1].split(',').map(Number)
        return { r, g, b, a }
      }
      const luminance = (c) => {
        const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
        return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b)
      }
      const background = (element) => {
        for (let e = element; e; e = e.parentElement) {
          const c = rgb(getComputedStyle(e).backgroundColor)
          if (c && c.a > 0.5) return c
        }
        return { r: 255, g: 255, b: 255, a: 1 }
      }
      const failures = []
      for (const element of document.querySelectorAll('body *')) {
        const own = [...element.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim() !== '')
        if (!own || !element.offsetParent || element.closest('.visually-hidden')) continue
        const style = getComputedStyle(element)
        const fg = rgb(style.color)
        if (!fg) continue
        const [l1, l2] = [luminance(fg), luminance(background(element))].sort((a, b) => b - a)
        const ratio = (l1 + 0.05) / (l2 + 0.05)
        const size = parseFloat(style.fontSize)
        const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700)
        if (ratio < (large ? 3 : 4.5)) failures.push(element.tagName.toLowerCase() + '.' + element.className + ' "' + element.textContent.trim().slice(0, 30) + '": ' + ratio.toFixed(2))
      }
      return failures
    })()`)
  /** Puts the key a person pasted before into every page of `on`. */
  const withKey = (on: BrowserContext) => on.addInitScript(`localStorage.setItem('tokenrisk.apiKey', ${JSON.stringify(key)})`)

  it('asks for the API key once, then the home page lists the chains and opens a report by keyboard', async () => {
    const firstVisit = await browser.newContext({ viewport: { width: 1100, height: 900 } })
    firstVisit.on('request', (request) => requested.push(request.url()))
    const page = await visit(`${base}/`, firstVisit)
    expect(await page.getAttribute('body', 'data-state')).toBe('key')
    expect(await text(page, '#key-title')).toBe('Your API key')
    // The skip link comes first for a keyboard user.
    await page.keyboard.press('Tab')
    expect(await page.evaluate('document.activeElement.className')).toBe('skip')
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid')
    await page.getByLabel('API key', { exact: true }).fill('not-a-key')
    await page.keyboard.press('Enter')
    await page.waitForSelector('body[data-state="key"] #api-key-error:not(:empty)')
    expect(await text(page, '#api-key-error')).toMatch(/refused: invalid or revoked API key/)
    await page.getByLabel('API key', { exact: true }).fill(key)
    await page.keyboard.press('Enter')
    await page.waitForSelector('body[data-state="home"]')
    expect(await page.evaluate("localStorage.getItem('tokenrisk.apiKey')")).toBe(key)
    const options = await page.locator('#chain option').allTextContents()
    expect(options.sort()).toEqual(['Ethereum (1)', 'Solana', 'local (31337)'])
    expect(await lowContrast(page)).toEqual([])
    await shoot(page, 'home')

    // A mint pasted picks Solana; a bad address is refused with the reason, at the field.
    await page.getByLabel('Token address or Solana mint').fill(mint('clean-spl').address)
    expect(await page.locator('#chain').inputValue()).toBe('solana')
    await page.getByLabel('Token address or Solana mint').fill('0x1234')
    await page.keyboard.press('Enter')
    expect(await text(page, '#token-error')).toBe('An EVM address is 0x followed by 40 hexadecimal characters; this one has 4.')
    expect(await page.getAttribute('#token', 'aria-invalid')).toBe('true')

    await page.getByLabel('Token address or Solana mint').fill(zoo('clean').address)
    await page.getByLabel('Chain').selectOption('31337')
    await page.getByLabel('Token address or Solana mint').focus()
    await page.keyboard.press('Enter')
    await page.waitForURL(`${base}/t/31337/${zoo('clean').address}`)
    await page.waitForSelector('body[data-state="report"]', { timeout: REPORT_WAIT_MS })
    await firstVisit.close()
  })

  it('shows a honeypot as one: the verdict first, the sell tax not measured with the reason', async () => {
    const token = zoo('honeypot')
    const page = await visit(`${base}/t/31337/${token.address}`)
    expect(await page.getAttribute('#verdict', 'data-verdict')).toBe('honeypot')
    expect(await page.locator('.verdict-label').textContent()).toBe('Honeypot')
    expect(await text(page, '#verdict-title')).toBe('Holders cannot sell this token')
    expect(await text(page, '.verdict-detail')).toContain('Selling fails on Uniswap V2')
    expect(await text(page, '.verdict-detail')).toContain(token.pools[0].honeypotReason)
    // The sections, in the order a person reads them.
    const order = await page.locator('article.report > section').evaluateAll((sections) => sections.map((s) => s.id))
    expect(order).toEqual(['verdict', 'score', 'taxes', 'powers', 'holders', 'liquidity', 'about'])
    const taxes = await text(page, '#taxes tbody tr')
    expect(taxes).toContain('Uniswap V2')
    expect(taxes).toContain(`not measured: selling failed: ${token.pools[0].honeypotReason}`)
    expect(taxes).toContain('No: honeypot')
    expect(await text(page, '[data-check="cannotSellAll"] .status')).toBe('Yes')
    expect(await page.title()).toMatch(/^Honeypot Token \(HONEY\): Honeypot — tokenrisk$/)
    expect(await lowContrast(page)).toEqual([])
    await shoot(page, 'honeypot')
    await page.close()
  })

  it("says under the taxes what runs on a Uniswap V4 pool: its hook, and that it refused the sells", async () => {
    const token = zoo('v4-sell-gate')
    const page = await visit(`${base}/t/31337/${token.address}`)
    expect(await page.getAttribute('#verdict', 'data-verdict')).toBe('honeypot')
    const venue = await text(page, '#taxes .pool-venues li')
    expect(venue).toMatch(/^Uniswap V4: Uniswap V4 pool 0x[0-9a-f]{64} in the PoolManager /)
    expect(venue).toContain('(beforeSwap): sells through the pool fail: ZooHookSellGate: sells are closed')
    // The hook and the PoolManager are linked to the explorer, the pool's id (no address) is not.
    // Its pool page is the pool's, by its id (the PoolManager's address would name every V4 pool).
    const id = /Uniswap V4 pool (0x[0-9a-f]{64})/.exec(venue)![1]
    expect(await page.locator('#liquidity tbody a', { hasText: 'pool page' }).getAttribute('href')).toBe(POOL_PAGE.replace('{pair}', id))
    const links = await page.locator('#taxes .pool-venues a.addr').evaluateAll((as) => as.map((a) => a.getAttribute('title')))
    expect(links.map((a) => a?.toLowerCase())).toEqual(expect.arrayContaining([token.pools[0].hook!.toLowerCase(), token.pools[0].pairAddress.toLowerCase()]))
    expect(await lowContrast(page)).toEqual([])
    await shoot(page, 'v4-hook')
    await page.close()
  })

  it('says of the clean token that its code has no risky power but its creator can pull the liquidity, never "safe", with its holders drawn against the rest', async () => {
    const token = zoo('clean')
    const page = await visit(`${base}/t/31337/${token.address}`)
    // Its code is clean; its LP tokens sit unlocked with its creator, who also holds a third of the supply.
    expect(await page.getAttribute('#verdict', 'data-verdict')).toBe('liquidity-pullable')
    expect(await text(page, '#verdict-title')).toBe('The owner and creator can pull the liquidity')
    expect(await text(page, '.verdict-detail')).toMatch(/^The owner and creator 0x[0-9a-fA-F]{40} holds 9\d(\.\d+)? % of the LP tokens of Uniswap V2 0x[0-9a-fA-F]{40}, unlocked/)
    expect(await text(page, '.verdict-market')).toMatch(/^Supply concentrated — The owner and creator 0x[0-9a-fA-F]{40} holds 3\d(\.\d+)? % of the supply/)
    expect(await page.locator('body').innerText()).not.toMatch(/\bsafe\b/i)
    const api = (await (await fetch(`${base}/api/v1/tokens/information/${token.address}?chainId=31337`, { headers: { 'x-api-key': key } })).json()) as {
      tokenScore: { totalScorePercentage: string }
      marketChecks: { holdersChecks: { keyHolders: { address: string; percent: string }[] } }
    }
    expect(await text(page, '.score-number')).toBe(`${Number(Number(api.tokenScore.totalScorePercentage).toFixed(2))} %`)
    for (const tax of await page.locator('#taxes tbody td .value').allTextContents()) expect(tax).toBe('0 %')
    // Every owner power is listed, measured absent, with its evidence.
    expect(await page.locator('#powers [data-check] .status-absent').count()).toBe(16)
    const holders = api.marketChecks.holdersChecks.keyHolders.slice(0, 10)
    expect(await page.locator('#holders tbody tr').count()).toBe(holders.length + 1)
    const top = holders.reduce((sum, h) => sum + Number(h.percent), 0)
    expect(await page.getAttribute('#holders .stack', 'aria-label')).toContain(`The ${holders.length} largest holders hold ${Number(top.toFixed(2))} % of the supply`)
    expect(await text(page, '#holders tbody tr:first-child')).toContain('owner')
    expect(await lowContrast(page)).toEqual([])
    await shoot(page, 'clean')
    await page.close()
  })

  it('names the owner who can mint, with the evidence and the owner linked to the explorer', async () => {
    const page = await visit(`${base}/t/31337/${zoo('mintable').address}`)
    expect(await page.getAttribute('#verdict', 'data-verdict')).toBe('owner-can-mint')
    expect(await text(page, '#verdict-title')).toBe('The owner can mint new tokens')
    const check = page.locator('[data-check="isMintable"]')
    expect(await text(page, '[data-check="isMintable"] .status')).toBe('Found')
    expect(await text(page, '[data-check="isMintable"] .check-finding')).toBe('A privileged account can mint new tokens.')
    const evidence = await text(page, '[data-check="isMintable"] .evidence')
    expect(evidence).toMatch(/^Simulated on the chain: as 0xf39F…2266 \(owner\(\)\), mint\(address,uint256\)/)
    const owner = world.manifest.deployer
    expect(await check.locator('a.addr').first().getAttribute('href')).toBe(EXPLORER.replace('{address}', owner))
    expect(await check.locator('a.addr').first().getAttribute('title')).toBe(owner)
    // Found powers come first.
    expect(await page.locator('#powers .checks').first().locator('[data-check]').first().getAttribute('data-check')).toBe('isMintable')
    await shoot(page, 'mintable')
    await page.close()
  })

  it('puts locked liquidity on a timeline: each unlock with its date and amount', async () => {
    const page = await visit(`${base}/t/31337/${zoo('lp-locked').address}`)
    const unlocks = page.locator('#liquidity .unlocks li')
    expect(await unlocks.count()).toBe(3)
    expect(await page.locator('#liquidity .tl-mark').count()).toBe(3)
    const first = await unlocks.first().innerText()
    expect(first).toMatch(/^\d{1,2} \w{3} \d{4} \(in \d+ days\): [\d.]+ % of the LP tokens \([\d,.]+\), locked in tokenrisk LpLocker/)
    expect(await text(page, '#liquidity')).toMatch(/locked [\d.]+ %/)
    // The burn address is coloured and named as such, among the token's holders and the LP's.
    for (const table of ['#holders', '#liquidity .holders-chart']) {
      const burn = page.locator(`${table} tbody tr`, { hasText: '0x0000…dEaD' })
      expect(await burn.locator('.role').allInnerTexts(), table).toEqual(['burned'])
    }
    await shoot(page, 'lp-locked')
    await page.close()
  })

  it('says where a Solana token launched: on its curve and how far it sold, or graduated and to which pool', async () => {
    const onCurve = mint('pump-curve')
    const graduated = solanaWorld.manifest.mints.find((m) => m.curve?.complete && m.curve.graduatedPool !== '')!
    for (const [m, words] of [
      [onCurve, new RegExp(`^trading on its pump\\.fun bonding curve \\S+: ${onCurve.curve!.progressPercent} % of its tokens sold, [\\d.]+ SOL on it$`)],
      [graduated, new RegExp(`^graduated from its ${graduated.curve!.venue.replace('.', '\\.')} \\S+; it trades in the pool \\S+$`)],
    ] as const) {
      const page = await visit(`${base}/t/solana/${m.address}`)
      expect(await page.getAttribute('body', 'data-state')).toBe('report')
      const fact = page.locator('#about dt', { hasText: 'Launch curve' }).locator('xpath=following-sibling::dd[1]')
      expect((await fact.innerText()).replace(/\s+/g, ' ').trim(), m.key).toMatch(words)
      await page.close()
    }
  })

  it('shows the liquidity locked in the positions of a pool that has no LP token, with its unlocks, never "not measured"', async () => {
    const m = mint('meteora-damm-v2')
    const pool = m.pools.find((p) => p.locks)!
    const page = await visit(`${base}/t/solana/${m.address}`)
    expect(await page.getAttribute('body', 'data-state')).toBe('report')
    const liquidity = await text(page, '#liquidity')
    expect(liquidity).not.toContain('locked liquidity is not measured')
    expect(await text(page, '#liquidity .locked-pools li')).toMatch(new RegExp(`^Meteora DAMM v2 \\S+: ${pool.locks!.lockedPercent} % of its liquidity locked \\(${pool.locks!.permanentPercent} % for ever, ${pool.locks!.vestingPercent} % until its unlocks\\)$`))
    expect(await page.locator('#liquidity .locked-pools .addr').first().getAttribute('title')).toBe(pool.address)
    const unlocks = await page.locator('#liquidity ol.unlocks li').allInnerTexts()
    expect(unlocks).toHaveLength(pool.locks!.unlocks.length)
    for (const u of unlocks) expect(u).toMatch(/ % of the pool's liquidity/)
    expect(await lowContrast(page)).toEqual([])
    await shoot(page, 'solana-positions-locked')
    await page.close()
  })

  it('shows a Solana mint with a freeze authority: the authority, the power found, extensions and metadata', async () => {
    const m = mint('freezable-spl')
    const page = await visit(`${base}/t/solana/${m.address}`)
    expect(await page.getAttribute('body', 'data-state')).toBe('report')
    expect(await text(page, '#token-title')).toBe(`${m.name} ${m.symbol}`)
    expect(await text(page, '[data-check="isFreezable"] .status')).toBe('Found')
    expect(await text(page, '[data-check="isFreezable"] .evidence')).toBe(`Read from the chain's state: freeze authority ${short(m.freezeAuthority)}`)
    const rows = (await page.locator('#solana tbody tr').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim())
    expect(rows).toContain(`Freeze authority: can freeze any account ${short(m.freezeAuthority)}`)
    expect(rows).toContain('Mint authority: can create tokens none (renounced)')
    expect(await text(page, '#solana')).toContain('None: an SPL Token mint has no extensions.')
    expect(await text(page, '#solana')).toContain('Source metaplex')
    // Its pool's vault is frozen: no one can sell.
    expect(await page.getAttribute('#verdict', 'data-verdict')).toBe('honeypot')
    expect(await text(page, '.verdict-detail')).toContain('frozen')
    expect(await lowContrast(page)).toEqual([])
    await shoot(page, 'solana-freeze')
    await page.close()
  })

  it('never reads "no risky power found" when a power or the sale was not measured: it says what and why', async () => {
    // The clean token's real report, with one power and the sale on its pool not measured, as
    // the API answers when a node cannot run a simulation: the page draws the API's answer.
    const token = zoo('clean')
    const url = `${base}/api/v1/tokens/information/${token.address}?chainId=31337`
    const report = (await (await fetch(url, { headers: { 'x-api-key': key } })).json()) as {
      codeChecks: { ownershipChecks: Record<string, { status: string; risk: string; comment: string }> }
      honeypotDetails: { isPairHoneypot: string; honeypotReason: string; sellTax: { number: string; risk: string } }[]
      marketChecks: {
        liquidityChecks: { keyLpHolders: unknown[] }
        holdersChecks: { keyHolders: unknown[]; percentDistributed: Record<'owner' | 'creator', { percent: string }> }
      }
    }
    // Who holds the LP tokens and the supply not read either: no market grade, and no pass.
    withHoldersUnread(report)
    report.codeChecks.ownershipChecks.isMintable = { ...report.codeChecks.ownershipChecks.isMintable, status: '', risk: '', comment: 'not determinable: the node refused the simulation' }
    for (const pool of report.honeypotDetails) Object.assign(pool, { isPairHoneypot: '', honeypotReason: 'the node refused the simulation', sellTax: { number: '', risk: '' } })
    const page = await context.newPage()
    await page.route(`${base}/api/v1/tokens/information/**`, (route) => route.fulfill({ json: report }))
    await page.goto(`${base}/t/31337/${token.address}`)
    await page.waitForSelector('body[data-state="report"]', { timeout: REPORT_WAIT_MS })
    expect(await page.getAttribute('#verdict', 'data-verdict')).toBe('not-measured')
    expect(await text(page, '#verdict-title')).toBe('This token could not be fully measured')
    expect(await text(page, '.verdict-unmeasured')).toContain('Mint new tokens — not measured: the node refused the simulation')
    expect(await text(page, '.verdict-unmeasured')).toContain('Selling — not measured: no trade could be simulated: the node refused the simulation')
    expect(await text(page, '.verdict-unmeasured')).toContain('Who can withdraw the liquidity — not measured: who holds the LP tokens of Uniswap V2 0x')
    expect(await text(page, '.verdict-unmeasured')).toContain('Who holds the supply — not measured: who holds the supply could not be read')
    expect(await text(page, '[data-check="isMintable"]')).toBe('Mint new tokens Not measured not measured: the node refused the simulation')
    expect(await text(page, '#taxes tbody tr')).toContain('not measured: the node refused the simulation')
    expect(await page.locator('body').innerText()).not.toMatch(/no risky power found|\bsafe\b/i)
    await shoot(page, 'not-measured')
    await page.close()
  })

  it('says when the chain is not served here, and names the chains that are', async () => {
    const page = await visit(`${base}/t/5/${zoo('clean').address}`)
    expect(await page.getAttribute('[role="alert"]', 'data-problem')).toBe('unknown-chain')
    expect(await text(page, '#problem-title')).toBe('Chain 5 is not served here')
    expect(await text(page, '.problem')).toMatch(/It serves: (local \(31337\), Ethereum \(1\)|Ethereum \(1\), local \(31337\))\./)
    await shoot(page, 'unknown-chain')
    await page.close()
  })

  it('says a failed node measured nothing, and holds the retry for its Retry-After', async () => {
    // Ethereum's node (a closed port) does not answer.
    const page = await visit(`${base}/t/1/${zoo('clean').address}`)
    expect(await page.getAttribute('[role="alert"]', 'data-problem')).toBe('node')
    expect(await text(page, '#problem-title')).toBe("The chain's node is unavailable")
    expect(await text(page, '.problem')).toContain('Nothing was measured: this says nothing about the token, good or bad.')
    const retry = page.getByRole('button', { name: /Try again/ })
    expect(await retry.textContent()).toMatch(/^Try again in \d+ s$/)
    expect(await retry.isDisabled()).toBe(true)
    await shoot(page, 'node-failure')
    await page.close()
  })

  it('says what is wrong with a bad address', async () => {
    const page = await visit(`${base}/t/31337/0x1234`)
    expect(await text(page, '#problem-title')).toBe('This is not a token address')
    expect(await text(page, '.problem')).toContain('tokenAddress must be an EVM address: 0x followed by 40 hexadecimal characters (20 bytes)')
    await page.close()
  })

  it('holds at phone width: nothing wider than the screen', async () => {
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2 })
    await withKey(phone)
    const pages = { honeypot: `${base}/t/31337/${zoo('honeypot').address}`, solana: `${base}/t/solana/${mint('freezable-spl').address}`, home: `${base}/` }
    for (const [name, url] of Object.entries(pages)) {
      const page = await visit(url, phone)
      expect(await page.evaluate('document.documentElement.scrollWidth'), name).toBeLessThanOrEqual(360)
      // What a phone shows first: the verdict above the fold.
      await shoot(page, `phone-${name}`, false)
      await page.close()
    }
    await phone.close()
  })

  it('prints the whole report: full addresses, no forms or buttons', async () => {
    const page = await visit(`${base}/t/31337/${zoo('mintable').address}`)
    await page.emulateMedia({ media: 'print' })
    expect(await page.locator('[data-check="isMintable"] .evidence .addr-full').first().isVisible()).toBe(true)
    expect(await page.locator('[data-check="isMintable"] .evidence .addr-short').first().isVisible()).toBe(false)
    await page.pdf({ path: join(SCREENSHOTS, 'token-page-mintable.pdf') })
    await page.close()
    const problem = await visit(`${base}/t/1/${zoo('clean').address}`)
    await problem.emulateMedia({ media: 'print' })
    expect(await problem.locator('.actions').isVisible()).toBe(false)
    await problem.close()
  })

  it('loads nothing from another origin', () => {
    const foreign = requested.filter((url) => !url.startsWith(base) && !url.startsWith(openBase) && !url.startsWith('data:'))
    expect(requested.length).toBeGreaterThan(10)
    expect(foreign).toEqual([])
  })

  describe('open pages (PUBLIC_PAGES=on)', () => {
    it('read reports without a key, while the JSON API still needs one', async () => {
      const visitor = await browser.newContext()
      visitor.on('request', (request) => requested.push(request.url()))
      // A wait for a fresh minute keeps this test's requests in one window of the per-address limit.
      const secondsLeft = 60 - (Math.floor(Date.now() / 1000) % 60)
      if (secondsLeft < 20) await new Promise((r) => setTimeout(r, secondsLeft * 1000))
      const page = await visit(`${openBase}/t/31337/${zoo('clean').address}`, visitor)
      expect(await page.getAttribute('body', 'data-state')).toBe('report')
      expect(await page.getAttribute('#verdict', 'data-verdict')).toBe('liquidity-pullable')
      // The page's session is no script's to read, and it opens only the page's routes.
      expect(await page.evaluate('document.cookie')).toBe('')
      const fromPage = await page.evaluate("fetch('/api/v1/projects/audit/history?projectId=p&userId=u').then((r) => r.status)")
      expect(fromPage).toBe(401)
      expect((await fetch(`${openBase}/api/v1/chains`)).status).toBe(401)
      expect((await fetch(`${openBase}/api/v1/tokens/information/${zoo('clean').address}?chainId=31337`)).status).toBe(401)
      // The report page made two calls (the report and the chain list, kept since in the browser): the
      // limit is reached; the refused calls count in no limit.
      const limited = await visit(`${openBase}/t/31337/${zoo('honeypot').address}`, visitor)
      expect(await limited.getAttribute('[role="alert"]', 'data-problem')).toBe('rate-limit')
      expect(await text(limited, '#problem-title')).toBe('Too many requests')
      expect(await text(limited, '.advice')).toMatch(/^What to do: Wait \d+ s, then try again\.$/)
      await shoot(limited, 'rate-limit')
      await visitor.close()
    })
  })
})
