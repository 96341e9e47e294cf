/**
 * `npm run bench:solana`: latency of Solana token reports with 50 ms added to every RPC round
 * trip (a delaying proxy in front of the local LiteSVM world), cold (nothing cached) and cached.
 *
 * Baseline, measured in the same run: one getHealth round trip through the same proxy. Prints
 * median and p95 of each, their ratio to the baseline, the HTTP requests a cold report sends and
 * the longest chain of them that ran one after another (its sequential round trips).
 * Targets: cold median < 400 ms, cached median < 5 ms.
 *
 * Also, from the first cold round: the confusion matrix of every Solana check over every mint of
 * the world (the report's status against the status the world built), and per mint the venues
 * found, the cold time, its requests and round trips, and the calls of the launch reads
 * (getTransaction, getSignaturesForAddress).
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
  const methodCalls = new Map<string, number>()
  const world = await startSolanaWorld({
    dataDir,
    rpc: {
      intercept: (call) => {
        methodCalls.set(call.method, (methodCalls.get(call.method) ?? 0) + 1)
        return undefined
      },
    },
  })
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
    const confusion = new Map<string, { tp: number; fp: number; fn: number; tn: number; unknown: number }>()
    const perMint: string[] = []
    for (let round = 0; round < COLD_ROUNDS; round++) {
      for (const mint of mints) {
        proxy.reset()
        methodCalls.clear()
        const t = performance.now()
        const report = await cold.report(mint.address)
        const took = performance.now() - t
        coldTimes.push(took)
        requests.push(proxy.requests().length)
        roundTrips.push(proxy.sequentialRoundTrips())
        if (round > 0) continue
        for (const item of Object.values(report.codeChecks.codeCheckDescription).flat()) {
          const truth = mint.codeChecks[item.check as keyof typeof mint.codeChecks]
          const cell = confusion.get(item.check) ?? { tp: 0, fp: 0, fn: 0, tn: 0, unknown: 0 }
          if (item.status === '') cell.unknown++
          else if (item.status === '1') truth === '1' ? cell.tp++ : cell.fp++
          else truth === '1' ? cell.fn++ : cell.tn++
          confusion.set(item.check, cell)
        }
        const venues = report.marketChecks.marketCheckDescription.liquidityDescription.pairByPairInformation.map((d) => `${d.dexName}×${d.numberOfPairs}`).join(', ') || 'none'
        const launchCalls = (methodCalls.get('getTransaction') ?? 0) + (methodCalls.get('getSignaturesForAddress') ?? 0)
        perMint.push(`${mint.key.padEnd(24)} ${venues.padEnd(44)} ${ms(took).padStart(10)} ${String(proxy.requests().length).padStart(4)} req ${String(proxy.sequentialRoundTrips()).padStart(2)} rt  launch reads ${launchCalls}`)
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
    console.log('')
    console.log('per mint (first cold round): venues found, time, HTTP requests, sequential round trips, calls of the launch reads (getTransaction + getSignaturesForAddress)')
    for (const line of perMint) console.log(line)
    console.log('')
    console.log(`confusion matrix of every Solana check over ${mints.length} mints (report status against the world's truth)`)
    console.log(`${'check'.padEnd(26)}   TP   FP   FN   TN  unknown`)
    let wrong = 0
    for (const [check, c] of confusion) {
      wrong += c.fp + c.fn + c.unknown
      console.log(`${check.padEnd(26)} ${[c.tp, c.fp, c.fn, c.tn, c.unknown].map((n) => String(n).padStart(4)).join(' ')}`)
    }
    console.log(`${confusion.size} checks × ${mints.length} mints: ${wrong} FP + FN + unknown`)
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
