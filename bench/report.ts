// `npm run bench:report`: EVM token reports against the local world behind a proxy that adds
// 50 ms to every RPC round trip. Cold and cached reports of every zoo token (median, p95,
// sequential round trips, RPC calls), then 20 concurrent cold reports of different tokens.
// The baseline, measured in the same run, is one bare round trip through the same proxy.
import { join } from 'node:path'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import { PROJECT_ROOT } from '../scripts/build-contracts.ts'
import { startWorld } from '@tokenrisk/devworld/world'
import { createMemoryHolderStore } from '../src/store/holder-index.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { startRpcProxy } from '../test/fixtures/evm/rpc-proxy.ts'
import { localChains } from '@tokenrisk/devworld/local-chain'

/** Latency the proxy adds to every RPC round trip. */
const ADDED_LATENCY_MS = 50
/** Cold reports of each token (each from an empty cache and an empty holder index). */
const COLD_RUNS = 3
/** Cached reports of each token. */
const CACHED_RUNS = 20
const CONCURRENT = 20
const TARGETS = { coldMedianMs: 600, coldRoundTrips: 6, cachedMedianMs: 5, concurrentMs: 3_000 }

const silent = { info: () => {}, warn: () => {}, error: () => {} }

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b)
  if (s.length === 0) return NaN
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 2 : 1))

const world = await startWorld({ dataDir: join(PROJECT_ROOT, 'data', 'test-devnet'), log: (l) => console.error(l) })
const proxy = await startRpcProxy({ upstream: world.rpcUrl, latencyMs: ADDED_LATENCY_MS })
try {
  const registry = loadChainRegistry({ chains: localChains({ ...world.manifest, rpcUrl: proxy.url }) })
  const tokens = world.manifest.tokens
  const fresh = () =>
    createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent, options: { deadlineMs: 30_000 } })

  // Baseline: one bare JSON-RPC round trip through the proxy.
  const baseline: number[] = []
  for (let i = 0; i < 10; i++) {
    const t = performance.now()
    await fetch(proxy.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' })
    baseline.push(performance.now() - t)
  }
  const rt = quantile(baseline, 0.5)

  // Warm-up (JIT, bytecode analyses): not measured.
  await fresh().report(31337, tokens[0].address, {})

  const cold: { ms: number; roundTrips: number; rpcCalls: number; key: string }[] = []
  for (let run = 0; run < COLD_RUNS; run++) {
    for (const token of tokens) {
      const t = performance.now()
      const { stats } = await fresh().reportWithFacts(31337, token.address, {})
      cold.push({ ms: performance.now() - t, roundTrips: stats.roundTrips, rpcCalls: stats.rpcCalls, key: token.key })
    }
  }

  const cachedService = fresh()
  const cached: number[] = []
  for (const token of tokens) {
    await cachedService.report(31337, token.address, {})
    for (let i = 0; i < CACHED_RUNS; i++) {
      const t = performance.now()
      await cachedService.report(31337, token.address, {})
      cached.push(performance.now() - t)
    }
  }

  const concurrentService = fresh()
  const batch = tokens.slice(0, CONCURRENT)
  const t = performance.now()
  await Promise.all(batch.map((token) => concurrentService.report(31337, token.address, {})))
  const concurrentMs = performance.now() - t

  const coldMs = cold.map((c) => c.ms)
  const rts = cold.map((c) => c.roundTrips)
  const calls = cold.map((c) => c.rpcCalls)
  const coldMedian = quantile(coldMs, 0.5)
  const cachedMedian = quantile(cached, 0.5)
  const maxRt = Math.max(...rts)
  const lines = [
    `EVM token reports, local world (${tokens.length} tokens) behind +${ADDED_LATENCY_MS} ms per RPC round trip`,
    `baseline: one bare round trip                 median ${fmt(rt)} ms`,
    `cold report (${cold.length} runs)                  median ${fmt(coldMedian)} ms (${fmt(coldMedian / rt)}× a round trip)   p95 ${fmt(quantile(coldMs, 0.95))} ms`,
    `  sequential round trips per report          median ${quantile(rts, 0.5)}   max ${maxRt}`,
    `  RPC calls per report                       median ${quantile(calls, 0.5)}   max ${Math.max(...calls)}`,
    `cached report (${cached.length} runs)               median ${fmt(cachedMedian)} ms   p95 ${fmt(quantile(cached, 0.95))} ms`,
    `${batch.length} concurrent cold reports                   ${fmt(concurrentMs)} ms in all`,
    '',
    `targets: cold median < ${TARGETS.coldMedianMs} ms ${coldMedian < TARGETS.coldMedianMs ? 'MET' : 'MISSED'}; ` +
      `≤ ${TARGETS.coldRoundTrips} round trips ${maxRt <= TARGETS.coldRoundTrips ? 'MET' : 'MISSED'}; ` +
      `cached median < ${TARGETS.cachedMedianMs} ms ${cachedMedian < TARGETS.cachedMedianMs ? 'MET' : 'MISSED'}; ` +
      `${CONCURRENT} concurrent < ${TARGETS.concurrentMs} ms ${concurrentMs < TARGETS.concurrentMs ? 'MET' : 'MISSED'}`,
  ]
  const slowest = [...cold].sort((a, b) => b.ms - a.ms).slice(0, 3)
  lines.push(`slowest cold reports: ${slowest.map((s) => `${s.key} ${fmt(s.ms)} ms / ${s.roundTrips} round trips`).join(', ')}`)
  console.log(lines.join('\n'))
} finally {
  await proxy.close()
  await world.stop()
}
