// `npm run bench:report`: EVM token reports against the local world behind a proxy (in a process
// of its own) that adds 50 ms to every RPC round trip. Cold and cached reports of every zoo token
// (median, p95, sequential round trips, RPC calls, CPU time), 20 concurrent cold reports of
// different tokens, then bursts of 50 concurrent cold reports through the real HTTP app while a
// client in another process asks /healthz every 10 ms: once with the default deadline (every
// report answered), once past the deadline (every report answered 503, promptly).
// The baselines, measured in the same run: one bare round trip through the same proxy; for the
// bursts, the report workers as they were before their replies were paced and their priority
// lowered (alternating with the current ones, BURST_ROUNDS rounds each, so that the machine's
// load weighs on both alike).
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { FastifyInstance } from 'fastify'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createSolanaEngine } from '../src/cli/engines.ts'
import { fmt, quantile, runLoad, statusCounts, type LoadFigures } from './load.ts'
import { REPORT_WORKER_NICENESS, startReportWorkers } from '../src/cli/report-workers.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import { loadConfig } from '../src/config/settings.ts'
import { PROJECT_ROOT } from '../scripts/build-contracts.ts'
import { TEST_DEVNET_DIR } from '../test/helpers/paths.ts'
import { startWorld } from '@tokenrisk/devworld/world'
import { buildApp } from '../src/http/app.ts'
import { createMetrics } from '../src/http/metrics.ts'
import { createMemoryRateLimiter } from '../src/http/rate-limit.ts'
import { createDatabase } from '../src/store/database.ts'
import { createMemoryHolderStore } from '../src/store/holder-index.ts'
import { createApiKeyRepository } from '../src/store/repositories/api-keys.ts'
import { createAuditRepository } from '../src/store/repositories/audits.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { ARGUMENTS_ZOO } from '@tokenrisk/devworld/zoo-arguments'
import { REAL_REACH_ZOO } from '@tokenrisk/devworld/zoo-real-reach'
import { REACH_ZOO } from '@tokenrisk/devworld/zoo-reach'
import { TRADE_ZOO } from '@tokenrisk/devworld/zoo-trades'
import { VENUE_ZOO } from '@tokenrisk/devworld/zoo-venues'

/** Latency the proxy adds to every RPC round trip. */
const ADDED_LATENCY_MS = 50
/** Latency of the slow proxy of the deadline burst: three round trips take longer than its deadline. */
const SLOW_LATENCY_MS = 1_500
/** Deadline (REQUEST_TIMEOUT_MS) of the deadline burst. */
const SHORT_DEADLINE_MS = 2_000
/** Deadline of the first burst: the service's default. */
const DEFAULT_DEADLINE_MS = 15_000
/** Cold reports of each token (each from an empty cache and an empty holder index). */
const COLD_RUNS = 3
/** Cached reports of each token. */
const CACHED_RUNS = 20
const CONCURRENT = 20
/** Concurrent cold reports of a burst, of as many different tokens. */
const BURST = 50
/** Report worker threads of the bursts (the service's default). */
const REPORT_WORKERS = 1
/** Rounds of each worker burst, each round running the previous workers and the current ones. */
const BURST_ROUNDS = 3
/** The report workers before: every reply handled as it arrived, worker threads at the serving thread's priority. */
const PREVIOUS_WORKERS = { niceness: 0, repliesPerTurn: Number.POSITIVE_INFINITY }
const TARGETS = { coldMedianMs: 600, coldRoundTrips: 3, cachedMedianMs: 5, concurrentMs: 3_000, healthzP99Ms: 100, deadlineSlack: 0.1 }

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

type BurstFigures = LoadFigures

/** Starts the RPC proxy in a process of its own. */
async function startProxyProcess(upstream: string, latencyMs: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--conditions=tokenrisk-source', '--import', 'tsx', join(PROJECT_ROOT, 'test/fixtures/evm/rpc-proxy-process.ts'), upstream, String(latencyMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`the RPC proxy exited (${code})`)))
  })
  return { url: (JSON.parse(line) as { url: string }).url, child }
}

