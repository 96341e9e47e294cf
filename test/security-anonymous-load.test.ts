// Security: anonymous visitors of the open pages (PUBLIC_PAGES=on) cost a bounded amount. The cold
// reports they start, whatever their addresses, draw on one budget a minute (shared by instances on
// Redis); past it they read what is cached and are told when to come back, and the RPC node is not
// asked again. A page session works only for the visitor it was handed to. API keys are not
// counted against the budget. The reports are real ones, of the local world's tokens, their RPC
// calls counted on the way to the node.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine } from '../src/cli/engines.ts'
import { loadConfig } from '../src/config/settings.ts'
import type { EvmReportService, SolanaReportService } from '../src/contract/services.ts'
import { createRedisRateLimiter } from '../src/http/rate-limit.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'
import { embeddedStore, redisUp, requireService, TEST_REDIS_URL, type TestStore } from './helpers/services.ts'
import { guarded } from './helpers/proxy-handler.ts'

const DATA_DIR = TEST_DEVNET_DIR
const BUDGET = 3
const VISITORS = ['192.0.2.10', '192.0.2.11', '192.0.2.12']
const TOKENS_PER_VISITOR = 5
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) tokenrisk-test'
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
/** No Solana here: the EVM pages are the ones asked. */
const NO_SOLANA: SolanaReportService = { report: async () => Promise.reject(new Error('not used')), ping: async () => {}, close: async () => {} }

let world: World
let t: TestStore
let proxy: Server
let rpcCalls = 0
let evm: EvmReportService
let open: TestApp
let key: string
let tokens: string[]

/** Waits, when the current minute ends within `seconds`, for the next one: a test's requests then share one window. */
async function freshMinute(seconds: number): Promise<void> {
  const left = 60 - (Math.floor(Date.now() / 1000) % 60)
  if (left < seconds) await new Promise((resolve) => setTimeout(resolve, left * 1000))
}

beforeAll(async () => {
  world = await startWorld({ dataDir: DATA_DIR })
  // The node, behind a proxy that counts the JSON-RPC calls made to it.
  proxy = createServer(guarded(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    try {
      const parsed = JSON.parse(body.toString('utf8')) as unknown
      rpcCalls += Array.isArray(parsed) ? parsed.length : 1
    } catch {
      // not JSON: the node says so
    }
    const upstream = await fetch(world.manifest.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    res.writeHead(upstream.status, { 'content-type': 'application/json' })
    res.end(Buffer.from(await upstream.arrayBuffer()))
  }))
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()))
  const chains = localChains(world.manifest)
  const proxied = { ...chains, entries: chains.entries.map((e) => ({ ...e, rpcUrls: [`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`] })) }
  t = await embeddedStore()
  const config = loadConfig({ DATA_DIR, REQUEST_TIMEOUT_MS: '30000' })
  evm = createEvmEngine({ config, env: {}, cache: createMemoryCache(), store: t.store, logger: silent, chains: proxied, holderIndexing: false }).service
  open = await buildTestApp(t.store, { tokens: { evm, solana: NO_SOLANA }, options: { requestTimeoutMs: 30_000, pages: { open: true, ratePerMinute: 0, coldPerMinute: BUDGET } } })
  key = (await open.keys.create({ userId: 'keyed' })).key
  tokens = world.manifest.tokens.map((token) => token.address)
  expect(tokens.length).toBeGreaterThan(VISITORS.length * TOKENS_PER_VISITOR + 5)
}, 120_000)

afterAll(async () => {
  await open?.app.close()
  await evm?.close()
  await t?.cleanup()
  proxy?.close()
  await world?.stop()
})

/** The page session a visitor's browser gets with a page from `address`. */
async function sessionOf(app: TestApp, address: string): Promise<string> {
  const page = await app.app.inject({ url: '/', remoteAddress: address, headers: { 'user-agent': BROWSER } })
  return String(page.headers['set-cookie']).split(';')[0]
}

const reportPath = (token: string) => `/api/v1/tokens/information/${token}?chainId=${world.manifest.chainId}`

