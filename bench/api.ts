/**
 * `npm run bench:api`: the audit-history endpoint under load, on the embedded store and on
 * PostgreSQL, beside the same server's `/healthz` as a baseline.
 *
 * Seeds 10 projects × 10,000 audits (5 vulnerabilities each), starts `tokenrisk serve` as a
 * child process, and runs autocannon (50 connections, 10 s) from this process. Prints req/s,
 * p50 and p99 of both routes and their ratio. Target: history ≥ 40% of /healthz req/s on the
 * embedded store, p99 < 25 ms.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { PROJECT_ROOT } from '../scripts/build-contracts.ts'
import { createDatabase, type Store } from '../src/store/database.ts'
import { createApiKeyRepository } from '../src/store/repositories/api-keys.ts'
import { serializeAudit, vulnerabilityRows } from '../src/store/repositories/audits.ts'

const PROJECTS = 10
const AUDITS_PER_PROJECT = 10_000
const VULNERABILITIES_PER_AUDIT = 5
const CONNECTIONS = 50
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10)
const SEED_BATCH = 500
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const SEVERITIES = ['high', 'medium', 'low', 'informational', 'optimization']

async function seed(store: Store): Promise<void> {
  const started = Date.now()
  const now = Date.parse('2026-01-01T00:00:00Z')
  for (let p = 0; p < PROJECTS; p++) {
    const projectId = `project-${p}`
    await store.db.insertInto('users').values({ id: 'bench', created_at: new Date(now).toISOString() }).onConflict((oc) => oc.column('id').doNothing()).execute()
    await store.db
      .insertInto('projects')
      .values({ id: projectId, user_id: 'bench', name: `Project ${p}`, created_at: new Date(now).toISOString(), audit_count: AUDITS_PER_PROJECT })
      .execute()
    for (let start = 0; start < AUDITS_PER_PROJECT; start += SEED_BATCH) {
      await store.db.transaction().execute(async (tx) => {
        const findings = (i: number) =>
          Array.from({ length: VULNERABILITIES_PER_AUDIT }, (_, v) => ({
            name: `Finding ${v}`,
            severity: SEVERITIES[v] as 'high',
            snippet: `function withdraw(uint256 amount) external {\n    (bool ok, ) = msg.sender.call{value: amount}("");\n    balances[msg.sender] -= amount;\n}`,
            lineNumbers: [40 + v + i, 43 + v + i],
            confidence: 'high' as const,
            recommendation: 'Apply checks-effects-interactions or a reentrancy guard.',
            explanation: 'State is written after an external call that can re-enter the function.',
            file: 'contracts/Vault.sol',
          }))
        const batch = Array.from({ length: SEED_BATCH }, (_, i) => ({
          totalLines: 1000 + i,
          securityScore: 50 + (i % 50) + 0.25,
          vulnerabilityCount: { high: 1, medium: 1, low: 1, informational: 1, optimization: 1 },
          vulnerabilities: findings(i),
        }))
        const audits = batch.map((a, i) => ({
          ...((body) => ({ body_json: body.json, body_cuts: body.cuts.join(',') }))(serializeAudit(a)),
          report_id: randomBytes(18).toString('base64url'),
          project_id: projectId,
          created_at: new Date(now + (start + i) * 60_000).toISOString(),
          total_lines: a.totalLines,
          security_score: a.securityScore,
          count_high: 1,
          count_medium: 1,
          count_low: 1,
          count_informational: 1,
          count_optimization: 1,
        }))
        const ids = await tx.insertInto('audits').values(audits).returning('id').execute()
        const vulns = ids.flatMap(({ id }, i) => vulnerabilityRows(Number(id), batch[i].vulnerabilities))
        for (let i = 0; i < vulns.length; i += 200) await tx.insertInto('vulnerabilities').values(vulns.slice(i, i + 200)).execute()
      })
    }
  }
  console.log(`  seeded ${PROJECTS * AUDITS_PER_PROJECT} audits in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

async function startServer(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin/tokenrisk.js'), 'serve', '--only', 'audits'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DEVNET: 'off' },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, child }
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill()
  throw new Error('server did not start')
}

interface Figures {
  rps: number
  p50: number
  p99: number
  errors: number
}

async function load(url: string, paths: () => string, key: string): Promise<Figures> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { 'x-api-key': key },
    requests: [{ setupRequest: (req) => ({ ...req, path: paths() }) }],
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  }
}

function historyPath(): string {
  const project = Math.floor(Math.random() * PROJECTS)
  const page = 1 + Math.floor(Math.random() * 50)
  return `/api/v1/projects/audit/history?projectId=project-${project}&userId=bench&limit=10&page=${page}`
}

const row = (label: string, f: Figures) =>
  `  ${label.padEnd(22)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(3)} ms   p99 ${String(f.p99).padStart(3)} ms   errors ${f.errors}`

async function measure(env: NodeJS.ProcessEnv, key: string, label: string): Promise<{ health: Figures; history: Figures }> {
  const { url, child } = await startServer(env)
  try {
    // Warm up (JIT, connections), then the baseline and the history in the same server.
    await load(url, () => '/healthz', key)
    const health = await load(url, () => '/healthz', key)
    const history = await load(url, historyPath, key)
    console.log(row('/healthz', health))
    console.log(row(label, history))
    return { health, history }
  } finally {
    child.kill('SIGTERM')
    await new Promise((r) => child.once('exit', r))
  }
}

async function run(name: string, env: NodeJS.ProcessEnv, open: () => Promise<Store>): Promise<void> {
  console.log(`\n${name}`)
  const store = await open()
  await seed(store)
  const key = (await createApiKeyRepository(store).create({ userId: 'bench' })).key
  await store.close()
  const { health, history } = await measure(env, key, 'history')
  console.log(`  history / healthz = ${((history.rps / health.rps) * 100).toFixed(1)}%   (target ≥ 40% on the embedded store, p99 < 25 ms)`)
  // The same load with every read cache off: each request reads the key, the project and the page.
  const uncached = await measure({ ...env, HISTORY_PAGE_CACHE_SIZE: '0', STORE_CACHE_MS: '0' }, key, 'history, caches off')
  console.log(`  history (caches off) / healthz = ${((uncached.history.rps / uncached.health.rps) * 100).toFixed(1)}%`)
}

const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-bench-'))
console.log(`bench:api — ${PROJECTS} projects × ${AUDITS_PER_PROJECT} audits × ${VULNERABILITIES_PER_AUDIT} vulnerabilities; autocannon ${CONNECTIONS} connections × ${DURATION_S} s`)
try {
  await run('embedded store (SQLite)', { DATA_DIR: dataDir, DATABASE_URL: '' }, () => createDatabase({ dataDir }))
  const schema = `bench_${randomBytes(4).toString('hex')}`
  let pgUp = true
  try {
    const c = new pg.Client({ connectionString: PG_URL })
    await c.connect()
    await c.end()
  } catch {
    pgUp = false
    console.log('\nPostgreSQL not reachable: skipped')
  }
  if (pgUp) {
    const url = new URL(PG_URL)
    url.searchParams.set('options', `-c search_path=${schema}`)
    try {
      await run('PostgreSQL', { DATA_DIR: dataDir, DATABASE_URL: url.toString() }, () =>
        createDatabase({ databaseUrl: PG_URL, dataDir, pgSchema: schema }),
      )
    } finally {
      const c = new pg.Client({ connectionString: PG_URL })
      await c.connect()
      await c.query(`drop schema if exists ${schema} cascade`)
      await c.end()
    }
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
