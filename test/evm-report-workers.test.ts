// Cold EVM reports computed in worker threads (REPORT_WORKERS): the same reports as in the
// serving thread, the same errors, the holder index in the shared store, and a serving thread
// that stays free to answer while the workers are busy — through the real HTTP app.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { REPORT_WORKER_NICENESS, startReportWorkers } from '../src/cli/report-workers.ts'
import { loadConfig } from '../src/config/settings.ts'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { createDatabase, type Store } from '../src/store/database.ts'
import { createHolderRepository } from '../src/store/repositories/holders.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { localChains } from '@tokenrisk/devworld/local-chain'

const DATA_DIR = TEST_DEVNET_DIR
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

let world: World
let dataDir: string
let store: Store
let workers: Awaited<ReturnType<typeof startReportWorkers>>
let api: TestApp
let key: string
let inThread: ReturnType<typeof createEvmEngine>['service']

beforeAll(async () => {
  world = await startWorld({ dataDir: DATA_DIR })
  dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-workers-'))
  store = await createDatabase({ dataDir })
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', REQUEST_TIMEOUT_MS: '60000' }), devnet: 'on' as const }
  workers = await startReportWorkers({ count: 2, config, env: {}, chains: localChains(world.manifest) })
  const cache = createMemoryCache()
  const deps = { config, env: {}, cache, store, logger: silent }
  const evm = createEvmEngine({ ...deps, chains: localChains(world.manifest), computer: workers })
  inThread = createEvmEngine({ ...deps, cache: createMemoryCache(), store: undefined, chains: localChains(world.manifest) }).service
  api = await buildTestApp(store, { tokens: { evm: evm.service, solana: createSolanaEngine({ ...deps, rpcUrls: [] }) }, options: { requestTimeoutMs: 60_000 } })
  key = (await api.keys.create({ userId: 'alice' })).key
}, 120_000)

afterAll(async () => {
  await api?.app.close()
  await workers?.close()
  await store?.close()
  await world?.stop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

const report = (address: string, chainId = '31337') =>
  api.app.inject({ url: `/api/v1/tokens/information/${address}?chainId=${chainId}`, headers: { 'x-api-key': key } })

describe('reports computed in worker threads', () => {
  it('are the reports the serving thread computes, and fill the shared holder index', async () => {
    for (const k of ['clean', 'tax-3-7-1', 'proxy-transparent']) {
      const token = world.manifest.tokens.find((t) => t.key === k)!
      const res = await report(token.address)
      expect(res.statusCode, k).toBe(200)
      const mine = await inThread.report(31337, token.address, {})
      const theirs = res.json()
      // Creation dates and holder lists come from the same chain: the reports are equal.
      expect(theirs.codeChecks, k).toEqual(mine.codeChecks)
      expect(theirs.honeypotDetails, k).toEqual(mine.honeypotDetails)
      expect(theirs.marketChecks.holdersChecks, k).toEqual(mine.marketChecks.holdersChecks)
      // The worker wrote the holder index into the store the serving process opened.
      expect(await createHolderRepository(store).state(31337, token.address as `0x${string}`), k).toBeDefined()
    }
  })

  it('answer the same errors: 404 for an address without code, 400 for a chain not served', async () => {
    const nobody = await report('0x000000000000000000000000000000000000dEaD')
    expect(nobody.statusCode).toBe(404)
    expect(nobody.json().message).toMatch(/^no contract at 0x/)
    const chain = await report(world.manifest.tokens[0].address, '999999')
    expect(chain.statusCode).toBe(400)
    expect(chain.json().message).toMatch(/unsupported chainId '999999'/)
  })

  it('compute concurrent cold reports of many tokens, each once', { timeout: 120_000 }, async () => {
    // How free the serving thread stays is measured by npm run bench:report, not asserted here.
    const tokens = world.manifest.tokens.filter((t) => !['clean', 'tax-3-7-1', 'proxy-transparent'].includes(t.key)).slice(0, 12)
    // A deadline a loaded machine meets: this is about answers, not speed.
    const answers = await Promise.all([...tokens, ...tokens].map((t) => report(t.address)))
    expect(answers.map((a) => (a.statusCode === 200 ? 200 : a.body))).toEqual([...tokens, ...tokens].map(() => 200))
    answers.slice(0, tokens.length).forEach((a, i) => expect(a.json().tokenInformation.tokenAddress.toLowerCase()).toBe(tokens[i].address.toLowerCase()))
  })

  it('hand their replies to the serving thread one per turn of its event loop', { timeout: 120_000 }, async () => {
    // A counter that a recurring setImmediate advances once per turn of the loop.
    let turn = 0
    let ticking = true
    const tick = () => {
      turn++
      if (ticking) setImmediate(tick)
    }
    setImmediate(tick)
    const tokens = world.manifest.tokens.filter((t) => !['clean', 'tax-3-7-1', 'proxy-transparent'].includes(t.key)).slice(12, 20)
    const turns: number[] = []
    try {
      await Promise.all(tokens.map((t) => workers.compute(31337, t.address as `0x${string}`).then(() => turns.push(turn))))
    } finally {
      ticking = false
    }
    expect(turns).toHaveLength(tokens.length)
    expect(new Set(turns).size).toBe(tokens.length)
  })

  it.runIf(process.platform === 'linux')('run at a lower scheduling priority than the serving thread', () => {
    const nice = (task: string) => Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1].split(' ')[16])
    const threads = readdirSync('/proc/self/task').map((task) => ({ task, nice: nice(task) }))
    expect(nice(String(process.pid))).toBe(0)
    // Two workers (this file starts two), each lowering its own thread only.
    expect(threads.filter((t) => t.nice === REPORT_WORKER_NICENESS)).toHaveLength(2)
  })
})
