// One verdict on every surface: the taxed token, the honeypot and the clean token of the zoo read
// with the same verdict word on the token page's card and its title (in a real Chromium), in the
// first line of `tokenrisk scan` and in the MCP tool's first text (the SDK client over streamable
// HTTP); a Solana mint with a transfer fee is taxed, and one with no pool is never read as sellable.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { localChains, writeLocalChainsFile } from '@tokenrisk/devworld/local-chain'
import { zooToken } from '@tokenrisk/devworld/manifest'
import { solanaMint } from '@tokenrisk/devworld/solana/manifest'
import { startSolanaWorld, type StartedSolanaWorld } from '@tokenrisk/devworld/solana/world'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { scanCommand } from '../src/cli/scan.ts'
import { formatSolanaSummary } from '../src/cli/solana-summary.ts'
import { loadConfig } from '../src/config/settings.ts'
import type { SolanaReport } from '../src/contract/solana-report.ts'
import type { TokenReport } from '../src/contract/token-report.ts'
import { createMetrics } from '../src/http/metrics.ts'
import { VERDICT_LABELS, evmVerdict, solanaVerdict, type VerdictKind } from '../src/report/verdict.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { chromiumAvailable, launchChromium } from './helpers/chromium.ts'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'
import { withHoldersUnread } from './helpers/unread-holders.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

const DATA_DIR = TEST_DEVNET_DIR
const REPORT_WAIT_MS = 90_000
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
/** The zoo's three tokens every surface must agree on, and the verdict each earns. */
const EXPECTED: Record<string, VerdictKind> = { 'tax-3-7-1': 'liquidity-pullable', honeypot: 'honeypot', clean: 'liquidity-pullable' }

