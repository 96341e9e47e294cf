/**
 * `npm run bench:page`: a token's report page with its report cached, as a browser meets it.
 *
 * Server time: each request a first visit makes (the page's HTML, its script and style sheet, the
 * chain list, the report), over loopback with the compression a browser asks for, median and p95
 * of many; their sum is the server's part of a first render (target < 200 ms). Weight: the bytes
 * of each on the wire and unpacked. First render in Chromium (when it is installed): navigation
 * to the report drawn (the page's `tokenrisk:rendered` mark), with an empty browser cache and
 * with the script and style sheet cached.
 *
 * Baselines, measured in the same run: `/healthz` and the cached report alone (what an API client
 * pays), and the report alone fetched from inside the page in Chromium.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { buildAll } from '../scripts/build.mjs'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { loadConfig } from '../src/config/settings.ts'
import { buildApp } from '../src/http/app.ts'
import { createMetrics } from '../src/http/metrics.ts'
import { createMemoryRateLimiter } from '../src/http/rate-limit.ts'
import { createDatabase } from '../src/store/database.ts'
import { createApiKeyRepository } from '../src/store/repositories/api-keys.ts'
import { createAuditRepository } from '../src/store/repositories/audits.ts'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { zooToken } from '@tokenrisk/devworld/manifest'
import { startWorld } from '@tokenrisk/devworld/world'
import { TEST_DEVNET_DIR } from '../test/helpers/paths.ts'

const SERVER_ROUNDS = Number(process.env.BENCH_PAGE_SERVER_ROUNDS ?? 200)
const BROWSER_ROUNDS = Number(process.env.BENCH_PAGE_BROWSER_ROUNDS ?? 10)
const TARGET_SERVER_MS = 200
const TOKEN_KEY = process.env.BENCH_PAGE_TOKEN ?? 'clean'
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** What Chromium asks for. */
const ACCEPT_ENCODING = 'gzip, deflate, br'

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}
const ms = (v: number) => `${v.toFixed(v < 10 ? 2 : 1)} ms`
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const loadAverage = () => (existsSync('/proc/loadavg') ? readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') : 'unknown')

const agent = new Agent({ keepAlive: true, maxSockets: 1 })

/** Times in a page, from its navigation's start; `fetch` is the in-page fetch of the report alone. */
interface Figures {
  script: number
  dcl: number
  answered: number
  rendered: number
  fetch: number
}

/** One GET over a kept-alive connection: time to the last byte, bytes on the wire and unpacked. */
function get(url: string, headers: Record<string, string>): Promise<{ ms: number; wire: number; status: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const req = request(url, { agent, headers: { 'accept-encoding': ACCEPT_ENCODING, ...headers } }, (res) => {
      let wire = 0
      res.on('data', (chunk: Buffer) => (wire += chunk.length))
      res.on('end', () => resolve({ ms: performance.now() - started, wire, status: res.statusCode ?? 0, encoding: String(res.headers['content-encoding'] ?? 'identity') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** The unpacked size of an answer (Node's fetch unpacks it). */
async function unpacked(url: string, headers: Record<string, string>): Promise<number> {
  return (await (await fetch(url, { headers })).arrayBuffer()).byteLength
}

async function main(): Promise<void> {
  await buildAll({ log: (line) => console.error(line) })
  const world = await startWorld({ dataDir: TEST_DEVNET_DIR, log: (l) => console.error(l) })
  const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-bench-page-'))
  const store = await createDatabase({ dataDir })
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), devnet: 'on' as const }
  const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
  const metrics = createMetrics({ defaultMetrics: false })
  const engineDeps = { config, env: {}, cache: createMemoryCache(), store, logger: silent, metrics }
  const evm = createEvmEngine({ ...engineDeps, chains: localChains(world.manifest) })
  const solana = createSolanaEngine({ ...engineDeps, rpcUrls: [] })
  const keys = createApiKeyRepository(store)
  const app = await buildApp({
    store,
    keys,
    audits: createAuditRepository(store, { reportLink: (id) => `/reports/${id}` }),
    rateLimiter: createMemoryRateLimiter(),
    metrics,
    tokens: { evm: evm.service, solana },
    options: { publicBaseUrl: 'http://127.0.0.1', requestTimeoutMs: 30_000, reportCacheTtlSeconds: 3600, defaultRateLimitRps: 0, corsOrigins: [] },
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  const { key } = await keys.create({ userId: 'bench' })
  const auth = { 'x-api-key': key }
  const token = zooToken(world.manifest, TOKEN_KEY)
  try {
    const pagePath = `/t/31337/${token.address}`
    const html = await (await fetch(base + pagePath)).text()
    const script = /src="\.\.\/\.\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1]
    const style = /href="\.\.\/\.\.\/(assets\/[^"]+\.css)"/.exec(html)?.[1]
    if (!script || !style) throw new Error('the page names no script or style sheet')
    const reportPath = `/api/v1/tokens/information/${token.address}?chainId=31337&format=v1`
    const cold = performance.now()
    const first = await get(base + reportPath, auth)
    if (first.status !== 200) throw new Error(`the report answered ${first.status}`)
    console.log(`Token page benchmark: ${token.name} (${TOKEN_KEY}) on the local chain; its report computed once in ${ms(performance.now() - cold)}, then cached`)

    const requests = [
      { name: 'page HTML', path: pagePath, headers: {} },
      { name: 'script', path: `/${script}`, headers: {} },
      { name: 'style sheet', path: `/${style}`, headers: {} },
      { name: 'chain list', path: '/api/v1/chains', headers: auth },
      { name: 'report (cached)', path: reportPath, headers: auth },
    ]
    const baselines = [{ name: '/healthz', path: '/healthz', headers: {} }]
    const rows: { name: string; median: number; p95: number; wire: number; size: number; encoding: string }[] = []
    for (const r of [...baselines, ...requests]) {
      for (let i = 0; i < 5; i++) await get(base + r.path, r.headers)
      const times: number[] = []
      let last = { wire: 0, encoding: '' }
      for (let i = 0; i < SERVER_ROUNDS; i++) {
        const res = await get(base + r.path, r.headers)
        if (res.status !== 200) throw new Error(`${r.path} answered ${res.status}`)
        times.push(res.ms)
        last = res
      }
      rows.push({ name: r.name, median: quantile(times, 0.5), p95: quantile(times, 0.95), wire: last.wire, size: await unpacked(base + r.path, r.headers), encoding: last.encoding })
    }
    const width = Math.max(...rows.map((r) => r.name.length))
    console.log(`\nServer time over loopback (${SERVER_ROUNDS} each, keep-alive, accept-encoding: ${ACCEPT_ENCODING}):`)
    for (const r of rows) {
      console.log(`  ${r.name.padEnd(width)}  median ${ms(r.median).padStart(9)}  p95 ${ms(r.p95).padStart(9)}  ${kb(r.wire).padStart(8)} on the wire (${r.encoding}), ${kb(r.size)} unpacked`)
    }
    const pageRows = rows.filter((r) => requests.some((q) => q.name === r.name))
    const serverTotal = pageRows.reduce((sum, r) => sum + r.median, 0)
    const healthz = rows[0].median
    const reportAlone = rows.find((r) => r.name === 'report (cached)')!
    console.log(`\n  first render, server time (the ${pageRows.length} requests one after another): ${ms(serverTotal)}  target < ${TARGET_SERVER_MS} ms: ${serverTotal < TARGET_SERVER_MS ? 'met' : 'MISSED'}`)
    console.log(`  baseline: /healthz ${ms(healthz)} (page ${(serverTotal / healthz).toFixed(1)}×), the cached report alone ${ms(reportAlone.median)} (page ${(serverTotal / reportAlone.median).toFixed(1)}×)`)
    const wire = pageRows.reduce((sum, r) => sum + r.wire, 0)
    const size = pageRows.reduce((sum, r) => sum + r.size, 0)
    const own = pageRows.filter((r) => !r.name.startsWith('report') && r.name !== 'chain list').reduce((sum, r) => sum + r.wire, 0)
    console.log(`\nPage weight: ${kb(wire)} on the wire (${kb(size)} unpacked): the page itself ${kb(own)}, its two API answers ${kb(wire - own)}`)
    console.log(`  baseline: the report alone ${kb(reportAlone.wire)} on the wire (page ${(wire / reportAlone.wire).toFixed(1)}×)`)

    if (!existsSync(CHROMIUM)) {
      console.log(`\nFirst render in Chromium: skipped (no Chromium at ${CHROMIUM})`)
    } else {
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] })
      try {
        const rendered = async (context: Awaited<ReturnType<typeof browser.newContext>>) => {
          const page = await context.newPage()
          await page.goto(base + pagePath)
          await page.waitForSelector('body[data-state="report"]', { timeout: 60_000 })
          const figures = (await page.evaluate(`(async () => {
            const mark = performance.getEntriesByName('tokenrisk:rendered')[0]
            const answered = performance.getEntriesByName('tokenrisk:answered')[0]
            const nav = performance.getEntriesByType('navigation')[0]
            const script = performance.getEntriesByType('resource').find((r) => r.name.endsWith('.js'))
            const t = performance.now()
            await (await fetch(${JSON.stringify(reportPath)}, { headers: { 'x-api-key': ${JSON.stringify(key)} }, cache: 'no-store' })).json()
            return { rendered: mark.startTime, answered: answered.startTime, dcl: nav.domContentLoadedEventEnd, script: script ? script.responseEnd : 0, fetch: performance.now() - t }
          })()`)) as Figures
          await page.close()
          return figures
        }
        const emptyCache: Figures[] = []
        const warm: Figures[] = []
        for (let i = 0; i < BROWSER_ROUNDS + 1; i++) {
          const context = await browser.newContext()
          await context.addInitScript(`localStorage.setItem('tokenrisk.apiKey', ${JSON.stringify(key)})`)
          const a = await rendered(context)
          const b = await rendered(context)
          await context.close()
          // The first round warms Chromium itself: not counted.
          if (i > 0) {
            emptyCache.push(a)
            warm.push(b)
          }
        }
        const median = (runs: Figures[], figure: keyof Figures) => ms(quantile(runs.map((r) => r[figure]), 0.5))
        const line = (name: string, runs: Figures[]) =>
          `  ${name.padEnd(30)}  report drawn ${median(runs, 'rendered').padStart(9)} (p95 ${ms(quantile(runs.map((r) => r.rendered), 0.95))}); script loaded ${median(runs, 'script')}, DOMContentLoaded ${median(runs, 'dcl')}, API answers in ${median(runs, 'answered')}`
        console.log(`\nFirst render in Chromium (median of ${BROWSER_ROUNDS}, from navigation start):`)
        console.log(line('empty browser cache', emptyCache))
        console.log(line('script and style sheet cached', warm))
        console.log(`  baseline: the cached report alone, fetched from the page: ${ms(quantile([...emptyCache, ...warm].map((r) => r.fetch), 0.5))}`)
      } finally {
        await browser.close()
      }
    }
    console.log(`\nmachine: ${process.platform} ${process.arch}, Node ${process.version}, load average ${loadAverage()}`)
  } finally {
    agent.destroy()
    await app.close()
    await evm.service.close()
    await solana.close()
    await store.close()
    await world.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
