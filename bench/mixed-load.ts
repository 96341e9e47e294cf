// `npm run bench:mixed`: the serving thread under a mixed burst, as a newcomer's service sees it —
// 100 cold reports at once (90 EVM tokens of the local world and its pairs, 10 Solana mints) plus
// 100 cached ones, through the real HTTP app, while a client in another process asks /healthz every
// 10 ms. The worlds run in a process of their own (as a remote node would). Compared in the same
// run, alternating rounds: Solana reports computed in the serving thread (as before) against the
// report worker threads computing them (now), and /healthz on the idle service (the baseline).
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { fmt, quantile, runLoad, statusCounts, warmUp } from './load.ts'
import { startReportWorkers } from '../src/cli/report-workers.ts'
import { loadConfig } from '../src/config/settings.ts'
import { startWorldsHost } from './worlds.ts'
import { buildApp } from '../src/http/app.ts'
import { createMetrics } from '../src/http/metrics.ts'
import { createMemoryRateLimiter } from '../src/http/rate-limit.ts'
import { createDatabase } from '../src/store/database.ts'
import { createApiKeyRepository } from '../src/store/repositories/api-keys.ts'
import { createAuditRepository } from '../src/store/repositories/audits.ts'

const COLD_EVM = 90
const COLD_SOLANA = 10
const CACHED = 100
/** Reports warmed before the burst, that the cached requests ask for again. */
const WARM = 10
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
const REPORT_WORKERS = 1
const TARGET_P99_MS = 100
const DEADLINE_MS = 30_000
const CLOSE_TIMEOUT_MS = 10_000

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
/** A round's figures: the answers' statuses, /healthz latencies, the burst's wall time. */
interface Figures {
  statuses: number[]
  healthz: number[]
  wallMs: number
}

const { worlds, stop } = await startWorldsHost()
{
  const load = async (base: string, key: string, paths: string[]): Promise<Figures> => {
    const f = await runLoad(base, key, paths)
    return { statuses: f.reports.map((r) => r.status), healthz: f.healthz, wallMs: f.wallMs }
  }
  const evmTokens = worlds.tokens.slice(0, COLD_EVM + WARM / 2)
  const mints = worlds.mints.slice(0, COLD_SOLANA + WARM / 2)
  const evmPath = (a: string) => `/api/v1/tokens/information/${a}?chainId=${worlds.chain.chainId}`
  const solanaPath = (a: string) => `/api/v1/tokens/solana/${a}`
  const warm = [...evmTokens.slice(0, WARM / 2).map(evmPath), ...mints.slice(0, WARM / 2).map(solanaPath)]
  const cold = [...evmTokens.slice(WARM / 2).map(evmPath), ...mints.slice(WARM / 2).map(solanaPath)]
  const cached = Array.from({ length: CACHED }, (_, i) => warm[i % warm.length])
  const burstPaths = cold.flatMap((p, i) => [p, cached[i] ?? '']).filter(Boolean).concat(cached.slice(cold.length))
  const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-bench-mixed-'))

  /** One round: a fresh service (empty caches and store), `solanaInWorkers` or not; the burst, or idle. */
  const round = async (name: string, solanaInWorkers: boolean, idle = false): Promise<Figures> => {
    const dir = join(dataDir, name)
    const store = await createDatabase({ dataDir: dir })
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', REQUEST_TIMEOUT_MS: String(DEADLINE_MS), METADATA_FETCH: 'off' })
    const keys = createApiKeyRepository(store)
    const { key } = await keys.create({ userId: 'bench' })
    const cache = createMemoryCache()
    const chains = { source: 'the local world', entries: [worlds.chain] }
    const solana = { rpcUrls: [worlds.solanaUrl], pricing: worlds.pricing }
    const workers = await startReportWorkers({ count: REPORT_WORKERS, config, env: {}, chains, solana: solanaInWorkers ? solana : undefined })
    const deps = { config, env: {}, cache, store, logger: silent }
    const evm = createEvmEngine({ ...deps, chains, computer: workers })
    const solanaEngine = createSolanaEngine({ ...deps, rpcUrls: solana.rpcUrls, pricing: solana.pricing, solanaComputer: solanaInWorkers ? workers : undefined })
    const app = await buildApp({
      store,
      keys,
      audits: createAuditRepository(store),
      rateLimiter: createMemoryRateLimiter(),
      metrics: createMetrics({ defaultMetrics: false }),
      tokens: { evm: evm.service, solana: solanaEngine },
      options: { publicBaseUrl: 'http://127.0.0.1', requestTimeoutMs: DEADLINE_MS, reportCacheTtlSeconds: 600, defaultRateLimitRps: 0, corsOrigins: [] },
    })
    const base = await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      await warmUp(base, key, warm)
      return await load(base, key, idle ? [] : burstPaths)
    } finally {
      // A stop that hangs must not hold the figures back: it is said, and the run goes on.
      const stopping = (async () => {
        await app.close()
        await evm.service.close()
        await solanaEngine.close()
        await workers.close()
        await store.close()
      })()
      const late = await Promise.race([stopping.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), CLOSE_TIMEOUT_MS).unref())])
      if (late) console.error(`round ${name}: the service did not stop within ${CLOSE_TIMEOUT_MS} ms; going on`)
    }
  }

  try {
    const idle = await round('idle', true, true)
    const before: Figures[] = []
    const now: Figures[] = []
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? [false, true] : [true, false]
      for (const inWorkers of order) {
        const figures = await round(`r${r}-${inWorkers ? 'workers' : 'thread'}`, inWorkers)
        ;(inWorkers ? now : before).push(figures)
        console.error(`round ${r} ${inWorkers ? 'workers' : 'serving thread'}: /healthz p99 ${fmt(quantile(figures.healthz, 0.99))} ms`)
      }
    }
    const merge = (rs: Figures[]): Figures => ({ statuses: rs.flatMap((r) => r.statuses), healthz: rs.flatMap((r) => r.healthz), wallMs: Math.max(...rs.map((r) => r.wallMs)) })
    const describe = (label: string, f: Figures) => {
      const statuses = statusCounts(f.statuses)
      return `${label.padEnd(58)} /healthz p50 ${fmt(quantile(f.healthz, 0.5))} ms  p99 ${fmt(quantile(f.healthz, 0.99))} ms  max ${fmt(Math.max(...f.healthz))} ms  (${f.healthz.length} probes)${statuses ? `; answers ${statuses}; all in ${fmt(f.wallMs)} ms` : ''}`
    }
    const b = merge(before)
    const n = merge(now)
    const p99Now = quantile(n.healthz, 0.99)
    console.log(
      [
        `mixed burst: ${cold.length} cold reports (${cold.length - (mints.length - WARM / 2)} EVM, ${mints.length - WARM / 2} Solana) + ${cached.length} cached, at once, through HTTP; ${REPORT_WORKERS} report worker; ${ROUNDS} rounds each, alternating`,
        describe('idle service (baseline)', idle),
        describe('Solana reports in the serving thread (before)', b),
        describe('Solana reports in the report workers (now)', n),
        `/healthz p99: ${fmt(quantile(b.healthz, 0.99))} → ${fmt(p99Now)} ms (${fmt(quantile(b.healthz, 0.99) / p99Now)}× lower); idle ${fmt(quantile(idle.healthz, 0.99))} ms`,
        `target: /healthz p99 < ${TARGET_P99_MS} ms during the mixed burst ${p99Now < TARGET_P99_MS ? 'MET' : 'MISSED'} (${fmt(p99Now)} ms)`,
        `machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end of the run`,
      ].join('\n'),
    )
  } finally {
    stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  process.exit(0)
}
