/**
 * `npm run bench:solana`: latency of Solana token reports with 50 ms added to every RPC round
 * trip (a delaying proxy in front of the local LiteSVM world), cold (nothing cached) and cached.
 *
 * Baseline, measured in the same run: one getHealth round trip through the same proxy. Prints
 * median and p95 of each, their ratio to the baseline, the HTTP requests a cold report sends and
 * the longest chain of them that ran one after another (its sequential round trips).
 * Targets: cold median < 400 ms, cached median < 5 ms.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMemoryCache } from '../src/cache/cache.ts'
import { startDelayProxy } from '@tokenrisk/devworld/solana/delay-proxy'
import { startSolanaWorld } from '@tokenrisk/devworld/solana/world'
import { createSolanaRpcClient } from '../src/engines/solana/rpc/client.ts'
import { silentLogger } from '../src/engines/solana/logger.ts'
import { createSolanaReportService } from '../src/engines/solana/service.ts'

const RPC_DELAY_MS = Number(process.env.BENCH_RPC_DELAY_MS ?? 50)
const COLD_ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 3)
const CACHED_CALLS = Number(process.env.BENCH_CACHED_CALLS ?? 2_000)
const BASELINE_CALLS = 20
const TARGET_COLD_MEDIAN_MS = 400
const TARGET_CACHED_MEDIAN_MS = 5

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}
const ms = (v: number) => `${v.toFixed(v < 10 ? 3 : 1)} ms`

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tokenrisk-bench-solana-'))
  const world = await startSolanaWorld({ dataDir })
  const proxy = await startDelayProxy({ target: world.rpcUrl, delayMs: RPC_DELAY_MS })
  try {
    const mints = world.manifest.mints
    console.log(`Solana report benchmark: ${mints.length} demo mints, ${RPC_DELAY_MS} ms added to every RPC round trip`)

    // Baseline: one round trip through the proxy.
    const client = createSolanaRpcClient({ urls: [proxy.url] })
    await client.getHealth()
    const baseline: number[] = []
    for (let i = 0; i < BASELINE_CALLS; i++) {
      const t = performance.now()
      await client.getHealth()
      baseline.push(performance.now() - t)
    }
    const rtt = quantile(baseline, 0.5)

    // Cold: nothing cached, every report computed from the RPC.
    const cold = createSolanaReportService({ rpcUrls: [proxy.url], cache: createMemoryCache(), logger: silentLogger, options: { pricing: world.manifest.pricing, cacheTtlMs: 0 } })
    await cold.report(mints[0].address) // connections and JIT warm; the report itself is not kept
    const coldTimes: number[] = []
    const requests: number[] = []
    const roundTrips: number[] = []
    for (let round = 0; round < COLD_ROUNDS; round++) {
      for (const mint of mints) {
        proxy.reset()
        const t = performance.now()
        await cold.report(mint.address)
        coldTimes.push(performance.now() - t)
        requests.push(proxy.requests().length)
        roundTrips.push(proxy.sequentialRoundTrips())
      }
    }

    // Cached: the same reports served from the in-process cache.
    const cached = createSolanaReportService({ rpcUrls: [proxy.url], cache: createMemoryCache(), logger: silentLogger, options: { pricing: world.manifest.pricing } })
    for (const mint of mints) await cached.report(mint.address)
    proxy.reset()
    const cachedTimes: number[] = []
    for (let i = 0; i < CACHED_CALLS; i++) {
      const t = performance.now()
      await cached.report(mints[i % mints.length].address)
      cachedTimes.push(performance.now() - t)
    }
    const cachedRequests = proxy.requests().length

    const row = (label: string, values: number[]) =>
      console.log(`${label.padEnd(26)} median ${ms(quantile(values, 0.5)).padStart(10)}   p95 ${ms(quantile(values, 0.95)).padStart(10)}   median/baseline ${(quantile(values, 0.5) / rtt).toFixed(2)}`)
    console.log('')
    row('baseline: one round trip', baseline)
    row(`cold report (n=${coldTimes.length})`, coldTimes)
    row(`cached report (n=${cachedTimes.length})`, cachedTimes)
    console.log('')
    console.log(`cold report: ${quantile(requests, 0.5)} HTTP requests (median, max ${Math.max(...requests)}), ${quantile(roundTrips, 0.5)} sequential round trips (median, max ${Math.max(...roundTrips)})`)
    console.log(`cached reports sent ${cachedRequests} RPC requests`)
    const coldOk = quantile(coldTimes, 0.5) < TARGET_COLD_MEDIAN_MS
    const cachedOk = quantile(cachedTimes, 0.5) < TARGET_CACHED_MEDIAN_MS
    console.log(`target cold median < ${TARGET_COLD_MEDIAN_MS} ms: ${coldOk ? 'met' : 'MISSED'}; cached median < ${TARGET_CACHED_MEDIAN_MS} ms: ${cachedOk ? 'met' : 'MISSED'}`)
    await cold.close()
    await cached.close()
  } finally {
    await proxy.stop()
    await world.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

await main()
