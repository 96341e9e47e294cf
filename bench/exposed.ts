// `npm run bench:exposed`: tokenrisk as an operator exposes it, measured. Prints:
//  1. the cold storm: 100 cold EVM and 20 cold Solana reports at once, through HTTP, and 100 cached
//     ones asked while it runs (one every 50 ms), while /healthz is asked every 10 ms — the cached
//     answers' p50/p99 (and on the idle service, in the same run) and /healthz p99;
//  2. anonymous visitors of the open pages from 3 client addresses asking 90 cold reports: the
//     reports computed and the RPC calls the node got, with the budget (PUBLIC_PAGES_COLD_REPORTS)
//     and, in the same run, without one (the open pages before the budget);
//  3. two `tokenrisk serve` processes on one PostgreSQL and Redis, reports in flight on one of them
//     when it is killed with SIGKILL: the seconds until the other answers the same tokens with 200.
// The worlds run in a process of their own (as a remote node would).
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, get as httpGet, Agent, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { createMemoryCache, DISTRIBUTED_LOCK_MS } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { startReportWorkers } from '../src/cli/report-workers.ts'
import type { ChainsFileEntry } from '../src/config/chains.ts'
import { loadConfig } from '../src/config/settings.ts'
import { buildApp } from '../src/http/app.ts'
import { createMetrics } from '../src/http/metrics.ts'
import { createMemoryRateLimiter } from '../src/http/rate-limit.ts'
import { createDatabase } from '../src/store/database.ts'
import { createApiKeyRepository } from '../src/store/repositories/api-keys.ts'
import { createAuditRepository } from '../src/store/repositories/audits.ts'
import { fmt, quantile, runLoad, statusCounts, warmUp } from './load.ts'
import { startWorldsHost, type Worlds } from './worlds.ts'
import { guarded } from '../test/helpers/proxy-handler.ts'

const COLD_EVM = Number(process.env.BENCH_COLD_EVM ?? 100)
const COLD_SOLANA = Number(process.env.BENCH_COLD_SOLANA ?? 20)
const CACHED = 100
/** Reports warmed before the storm, that the cached requests ask for again. */
const WARM_EVM = 5
const WARM_SOLANA = 2
const TARGET_CACHED_P99_MS = 50
/** The cached reports arrive one every this while the storm runs, from this long after it starts. */
const CACHED_PACE_MS = 50
const CACHED_DELAY_MS = 200
/** Anonymous visitors: their addresses (loopback ones, each its own client address) and the cold reports they ask. */
const VISITORS = ['127.0.0.2', '127.0.0.3', '127.0.0.4']
const ANONYMOUS_COLD = 90
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) tokenrisk-bench'
/** Reports in flight on the instance that is killed. */
const IN_FLIGHT = 20
const KILL_AFTER_MS = 500
/** How often the surviving instance is asked again while it answers 503. */
const RETRY_MS = 100
const CLOSE_TIMEOUT_MS = 10_000
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
/** A Redis database of the benchmark's own. */
const REDIS_DB = 13

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
const evmPath = (worlds: Worlds, a: string) => `/api/v1/tokens/information/${a}?chainId=${worlds.chain.chainId}`
const solanaPath = (a: string) => `/api/v1/tokens/solana/${a}`

