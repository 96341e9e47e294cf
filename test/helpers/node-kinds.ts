import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { guarded } from './proxy-handler.ts'

/**
 * A JSON-RPC proxy in front of a real node that behaves like the kinds of node people use: public
 * endpoints and hosted plans without `debug_*` or `ots_*`, log queries capped by block range or by
 * result count, capped batches, HTTP 429 past a rate, state pruned beyond recent blocks, `eth_call`
 * refusing the state-override argument, no `eth_simulateV1`. Each refusal is worded as such nodes
 * word it. It counts every call and its request bytes by method (what a provider's bill counts).
 * The node-kind tests and `npm run bench:nodes` report the zoo through it.
 */

export interface NodeKind {
  name: string
  /** What the kind stands for, in words. */
  description: string
  /** Methods refused as missing (a prefix ends with `_`: every method of that namespace). */
  missing?: readonly string[]
  /** `eth_call` and `debug_traceCall` refuse state overrides. */
  noStateOverride?: boolean
  /** Largest `eth_getLogs` block range. */
  maxLogRange?: number
  /** Largest `eth_getLogs` result count. */
  maxLogResults?: number
  /** Largest batch; larger ones are refused as a whole. */
  maxBatch?: number
  /** JSON-RPC calls per second answered; past it, HTTP 429. */
  callsPerSecond?: number
  /** Blocks of state kept behind the head; older state is "missing trie node". */
  stateDepth?: number
  /** Largest request body read; a larger one is answered HTTP 413 (geth's 5 MiB limit, or a gateway's). */
  maxRequestBytes?: number
  /** Calls the node fails, every time they are sent (an internal error: a passing fault, as far as the caller can tell). */
  failCall?: (method: string, params: readonly unknown[]) => boolean
}

/** The node kinds of the benchmark and the tests, from the limits their operators publish. */
export const NODE_KINDS: readonly NodeKind[] = [
  {
    name: 'public endpoint',
    description: 'no debug_*/ots_*, state of the last 128 blocks, 1 000-block log ranges, batches of 10, 300 calls/s',
    missing: ['debug_', 'ots_', 'trace_'],
    stateDepth: 128,
    maxLogRange: 1_000,
    maxBatch: 10,
    callsPerSecond: 300,
  },
  {
    name: 'hosted plan',
    description: 'archive with eth_simulateV1, no debug_*/ots_*, 10 000 log results, batches of 100',
    missing: ['debug_', 'ots_', 'trace_'],
    maxLogResults: 10_000,
    maxBatch: 100,
  },
  {
    name: 'hosted, small log pages',
    description: 'archive with debug_*, no ots_*, 50 log results per query, 2 000-block ranges',
    missing: ['ots_'],
    maxLogResults: 50,
    maxLogRange: 2_000,
  },
  {
    name: 'pruned full node',
    description: 'geth default: debug_* on recent state, no ots_*, state of the last 128 blocks',
    missing: ['ots_'],
    stateDepth: 128,
  },
  {
    name: 'no eth_simulateV1, no debug',
    description: 'an older client behind a gateway: neither debug_* nor eth_simulateV1 nor ots_*',
    missing: ['debug_', 'ots_', 'eth_simulateV1', 'trace_'],
  },
  {
    name: 'no state overrides',
    description: 'eth_call takes two arguments only (no state overrides), no eth_simulateV1, no debug_*/ots_*',
    missing: ['debug_', 'ots_', 'eth_simulateV1', 'trace_'],
    noStateOverride: true,
  },
]

interface JsonRpcCall {
  jsonrpc?: string
  id: unknown
  method: string
  params?: unknown[]
}

interface JsonRpcAnswer {
  jsonrpc: '2.0'
  id: unknown
  result?: unknown
  error?: { code: number; message: string }
}

/** Calls and request bytes of one method. */
export interface MethodCount {
  calls: number
  bytes: number
}

