/**
 * Errors of tokenrisk. Every error the service raises on purpose is a `BaseError` with a short
 * `message` that is safe to show to a client, optional `details` for logs, and the `cause` it
 * wraps. Raw errors of libraries and nodes are wrapped once, where they enter our code.
 */
export interface BaseErrorOptions {
  details?: string
  cause?: unknown
}

export class BaseError extends Error {
  override name = 'BaseError'
  /** HTTP status this error maps to when it reaches a route. */
  readonly statusCode: number = 500
  readonly details: string | undefined

  constructor(message: string, options: BaseErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.details = options.details
  }
}

/** The caller sent something we cannot accept (HTTP 400). */
export class InputError extends BaseError {
  override name = 'InputError'
  override readonly statusCode = 400
}

/**
 * The chain asked for is not one this instance serves (HTTP 400; in the hosted service's views a
 * 200 with `errorStatus: 420`, like an address that is not a token, docs/compat.md).
 */
export class UnsupportedChainError extends InputError {
  override name = 'UnsupportedChainError'
}

/** Missing, unknown or revoked credentials, or a key reading what it may not (HTTP 401). */
export class AuthError extends BaseError {
  override name = 'AuthError'
  override readonly statusCode = 401
}

/** The thing asked for does not exist (HTTP 404). */
export class NotFoundError extends BaseError {
  override name = 'NotFoundError'
  override readonly statusCode = 404
}

/** A request body larger than the request may be (HTTP 413). */
export class PayloadTooLargeError extends BaseError {
  override name = 'PayloadTooLargeError'
  override readonly statusCode = 413
}

/** Too many requests for this key (HTTP 429); `retryAfterSeconds` goes to `Retry-After`. */
export class RateLimitedError extends BaseError {
  override name = 'RateLimitedError'
  override readonly statusCode = 429
  readonly retryAfterSeconds: number

  constructor(retryAfterSeconds: number, options: BaseErrorOptions & { message?: string } = {}) {
    super(options.message ?? `rate limit exceeded; retry in ${retryAfterSeconds} s`, options)
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** How long a client is asked to wait before retrying after a 503 by default (`Retry-After`). */
export const UPSTREAM_RETRY_AFTER_SECONDS = 5

/**
 * An upstream (RPC node, store, provider) failed or did not answer in time (HTTP 503, with
 * `Retry-After`): the answer could not be measured, which is never an answer about the token.
 */
export class UpstreamError extends BaseError {
  override name = 'UpstreamError'
  override readonly statusCode = 503
  readonly retryAfterSeconds: number = UPSTREAM_RETRY_AFTER_SECONDS
}

/**
 * The node could not run our simulation (it failed or refused the `eth_call`s with state overrides,
 * ignored the overrides, capped their gas too low, or answered something that is not their
 * result): the token's behaviour could not be measured, so no report is given (HTTP 503).
 */
export class SimulationError extends UpstreamError {
  override name = 'SimulationError'
}

/** The node configured for a chain answers for another chain (HTTP 503 naming both ids). */
export class ChainMismatchError extends UpstreamError {
  override name = 'ChainMismatchError'
  override readonly retryAfterSeconds: number = 60
}

/** The request's deadline passed before an answer was ready (HTTP 503). */
export class DeadlineError extends UpstreamError {
  override name = 'DeadlineError'
}

/**
 * The client closed its connection before the answer was ready. Nobody reads the answer: it is
 * logged as what it is, not as a failure. 499 is the status proxies use for it ("client closed
 * request"); it shows in the metrics, never to a client.
 */
export class ClientGoneError extends BaseError {
  override name = 'ClientGoneError'
  override readonly statusCode = 499
}

/**
 * What was asked needs something this instance was not configured with (a Solana RPC, a chain's
 * RPC URL): HTTP 503 without `Retry-After`, since asking again changes nothing until the operator
 * sets `setting`. Never retryable.
 */
export class NotConfiguredError extends BaseError {
  override name = 'NotConfiguredError'
  override readonly statusCode = 503
  /** The setting that would make it work (`SOLANA_RPC_URL`, `RPC_URL_1`); "" when the message alone names it. */
  readonly setting: string

  constructor(message: string, options: BaseErrorOptions & { setting?: string } = {}) {
    super(message, options)
    this.setting = options.setting ?? ''
  }
}

/** What a Solana report answers on an instance without a Solana RPC. */
export const SOLANA_NOT_CONFIGURED =
  'no Solana RPC is configured on this instance: its operator must set SOLANA_RPC_URL to a Solana JSON-RPC URL; asking again changes nothing until then'

/** A configuration value is missing or malformed; raised at start, before serving. */
export class ConfigError extends BaseError {
  override name = 'ConfigError'
}

/** Whether `error` is the abort of an `AbortSignal` (ours or one from a timeout). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')
}