/** A service as `tokenrisk serve` builds it (report workers, in-process cache, embedded store), on `chain`. */
async function startService(worlds: Worlds, dir: string, chain: ChainsFileEntry, pages?: { coldPerMinute: number }) {
  const store = await createDatabase({ dataDir: dir })
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', METADATA_FETCH: 'off' })
  const keys = createApiKeyRepository(store)
  const { key } = await keys.create({ userId: 'bench' })
  const chains = { source: 'the local world', entries: [chain] }
  const solana = { rpcUrls: [worlds.solanaUrl], pricing: worlds.pricing }
  const workers = await startReportWorkers({ count: config.reportWorkers, config, env: {}, chains, solana })
  const deps = { config, env: {}, cache: createMemoryCache(), store, logger: silent }
  const evm = createEvmEngine({ ...deps, chains, computer: workers })
  const solanaEngine = createSolanaEngine({ ...deps, rpcUrls: solana.rpcUrls, pricing: solana.pricing, solanaComputer: workers })
  const app = await buildApp({
    store,
    keys,
    audits: createAuditRepository(store),
    rateLimiter: createMemoryRateLimiter(),
    metrics: createMetrics({ defaultMetrics: false }),
    tokens: { evm: evm.service, solana: solanaEngine },
    options: {
      publicBaseUrl: 'http://127.0.0.1',
      requestTimeoutMs: config.requestTimeoutMs,
      reportCacheTtlSeconds: 600,
      defaultRateLimitRps: 0,
      corsOrigins: [],
      ...(pages ? { pages: { open: true, ratePerMinute: 0, coldPerMinute: pages.coldPerMinute } } : {}),
    },
  })
  const base = await app.listen({ port: 0, host: '0.0.0.0' })
  const stop = async () => {
    const stopping = (async () => {
      await app.close()
      await evm.service.close()
      await solanaEngine.close()
      await workers.close()
      await store.close()
    })()
    const late = await Promise.race([stopping.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), CLOSE_TIMEOUT_MS).unref())])
    if (late) console.error(`the service did not stop within ${CLOSE_TIMEOUT_MS} ms; going on`)
  }
  return { base: base.replace('0.0.0.0', '127.0.0.1'), key, stop, timeoutMs: config.requestTimeoutMs, workers: config.reportWorkers }
}

/** 1. The cold storm, with cached answers asked while it runs and /healthz beside it. */
async function coldStorm(worlds: Worlds, dir: string): Promise<string[]> {
  const service = await startService(worlds, join(dir, 'storm'), worlds.chain)
  try {
    const warm = [...worlds.tokens.slice(0, WARM_EVM).map((a) => evmPath(worlds, a)), ...worlds.mints.slice(0, WARM_SOLANA).map(solanaPath)]
    await warmUp(service.base, service.key, warm)
    const coldEvm = worlds.tokens.slice(WARM_EVM, WARM_EVM + COLD_EVM).map((a) => evmPath(worlds, a))
    const coldSolana = worlds.mints.slice(WARM_SOLANA, WARM_SOLANA + COLD_SOLANA).map(solanaPath)
    const cached = Array.from({ length: CACHED }, (_, i) => warm[i % warm.length])
    // The cached reports asked on the idle service first (the baseline), then while the cold storm runs.
    const paced = { paths: cached, paceMs: CACHED_PACE_MS, delayMs: CACHED_DELAY_MS }
    const idle = await runLoad(service.base, service.key, [], paced)
    const cold = [...coldEvm, ...coldSolana]
    const f = await runLoad(service.base, service.key, cold, paced)
    const kindOf = (i: number) => (i < coldEvm.length ? 'evm' : 'solana')
    const of = (kind: string) => f.reports.filter((_, i) => kindOf(i) === kind)
    const cachedMs = f.paced.map((r) => r.ms)
    const idleMs = idle.paced.map((r) => r.ms)
    const p99 = quantile(cachedMs, 0.99)
    return [
      `cold storm: ${coldEvm.length} cold EVM + ${coldSolana.length} cold Solana reports at once, through HTTP (${service.workers} report worker, deadline ${service.timeoutMs / 1000} s); ${cached.length} cached reports asked one every ${CACHED_PACE_MS} ms while it runs`,
      `  cached reports during the storm: p50 ${fmt(quantile(cachedMs, 0.5))} ms  p99 ${fmt(p99)} ms  max ${fmt(Math.max(...cachedMs))} ms (${statusCounts(f.paced.map((r) => r.status))}); on the idle service: p50 ${fmt(quantile(idleMs, 0.5))} ms  p99 ${fmt(quantile(idleMs, 0.99))} ms`,
      `  /healthz during the storm: p50 ${fmt(quantile(f.healthz, 0.5))} ms  p99 ${fmt(quantile(f.healthz, 0.99))} ms (${f.healthz.length} probes); idle p99 ${fmt(quantile(idle.healthz, 0.99))} ms`,
      `  cold EVM answers ${statusCounts(of('evm').map((r) => r.status))}, p50 ${fmt(quantile(of('evm').map((r) => r.ms), 0.5))} ms; cold Solana answers ${statusCounts(of('solana').map((r) => r.status))}, p50 ${fmt(quantile(of('solana').map((r) => r.ms), 0.5))} ms; all in ${fmt(f.wallMs)} ms`,
      `  target: cached p99 < ${TARGET_CACHED_P99_MS} ms during the storm ${p99 < TARGET_CACHED_P99_MS ? 'MET' : 'MISSED'} (${fmt(p99)} ms)`,
    ]
  } finally {
    await service.stop()
  }
}

