import { randomUUID } from 'node:crypto'
import { renderErrorPage, rootOf } from '../web/error-page.ts'
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify'
import { BaseError, ClientGoneError, RateLimitedError, UpstreamError } from '../errors.ts'
import { REPORT_FORMATS } from '../contract/report-formats.ts'
import { redactKeys } from './redact.ts'

/** Friendlier messages for malformed values, by the property that failed validation. */
const VALUE_MESSAGES: Record<string, string> = {
  tokenAddress: 'tokenAddress must be an EVM address: 0x followed by 40 hexadecimal characters (20 bytes)',
  chainId: 'chainId must be a decimal chain id such as 1, 56 or 31337',
  limit: 'limit must be a positive integer (1 to 100)',
  page: 'page must be a positive integer',
  projectId: 'projectId must be a non-empty string of at most 200 characters',
  userId: 'userId must be a non-empty string of at most 200 characters',
  format: `format must be one of ${REPORT_FORMATS.join(', ')}`,
}

/** The Solana route's own words for its address (its `tokenAddress` is no EVM address). */
export const SOLANA_VALUE_MESSAGES: Readonly<Record<string, string>> = {
  tokenAddress: 'tokenAddress must be a Solana mint address: base58 of 32 bytes (32 to 44 characters)',
}

/**
 * Turns request-validation errors into one clear sentence. A missing required property reads
 * exactly `must have required property '<name>'` (Fastify's default would prefix `querystring `).
 * `messages` are a route's own words for its properties, over the shared ones.
 */
export function formatSchemaErrors(errors: FastifySchemaValidationError[], dataVar: string, messages: Readonly<Record<string, string>> = {}): Error {
  const first = errors[0]
  let message: string
  if (!first) message = `invalid ${dataVar}`
  else if (first.keyword === 'required') message = first.message ?? `invalid ${dataVar}`
  else {
    const property = first.instancePath.split('/').filter(Boolean).pop() ?? ''
    // Every query value is text; one that is not was given several times (?userId=a&userId=b).
    const repeated = dataVar === 'querystring' && first.keyword === 'type' && property !== ''
    message = repeated
      ? `${property} was given more than once: give it once`
      : (messages[property] ?? VALUE_MESSAGES[property] ?? `${property || dataVar} ${first.message ?? 'is invalid'}`)
  }
  const error = new Error(message) as Error & { statusCode: number; validation: unknown }
  error.statusCode = 400
  error.validation = errors
  return error
}

/** Whether a request is a browser's asking for a page (its Accept names HTML), not a program's. */
export function wantsHtml(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && /\btext\/html\b/.test(request.headers.accept ?? '')
}

/** What an error page a browser gets is headed, by status. */
const ERROR_PAGE_TITLES: Readonly<Record<number, string>> = {
  400: 'This request is not valid',
  404: 'Nothing here',
  429: 'Too many requests',
  503: 'The service cannot answer now',
}
/** What an HTML error page may load: nothing; its own inline style; forms to this service. */
const ERROR_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

const sentence = (message: string) => {
  const text = `${message.charAt(0).toUpperCase()}${message.slice(1)}`
  return /[.!?]$/.test(text) ? text : `${text}.`
}

/** An HTML error page for a browser: the problem in a heading, the message, a way back and a search box. */
export function sendErrorPage(reply: FastifyReply, status: number, title: string, message: string, url: string) {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', ERROR_PAGE_POLICY)
    .header('x-content-type-options', 'nosniff')
    .send(renderErrorPage({ status, title, message, root: rootOf(url) }))
}

export function errorBody(statusCode: number, message: string) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message }
}

/** The JSON-RPC error code of a refused MCP request: -32001 for missing or refused credentials, else -32000 (a server error). */
export const JSON_RPC_UNAUTHORIZED = -32001
const JSON_RPC_SERVER_ERROR = -32000

/**
 * A refusal of an MCP request (`config.jsonRpcErrors`) as a JSON-RPC error, so that an MCP client
 * shows its message: the one error shape is its `data`. Its id is null: the refusal comes before
 * the message is read.
 */
export function jsonRpcErrorBody(statusCode: number, message: string) {
  return { jsonrpc: '2.0', id: null, error: { code: statusCode === 401 ? JSON_RPC_UNAUTHORIZED : JSON_RPC_SERVER_ERROR, message, data: errorBody(statusCode, message) } }
}

