import { BaseError, DeadlineError, UpstreamError } from '../../../errors.ts'
import { readCapped } from '../../../net/read-capped.ts'
import { assumedCapabilities, missingCapability, type NodeCapabilities } from './capabilities.ts'

/**
 * JSON-RPC for one report: calls issued in the same tick go out as one JSON-RPC batch (one HTTP
 * round trip), failures of the node are retried with backoff on the next URL, a deadline bounds
 * everything, and every round trip and call is counted.
 *
 * Every JSON-RPC error is classified once (`RpcError.kind`): a revert of the call, a method or
 * capability the node does not have, a refusal of an `eth_getLogs` range, or a fault of the node.
 * Only a revert can ever be read as the behaviour of what was called, and only where the caller
 * expects one; a fault is never token behaviour. Never retried: reverts, missing methods and
 * refusals (deterministic). Retried: HTTP 429 (once its Retry-After, or a second, has passed), 5xx,
 * network errors, timeouts, answers that are
 * missing or malformed, and faults (internal errors, "header not found", rate limits...).
 */

/** Attempts per call (first try included). */
export const RPC_MAX_ATTEMPTS = 4
/** First backoff delay; doubled on each retry, with jitter. */
export const RPC_BACKOFF_BASE_MS = 100
/**
 * Least wait after an HTTP 429 without Retry-After: providers count calls per second, so a retry
 * within the same second is refused again and only burns attempts.
 */
export const RPC_RATE_LIMIT_WAIT_MS = 1_000
/** Longest Retry-After honoured; a longer one is waited up to this, the deadline deciding the rest. */
const RPC_MAX_RETRY_AFTER_MS = 10_000

/** How long an HTTP 429 asks to wait: its Retry-After (seconds or a date), else a rate window. */
export function rateLimitWaitMs(retryAfter: string | null, now = Date.now()): number {
  if (retryAfter) {
    const seconds = Number(retryAfter)
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - now
    if (Number.isFinite(ms) && ms >= 0) return Math.min(Math.max(ms, RPC_BACKOFF_BASE_MS), RPC_MAX_RETRY_AFTER_MS)
  }
  return RPC_RATE_LIMIT_WAIT_MS
}
/** Longest one HTTP request may take before it is abandoned and retried. */
export const RPC_REQUEST_TIMEOUT_MS = 10_000
/** A request failing this close to the deadline failed because of it. */
const DEADLINE_SLACK_MS = 5
/** Largest response accepted from a node (a trace of a huge call must not exhaust memory). */
export const RPC_MAX_RESPONSE_BYTES = 64 * 1024 * 1024
/**
 * Largest request body a batch is given (a call larger than this goes alone). Nodes cap the body
 * they read: anvil at 2 MiB (the whole batch answered "Invalid request"), geth at 5 MiB (HTTP 413),
 * and a simulation carries the probe's code in its state overrides (some 70 KiB a call), so a
 * batch of simulations passes such a cap long before the batch size does.
 */
export const RPC_MAX_BATCH_BYTES = 1024 * 1024

/**
 * What a JSON-RPC error means: `revert` the call itself reverted (its `data` holds the revert
 * data); `unsupported` the node lacks the method or the state asked for (no tracing, no
 * historical state); `refused` the node refused the size of the request (a log range or result
 * count); `fault` anything else: the node failed, and nothing can be concluded about the call.
 */
export type RpcErrorKind = 'revert' | 'unsupported' | 'refused' | 'fault'

const UNSUPPORTED_MESSAGE =
  /method .*(not found|not supported|does not exist|not available|unsupported|not allowed|disabled)|(not found|unknown|unsupported|unavailable) method|does not exist\/is not available|not whitelisted|missing trie node|historical state|state (is )?not available|pruned|archive|block ?out ?of ?range|block height is|resource not found/i
const REFUSED_MESSAGE = /block range|range (is )?too (large|wide|big)|max(imum)? (block )?range|limited to|too many (results|logs|blocks)|query returned more than|response size|exceeds? .*(range|limit|results)|result set/i

