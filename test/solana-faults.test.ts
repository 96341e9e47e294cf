// Honest Solana answers under node faults: behind a JSON-RPC proxy that fails the way real nodes
// fail (errors on required and optional reads, HTTP failures, garbage answers), the paused,
// mintable, freezable and clean mints of the local world never get a safer answer — no status
// flips from "1", no score rises — and every report recovers once the fault clears.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import type { SolanaReport } from '../src/contract/solana-report.ts'
import { startSolanaWorld, type StartedSolanaWorld } from '@tokenrisk/devworld/solana/world'
import { silentLogger } from '../src/engines/solana/logger.ts'
import { createSolanaReportService } from '../src/engines/solana/service.ts'
import { baselines, faultRow, type Fetch } from './fixtures/fault-matrix.ts'
import { SOLANA_FAULTS, startFaultProxy, type FaultProxy } from './fixtures/fault-proxy.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { expectHonestUnderFault } from './helpers/fault-cells.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

const DEADLINE_MS = 8_000

let dataDir: string
let world: StartedSolanaWorld
let proxy: FaultProxy
let t: TestStore
let api: TestApp
let key: string
let tokens: Record<string, string>
let base: Map<string, SolanaReport>
let fetchReport: Fetch

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tokenrisk-solana-faults-'))
  world = await startSolanaWorld({ dataDir })
  proxy = await startFaultProxy(world.rpcUrl)
  const solana = createSolanaReportService({
    rpcUrls: [proxy.url],
    cache: createMemoryCache(),
    logger: silentLogger,
    options: { pricing: world.manifest.pricing, deadlineMs: DEADLINE_MS, cacheTtlMs: 0 },
  })
  const evm = { report: async () => Promise.reject(new Error('unused')), chains: () => [], ping: async () => {}, close: async () => {} }
  t = await embeddedStore()
  api = await buildTestApp(t.store, { tokens: { evm, solana }, options: { requestTimeoutMs: DEADLINE_MS } })
  key = (await api.keys.create({ userId: 'wallet' })).key
  const address = (k: string) => world.manifest.mints.find((m) => m.key === k)!.address
  tokens = { paused: address('t22-paused'), mintable: address('mintable-spl'), freezable: address('freezable-spl'), clean: address('clean-spl') }
  fetchReport = async (mint) => {
    const r = await api.app.inject({ url: `/api/v1/tokens/solana/${mint}`, headers: { 'x-api-key': key } })
    return { status: r.statusCode, headers: r.headers as Record<string, string | string[] | undefined>, body: r.body }
  }
  base = await baselines<SolanaReport>(fetchReport, tokens)
}, 240_000)

afterAll(async () => {
  await api?.app.close()
  await t?.cleanup()
  await proxy?.close()
  await world?.stop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

describe('the answers without a fault', () => {
  it('flag what the world built into each mint', () => {
    const checks = (r: SolanaReport) => Object.fromEntries(Object.values(r.codeChecks.codeCheckDescription).flat().map((i) => [i.check, i]))
    expect(base.get('paused')!.honeypotDetails.pools.every((p) => p.isPairHoneypot === 1)).toBe(true)
    expect(checks(base.get('mintable')!).isMintable.status).toBe('1')
    expect(checks(base.get('freezable')!).isFreezable.status).toBe('1')
    expect(Object.values(checks(base.get('clean')!)).every((c) => c.status === '0')).toBe(true)
  })
})

describe.each(SOLANA_FAULTS.map((f) => [f.name, f] as const))('a Solana node fault: %s', (_name, fault) => {
  it('never gives a safer answer, and the answer recovers when the fault clears', async () => {
    const cells = await faultRow(proxy, fault, fetchReport, tokens, base)
    expectHonestUnderFault(cells, DEADLINE_MS)
  }, 120_000)
})