describe('anonymous visitors of the open pages', () => {
  it('start at most the budget of cold reports a minute from three addresses; the rest read what is cached and are told when to come back', async () => {
    await freshMinute(40)
    const sessions = await Promise.all(VISITORS.map((address) => sessionOf(open, address)))
    const before = rpcCalls
    // Every visitor asks for reports no one asked for yet, all at once.
    const asked = VISITORS.flatMap((address, v) =>
      tokens.slice(v * TOKENS_PER_VISITOR, (v + 1) * TOKENS_PER_VISITOR).map((token) => ({ address, cookie: sessions[v], token })),
    )
    const answers = await Promise.all(
      asked.map(({ address, cookie, token }) => open.app.inject({ url: reportPath(token), remoteAddress: address, headers: { cookie, 'user-agent': BROWSER } })),
    )
    const statuses = answers.map((a) => a.statusCode)
    expect(statuses.filter((s) => s === 200)).toHaveLength(BUDGET)
    expect(statuses.filter((s) => s === 429)).toHaveLength(asked.length - BUDGET)
    const refused = answers.find((a) => a.statusCode === 429)!
    expect(refused.json().message).toMatch(/^the open pages' budget of new reports is spent for now \(reports already made are still served\); come back in \d+ s, or use an API key$/)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
    const stormCalls = rpcCalls - before
    expect(stormCalls).toBeGreaterThan(0)

    // More refused asks cost the node nothing.
    const afterStorm = rpcCalls
    const more = await Promise.all(
      tokens.slice(VISITORS.length * TOKENS_PER_VISITOR, VISITORS.length * TOKENS_PER_VISITOR + 3).map((token) =>
        open.app.inject({ url: reportPath(token), remoteAddress: VISITORS[0], headers: { cookie: sessions[0], 'user-agent': BROWSER } }),
      ),
    )
    expect(more.map((a) => a.statusCode)).toEqual([429, 429, 429])
    expect(rpcCalls).toBe(afterStorm)

    // What was computed is still served to every visitor, from the cache.
    const computed = asked.filter((_, i) => statuses[i] === 200)
    for (const [v, address] of VISITORS.entries()) {
      const cached = await open.app.inject({ url: reportPath(computed[v % computed.length].token), remoteAddress: address, headers: { cookie: sessions[v], 'user-agent': BROWSER } })
      expect(cached.statusCode).toBe(200)
    }
    expect(rpcCalls).toBe(afterStorm)

    // An API key is not counted against the pages' budget: its cold report is computed.
    const keyed = await open.app.inject({ url: reportPath(asked[asked.length - 1].token), remoteAddress: VISITORS[0], headers: { 'x-api-key': key } })
    expect(keyed.statusCode).toBe(200)
    process.stdout.write(`  ${asked.length} cold asks from ${VISITORS.length} addresses: ${BUDGET} computed, ${stormCalls} RPC calls; refused asks: 0 RPC calls\n`)
  }, 90_000)

  it('hand a session that works only for the visitor it was handed to, for minutes', async () => {
    const cookie = await sessionOf(open, VISITORS[0])
    expect(await open.app.inject('/').then((r) => String(r.headers['set-cookie']))).toMatch(/Max-Age=600;/)
    const from = (address: string, userAgent: string) => open.app.inject({ url: '/api/v1/chains', remoteAddress: address, headers: { cookie, 'user-agent': userAgent } })
    expect((await from(VISITORS[0], BROWSER)).statusCode).toBe(200)
    // Minted with curl / and replayed from elsewhere: refused.
    expect((await from('198.51.100.99', BROWSER)).statusCode).toBe(401)
    expect((await from(VISITORS[0], 'curl/8.5.0')).statusCode).toBe(401)
  })

  describe.runIf(requireService('Redis', redisUp))('behind several instances', () => {
    it('count one budget across instances on Redis', async () => {
      const redis = new Redis(TEST_REDIS_URL)
      const apps: TestApp[] = []
      try {
        const prefix = `tokenrisk:test:budget:${process.pid}:${Date.now()}:`
        for (let i = 0; i < 2; i++) {
          apps.push(
            await buildTestApp(t.store, {
              tokens: { evm, solana: NO_SOLANA },
              rateLimiter: createRedisRateLimiter(redis, prefix),
              options: { requestTimeoutMs: 30_000, pages: { open: true, ratePerMinute: 0, coldPerMinute: 2, secret: 'a-secret-of-thirty-two-characters!!' } },
            }),
          )
        }
        await freshMinute(40)
        const cookie = await sessionOf(apps[0], VISITORS[1])
        const fresh = tokens.slice(-3)
        const ask = (app: TestApp, token: string) => app.app.inject({ url: reportPath(token), remoteAddress: VISITORS[1], headers: { cookie, 'user-agent': BROWSER } })
        expect((await ask(apps[0], fresh[0])).statusCode).toBe(200)
        // The session works on the other instance (same secret); the budget is the same one.
        expect((await ask(apps[1], fresh[1])).statusCode).toBe(200)
        expect((await ask(apps[0], fresh[2])).statusCode).toBe(429)
        expect((await ask(apps[1], fresh[2])).statusCode).toBe(429)
      } finally {
        for (const app of apps) await app.app.close()
        redis.disconnect()
      }
    }, 60_000)
  })
})