describe('one verdict on every surface', () => {
  let world: World
  let solanaWorld: StartedSolanaWorld
  let t: TestStore
  let api: TestApp
  let base = ''
  let key = ''
  let scanDir = ''
  const reports = new Map<string, TokenReport>()

  beforeAll(async () => {
    ;[world, solanaWorld] = await Promise.all([startWorld({ dataDir: DATA_DIR }), startSolanaWorld({ dataDir: DATA_DIR })])
    const config = { ...loadConfig({ DATA_DIR }), devnet: 'on' as const }
    t = await embeddedStore()
    const metrics = createMetrics({ defaultMetrics: false })
    const deps = { config, env: {}, cache: createMemoryCache(), store: t.store, logger: silent, metrics }
    const evm = createEvmEngine({ ...deps, chains: localChains(world.manifest) })
    const solana = createSolanaEngine({ ...deps, rpcUrls: [solanaWorld.rpcUrl], pricing: solanaWorld.manifest.pricing })
    api = await buildTestApp(t.store, { tokens: { evm: evm.service, solana }, metrics, options: { requestTimeoutMs: 30_000 } })
    base = await api.app.listen({ port: 0, host: '127.0.0.1' })
    key = (await api.keys.create({ userId: 'surfaces' })).key
    for (const k of [...Object.keys(EXPECTED), 'fee-stack', 'fee-stack-capped']) reports.set(k, await evm.service.report(31337, zooToken(world.manifest, k).address as `0x${string}`, {}))
    // `tokenrisk scan` finds the local chain where a running service leaves it: here, a data directory of its own.
    scanDir = mkdtempSync(join(tmpdir(), 'tokenrisk-verdict-scan-'))
    writeLocalChainsFile(join(scanDir, 'devnet'), world.manifest)
  }, 240_000)

  afterAll(async () => {
    await api?.app.close()
    await t?.cleanup()
    await world?.stop()
    await solanaWorld?.stop()
    if (scanDir) rmSync(scanDir, { recursive: true, force: true })
  })

  const word = (kind: VerdictKind) => VERDICT_LABELS[kind]

  it('the verdict object weighs the market: the taxed token is taxed, its liquidity pullable, its supply with its owner', () => {
    const taxed = evmVerdict(reports.get('tax-3-7-1')!)
    expect(taxed.kind).toBe('liquidity-pullable')
    expect(taxed.market.map((m) => m.check)).toEqual(['liquidity-pullable', 'supply-concentrated', 'taxed'])
    expect(taxed.market.find((m) => m.check === 'taxed')?.sentence).toMatch(/^buy 3 %, sell 7 %, transfer 1 % \(on Uniswap V2 0x/)
    expect(taxed.headline).toMatch(/^LIQUIDITY CAN BE PULLED: The owner and creator 0x[0-9a-fA-F]{40} holds 100 % of the LP tokens of Uniswap V2 0x/)
    expect(taxed.market.find((m) => m.check === 'supply-concentrated')?.sentence).toMatch(/holds 6\d\.\d+ % of the supply of Taxed Token \(TAX\)/)
    // The honeypot keeps its word; the market is listed after it.
    const honeypot = evmVerdict(reports.get('honeypot')!)
    expect(honeypot.kind).toBe('honeypot')
    expect(honeypot.market.map((m) => m.check)).toEqual(['liquidity-pullable', 'supply-concentrated'])
    // The clean token's code is clean, but its creator holds its LP tokens, unlocked.
    const clean = evmVerdict(reports.get('clean')!)
    expect(clean.found).toEqual([])
    expect(clean.market.map((m) => m.check)).toEqual(['liquidity-pullable', 'supply-concentrated'])
    expect(clean.market.some((m) => m.check === 'taxed')).toBe(false)
  })

  it('a tax the owner can raise says how far and who is paid (the fee ceiling); a capped one does not say 99 %', () => {
    const stack = evmVerdict(reports.get('fee-stack')!)
    const setter = stack.found.find((f) => f.check === 'slippageModifiable')
    expect(setter?.sentence).toMatch(/can raise the sell tax to 99 %/)
    expect(setter?.sentence).toMatch(/paid to a wallet it sets/)
    const capped = evmVerdict(reports.get('fee-stack-capped')!)
    expect(capped.found.find((f) => f.check === 'slippageModifiable')?.sentence ?? '').not.toMatch(/99 %/)
  })

  it('a value not measured never reads as a pass: LP holders unread, or a pool with no LP token', () => {
    const clean = reports.get('clean')!
    const blind = withHoldersUnread(structuredClone(clean))
    const verdict = evmVerdict(blind)
    expect(verdict.kind).toBe('not-measured')
    expect(verdict.unknown.map((u) => u.check)).toEqual(['liquidity', 'holders'])
    const noLp = structuredClone(blind)
    noLp.marketChecks.liquidityChecks.pairAddress = ''
    expect(evmVerdict(noLp).unknown[0]).toMatchObject({ check: 'liquidity', reason: expect.stringMatching(/^no pool with an LP token was found/) })
    // Taxes not measured on any pool: listed, never 0.
    const untaxed = structuredClone(blind)
    for (const p of untaxed.honeypotDetails) p.buyTax.number = p.sellTax.number = p.transferTax.number = ''
    expect(evmVerdict(untaxed).unknown.map((u) => u.check)).toContain('taxes')
  })

  it('tokenrisk scan prints the same verdict first, uncoloured off a terminal and coloured on one', async () => {
    for (const [k, kind] of Object.entries(EXPECTED)) {
      const out: string[] = []
      const io = { env: { DATA_DIR: scanDir }, out: (l: string) => out.push(l), err: () => {}, tty: false }
      expect(await scanCommand([zooToken(world.manifest, k).address, '--chain', '31337'], io)).toBe(0)
      expect(out[0].startsWith(`${word(kind)}: `), `${k}: ${out[0]}`).toBe(true)
      expect(out.join('\n')).not.toContain('\x1b[')
      if (k === 'tax-3-7-1') expect(out).toContainEqual(expect.stringMatching(/^ {2}also taxed: buy 3 %, sell 7 %, transfer 1 %/))
    }
    const out: string[] = []
    await scanCommand([zooToken(world.manifest, 'honeypot').address, '--chain', '31337'], { env: { DATA_DIR: scanDir }, out: (l) => out.push(l), err: () => {}, tty: true })
    expect(out[0]).toMatch(/^\x1b\[31m\x1b\[1mHONEYPOT: /)
    const noColor: string[] = []
    await scanCommand([zooToken(world.manifest, 'honeypot').address, '--chain', '31337'], { env: { DATA_DIR: scanDir, NO_COLOR: '1' }, out: (l) => noColor.push(l), err: () => {}, tty: true })
    expect(noColor.join('\n')).not.toContain('\x1b[')
  }, 120_000)

  it('the MCP tool answers with the same verdict word first', async () => {
    const client = new Client({ name: 'verdict-surfaces', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }))
    try {
      for (const [k, kind] of Object.entries(EXPECTED)) {
        const result = (await client.callTool({ name: 'evm_token_report', arguments: { chainId: 31337, tokenAddress: zooToken(world.manifest, k).address } })) as CallToolResult
        const first = result.content[0]
        expect(first.type === 'text' && first.text.startsWith(`${word(kind)}: `), `${k}: ${JSON.stringify(first).slice(0, 200)}`).toBe(true)
      }
    } finally {
      await client.close()
    }
  })

  it('a Solana mint with a transfer fee is taxed, and one with no pool is never read as sellable', async () => {
    const solana = async (k: string) => {
      const response = await api.app.inject({ url: `/api/v1/tokens/solana/${solanaMint(solanaWorld.manifest, k).address}?format=v1`, headers: { 'x-api-key': key } })
      expect(response.statusCode, response.body).toBe(200)
      return response.json() as SolanaReport
    }
    const taxed = solanaVerdict(await solana('t22-transfer-fee'))
    expect(taxed.market.map((m) => m.check)).toContain('taxed')
    const unpooledReport = await solana('mintable-spl')
    const unpooled = solanaVerdict(unpooledReport)
    expect(unpooled.unknown[0]).toMatchObject({ check: 'sale' })
    expect(unpooled.kind).not.toBe('no-risky-power-found')
    // scan's summary says the same: its verdict first, and no "sellable" without a pool.
    const summary = formatSolanaSummary(unpooledReport, { color: false })
    expect(summary[0]).toBe(unpooled.headline)
    expect(summary.join('\n')).toContain('no pool: selling not measured')
    expect(summary.join('\n')).not.toMatch(/\bsellable\b/)
  })

  describe.runIf(chromiumAvailable())('the token page', () => {
    let browser: Browser
    beforeAll(async () => {
      browser = await launchChromium()
    })
    afterAll(async () => {
      await browser?.close()
    })

    it('shows the same verdict word on its card and in its title', async () => {
      const context = await browser.newContext({ viewport: { width: 1100, height: 900 } })
      await context.addInitScript(`localStorage.setItem('tokenrisk.apiKey', ${JSON.stringify(key)})`)
      for (const [k, kind] of Object.entries(EXPECTED)) {
        const page = await context.newPage()
        await page.goto(`${base}/t/31337/${zooToken(world.manifest, k).address}`)
        await page.waitForSelector('body[data-state="report"]', { timeout: REPORT_WAIT_MS })
        expect(await page.getAttribute('#verdict', 'data-verdict')).toBe(kind)
        expect((await page.locator('.verdict-label').innerText()).toUpperCase()).toBe(word(kind))
        expect((await page.title()).toUpperCase()).toContain(`: ${word(kind)} — TOKENRISK`)
        if (k === 'tax-3-7-1') expect(await page.locator('.verdict-market').innerText()).toMatch(/Taxed\s+— Buy 3 %, sell 7 %, transfer 1 %/)
        await page.close()
      }
      await context.close()
    }, 120_000)
  })
})
