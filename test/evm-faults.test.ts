// Honest answers under node faults: behind a JSON-RPC proxy that fails the way real nodes fail
// (one fault class per test), the honeypot, mintable, proxy and clean zoo tokens never get a
// safer answer than without the fault — no status flips from "1", no score rises — and every
// report recovers once the fault clears. A fault either leaves the answer as it was, or gives a
// 503 with Retry-After within the request deadline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import type { TokenReport } from '../src/contract/token-report.ts'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { createMemoryHolderStore } from '../src/store/holder-index.ts'
import { baselines, faultRow, type Fetch } from './fixtures/fault-matrix.ts'
import { EVM_FAULTS, startFaultProxy, type FaultProxy } from './fixtures/fault-proxy.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { expectHonestUnderFault } from './helpers/fault-cells.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'
import { localChains } from '@tokenrisk/devworld/local-chain'

const DATA_DIR = TEST_DEVNET_DIR
const DEADLINE_MS = 8_000
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

let world: World
let proxy: FaultProxy
let t: TestStore
let api: TestApp
let key: string
let tokens: Record<string, string>
let base: Map<string, TokenReport>
let fetchReport: Fetch

beforeAll(async () => {
  world = await startWorld({ dataDir: DATA_DIR })
  proxy = await startFaultProxy(world.rpcUrl)
  const registry = loadChainRegistry({ chains: localChains({ ...world.manifest, rpcUrl: proxy.url }) })
  // Nothing is reused between requests: every answer is computed through the proxy.
  const evm = createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent, options: { deadlineMs: DEADLINE_MS, cacheTtlMs: 0 } })
  t = await embeddedStore()
  const solana = { report: async () => Promise.reject(new Error('unused')), ping: async () => {}, close: async () => {} }
  api = await buildTestApp(t.store, { tokens: { evm, solana }, options: { requestTimeoutMs: DEADLINE_MS } })
  key = (await api.keys.create({ userId: 'wallet' })).key
  const address = (k: string) => world.manifest.tokens.find((x) => x.key === k)!.address
  tokens = { honeypot: address('honeypot'), mintable: address('mintable'), proxy: address('proxy-transparent'), clean: address('clean') }
  fetchReport = async (token) => {
    const r = await api.app.inject({ url: `/api/v1/tokens/information/${token}?chainId=31337`, headers: { 'x-api-key': key } })
    return { status: r.statusCode, headers: r.headers as Record<string, string | string[] | undefined>, body: r.body }
  }
  base = await baselines<TokenReport>(fetchReport, tokens)
}, 240_000)

afterAll(async () => {
  await api?.app.close()
  await t?.cleanup()
  await proxy?.close()
  await world?.stop()
})

describe('the answers without a fault', () => {
  it('flag what the zoo built into each token', () => {
    const checks = (r: TokenReport) => ({ ...r.codeChecks.ownershipChecks, ...r.codeChecks.otherChecks })
    expect(base.get('honeypot')!.honeypotDetails.some((p) => p.isPairHoneypot === '1')).toBe(true)
    expect(checks(base.get('mintable')!).isMintable.status).toBe('1')
    expect(checks(base.get('proxy')!).isProxy.status).toBe('1')
    expect(Object.values(checks(base.get('clean')!)).every((c) => c.status === '0')).toBe(true)
  })
})

describe.each(EVM_FAULTS.map((f) => [f.name, f] as const))('a node fault: %s', (_name, fault) => {
  it('never gives a safer answer, and the answer recovers when the fault clears', async () => {
    const cells = await faultRow(proxy, fault, fetchReport, tokens, base)
    expectHonestUnderFault(cells, DEADLINE_MS)
  }, 120_000)
})
