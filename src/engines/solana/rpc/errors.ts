import { DeadlineError, UpstreamError, type BaseErrorOptions } from '../../../errors.ts'

export type SolanaRpcFailure =
  /** No endpoint answered (network errors, HTTP errors, unparsable bodies). */
  | 'unavailable'
  /** The node answered with a JSON-RPC error object. */
  | 'rpc-error'
  /** The node answered, but not with what the method returns (a hostile or broken node). */
  | 'malformed'
  /** The answer exceeded the response size limit. */
  | 'too-large'

/**
 * A Solana RPC call failed (HTTP 503 when it reaches a route). `message` names the method and
 * the endpoint's host only: RPC URLs often carry API keys.
 */
export class SolanaRpcError extends UpstreamError {
  override name = 'SolanaRpcError'
  readonly method: string
  readonly failure: SolanaRpcFailure
  /** JSON-RPC error code, for `rpc-error`. */
  readonly code: number | undefined

  constructor(method: string, failure: SolanaRpcFailure, message: string, options: BaseErrorOptions & { code?: number } = {}) {
    super(`Solana RPC ${method}: ${message}`, options)
    this.method = method
    this.failure = failure
    this.code = options.code
  }
}

export { DeadlineError }

/** The host of an RPC URL, safe to show (no path, query or credentials). */
export function endpointLabel(url: string, index: number): string {
  try {
    return `#${index + 1} (${new URL(url).host})`
  } catch {
    return `#${index + 1}`
  }
}

const REFUSAL_CODES = new Set([-32601, -32010, -32011])
const REFUSAL_MESSAGE = /method not found|not supported|unsupported|disabled|excluded from|secondary ind|not available on this|too many accounts|too large/i

/**
 * Whether a failed call is the node refusing a method or a request of that size (not offering
 * getProgramAccounts on a program, an answer over the size limit): a fact it would have given is
 * then unknown. Anything else — the node down, erring, lying or answering garbage — is a fault: it
 * fails the report (503), because a fault of the node is never a fact about the token.
 */
export function isRefusal(error: unknown): boolean {
  if (!(error instanceof SolanaRpcError)) return false
  if (error.failure === 'too-large') return true
  return error.failure === 'rpc-error' && ((error.code !== undefined && REFUSAL_CODES.has(error.code)) || REFUSAL_MESSAGE.test(error.message))
}
