import type { RpcTransport } from '@solana/kit'
import { readCapped } from '../../../net/read-capped.ts'
import { SolanaRpcError, endpointLabel } from './errors.ts'
import type { SolanaLogger } from '../logger.ts'

/** Largest JSON body accepted from an RPC node; bigger answers fail instead of filling memory. */
export const MAX_RPC_RESPONSE_BYTES = 16 * 1024 * 1024
/** Longest one HTTP attempt may take before the next endpoint is tried. */
export const RPC_ATTEMPT_TIMEOUT_MS = 8_000
/** How long an endpoint that failed at the transport level is tried only after the others. */
export const RPC_ENDPOINT_COOLDOWN_MS = 15_000
/**
 * JSON-RPC error codes after which the next endpoint is tried: the node, not the request, is the
 * problem (method disabled, unhealthy, behind, secondary index missing, internal error). Never
 * retried elsewhere: invalid params (-32602) and every other code, which any node would repeat.
 */
export const FALLBACK_RPC_ERROR_CODES: ReadonlySet<number> = new Set([-32601, -32603, -32005, -32004, -32010, -32016])

export interface FallbackTransportOptions {
  /** RPC endpoints, tried in order. */
  urls: string[]
  maxResponseBytes?: number
  attemptTimeoutMs?: number
  cooldownMs?: number
  logger?: SolanaLogger
}

export interface TransportStats {
  /** HTTP requests sent, over all endpoints. */
  requests: number
  /** Requests that failed over to a later endpoint. */
  fallbacks: number
}

export type FallbackTransport = RpcTransport & { stats(): TransportStats }

interface Payload {
  method?: unknown
}

class AttemptError extends Error {
  constructor(
    message: string,
    readonly transportLevel: boolean,
  ) {
    super(message)
  }
}

/**
 * A JSON-RPC transport over HTTP that tries `urls` in order: on a network error, a non-2xx
 * answer, an unparsable body or a node-side JSON-RPC error it moves to the next endpoint, and it
 * lets an endpoint that failed rest for `cooldownMs` behind the healthy ones. Answers are read as
 * a stream and cut at `maxResponseBytes`.
 *
 * @example
 * const rpc = createSolanaRpcFromTransport(createFallbackTransport({ urls: [primary, backup] }))
 */
export function createFallbackTransport(options: FallbackTransportOptions): FallbackTransport {
  const urls = options.urls
  if (urls.length === 0) throw new Error('createFallbackTransport: at least one RPC URL is required')
  const maxBytes = options.maxResponseBytes ?? MAX_RPC_RESPONSE_BYTES
  const attemptTimeoutMs = options.attemptTimeoutMs ?? RPC_ATTEMPT_TIMEOUT_MS
  const cooldownMs = options.cooldownMs ?? RPC_ENDPOINT_COOLDOWN_MS
  const restingUntil = new Array<number>(urls.length).fill(0)
  const stats: TransportStats = { requests: 0, fallbacks: 0 }

  const order = (): number[] => {
    const now = Date.now()
    const indexes = urls.map((_, i) => i)
    return [...indexes.filter((i) => restingUntil[i] <= now), ...indexes.filter((i) => restingUntil[i] > now)]
  }

  async function attempt(index: number, body: string, signal: AbortSignal | undefined, method: string): Promise<unknown> {
    const timeout = AbortSignal.timeout(attemptTimeoutMs)
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout
    stats.requests++
    let response: Response
    try {
      response = await fetch(urls[index], {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
        signal: combined,
      })
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error
      const reason = timeout.aborted ? `no answer within ${attemptTimeoutMs} ms` : (error as Error).message
      throw new AttemptError(reason, true)
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined)
      throw new AttemptError(`HTTP ${response.status}`, true)
    }
    let text: string
    try {
      text = await readBody(response, maxBytes, method)
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error
      if (error instanceof SolanaRpcError) throw error
      throw new AttemptError(`reading the answer failed: ${(error as Error).message}`, true)
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new AttemptError('the answer is not JSON', true)
    }
    const code = rpcErrorCode(json)
    if (code !== undefined && FALLBACK_RPC_ERROR_CODES.has(code)) {
      throw Object.assign(new AttemptError(`JSON-RPC error ${code}`, false), { json })
    }
    return json
  }

  async function transport({ payload, signal }: { payload: unknown; signal?: AbortSignal }): Promise<unknown> {
    const method = typeof (payload as Payload)?.method === 'string' ? String((payload as Payload).method) : 'request'
    const body = JSON.stringify(payload, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))
    const failures: string[] = []
    let lastRpcAnswer: unknown
    for (const [n, index] of order().entries()) {
      if (n > 0) stats.fallbacks++
      try {
        const json = await attempt(index, body, signal, method)
        restingUntil[index] = 0
        return json
      } catch (error) {
        if (!(error instanceof AttemptError)) throw error
        failures.push(`${endpointLabel(urls[index], index)}: ${error.message}`)
        if (error.transportLevel) restingUntil[index] = Date.now() + cooldownMs
        else lastRpcAnswer = (error as AttemptError & { json?: unknown }).json
        options.logger?.warn({ method, endpoint: endpointLabel(urls[index], index), reason: error.message }, 'solana rpc endpoint failed')
      }
    }
    // Every endpoint refused the same way at the JSON-RPC level: hand back the node's own error.
    if (lastRpcAnswer !== undefined) return lastRpcAnswer
    // Which endpoints failed and why goes to the logs only: clients never see an internal address.
    throw new SolanaRpcError(method, 'unavailable', `no RPC endpoint answered (${failures.length} tried)`, { details: failures.join('; ') })
  }

  return Object.assign(transport as RpcTransport, { stats: () => ({ ...stats }) })
}

function rpcErrorCode(json: unknown): number | undefined {
  if (json && typeof json === 'object' && 'error' in json) {
    const error = (json as { error: unknown }).error
    if (error && typeof error === 'object' && 'code' in error && typeof (error as { code: unknown }).code === 'number') {
      return (error as { code: number }).code
    }
  }
  return undefined
}

function readBody(response: Response, maxBytes: number, method: string): Promise<string> {
  return readCapped(response, maxBytes, (declared) =>
    new SolanaRpcError(method, 'too-large', declared === undefined ? `answer exceeds the ${maxBytes}-byte limit` : `answer of ${declared} bytes exceeds the ${maxBytes}-byte limit`),
  )
}