/**
 * Whether an error answered to a call carrying state overrides (`eth_call`'s third argument,
 * `debug_traceCall`'s `stateOverrides`) is the node refusing that argument: invalid params
 * (-32602) or words to that effect. Such a refusal is a limitation of the node, as final as a
 * missing method: never retried, and the session learns that the node takes no overrides.
 */
export function isOverrideRefusal(method: string, params: readonly unknown[], code: number, message: string): boolean {
  const carries =
    (method === 'eth_call' && params.length > 2 && params[2] !== undefined) ||
    (method === 'debug_traceCall' && !!(params[2] as { stateOverrides?: unknown } | undefined)?.stateOverrides)
  if (!carries || rpcErrorKind(code, message) === 'revert') return false
  return code === -32602 || OVERRIDE_REFUSED_MESSAGE.test(message)
}

const OVERRIDE_REFUSED_MESSAGE = /too many arguments|invalid argument 2|unknown field "?stateOverrides|state ?overrides? (are |is )?(not supported|unsupported|disabled|not allowed)|unsupported .*override|invalid params/i

/** The kind of a JSON-RPC error from its code and message. */
export function rpcErrorKind(code: number, message: string): RpcErrorKind {
  if (code === 3 || /\brevert/i.test(message)) return 'revert'
  if (code === -32601 || code === -32004 || UNSUPPORTED_MESSAGE.test(message)) return 'unsupported'
  if (REFUSED_MESSAGE.test(message)) return 'refused'
  return 'fault'
}

/** A JSON-RPC error answered by the node for one call. */
export class RpcError extends BaseError {
  override name = 'RpcError'
  readonly code: number
  readonly data: unknown
  readonly method: string

  /** The node refused the call's state overrides (see `isOverrideRefusal`): its kind is "unsupported". */
  readonly overridesRefused: boolean

  constructor(method: string, code: number, message: string, data: unknown, overridesRefused = false) {
    super(`${method}: ${message}`, { details: `code ${code}` })
    this.code = code
    this.data = data
    this.method = method
    this.overridesRefused = overridesRefused
  }

  /** What the error means (see `RpcErrorKind`). */
  get kind(): RpcErrorKind {
    return this.overridesRefused ? 'unsupported' : rpcErrorKind(this.code, this.message.slice(this.method.length + 2))
  }

  /** Whether the node says the call reverted (its `data` then holds the revert data). */
  get isRevert(): boolean {
    return this.kind === 'revert'
  }
}

export interface RpcStats {
  /** Sequential round trips: the longest chain of requests each started after the previous answered. */
  roundTrips: number
  /** HTTP requests sent (a batch is one). */
  httpRequests: number
  /** JSON-RPC calls sent, retries included. */
  rpcCalls: number
  /** Calls retried after a failure of the node. */
  retries: number
  /** Bytes of the request bodies sent (the node's work grows with them: a probe's code is in its overrides). */
  requestBytes: number
}

export interface RpcSessionOptions {
  urls: string[]
  maxBatchSize: number
  /** Abort signal of the caller (client gone, deadline of the route). */
  signal?: AbortSignal
  /** Deadline of the whole session, ms from now. */
  deadlineMs: number
  /** Test hook: replaces `fetch`. */
  fetch?: typeof fetch
  /** What the node can do (detected once per chain): read by the collectors through the session. */
  capabilities?: NodeCapabilities
  /**
   * Told when a call shows a capability missing that the session did not know of (the node
   * refused state overrides before detection said so): the chain records it for later reports.
   */
  onCapabilityMissing?: (capability: 'stateOverride', said: string) => void
}

interface Pending {
  method: string
  params: unknown[]
  /** Bytes of the call in a request body (its id aside). */
  bytes: number
  resolve(value: unknown): void
  reject(error: unknown): void
  attempts: number
  /** The node's last error for this call, given when retries run out. */
  lastError?: Error
}

