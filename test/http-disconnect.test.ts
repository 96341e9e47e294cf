// A client that hangs up before its report is ready is logged as such, at info level, never as a
// deadline error; the report's work is cancelled with it.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { loadConfig } from '../src/config/settings.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

const DEADLINE_MS = 5_000
/** The client gives up this long after asking, well before the deadline. */
const CLIENT_PATIENCE_MS = 300
const TOKEN = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'

interface LogLine {
  level: number
  msg: string
  status?: number
}
const DISCONNECTED = 'client disconnected before the answer'
const INFO = 30
const ERROR = 50

describe('a client that hangs up', () => {
  let t: TestStore
  let api: TestApp
  let base = ''
  let key = ''
  let silentNode: Server
  const logs: LogLine[] = []

  beforeAll(async () => {
    // A node that accepts connections and never answers: every report waits until cancelled.
    silentNode = createServer(() => {})
    await new Promise<void>((resolve) => silentNode.listen(0, '127.0.0.1', () => resolve()))
    const env = { RPC_URL_1: `http://127.0.0.1:${(silentNode.address() as AddressInfo).port}` }
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) })
    t = await embeddedStore()
    const deps = { config: loadConfig({}), env, cache: createMemoryCache(), store: t.store, logger }
    const evm = createEvmEngine(deps)
    const solana = createSolanaEngine({ ...deps, rpcUrls: [] })
    api = await buildTestApp(t.store, { tokens: { evm: evm.service, solana }, options: { requestTimeoutMs: DEADLINE_MS, logger } })
    key = (await api.keys.create({ userId: 'wallet' })).key
    await api.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    await api?.app.close()
    await t?.cleanup()
    silentNode?.closeAllConnections()
    silentNode?.close()
  })

  it('is logged at info as a disconnect, not as an error', async () => {
    const started = Date.now()
    const asked = fetch(`${base}/api/v1/tokens/information/${TOKEN}?chainId=1`, {
      headers: { 'x-api-key': key },
      signal: AbortSignal.timeout(CLIENT_PATIENCE_MS),
    })
    await expect(asked).rejects.toThrow()
    // The report is cancelled as soon as the client leaves, long before the deadline.
    const settled = () => logs.some((l) => l.msg === DISCONNECTED || l.level >= ERROR)
    while (!settled() && Date.now() - started < DEADLINE_MS * 2) await sleep(20)
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS)
    expect(logs.find((l) => l.msg === DISCONNECTED)).toMatchObject({ level: INFO, status: 499 })
    await sleep(200)
    expect(logs.filter((l) => l.level >= ERROR)).toEqual([])
    expect(logs.some((l) => /deadline/.test(JSON.stringify(l)))).toBe(false)
  })
})