/** Characters of a request id kept from the caller's `x-request-id`: a longer or stranger one is replaced. */
export const MAX_REQUEST_ID_CHARS = 128
/** What a caller's request id may hold: it is echoed in a header and written to the log. */
const REQUEST_ID = new RegExp(`^[\\w.:@/+=-]{1,${MAX_REQUEST_ID_CHARS}}$`)

/** The id of a request: the caller's `x-request-id` when it is short and plain, else a new one. */
export function requestIdOf(given: string | string[] | undefined): string {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
}

/** Characters of the path a "no route" answer quotes. */
const MAX_QUOTED_PATH_CHARS = 200

/** A path as an answer quotes it: cut past `MAX_QUOTED_PATH_CHARS`. */
export function quotedPath(url: string): string {
  const path = url.split('?')[0]
  return path.length > MAX_QUOTED_PATH_CHARS ? `${path.slice(0, MAX_QUOTED_PATH_CHARS)}…` : path
}

/**
 * The router's own refusals (a malformed %-escape, a path segment past the longest value a route
 * takes), in the one shape of every error, with the request's id.
 */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400
  const message =
    status === 414
      ? `the path ${quotedPath(request.url)} holds a segment longer than any value a route takes`
      : `the path ${quotedPath(request.url)} is not a valid URL (a %-escape is malformed)`
  request.log.info({ status, reason: message }, 'request refused')
  return reply.status(status).header('x-request-id', request.id).type('application/json; charset=utf-8').send(errorBody(status, message))
}

/**
 * A request the HTTP parser refused before it became one (headers too large, a malformed request
 * line, a client too slow), answered in the one shape of every error, then the connection closed.
 */
export function handleClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'the request did not arrive in time']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'the request line and headers are larger than the service reads']
        : [400, 'the request is not valid HTTP']
  const body = JSON.stringify(errorBody(status, message))
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(error)
}

/**
 * The one error handler. Our own errors carry their status and a safe message; client errors
 * found by Fastify keep theirs; anything else is a 500 whose details go to the log only.
 */
export function handleError(error: FastifyError | BaseError | Error, request: FastifyRequest, reply: FastifyReply) {
  let status = 500
  let message = 'internal error; the incident is logged'
  if (error instanceof BaseError) {
    status = error.statusCode
    message = error.message
  } else if ('validation' in error && error.validation) {
    status = 400
    message = error.message
  } else if ((error as FastifyError).code === 'FST_ERR_HANDLER_TIMEOUT') {
    // The app-wide backstop deadline (every route; token routes answer theirs earlier).
    status = 503
    message = 'no answer within the request deadline; try again'
  } else if ('statusCode' in error && typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    status = error.statusCode
    message = error.message
  }
  if (error instanceof RateLimitedError || error instanceof UpstreamError) reply.header('retry-after', String(error.retryAfterSeconds))
  // A message may echo the input, and the input may be a key sent in the wrong place.
  const reason = redactKeys(message)
  if (error instanceof ClientGoneError) request.log.info({ status, reason }, 'client disconnected before the answer')
  else if (status >= 500) request.log.error({ err: redactedError(error) }, 'request failed')
  else request.log.info({ status, reason }, 'request refused')
  if (request.routeOptions.config?.htmlErrors && wantsHtml(request)) return sendErrorPage(reply, status, ERROR_PAGE_TITLES[status] ?? 'Something went wrong', sentence(message), request.url)
  const body = request.routeOptions.config?.jsonRpcErrors ? jsonRpcErrorBody(status, message) : errorBody(status, message)
  return reply.status(status).type('application/json; charset=utf-8').send(body)
}

/** An error as the log keeps it: type, message, details, cause and stack, keys redacted. */
function redactedError(error: Error): Record<string, unknown> {
  const cause = error.cause instanceof Error ? redactedError(error.cause) : error.cause === undefined ? undefined : redactKeys(String(error.cause))
  const details = (error as { details?: unknown }).details
  return {
    type: error.name,
    message: redactKeys(error.message),
    ...(typeof details === 'string' ? { details: redactKeys(details) } : {}),
    ...(cause === undefined ? {} : { cause }),
    stack: error.stack === undefined ? undefined : redactKeys(error.stack),
  }
}

/** A route's schema error formatter with its own words for some properties (`formatSchemaErrors`). */
export function schemaErrorFormatterWith(messages: Readonly<Record<string, string>>) {
  return (errors: FastifySchemaValidationError[], dataVar: string): Error => formatSchemaErrors(errors, dataVar, messages)
}
