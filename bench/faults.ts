// `npm run bench:faults`: the honesty matrix. The EVM engine behind a JSON-RPC proxy that fails
// the way real nodes fail, one fault class at a time; for each fault and each of the honeypot,
// mintable, proxy and clean zoo tokens: the HTTP status, the statuses that flipped from "1", the
// change of the total score, the time to answer (against the request deadline) and whether the
// answer recovered once the fault cleared. The baseline, measured in the same run, is the time of
// the same reports without a fault. Targets: 0 flips, 0 score rises, every answer within the
// deadline, every report recovered. Then the same for the Solana engine (paused, mintable,
// freezable and clean mints of the local Solana world) and its faults.
import { join } from 'node:path'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import { TEST_DEVNET_DIR } from '../test/helpers/paths.ts'
import { startWorld } from '@tokenrisk/devworld/world'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { createMemoryHolderStore } from '../src/store/holder-index.ts'
import { buildTestApp } from '../test/helpers/app.ts'
import { embeddedStore } from '../test/helpers/services.ts'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import type { FastifyInstance } from 'fastify'
import { startSolanaWorld } from '@tokenrisk/devworld/solana/world'
import { silentLogger } from '../src/engines/solana/logger.ts'
import { createSolanaReportService } from '../src/engines/solana/service.ts'
import { baselines, faultRow, type FaultCell, type Fetch } from '../test/fixtures/fault-matrix.ts'
import { EVM_FAULTS, SOLANA_FAULTS, startFaultProxy, type Fault, type FaultProxy } from '../test/fixtures/fault-proxy.ts'
import { localChains } from '@tokenrisk/devworld/local-chain'

const DEADLINE_MS = 8_000
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

const fetcher = (app: FastifyInstance, key: string, url: (token: string) => string): Fetch => async (token) => {
  const r = await app.inject({ url: url(token), headers: { 'x-api-key': key } })
  return { status: r.statusCode, headers: r.headers as Record<string, string | string[] | undefined>, body: r.body }
}

/** Runs every fault against every token and prints the matrix; returns the failures of the targets. */
async function matrix(title: string, proxy: FaultProxy, faults: readonly Fault[], fetchReport: Fetch, tokens: Record<string, string>): Promise<number> {
  await baselines(fetchReport, tokens) // warm-up
  const started = performance.now()
  const base = await baselines(fetchReport, tokens)
  const baselineMs = (performance.now() - started) / Object.keys(tokens).length
  const cells: FaultCell[] = []
  for (const fault of faults) cells.push(...(await faultRow(proxy, fault, fetchReport, tokens, base)))

  const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length))
  console.log(`\n${title} faults × tokens (deadline ${DEADLINE_MS} ms; a report without a fault takes ${baselineMs.toFixed(0)} ms through the proxy)\n`)
  console.log(`${pad('fault', 30)} ${Object.keys(tokens).map((k) => pad(k, 26)).join(' ')}`)
  for (const fault of faults) {
    const row = cells.filter((c) => c.fault === fault.name)
    const cell = (c: FaultCell) =>
      pad(`${c.status} ${c.flips.length}f ${c.scoreChange === undefined ? '—' : (c.scoreChange > 0 ? '+' : '') + c.scoreChange} ${c.ms}ms${c.recovered ? '' : ' !rec'}`, 26)
    console.log(`${pad(fault.name, 30)} ${row.map(cell).join(' ')}`)
  }
  const flips = cells.reduce((a, c) => a + c.flips.length, 0)
  const rises = cells.filter((c) => (c.scoreChange ?? 0) > 0).length
  const late = cells.filter((c) => c.ms > DEADLINE_MS * 1.1).length
  const unrecovered = cells.filter((c) => !c.recovered).length
  const worst = Math.max(...cells.map((c) => c.ms))
  console.log('\ncell: HTTP status, statuses flipped from "1", total score change, time to answer ("!rec": not recovered after the fault)')
  console.log(`flips: ${flips} (target 0)   score rises: ${rises} (target 0)   answers past the deadline + 10 %: ${late} (target 0)   not recovered: ${unrecovered} (target 0)`)
  console.log(`slowest answer: ${worst} ms = ${(worst / baselineMs).toFixed(1)}× a report without a fault, ${((worst / DEADLINE_MS) * 100).toFixed(0)} % of the deadline`)
  for (const c of cells.filter((x) => x.flips.length > 0)) console.log(`  ${c.fault} / ${c.token}: ${c.flips.join(', ')}`)
  return flips + rises + late + unrecovered
}

const unused = { report: async () => Promise.reject(new Error('unused')), chains: () => [], ping: async () => {}, close: async () => {} }
let failures = 0
const t = await embeddedStore()
try {
  const world = await startWorld({ dataDir: TEST_DEVNET_DIR, log: (l) => console.error(l) })
  const proxy = await startFaultProxy(world.rpcUrl)
  try {
    const registry = loadChainRegistry({ chains: localChains({ ...world.manifest, rpcUrl: proxy.url }) })
    const evm = createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent, options: { deadlineMs: DEADLINE_MS, cacheTtlMs: 0 } })
    const api = await buildTestApp(t.store, { tokens: { evm, solana: unused }, options: { requestTimeoutMs: DEADLINE_MS } })
    const key = (await api.keys.create({ userId: 'bench' })).key
    const address = (k: string) => world.manifest.tokens.find((x) => x.key === k)!.address
    const tokens = { honeypot: address('honeypot'), mintable: address('mintable'), proxy: address('proxy-transparent'), clean: address('clean') }
    failures += await matrix('EVM', proxy, EVM_FAULTS, fetcher(api.app, key, (a) => `/api/v1/tokens/information/${a}?chainId=31337`), tokens)
    await api.app.close()
  } finally {
    await proxy.close()
    await world.stop()
  }

  const dataDir = await mkdtemp(join(tmpdir(), 'tokenrisk-bench-faults-'))
  const solanaWorld = await startSolanaWorld({ dataDir })
  const solanaProxy = await startFaultProxy(solanaWorld.rpcUrl)
  try {
    const solana = createSolanaReportService({
      rpcUrls: [solanaProxy.url],
      cache: createMemoryCache(),
      logger: silentLogger,
      options: { pricing: solanaWorld.manifest.pricing, deadlineMs: DEADLINE_MS, cacheTtlMs: 0 },
    })
    const api = await buildTestApp(t.store, { tokens: { evm: unused, solana }, options: { requestTimeoutMs: DEADLINE_MS } })
    const key = (await api.keys.create({ userId: 'bench-solana' })).key
    const address = (k: string) => solanaWorld.manifest.mints.find((m) => m.key === k)!.address
    const mints = { paused: address('t22-paused'), mintable: address('mintable-spl'), freezable: address('freezable-spl'), clean: address('clean-spl') }
    failures += await matrix('Solana', solanaProxy, SOLANA_FAULTS, fetcher(api.app, key, (a) => `/api/v1/tokens/solana/${a}`), mints)
    await api.app.close()
  } finally {
    await solanaProxy.close()
    await solanaWorld.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
} finally {
  await t.cleanup()
}
if (failures > 0) process.exitCode = 1