/** Why the proxy refused a call, as the kind it emulates would. */
export type Refusal = 'missing method' | 'state override' | 'pruned state' | 'log range' | 'log results' | 'batch size' | 'request size' | 'rate' | 'fault'

/** One call received, and the kind's refusal of it (absent: forwarded and answered). */
export interface LoggedCall {
  method: string
  refused?: Refusal
}

export interface NodeKindProxy {
  url: string
  kind: NodeKind
  /** Calls and request bytes by method since the last `reset()`. */
  counts(): Record<string, MethodCount>
  /** Every call received since the last `reset()`, in order, with the kind's refusal if any. */
  requests(): LoggedCall[]
  /** HTTP 429 answers since the last `reset()`. */
  readonly rateLimited: number
  /** Bytes of the largest request body received since the last `reset()`. */
  readonly largestRequest: number
  reset(): void
  close(): Promise<void>
}

/** Index of the block parameter of methods that read state at a block. */
const BLOCK_PARAM: Record<string, number> = {
  eth_call: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getStorageAt: 2,
  eth_createAccessList: 1,
  eth_getTransactionCount: 1,
  debug_traceCall: 1,
  eth_simulateV1: 1,
}

const missing = (kind: NodeKind, method: string) =>
  (kind.missing ?? []).some((m) => (m.endsWith('_') ? method.startsWith(m) : method === m))

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Starts the proxy for `kind` in front of `upstream`, on a free loopback port.
 *
 * @example
 * const proxy = await startNodeKindProxy(world.rpcUrl, NODE_KINDS[0])
 * // point a chain at proxy.url, report, then read proxy.counts()
 */
