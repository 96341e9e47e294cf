import { BaseError, UpstreamError } from 'tokenrisk/errors'

/** How long one JSON-RPC request to the local chain may take before it is abandoned. */
export const DEVNET_RPC_TIMEOUT_MS = 30_000
/** Most requests sent in one JSON-RPC batch (anvil accepts more; this keeps bodies small). */
export const DEVNET_MAX_BATCH = 500

/** The local world could not be built or started. */
export class DevnetError extends BaseError {
  override name = 'DevnetError'
}

export interface RpcRequest {
  method: string
  params: readonly unknown[]
}

interface RpcResponse {
  id: number
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

/** A JSON-RPC error returned by the node for one request. */
export class RpcRequestError extends UpstreamError {
  override name = 'RpcRequestError'
  readonly code: number
  readonly data: unknown

  constructor(method: string, error: { code: number; message: string; data?: unknown }) {
    super(`${method} failed: ${error.message}`, { details: JSON.stringify(error) })
    this.code = error.code
    this.data = error.data
  }
}

export interface DevnetRpc {
  url: string
  request<T = unknown>(method: string, params?: readonly unknown[]): Promise<T>
  /** Sends requests in JSON-RPC batches; answers come back in the order asked. Throws on the first error. */
  batch<T = unknown>(requests: readonly RpcRequest[]): Promise<T[]>
}

/**
 * A minimal JSON-RPC client for the local chain: one HTTP request per call or per batch, a
 * timeout on each, node errors wrapped once as `RpcRequestError`.
 *
 * @example
 * const rpc = createDevnetRpc('http://127.0.0.1:8545')
 * const block = await rpc.request<string>('eth_blockNumber')
 */
export function createDevnetRpc(url: string, options: { timeoutMs?: number } = {}): DevnetRpc {
  const timeoutMs = options.timeoutMs ?? DEVNET_RPC_TIMEOUT_MS
  let nextId = 1

  async function post(body: unknown): Promise<unknown> {
    let response: Response
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (cause) {
      throw new UpstreamError(`local chain at ${url} did not answer`, { cause })
    }
    if (!response.ok) throw new UpstreamError(`local chain at ${url} answered HTTP ${response.status}`)
    return response.json()
  }

  async function request<T>(method: string, params: readonly unknown[] = []): Promise<T> {
    const answer = (await post({ jsonrpc: '2.0', id: nextId++, method, params })) as RpcResponse
    if (answer.error) throw new RpcRequestError(method, answer.error)
    return answer.result as T
  }

  async function batch<T>(requests: readonly RpcRequest[]): Promise<T[]> {
    const results: T[] = []
    for (let start = 0; start < requests.length; start += DEVNET_MAX_BATCH) {
      const chunk = requests.slice(start, start + DEVNET_MAX_BATCH)
      const firstId = nextId
      nextId += chunk.length
      const body = chunk.map((r, i) => ({ jsonrpc: '2.0', id: firstId + i, method: r.method, params: r.params }))
      const answers = (await post(body)) as RpcResponse[]
      if (!Array.isArray(answers)) throw new UpstreamError('local chain answered a batch with a non-array')
      const byId = new Map(answers.map((a) => [a.id, a]))
      chunk.forEach((r, i) => {
        const answer = byId.get(firstId + i)
        if (!answer) throw new UpstreamError(`local chain left ${r.method} unanswered in a batch`)
        if (answer.error) throw new RpcRequestError(r.method, answer.error)
        results.push(answer.result as T)
      })
    }
    return results
  }

  return { url, request, batch }
}
