// The request deadline is a hard bound on the answer, whatever the report's computation does,
// and a report nobody waits for any more is stopped where it runs (report worker thread or the
// serving thread): its RPC cancelled, so that it takes nothing from the next reports. The node
// here accepts requests and never answers them; whether a report still runs shows as whether it
// still waits for an answer of the node.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { startReportWorkers } from '../src/cli/report-workers.ts'
import { loadConfig } from '../src/config/settings.ts'
import { DeadlineError } from '../src/errors.ts'
import { createDatabase, type Store } from '../src/store/database.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'

/** The route's deadline: the answer's. */
const DEADLINE_MS = 1_500
/** The engines' own deadline, far away: only the route's deadline or the client can stop a report early. */
const ENGINE_DEADLINE_MS = 60_000
/**
 * How long a stopped report may take to let go of the node: under RPC_REQUEST_TIMEOUT_MS (10 s),
 * which would end the request anyway, with room for a two-core machine running the whole suite.
 */
const LET_GO_MS = 8_000
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'
const DAI = '0x6B175474E89094C44Da98b954EedeAC495271d0F'

let silentNode: Server
/** Requests the node holds, unanswered, until their client gives up on them. */
const waiting = new Set<ServerResponse>()
let env: Record<string, string>
let dataDir: string
let store: Store
let workers: Awaited<ReturnType<typeof startReportWorkers>>
let viaWorkers: TestApp
let inThread: TestApp
let key = ''

/** Resolves when nobody waits for the node any more (true), or after `ms` (false). */
async function nodeLetGo(ms = LET_GO_MS): Promise<boolean> {
  const until = Date.now() + ms
  while (waiting.size > 0 && Date.now() < until) await sleep(20)
  return waiting.size === 0
}

/** Resolves once a report waits for the node. */
async function nodeAsked(): Promise<void> {
  while (waiting.size === 0) await sleep(10)
}

beforeAll(async () => {
  silentNode = createServer((req, res) => {
    // The request is read (a paused socket would not notice its client leaving), never answered.
    req.resume()
    waiting.add(res)
    res.once('close', () => waiting.delete(res))
  })
  await new Promise<void>((resolve) => silentNode.listen(0, '127.0.0.1', () => resolve()))
  env = { RPC_URL_1: `http://127.0.0.1:${(silentNode.address() as AddressInfo).port}` }
  dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-deadline-'))
  store = await createDatabase({ dataDir })
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', REQUEST_TIMEOUT_MS: String(ENGINE_DEADLINE_MS) })
  const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
  workers = await startReportWorkers({ count: 1, config, env })
  const app = async (computer?: typeof workers) => {
    const deps = { config, env, cache: createMemoryCache(), store, logger: silent }
    const evm = createEvmEngine({ ...deps, computer, holderIndexing: false }).service
    return buildTestApp(store, { tokens: { evm, solana: createSolanaEngine({ ...deps, rpcUrls: [] }) }, options: { requestTimeoutMs: DEADLINE_MS } })
  }
  viaWorkers = await app(workers)
  inThread = await app()
  key = (await viaWorkers.keys.create({ userId: 'deadline' })).key
  for (const a of [viaWorkers, inThread]) await a.app.listen({ port: 0, host: '127.0.0.1' })
}, 60_000)

afterAll(async () => {
  for (const a of [viaWorkers, inThread]) {
    if (!a) continue
    // Connections of the clients that left are not waited for.
    const closing = a.app.close()
    a.app.server.closeAllConnections()
    await closing
  }
  await workers?.close()
  await store?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  silentNode?.closeAllConnections()
  silentNode?.close()
})

const base = (a: TestApp) => `http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}`
const ask = (a: TestApp, token: string, signal?: AbortSignal) =>
  fetch(`${base(a)}/api/v1/tokens/information/${token}?chainId=1`, { headers: { 'x-api-key': key }, signal })

describe.each([
  ['in a report worker thread', () => viaWorkers],
  ['in the serving thread', () => inThread],
])('a report computed %s', (_, app) => {
  it('past its deadline is answered 503 saying so, and stopped', async () => {
    const res = await ask(app(), USDC)
    expect(res.status).toBe(503)
    expect(((await res.json()) as { message: string }).message).toBe('no answer within the 1.5 s deadline; try again')
    expect(res.headers.get('retry-after')).toBeTruthy()
    // Its engine would have waited for the node much longer: the deadline stopped it.
    expect(await nodeLetGo()).toBe(true)
  })

  it('whose client left is stopped, and one that another client still waits for is not', async () => {
    const first = new AbortController()
    const second = new AbortController()
    const asked = [ask(app(), WETH, first.signal), ask(app(), WETH, second.signal)]
    await nodeAsked()
    first.abort()
    await expect(asked[0]).rejects.toThrow()
    // The other client still waits for the same report: it goes on.
    await sleep(300)
    expect(waiting.size).toBeGreaterThan(0)
    second.abort()
    await expect(asked[1]).rejects.toThrow()
    expect(await nodeLetGo()).toBe(true)
  })
})

describe('report worker threads', () => {
  it('reject an abandoned report at once, without waiting for the worker, and stop it there', async () => {
    const controller = new AbortController()
    const computing = workers.compute(1, DAI, { signal: controller.signal, deadlineAt: Date.now() + ENGINE_DEADLINE_MS })
    await nodeAsked()
    controller.abort()
    await expect(computing).rejects.toBeInstanceOf(DeadlineError)
    expect(await nodeLetGo()).toBe(true)
  })

  it('stop a report by themselves at its deadline', async () => {
    await expect(workers.compute(1, USDC, { deadlineAt: Date.now() + 500 })).rejects.toBeInstanceOf(DeadlineError)
    expect(await nodeLetGo()).toBe(true)
  })
})
