import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * An HTTP proxy that holds every request for `delayMs` before forwarding it: a local RPC made to
 * look like a remote one (benchmarks, deadline tests). It records when each request started and
 * ended, so the number of sequential round trips can be measured.
 */
export interface DelayProxy {
  url: string
  /** Forwarded requests since the last reset, with their [start, end] times (ms). */
  requests(): { start: number; end: number }[]
  reset(): void
  /** Longest chain of requests that ran one after another: the round trips a report waited for. */
  sequentialRoundTrips(): number
  stop(): Promise<void>
}

export async function startDelayProxy(options: { target: string; delayMs: number; port?: number }): Promise<DelayProxy> {
  const target = new URL(options.target)
  let log: { start: number; end: number }[] = []
  const server: Server = createServer((req, res) => {
    const start = performance.now()
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      setTimeout(() => {
        const upstream = httpRequest(
          { hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers)
            up.pipe(res)
            up.on('end', () => log.push({ start, end: performance.now() }))
          },
        )
        upstream.on('error', () => {
          res.writeHead(502)
          res.end()
        })
        upstream.end(Buffer.concat(chunks))
      }, options.delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => [...log],
    reset: () => {
      log = []
    },
    sequentialRoundTrips: () => longestChain(log),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Longest sequence of intervals where each starts after the previous one ended. */
function longestChain(intervals: { start: number; end: number }[]): number {
  const sorted = [...intervals].sort((a, b) => a.end - b.end)
  const best: number[] = []
  for (let i = 0; i < sorted.length; i++) {
    let length = 1
    for (let j = 0; j < i; j++) if (sorted[j].end <= sorted[i].start && best[j] + 1 > length) length = best[j] + 1
    best.push(length)
  }
  return Math.max(0, ...best)
}