const world = await startWorld({ dataDir: TEST_DEVNET_DIR, log: (l) => console.error(l) })
const proxy = await startProxyProcess(world.rpcUrl, ADDED_LATENCY_MS)
const slowProxy = await startProxyProcess(world.rpcUrl, SLOW_LATENCY_MS)
const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-bench-report-'))
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

  const cold: { ms: number; roundTrips: number; rpcCalls: number; requestBytes: number; key: string; askedAgain: boolean }[] = []
  const statuses = new Map<string, Record<string, string>>()
  /** Each token's pools as reported (first run): the venues' table. */
  const venueRows = new Map<string, { roundTrips: number; pools: string[] }>()
  const cpuBefore = process.cpuUsage()
  for (let run = 0; run < COLD_RUNS; run++) {
    for (const token of tokens) {
      const t = performance.now()
      const { stats, report, facts } = await fresh().reportWithFacts(31337, token.address, {})
      cold.push({ ms: performance.now() - t, roundTrips: stats.roundTrips, rpcCalls: stats.rpcCalls, requestBytes: stats.requestBytes, key: token.key, askedAgain: !!facts.powers.askedAgain })
      if (run === 0) {
        const checks = { ...report.codeChecks.ownershipChecks, ...report.codeChecks.otherChecks } as Record<string, { status: string }>
        statuses.set(token.key, Object.fromEntries(Object.entries(checks).map(([k, v]) => [k, v.status])))
        venueRows.set(token.key, {
          roundTrips: stats.roundTrips,
          pools: report.honeypotDetails.map(
            (h) => `${h.dex} honeypot ${h.isPairHoneypot || '""'} buy ${h.buyTax.number || '""'} sell ${h.sellTax.number || '""'} transfer ${h.transferTax.number || '""'}${h.venue ? ` — ${h.venue}` : ''}${h.honeypotReason ? ` (${h.honeypotReason})` : ''}`,
          ),
        })
      }
    }
  }
  const cpu = process.cpuUsage(cpuBefore)
  const cpuPerReport = (cpu.user + cpu.system) / 1000 / cold.length

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

  // Bursts through the real HTTP app: 50 different tokens (the zoo, then its Uniswap V2 pairs, which are ERC-20 tokens too).
  const pairs = tokens.flatMap((tk) => tk.pools.filter((p) => p.type === 'uniswap-v2').map((p) => p.pairAddress))
  const burstTokens = [...new Set([...tokens.map((tk) => tk.address), ...pairs])].slice(0, BURST)
  const paths = burstTokens.map((a) => `/api/v1/tokens/information/${a}?chainId=31337`)
  type Figures = BurstFigures & { cpuMs: number }
  const burst = async (name: string, rpcUrl: string, deadlineMs: number, workers: number, workerOptions: { niceness?: number; repliesPerTurn?: number } = {}): Promise<Figures> => {
    const store = await createDatabase({ dataDir: join(dataDir, name) })
    const config = loadConfig({ DATA_DIR: join(dataDir, name), LOG_LEVEL: 'silent', REQUEST_TIMEOUT_MS: String(deadlineMs) })
    const keys = createApiKeyRepository(store)
    const { key } = await keys.create({ userId: 'bench' })
    const cache = createMemoryCache()
    const chains = localChains({ ...world.manifest, rpcUrl })
    const computer = workers > 0 ? await startReportWorkers({ count: workers, config, env: {}, chains, ...workerOptions }) : undefined
    const evm = createEvmReportService({
      registry: loadChainRegistry({ chains }),
      computer,
      cache,
      store,
      logger: silent,
      options: { deadlineMs, cacheTtlMs: 30_000 },
    })
    const app: FastifyInstance = await buildApp({
      store,
      keys,
      audits: createAuditRepository(store),
      rateLimiter: createMemoryRateLimiter(),
      metrics: createMetrics({ defaultMetrics: false }),
      tokens: { evm, solana: createSolanaEngine({ config, env: {}, cache, logger: silent, rpcUrls: [] }) },
      options: { publicBaseUrl: 'http://127.0.0.1', requestTimeoutMs: deadlineMs, reportCacheTtlSeconds: 30, defaultRateLimitRps: 0, corsOrigins: [] },
    })
    const base = await app.listen({ port: 0, host: '127.0.0.1' })
    const cpuStart = process.cpuUsage()
    try {
      const figures = await runLoad(base, key, paths)
      const used = process.cpuUsage(cpuStart)
      return { ...figures, cpuMs: (used.user + used.system) / 1000 }
    } finally {
      await app.close()
      await evm.close()
      await computer?.close()
      await store.close()
    }
  }
  /** The figures of several rounds as one: every answer and probe, the longest wall time, the mean CPU. */
  const merged = (rounds: Figures[]): Figures => ({
    reports: rounds.flatMap((r) => r.reports),
    paced: rounds.flatMap((r) => r.paced),
    healthz: rounds.flatMap((r) => r.healthz),
    wallMs: Math.max(...rounds.map((r) => r.wallMs)),
    cpuMs: rounds.reduce((a, r) => a + r.cpuMs, 0) / rounds.length,
  })
  /** Bursts of the previous and the current workers, alternating (previous first in even rounds). */
  const compared = async (name: string, rpcUrl: string, deadlineMs: number) => {
    const previous: Figures[] = []
    const current: Figures[] = []
    for (let round = 0; round < BURST_ROUNDS; round++) {
      const order = round % 2 === 0 ? (['previous', 'current'] as const) : (['current', 'previous'] as const)
      for (const which of order) {
        const figures = await burst(`${name}-${which}-${round}`, rpcUrl, deadlineMs, REPORT_WORKERS, which === 'previous' ? PREVIOUS_WORKERS : {})
        ;(which === 'previous' ? previous : current).push(figures)
      }
    }
    return { previous: merged(previous), current: merged(current) }
  }
  const inThread = await burst('in-thread', proxy.url, DEFAULT_DEADLINE_MS, 0)
  const defaultBursts = await compared('burst', proxy.url, DEFAULT_DEADLINE_MS)
  const lateBursts = await compared('deadline', slowProxy.url, SHORT_DEADLINE_MS)
  const loaded = defaultBursts.current
  const late = lateBursts.current

  const coldMs = cold.map((c) => c.ms)
  const rts = cold.map((c) => c.roundTrips)
  const calls = cold.map((c) => c.rpcCalls)
  const kib = cold.map((c) => c.requestBytes / 1024)
  const coldMedian = quantile(coldMs, 0.5)
  const cachedMedian = quantile(cached, 0.5)
  const maxRt = Math.max(...rts)
  // A report whose owner calls lowered holders' balances shown with nothing moving asks the holders
  // of record again, acting for themselves: one round trip more, for that report only.
  const maxRtOf = (again: boolean) => Math.max(0, ...cold.filter((c) => c.askedAgain === again).map((c) => c.roundTrips))
  const askedAgainKeys = [...new Set(cold.filter((c) => c.askedAgain).map((c) => c.key))]
  const roundTripsMet = maxRtOf(false) <= TARGETS.coldRoundTrips && maxRtOf(true) <= TARGETS.coldRoundTrips + 1
  const describeBurst = (b: Figures, deadlineMs: number) => {
    const ms = b.reports.map((r) => r.ms)
    const statuses = statusCounts(b.reports.map((r) => r.status))
    return [
      `  answers ${statuses}; answer time median ${fmt(quantile(ms, 0.5))} ms, max ${fmt(Math.max(...ms))} ms (deadline ${deadlineMs} ms, + 10 % = ${deadlineMs * (1 + TARGETS.deadlineSlack)} ms); all in ${fmt(b.wallMs)} ms; CPU ${fmt(b.cpuMs)} ms`,
      `  /healthz during the burst (${b.healthz.length} probes)  p50 ${fmt(quantile(b.healthz, 0.5))} ms   p99 ${fmt(quantile(b.healthz, 0.99))} ms   max ${fmt(Math.max(...b.healthz))} ms`,
    ]
  }
  const loadedMax = Math.max(...loaded.reports.map((r) => r.ms))
  const lateMax = Math.max(...late.reports.map((r) => r.ms))
  const p99 = Math.max(quantile(loaded.healthz, 0.99), quantile(late.healthz, 0.99))
  const p99Of = (b: Figures) => quantile(b.healthz, 0.99)
  const againstPrevious = (pair: { previous: Figures; current: Figures }) =>
    `  /healthz p99 against the previous workers in the same run: ${fmt(p99Of(pair.previous))} → ${fmt(p99Of(pair.current))} ms (${fmt(p99Of(pair.previous) / p99Of(pair.current))}× lower)`
  // Figures depend on what else the machine runs: its load is printed beside them.
  const load = loadavg().map((l) => l.toFixed(1)).join(' ')
  const lines = [
    `EVM token reports, local world (${tokens.length} tokens) behind +${ADDED_LATENCY_MS} ms per RPC round trip`,
    `baseline: one bare round trip                 median ${fmt(rt)} ms`,
    `cold report (${cold.length} runs)                  median ${fmt(coldMedian)} ms (${fmt(coldMedian / rt)}× a round trip)   p95 ${fmt(quantile(coldMs, 0.95))} ms`,
    `  CPU time per cold report                   ${fmt(cpuPerReport)} ms (this process, all threads)`,
    `  sequential round trips per report          median ${quantile(rts, 0.5)}   max ${maxRt}` +
      (askedAgainKeys.length > 0 ? `   (max ${maxRtOf(false)} without, ${maxRtOf(true)} for the reports that asked holders of record again: ${askedAgainKeys.join(', ')})` : ''),
    `  RPC calls per report                       median ${quantile(calls, 0.5)}   max ${Math.max(...calls)}`,
    `  RPC request bytes per report               median ${fmt(quantile(kib, 0.5))} KiB   max ${fmt(Math.max(...kib))} KiB`,
    `cached report (${cached.length} runs)               median ${fmt(cachedMedian)} ms   p95 ${fmt(quantile(cached, 0.95))} ms`,
    `${batch.length} concurrent cold reports                   ${fmt(concurrentMs)} ms in all`,
    `burst of ${paths.length} concurrent cold reports through HTTP, computed in the serving thread (REPORT_WORKERS=0; the baseline)`,
    ...describeBurst(inThread, DEFAULT_DEADLINE_MS),
    `burst of ${paths.length} concurrent cold reports through HTTP, computed in ${REPORT_WORKERS} report worker thread (REPORT_WORKERS=${REPORT_WORKERS}, the default; +${ADDED_LATENCY_MS} ms per round trip, deadline ${DEFAULT_DEADLINE_MS} ms), ${BURST_ROUNDS} rounds`,
    `  previous workers (replies handled as they arrive, workers at the serving thread's priority)`,
    ...describeBurst(defaultBursts.previous, DEFAULT_DEADLINE_MS),
    `  current workers (one reply per turn of the event loop, workers at nice ${REPORT_WORKER_NICENESS})`,
    ...describeBurst(loaded, DEFAULT_DEADLINE_MS),
    `  /healthz p99 against the serving thread computing: ${fmt(quantile(inThread.healthz, 0.99) / quantile(loaded.healthz, 0.99))}× lower`,
    againstPrevious(defaultBursts),
    `burst of ${paths.length} concurrent cold reports past their deadline (REPORT_WORKERS=${REPORT_WORKERS}; +${SLOW_LATENCY_MS} ms per round trip, deadline ${SHORT_DEADLINE_MS} ms), ${BURST_ROUNDS} rounds`,
    `  previous workers`,
    ...describeBurst(lateBursts.previous, SHORT_DEADLINE_MS),
    `  current workers`,
    ...describeBurst(late, SHORT_DEADLINE_MS),
    againstPrevious(lateBursts),
    '',
    `targets: cold median < ${TARGETS.coldMedianMs} ms ${coldMedian < TARGETS.coldMedianMs ? 'MET' : 'MISSED'}; ` +
      `≤ ${TARGETS.coldRoundTrips} round trips (${TARGETS.coldRoundTrips + 1} asking holders of record again) ${roundTripsMet ? 'MET' : 'MISSED'}; ` +
      `cached median < ${TARGETS.cachedMedianMs} ms ${cachedMedian < TARGETS.cachedMedianMs ? 'MET' : 'MISSED'}; ` +
      `${CONCURRENT} concurrent < ${TARGETS.concurrentMs} ms ${concurrentMs < TARGETS.concurrentMs ? 'MET' : 'MISSED'}`,
    `         /healthz p99 < ${TARGETS.healthzP99Ms} ms during the bursts ${p99 < TARGETS.healthzP99Ms ? 'MET' : 'MISSED'} (${fmt(p99)} ms); ` +
      `every answer within its deadline + 10 % ${loadedMax <= DEFAULT_DEADLINE_MS * 1.1 && lateMax <= SHORT_DEADLINE_MS * 1.1 ? 'MET' : 'MISSED'}; ` +
      `every late report a 503 ${late.reports.every((r) => r.status === 503) ? 'MET' : 'MISSED'}; every report of the first burst a 200 ${loaded.reports.every((r) => r.status === 200) ? 'MET' : 'MISSED'}`,
  ]
  const slowest = [...cold].sort((a, b) => b.ms - a.ms).slice(0, 3)
  lines.push(`slowest cold reports: ${slowest.map((s) => `${s.key} ${fmt(s.ms)} ms / ${s.roundTrips} round trips`).join(', ')}`)

  // Every check over the zoo: expected (the manifest's ground truth) against reported.
  lines.push('', `code checks over the zoo (${tokens.length} tokens): expected vs reported`, `${'check'.padEnd(28)}   TP   FP   FN   TN  unknown`)
  let wrong = 0
  for (const name of Object.keys(tokens[0].codeChecks)) {
    const m = { tp: 0, fp: 0, fn: 0, tn: 0, unknown: 0 }
    for (const token of tokens) {
      const want = token.codeChecks[name as keyof typeof token.codeChecks]
      const got = statuses.get(token.key)?.[name] ?? ''
      if (want === '') continue
      if (got === '') m.unknown++
      else if (want === '1') got === '1' ? m.tp++ : m.fn++
      else got === '1' ? m.fp++ : m.tn++
    }
    wrong += m.fp + m.fn + m.unknown
    lines.push(`${name.padEnd(28)} ${[m.tp, m.fp, m.fn, m.tn, m.unknown].map((n) => String(n).padStart(4)).join(' ')}`)
  }
  lines.push(`false positives + false negatives + unknown where measurable: ${wrong} (target 0)`)
  // The pairs of the owner's arguments and callers (abusive token / its twin), each as reported.
  const flagged = (key: string) => Object.entries(statuses.get(key) ?? {}).filter(([, v]) => v === '1').map(([k]) => k).join(', ') || 'nothing'
  const listPairs = (title: string, zoo: readonly { key: string; twin: string }[]) => {
    lines.push('', `${title} (token: risky checks reported | twin: risky checks reported)`)
    for (const spec of zoo.filter((x) => x.twin !== 'clean')) lines.push(`  ${spec.key}: ${flagged(spec.key)} | ${spec.twin}: ${flagged(spec.twin)}`)
  }
  listPairs("zoo pairs of the owner's arguments and callers", ARGUMENTS_ZOO)
  listPairs("zoo pairs of the owner's reach (fee search, stopping powers, clamps, display balances)", REACH_ZOO)
  listPairs("zoo pairs of trades and dependencies (own pairs, router sells, hostile dependencies, supply at creation)", TRADE_ZOO)
  listPairs("zoo pairs of the owner's reach on real shapes (extreme values, dust, appointed helpers, setters given the pool, accounts written at construction)", REAL_REACH_ZOO)
  listPairs('zoo pairs of the venues (V4 hooks)', VENUE_ZOO)
  lines.push('', 'venues: zoo token → pools found (honeypot, taxes, what the venue says), round trips')
  for (const spec of VENUE_ZOO) {
    const row = venueRows.get(spec.key)
    if (row) lines.push(`  ${spec.key}: ${row.pools.length} pool(s), ${row.roundTrips} round trips`, ...row.pools.map((p) => `    ${p}`))
  }
  lines.push(`machine: ${cpus().length} cores, load average ${load} (1, 5, 15 min) at the end of the run`)
  console.log(lines.join('\n'))
} finally {
  proxy.child.stdin?.end()
  slowProxy.child.stdin?.end()
  await world.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