/** A JSON-RPC proxy in front of `target` that counts the calls it forwards. */
async function countingProxy(target: string): Promise<{ url: string; calls: () => number; close: () => void }> {
  let calls = 0
  const server: Server = createServer(guarded(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    try {
      const parsed = JSON.parse(body.toString('utf8')) as unknown
      calls += Array.isArray(parsed) ? parsed.length : 1
    } catch {
      // the node says what is wrong
    }
    try {
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      res.writeHead(upstream.status, { 'content-type': 'application/json' })
      res.end(Buffer.from(await upstream.arrayBuffer()))
    } catch {
      res.writeHead(502).end()
    }
  }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls, close: () => server.close() }
}

/** GET from client address `from` with `headers`: status, Set-Cookie. */
function getFrom(url: string, from: string, headers: Record<string, string>): Promise<{ status: number; cookie?: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { localAddress: from, headers, agent: new Agent({ keepAlive: false }) }, (res) => {
      res.resume()
      res.once('end', () => resolve({ status: res.statusCode ?? 0, cookie: res.headers['set-cookie']?.[0]?.split(';')[0] }))
    }).once('error', reject)
  })
}

/** 2. Anonymous visitors from three addresses asking cold reports: with the budget, and without one. */
async function anonymousVisitors(worlds: Worlds, dir: string): Promise<string[]> {
  const tokens = worlds.tokens.slice(-ANONYMOUS_COLD)
  const run = async (name: string, coldPerMinute: number) => {
    const proxy = await countingProxy(worlds.chain.rpcUrls?.[0] ?? '')
    const service = await startService(worlds, join(dir, name), { ...worlds.chain, rpcUrls: [proxy.url] }, { coldPerMinute })
    try {
      const cookies = await Promise.all(VISITORS.map(async (from) => (await getFrom(`${service.base}/`, from, { 'user-agent': BROWSER })).cookie ?? ''))
      const before = proxy.calls()
      const started = performance.now()
      const answers = await Promise.all(
        tokens.map((token, i) => getFrom(`${service.base}${evmPath(worlds, token)}`, VISITORS[i % VISITORS.length], { cookie: cookies[i % VISITORS.length], 'user-agent': BROWSER })),
      )
      return { statuses: answers.map((a) => a.status), calls: proxy.calls() - before, ms: performance.now() - started }
    } finally {
      await service.stop()
      proxy.close()
    }
  }
  const budget = loadConfig({}).publicPagesColdReports
  const without = await run('anonymous-unbounded', 1_000_000)
  const withBudget = await run('anonymous-budget', budget)
  return [
    `anonymous visitors of the open pages from ${VISITORS.length} addresses, ${tokens.length} cold reports asked at once:`,
    `  without a budget (before): ${statusCounts(without.statuses)}; ${without.calls} RPC calls to the node in ${fmt(without.ms / 1000)} s`,
    `  with the budget of ${budget} a minute (now): ${statusCounts(withBudget.statuses)}; ${withBudget.calls} RPC calls to the node in ${fmt(withBudget.ms / 1000)} s (${fmt(without.calls / Math.max(1, withBudget.calls))}× fewer; at most ${budget} reports a minute whatever the addresses)`,
  ]
}