const HEX = /^0x[0-9a-fA-F]*$/
/** Bytes an id, its key and a separator add to a call in a batch. */
const CALL_ID_BYTES = 16

/**
 * Whether a result has the shape its method answers: a node that answers another call's result,
 * or garbage, is caught here rather than read as a fact about the token.
 */
export function wellFormed(method: string, result: unknown): boolean {
  switch (method) {
    case 'eth_call':
    case 'eth_getCode':
    case 'eth_getStorageAt':
    case 'eth_chainId':
    case 'eth_blockNumber':
    case 'eth_getBalance':
      return typeof result === 'string' && HEX.test(result)
    case 'eth_getLogs':
    case 'eth_getBlockReceipts':
      return Array.isArray(result) || (method === 'eth_getBlockReceipts' && result === null)
    case 'eth_getBlockByNumber':
      return result === null || (typeof result === 'object' && !Array.isArray(result) && typeof (result as { number?: unknown }).number === 'string')
    case 'eth_getTransactionByHash':
    case 'eth_getTransactionReceipt':
      return result === null || (typeof result === 'object' && !Array.isArray(result))
    case 'debug_traceCall':
    case 'eth_createAccessList':
      return typeof result === 'object' && result !== null && !Array.isArray(result)
    default:
      return true
  }
}

interface JsonRpcResponse {
  id?: unknown
  result?: unknown
  error?: { code?: number; message?: string; data?: unknown }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(t)
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

export interface RpcSession {
  request<T = unknown>(method: string, params?: unknown[]): Promise<T>
  stats(): RpcStats
  signal: AbortSignal
  /** Milliseconds left before the deadline. */
  remainingMs(): number
  /** Releases the deadline timer. */
  close(): void
  /**
   * What the node can do, when detected (absent: everything is assumed, as before detection).
   * A refusal learned during the session shows here at once (state overrides "no").
   */
  readonly capabilities?: NodeCapabilities
}

/**
 * Opens an RPC session (one per report).
 *
 * @example
 * const rpc = createRpcSession({ urls: ['http://127.0.0.1:8545'], maxBatchSize: 100, deadlineMs: 10_000 })
 * const [code, block] = await Promise.all([rpc.request('eth_getCode', [token, 'latest']), rpc.request('eth_blockNumber')])
 * rpc.stats() // { roundTrips: 1, httpRequests: 1, rpcCalls: 2, retries: 0, requestBytes: 180 }
 */
export function createRpcSession(options: RpcSessionOptions): RpcSession {
  if (options.urls.length === 0) throw new UpstreamError('no RPC URL configured for this chain')
  const doFetch = options.fetch ?? fetch
  const deadlineAt = Date.now() + options.deadlineMs
  const controller = new AbortController()
  const deadlineTimer = setTimeout(
    () => controller.abort(new DeadlineError(`the report did not finish within ${options.deadlineMs} ms`)),
    Math.max(0, options.deadlineMs),
  )
  deadlineTimer.unref?.()
  const onOuterAbort = () => {
    const reason = options.signal?.reason
    controller.abort(reason instanceof Error ? reason : new DeadlineError('the request was cancelled'))
  }
  if (options.signal) {
    if (options.signal.aborted) onOuterAbort()
    else options.signal.addEventListener('abort', onOuterAbort, { once: true })
  }
  const signal = controller.signal

  let capabilities = options.capabilities
  /** The node refused state overrides: the session's capabilities say so from now on, and the chain is told once. */
  const learnNoOverrides = (said: string) => {
    if (capabilities?.stateOverride === 'no') return
    const base = capabilities ?? assumedCapabilities(0, 0n, options.maxBatchSize)
    capabilities = { ...base, stateOverride: 'no', notes: { ...base.notes, stateOverride: said.slice(0, 120) } }
    try {
      options.onCapabilityMissing?.('stateOverride', said)
    } catch {
      // the chain's record never fails a call
    }
  }

  const stats: RpcStats = { roundTrips: 0, httpRequests: 0, rpcCalls: 0, retries: 0, requestBytes: 0 }
  let completedDepth = 0
  let urlIndex = 0
  let nextId = 1
  let queue: Pending[] = []
  let scheduled = false

  const abortError = (): Error => {
    const r = signal.reason
    return r instanceof Error ? r : new DeadlineError('the report deadline passed')
  }

  const retryOrFail = (items: Pending[], error: Error, waitAtLeastMs = 0) => {
    const again: Pending[] = []
    for (const p of items) {
      if (p.attempts >= RPC_MAX_ATTEMPTS || signal.aborted) p.reject(signal.aborted ? abortError() : (p.lastError ?? error))
      else again.push(p)
    }
    if (again.length === 0) return
    stats.retries += again.length
    urlIndex = (urlIndex + 1) % options.urls.length
    const attempt = Math.max(...again.map((p) => p.attempts))
    const delay = Math.max(waitAtLeastMs, RPC_BACKOFF_BASE_MS * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5))
    if (Date.now() + delay >= deadlineAt) {
      for (const p of again) p.reject(p.lastError ?? error)
      return
    }
    sleep(delay, signal).then(
      () => {
        for (const p of again) enqueue(p)
      },
      () => {
        for (const p of again) p.reject(abortError())
      },
    )
  }

