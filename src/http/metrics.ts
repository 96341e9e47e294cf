import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/** Latency buckets of HTTP answers, seconds: from cached reports to cold ones on slow nodes. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
/** Buckets of a report stage, seconds: the pure stages take fractions of a millisecond. */
const STAGE_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30]
const ROUND_TRIP_BUCKETS = [0, 1, 2, 3, 4, 5, 6, 8, 10, 15, 20]
const RPC_CALL_BUCKETS = [0, 5, 10, 20, 50, 100, 200, 500]

/** One token report as the engines describe it to the metrics. */
export interface ReportObservation {
  chain: string
  cached: boolean
  ms: number
  roundTrips?: number
  rpcCalls?: number
  /** Milliseconds per stage of the report pipeline (collect, checks, score, render) of a cold report. */
  stages?: Record<string, number>
}

/**
 * Prometheus metrics of one app: requests and latency per route and status, and per token
 * report its latency, the duration of each stage, sequential RPC round trips and RPC calls. A registry per app, no globals.
 */
export function createMetrics(options: { defaultMetrics?: boolean } = {}) {
  const registry = new Registry()
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'tokenrisk_' })
  const requests = new Counter({
    name: 'tokenrisk_http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'tokenrisk_http_request_duration_seconds',
    help: 'HTTP answer latency, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  })
  const reportLatency = new Histogram({
    name: 'tokenrisk_report_duration_seconds',
    help: 'token report latency, by chain and whether it came from the cache',
    labelNames: ['chain', 'cached'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  })
  const stageLatency = new Histogram({
    name: 'tokenrisk_report_stage_duration_seconds',
    help: 'duration of each stage of a cold token report (collect, checks, score, render), by chain',
    labelNames: ['chain', 'stage'] as const,
    buckets: STAGE_BUCKETS,
    registers: [registry],
  })
  const roundTrips = new Histogram({
    name: 'tokenrisk_report_rpc_round_trips',
    help: 'sequential RPC round trips of a cold token report',
    labelNames: ['chain'] as const,
    buckets: ROUND_TRIP_BUCKETS,
    registers: [registry],
  })
  const rpcCalls = new Histogram({
    name: 'tokenrisk_report_rpc_calls',
    help: 'RPC calls (batched or not) of a cold token report',
    labelNames: ['chain'] as const,
    buckets: RPC_CALL_BUCKETS,
    registers: [registry],
  })
  return {
    registry,
    observeRequest(method: string, route: string, status: number, seconds: number) {
      const labels = { method, route, status: String(status) }
      requests.inc(labels)
      latency.observe(labels, seconds)
    },
    observeReport(o: ReportObservation) {
      reportLatency.observe({ chain: o.chain, cached: String(o.cached) }, o.ms / 1000)
      if (!o.cached && o.roundTrips !== undefined) roundTrips.observe({ chain: o.chain }, o.roundTrips)
      if (!o.cached && o.rpcCalls !== undefined) rpcCalls.observe({ chain: o.chain }, o.rpcCalls)
      for (const [stage, ms] of Object.entries(o.stages ?? {})) stageLatency.observe({ chain: o.chain, stage }, ms / 1000)
    },
  }
}

export type Metrics = ReturnType<typeof createMetrics>
