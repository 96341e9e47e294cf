// The load generator the HTTP benchmarks share: a burst of GETs on keep-alive connections while a
// client asks /healthz every 10 ms. It runs in a process of its own (plain node:http, to stay
// light), so that its own work never counts against the service it measures: `runLoad` spawns
// this file, which answers with the figures as JSON on stdout.
import { spawn } from 'node:child_process'
import { Agent, get as httpGet } from 'node:http'

const PROBE_INTERVAL_MS = 10
/** How long the prober runs when there is no burst (the idle baseline). */
const IDLE_PROBE_MS = 2_000

export interface LoadFigures {
  /** Milliseconds from the request to its answer, and its status, per path of the burst. */
  reports: { ms: number; status: number }[]
  /** The same for the paced paths (asked one every `paceMs` while the burst runs), in order. */
  paced: { ms: number; status: number }[]
  /** /healthz latencies while the burst ran. */
  healthz: number[]
  wallMs: number
}

/** The `q` quantile of `values` (nearest rank); NaN for none. */
export function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b)
  if (s.length === 0) return NaN
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]
}

/** A figure as the benchmarks print it: integers whole, small numbers to two places. */
export const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 2 : 1))

/** Answers by status, e.g. `200×57 503×2`. */
export function statusCounts(statuses: number[]): string {
  return [...new Set(statuses)]
    .sort()
    .map((s) => `${s}×${statuses.filter((x) => x === s).length}`)
    .join(' ')
}

/** One GET on a keep-alive connection of `agent`; resolves with the status once the body is read. */
function get(agent: Agent, url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent, headers }, (res) => {
      res.resume()
      res.once('end', () => resolve(res.statusCode ?? 0))
    }).once('error', reject)
  })
}

/** Asks for `paths` one after the other (to warm a cache before a burst), on one connection. */
export async function warmUp(base: string, key: string, paths: string[]): Promise<void> {
  const agent = new Agent({ keepAlive: true })
  for (const path of paths) await get(agent, `${base}${path}`, { 'x-api-key': key })
  agent.destroy()
}

/** Requests asked one at a time, `paceMs` apart, beside the burst (cached reports arriving while cold ones run). */
export interface Paced {
  paths: string[]
  paceMs: number
  /** Milliseconds after the burst starts before the first. */
  delayMs?: number
}

/** The burst of `paths` (none: the prober alone, for the idle baseline) with the /healthz prober, and the paced requests, beside it. */
async function burst(base: string, key: string, paths: string[], paced?: Paced): Promise<LoadFigures> {
  let running = true
  const healthz: number[] = []
  const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 })
  const prober = (async () => {
    while (running) {
      const t = performance.now()
      await get(probeAgent, `${base}/healthz`)
      healthz.push(performance.now() - t)
      await new Promise((r) => setTimeout(r, PROBE_INTERVAL_MS))
    }
  })()
  await new Promise((r) => setTimeout(r, 100))
  const started = performance.now()
  let reports: LoadFigures['reports'] = []
  const pacedAgent = new Agent({ keepAlive: true, maxSockets: 4 })
  const pacing = (async () => {
    const figures: LoadFigures['paced'] = []
    if (!paced) return figures
    await new Promise((r) => setTimeout(r, paced.delayMs ?? 0))
    for (const path of paced.paths) {
      const t = performance.now()
      const status = await get(pacedAgent, `${base}${path}`, { 'x-api-key': key, 'accept-encoding': 'gzip' })
      figures.push({ ms: performance.now() - t, status })
      await new Promise((r) => setTimeout(r, paced.paceMs))
    }
    return figures
  })()
  if (paths.length === 0 && !paced) await new Promise((r) => setTimeout(r, IDLE_PROBE_MS))
  else if (paths.length > 0) {
    const agent = new Agent({ keepAlive: true, maxSockets: paths.length })
    reports = await Promise.all(
      paths.map(async (path) => {
        const t = performance.now()
        const status = await get(agent, `${base}${path}`, { 'x-api-key': key, 'accept-encoding': 'gzip' })
        return { ms: performance.now() - t, status }
      }),
    )
  }
  const pacedFigures = await pacing
  const wallMs = performance.now() - started
  running = false
  await prober
  return { reports, paced: pacedFigures, healthz, wallMs }
}

/** Runs the burst (and the paced requests beside it) from a process of its own and resolves with its figures. */
export function runLoad(base: string, key: string, paths: string[], paced?: Paced): Promise<LoadFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, base, key, JSON.stringify(paced ?? null), ...paths], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as LoadFigures) : reject(new Error(`the load generator exited (${code})`))))
  })
}

if (process.argv[1] === import.meta.filename) {
  const [base, key, paced, ...paths] = process.argv.slice(2)
  process.stdout.write(JSON.stringify(await burst(base, key, paths, (JSON.parse(paced) as Paced | null) ?? undefined)))
  process.exit(0)
}