  /** Sends each call of a batch the node refused as a whole in a request of its own (no attempt spent). */
  const oneByOne = (items: Pending[]) => {
    for (const p of items) {
      p.attempts--
      void send([p])
    }
  }

  const send = async (items: Pending[]) => {
    const depth = completedDepth + 1
    stats.roundTrips = Math.max(stats.roundTrips, depth)
    stats.httpRequests++
    stats.rpcCalls += items.length
    const ids = new Map<number, Pending>()
    const body = items.map((p) => {
      const id = nextId++
      ids.set(id, p)
      p.attempts++
      return { jsonrpc: '2.0', id, method: p.method, params: p.params }
    })
    const url = options.urls[urlIndex % options.urls.length]
    const timeout = AbortSignal.timeout(Math.min(RPC_REQUEST_TIMEOUT_MS, Math.max(1, deadlineAt - Date.now())))
    let parsed: unknown
    const requestBody = JSON.stringify(body.length === 1 ? body[0] : body)
    stats.requestBytes += requestBody.length
    try {
      const response = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: requestBody,
        signal: AbortSignal.any([signal, timeout]),
      })
      const text = await readCapped(response, RPC_MAX_RESPONSE_BYTES, () => new UpstreamError(`the node answered more than ${RPC_MAX_RESPONSE_BYTES} bytes`))
      if (response.status === 413) {
        // A body larger than the node reads: a batch goes out call by call; a single call is refused for good.
        completedDepth = Math.max(completedDepth, depth)
        if (items.length > 1) return oneByOne(items)
        items[0].reject(new RpcError(items[0].method, -32600, `the request of ${requestBody.length} bytes exceeds the node's limit (HTTP 413)`, undefined))
        return
      }
      if (response.status === 429) {
        // Rate-limited: waited out as the node asks (or a rate window), not retried within it.
        completedDepth = Math.max(completedDepth, depth)
        retryOrFail(items, new UpstreamError('the node answered HTTP 429 (rate limit)', { details: text.slice(0, 200) }), rateLimitWaitMs(response.headers.get('retry-after')))
        return
      }
      if (response.status >= 500) {
        throw new UpstreamError(`the node answered HTTP ${response.status}`, { details: text.slice(0, 200) })
      }
      try {
        parsed = JSON.parse(text)
      } catch {
        throw new UpstreamError(`the node answered HTTP ${response.status} with a body that is not JSON`, { details: text.slice(0, 200) })
      }
    } catch (error) {
      completedDepth = Math.max(completedDepth, depth)
      if (signal.aborted || Date.now() >= deadlineAt - DEADLINE_SLACK_MS) {
        // The request's own timeout is the deadline's remainder: it is the deadline that passed.
        for (const p of items) p.reject(signal.aborted ? abortError() : new DeadlineError(`the report did not finish within ${options.deadlineMs} ms`))
        return
      }
      const wrapped =
        error instanceof UpstreamError
          ? error
          : new UpstreamError("the chain's RPC node did not answer", { cause: error, details: `${new URL(url).host}: ${(error as Error).message}` })
      retryOrFail(items, wrapped)
      return
    }
    completedDepth = Math.max(completedDepth, depth)
    const responses: JsonRpcResponse[] = Array.isArray(parsed) ? (parsed as JsonRpcResponse[]) : [parsed as JsonRpcResponse]
    const answered = new Set<number>()
    const retry: Pending[] = []
    for (const r of responses) {
      const id = typeof r?.id === 'number' ? r.id : body.length === 1 ? body[0].id : undefined
      const p = id === undefined ? undefined : ids.get(id)
      if (!p || id === undefined) continue
      answered.add(id)
      if (r.error) {
        const message = String(r.error.message ?? 'error')
        const code = typeof r.error.code === 'number' ? r.error.code : 0
        const refusedOverrides = isOverrideRefusal(p.method, p.params, code, message)
        const err = new RpcError(p.method, code, message, r.error.data, refusedOverrides)
        if (refusedOverrides) learnNoOverrides(message)
        if (err.kind === 'fault') {
          p.lastError = err
          retry.push(p)
          continue
        }
        p.reject(err)
      } else if (!('result' in r) || !wellFormed(p.method, r.result)) {
        p.lastError = new RpcError(p.method, 0, 'the node answered a malformed result', undefined)
        retry.push(p)
      } else p.resolve(r.result)
    }
    const missing = [...ids.entries()].filter(([id]) => !answered.has(id)).map(([, p]) => p)
    if (missing.length > 0 && !Array.isArray(parsed) && body.length > 1) {
      // The node refused the batch as a whole: send the calls one by one.
      oneByOne(missing)
    } else if (missing.length > 0) {
      retry.push(...missing)
    }
    if (retry.length > 0) retryOrFail(retry, new UpstreamError('the node failed, or did not answer every call of a batch'))
  }

  const flush = () => {
    scheduled = false
    const items = queue
    queue = []
    // Batches of at most maxBatchSize calls and RPC_MAX_BATCH_BYTES bytes (a larger call alone).
    let batch: Pending[] = []
    let bytes = 0
    for (const p of items) {
      if (batch.length > 0 && (batch.length >= options.maxBatchSize || bytes + p.bytes > RPC_MAX_BATCH_BYTES)) {
        void send(batch)
        batch = []
        bytes = 0
      }
      batch.push(p)
      bytes += p.bytes
    }
    if (batch.length > 0) void send(batch)
  }

  const enqueue = (p: Pending) => {
    if (signal.aborted) {
      p.reject(abortError())
      return
    }
    queue.push(p)
    if (!scheduled) {
      scheduled = true
      setImmediate(flush)
    }
  }

  const request = <T>(method: string, params: unknown[] = []): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      // A method the node was found not to offer is answered here as the node would, without a request.
      const lacking = capabilities && missingCapability(capabilities, method, params)
      if (lacking) {
        const said = capabilities?.notes[lacking]
        return reject(new RpcError(method, -32601, `not offered by this node (detected: ${lacking} "no"${said ? `, the node said: ${said}` : ''})`, undefined, lacking === 'stateOverride'))
      }
      enqueue({ method, params, bytes: JSON.stringify({ jsonrpc: '2.0', method, params }).length + CALL_ID_BYTES, resolve: resolve as (v: unknown) => void, reject, attempts: 0 })
    })

  return {
    request,
    stats: () => ({ ...stats }),
    signal,
    remainingMs: () => Math.max(0, deadlineAt - Date.now()),
    get capabilities() {
      return capabilities
    },
    close() {
      clearTimeout(deadlineTimer)
      options.signal?.removeEventListener('abort', onOuterAbort)
    },
  }
}