export async function startNodeKindProxy(upstream: string, kind: NodeKind): Promise<NodeKindProxy> {
  let counts: Record<string, MethodCount> = {}
  let log: LoggedCall[] = []
  let rateLimited = 0
  let largestRequest = 0
  let windowStart = Date.now()
  let windowCalls = 0
  let head = 0n
  let headAt = 0
  const ask = async (body: unknown): Promise<unknown> => {
    const r = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return r.json()
  }
  const currentHead = async (): Promise<bigint> => {
    if (Date.now() - headAt > 500) {
      const a = (await ask({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })) as { result: string }
      head = BigInt(a.result)
      headAt = Date.now()
    }
    return head
  }
  /** A refusal of this call by the kind, or undefined to forward it. */
  const refusal = async (c: JsonRpcCall): Promise<(JsonRpcAnswer['error'] & { why: Refusal }) | undefined> => {
    if (missing(kind, c.method)) return { why: 'missing method', code: -32601, message: `the method ${c.method} does not exist/is not available` }
    const params = c.params ?? []
    if (kind.failCall?.(c.method, params)) return { why: 'fault', code: -32000, message: 'internal error' }
    if (kind.noStateOverride && c.method === 'eth_call' && params.length > 2) return { why: 'state override', code: -32602, message: 'too many arguments, want at most 2' }
    if (kind.noStateOverride && c.method === 'debug_traceCall' && (params[2] as { stateOverrides?: unknown } | undefined)?.stateOverrides) {
      return { why: 'state override', code: -32602, message: 'invalid argument 2: json: unknown field "stateOverrides"' }
    }
    if (kind.stateDepth !== undefined && c.method in BLOCK_PARAM) {
      const ref = params[BLOCK_PARAM[c.method]]
      if (typeof ref === 'string' && /^0x[0-9a-f]+$/i.test(ref)) {
        const n = BigInt(ref)
        const h = await currentHead()
        if (n + BigInt(kind.stateDepth) < h) return { why: 'pruned state', code: -32000, message: `missing trie node 0000000000000000000000000000000000000000000000000000000000000000 (path ) state ${n} is not available` }
      }
    }
    if (c.method === 'eth_getLogs' && kind.maxLogRange !== undefined) {
      const f = (params[0] ?? {}) as { fromBlock?: string; toBlock?: string }
      const from = f.fromBlock && f.fromBlock.startsWith('0x') ? BigInt(f.fromBlock) : 0n
      const to = f.toBlock && f.toBlock.startsWith('0x') ? BigInt(f.toBlock) : await currentHead()
      if (to - from + 1n > BigInt(kind.maxLogRange)) return { why: 'log range', code: -32005, message: `query exceeds max block range ${kind.maxLogRange}` }
    }
    return undefined
  }

  const server: Server = createServer(guarded(async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req)
    const send = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value))
    let parsed: unknown
    try {
      parsed = JSON.parse(body)
    } catch {
      return send(400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })
    }
    const batch = Array.isArray(parsed)
    const list = (batch ? parsed : [parsed]) as JsonRpcCall[]
    const logged = list.map((c): LoggedCall => ({ method: c.method }))
    log.push(...logged)
    for (const c of list) {
      const entry = (counts[c.method] ??= { calls: 0, bytes: 0 })
      entry.calls++
      entry.bytes += JSON.stringify(c).length
    }
    const refuseAll = (why: Refusal) => logged.forEach((l) => (l.refused = why))
    largestRequest = Math.max(largestRequest, Buffer.byteLength(body))
    if (kind.maxRequestBytes !== undefined && Buffer.byteLength(body) > kind.maxRequestBytes) {
      refuseAll('request size')
      return res.writeHead(413, { 'content-type': 'text/plain' }).end('request body too large')
    }
    if (kind.callsPerSecond !== undefined) {
      if (Date.now() - windowStart >= 1000) {
        windowStart = Date.now()
        windowCalls = 0
      }
      windowCalls += list.length
      if (windowCalls > kind.callsPerSecond) {
        rateLimited++
        refuseAll('rate')
        return res.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: 429, message: 'Too Many Requests' } }))
      }
    }
    if (batch && kind.maxBatch !== undefined && list.length > kind.maxBatch) {
      refuseAll('batch size')
      return send(200, { jsonrpc: '2.0', id: null, error: { code: -32600, message: `batch size ${list.length} exceeds the limit of ${kind.maxBatch}` } })
    }
    try {
      const refused = new Map<unknown, JsonRpcAnswer>()
      for (const [i, c] of list.entries()) {
        const error = await refusal(c)
        if (!error) continue
        const { why, ...rest } = error
        logged[i].refused = why
        refused.set(c.id, { jsonrpc: '2.0', id: c.id, error: rest })
      }
      const forward = list.filter((c) => !refused.has(c.id))
      let answers: JsonRpcAnswer[] = []
      if (forward.length > 0) {
        const got = (await ask(batch ? forward : forward[0])) as JsonRpcAnswer | JsonRpcAnswer[]
        // The node refused the batch as a whole (anvil past 2 MiB of request): its answer, as it gave it.
        if (batch && !Array.isArray(got)) return send(200, got)
        answers = Array.isArray(got) ? got : [got]
      }
      if (kind.maxLogResults !== undefined) {
        answers = answers.map((a) => {
          const i = list.findIndex((c) => c.id === a.id)
          if (list[i]?.method !== 'eth_getLogs' || !Array.isArray(a.result) || a.result.length <= kind.maxLogResults!) return a
          logged[i].refused = 'log results'
          return { jsonrpc: '2.0', id: a.id, error: { code: -32005, message: `query returned more than ${kind.maxLogResults} results` } }
        })
      }
      const all = list.map((c) => refused.get(c.id) ?? answers.find((a) => a.id === c.id)).filter((a): a is JsonRpcAnswer => !!a)
      send(200, batch ? all : all[0])
    } catch {
      res.writeHead(502).end()
    }
  }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    kind,
    counts: () => structuredClone(counts),
    requests: () => structuredClone(log),
    get rateLimited() {
      return rateLimited
    },
    get largestRequest() {
      return largestRequest
    },
    reset() {
      counts = {}
      log = []
      rateLimited = 0
      largestRequest = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