/** A `tokenrisk serve` process; resolves once it listens. */
async function serveProcess(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'bin', 'tokenrisk.js'), 'serve'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${env.PORT}/healthz`)).ok) return { child, base: `http://127.0.0.1:${env.PORT}` }
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`tokenrisk serve exited (${child.exitCode}):\n${log.slice(-2000)}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`tokenrisk serve did not listen in time:\n${log.slice(-2000)}`)
}

/** A free TCP port. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** 3. Two instances on one PostgreSQL and Redis; one killed with reports in flight. */
async function killOneOfTwo(worlds: Worlds, dir: string): Promise<string[]> {
  const database = `tokenrisk_bench_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: POSTGRES_URL })
  await admin.connect()
  await admin.query(`create database ${database}`)
  const databaseUrl = POSTGRES_URL.replace(/\/[^/]*$/, `/${database}`)
  const chainsFile = join(dir, 'chains.json')
  writeFileSync(chainsFile, JSON.stringify([worlds.chain]))
  const common = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: `${REDIS_URL}/${REDIS_DB}`,
    CHAINS_FILE: chainsFile,
    DEVNET: 'off',
    SOLANA_RPC_URL: worlds.solanaUrl,
    METADATA_FETCH: 'off',
    LOG_LEVEL: 'warn',
  }
  const instances: ChildProcess[] = []
  try {
    const a = await serveProcess({ ...common, DATA_DIR: join(dir, 'a'), PORT: String(await freePort()) })
    instances.push(a.child)
    const b = await serveProcess({ ...common, DATA_DIR: join(dir, 'b'), PORT: String(await freePort()) })
    instances.push(b.child)
    const keyOut = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'bin', 'tokenrisk.js'), 'keys', 'create', '--user', 'bench', '--json'], { env: { ...process.env, ...common, DATA_DIR: join(dir, 'a') } })
      let out = ''
      child.stdout.on('data', (d) => (out += d))
      child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`keys create exited ${code}`))))
    })
    const key = (JSON.parse(keyOut) as { key: string }).key
    const tokens = worlds.tokens.slice(COLD_EVM + WARM_EVM, COLD_EVM + WARM_EVM + IN_FLIGHT)
    // Reports in flight on A: each takes its shared lock.
    for (const token of tokens) void fetch(`${a.base}${evmPath(worlds, token)}`, { headers: { 'x-api-key': key } }).catch(() => {})
    await new Promise((r) => setTimeout(r, KILL_AFTER_MS))
    a.child.kill('SIGKILL')
    const killedAt = performance.now()
    // B is asked the same tokens until each answers 200.
    const until200 = (list: string[], from: number) =>
      Promise.all(
        list.map(async (token) => {
          for (;;) {
            const res = await fetch(`${b.base}${evmPath(worlds, token)}`, { headers: { 'x-api-key': key } })
            await res.arrayBuffer()
            if (res.status === 200) return (performance.now() - from) / 1000
            await new Promise((r) => setTimeout(r, RETRY_MS))
          }
        }),
      )
    const seconds = await until200(tokens, killedAt)
    // The baseline: B computing as many cold reports that no one held.
    const fresh = worlds.tokens.slice(COLD_EVM + WARM_EVM + IN_FLIGHT, COLD_EVM + WARM_EVM + 2 * IN_FLIGHT)
    const alone = await until200(fresh, performance.now())
    return [
      `two instances on one PostgreSQL and Redis: ${IN_FLIGHT} reports in flight on one, killed with SIGKILL after ${KILL_AFTER_MS} ms; the other asked the same tokens at once:`,
      `  seconds until the other answered them with 200: median ${fmt(quantile(seconds, 0.5))} s, last ${fmt(Math.max(...seconds))} s, computing them itself once the dead one's leases (${DISTRIBUTED_LOCK_MS / 1000} s) lapsed; ${IN_FLIGHT} other cold reports no one held take it median ${fmt(quantile(alone, 0.5))} s, last ${fmt(Math.max(...alone))} s (before: a 30 s lock, and 503s for ~30 s)`,
    ]
  } finally {
    for (const child of instances) child.kill('SIGKILL')
    await new Promise((r) => setTimeout(r, 500))
    await admin.query(`drop database if exists ${database} with (force)`)
    await admin.end()
  }
}

const { worlds, stop } = await startWorldsHost()
const dir = mkdtempSync(join(tmpdir(), 'tokenrisk-bench-exposed-'))
const only = process.env.BENCH_ONLY?.split(',')
try {
  const lines: string[] = []
  if (!only || only.includes('storm')) lines.push(...(await coldStorm(worlds, dir)))
  if (!only || only.includes('anonymous')) lines.push(...(await anonymousVisitors(worlds, dir)))
  if (!only || only.includes('kill')) lines.push(...(await killOneOfTwo(worlds, dir)))
  lines.push(`machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end of the run`)
  console.log(lines.join('\n'))
} finally {
  stop()
  rmSync(dir, { recursive: true, force: true })
}
process.exit(0)
