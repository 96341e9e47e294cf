import { Type } from '@sinclair/typebox'
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ReportFormat } from '../../contract/report-formats.ts'
import { createCallSlots, MAX_CONCURRENT_TOOL_CALLS_PER_KEY, MAX_MESSAGES_PER_POST } from '../../mcp/limits.ts'
import type { McpServices } from '../../mcp/server.ts'
import type { Principal } from '../../store/repositories/api-keys.ts'
import { takeRateLimit } from '../auth.ts'
import { clientDisconnectSignal, withDeadline } from '../deadline.ts'
import { PayloadTooLargeError } from '../../errors.ts'
import { jsonRpcErrorBody } from '../errors.ts'
import type { RateLimiter } from '../rate-limit.ts'
import type { UsageCounter } from '../usage.ts'

/** Where the MCP endpoint answers. */
export const MCP_PATH = '/mcp'
/** Largest body of an MCP request but one `audit_solidity` call: JSON-RPC messages with a few arguments. */
export const MCP_BODY_BYTES = 64 * 1024
/** The tool whose call may carry sources, and so a body past `MCP_BODY_BYTES`. */
const SOURCES_TOOL = 'audit_solidity'
/** A source's bytes grow when written as a JSON string (quotes, backslashes, newlines escaped): room for that. */
const JSON_ESCAPE_FACTOR = 2
/** The request headers the MCP transport reads. */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'] as const

export interface McpRouteDeps {
  services: McpServices
  requestTimeoutMs: number
  /** The view of EVM reports for a key without a format of its own (`DEFAULT_FORMAT`). */
  defaultFormat?: ReportFormat
  rateLimiter: RateLimiter
  usage: UsageCounter
  defaultRateLimitRps: number
  logger?: FastifyBaseLogger
  /** Where this service answers (`PUBLIC_BASE_URL`, else its host and port): the base of the tools' links. */
  linkBase?: string
}

/** The request as the SDK's web-standard transport reads it (its body is handed over parsed). */
function transportRequest(request: FastifyRequest): Request {
  const headers = new Headers()
  for (const name of TRANSPORT_HEADERS) {
    const value = request.headers[name]
    if (typeof value === 'string') headers.set(name, value)
  }
  return new Request(new URL(request.url, 'http://tokenrisk.invalid'), { method: request.method, headers })
}

/** The bytes of a request's body: its Content-Length, else the size of its JSON. */
function bodyBytes(request: FastifyRequest): number {
  const length = Number(request.headers['content-length'])
  return Number.isSafeInteger(length) ? length : Buffer.byteLength(JSON.stringify(request.body ?? null))
}

/** Whether a body is one call of the tool that takes sources (not a batch). */
function isSourcesCall(body: unknown): boolean {
  const message = body as { method?: unknown; params?: { name?: unknown } } | null
  return typeof message === 'object' && message !== null && !Array.isArray(message) && message.method === 'tools/call' && message.params?.name === SOURCES_TOOL
}

const STATELESS =
  'This endpoint keeps no MCP session and opens no event stream (any instance answers any request): send each JSON-RPC message with POST, and read its answer as JSON.'

/**
 * `/mcp`: MCP's streamable HTTP transport for remote agents, with the API's `x-api-key`. Stateless:
 * each POST is answered by a server made for it (src/mcp/http.ts), so the endpoint works behind
 * several instances like the rest of the API. Each tool call counts against the key's rate limit
 * and usage, like one request of the JSON API (the handshake and the tool list do not), and runs
 * under the request deadline. The SDK loads with the first request, not with the service.
 */
export function mcpRoutes(app: FastifyInstance, deps: McpRouteDeps) {
  let loading: Promise<typeof import('../../mcp/http.ts')> | undefined
  const sourceBytes = deps.services.sourceAudits?.bounds.maxBytes ?? 0
  // Tool calls run a few at a time per key, whatever the POSTs they come in.
  const slots = createCallSlots()
  const meter = async (principal: Principal) => {
    await takeRateLimit(deps, principal)
    deps.usage.count(principal.keyId).catch((error: unknown) => deps.logger?.warn({ err: error }, 'usage not counted'))
  }

  app.post(
    MCP_PATH,
    {
      config: { auth: true, meteredPerCall: true, jsonRpcErrors: true },
      bodyLimit: MCP_BODY_BYTES + JSON_ESCAPE_FACTOR * sourceBytes,
      schema: {
        operationId: 'mcp',
        tags: ['agents'],
        summary: 'MCP endpoint for AI agents (streamable HTTP, stateless)',
        description: [
          'The Model Context Protocol over its streamable HTTP transport: a JSON-RPC message (`initialize`, `tools/list`, `tools/call`, notifications) per POST, answered as JSON (202 for a notification).',
          'Send `accept: application/json, text/event-stream`, `content-type: application/json` and the API key in `x-api-key` or as `Authorization: Bearer <key>`; an MCP client library does it all (README, "AI agents"). A refusal before a message is read (a missing or refused key, the rate limit, a body too large) is a JSON-RPC error whose `data` is the one error shape of this API.',
          'Tools: `evm_token_report`, `solana_token_report`, `audit_history`, `audit_solidity`; each answers a verdict text first, then the structured report. A failed call is a tool result with `isError` and the message this API gives for the same request.',
          `Each tool call counts as one request against the key's rate limit and usage (the handshake and the tool list do not), runs under the request deadline, and waits for a turn of its key: at most ${MAX_CONCURRENT_TOOL_CALLS_PER_KEY} run at once per key, whatever the POSTs they came in. A POST carries at most ${MAX_MESSAGES_PER_POST} messages and ${MCP_BODY_BYTES} bytes, but one \`${SOURCES_TOOL}\` call alone, which may carry its sources. A request whose params do not fit its method answers the JSON-RPC error -32602 with what is wrong. ${STATELESS}`,
        ].join('\n\n'),
        security: [{ apiKey: [] }],
        body: Type.Unknown({ description: 'a JSON-RPC 2.0 message (or a batch of them)' }),
        response: {
          200: Type.Unknown({ description: 'the JSON-RPC response' }),
          202: Type.Null({ description: 'a notification or a response was accepted' }),
          // Refusals are JSON-RPC errors carrying the one error shape as their `data`.
          ...Object.fromEntries(
            [400, 401, 413, 429, 503].map((status) => [status, Type.Unknown({ description: `a JSON-RPC error: {"jsonrpc": "2.0", "id": null, "error": {"code", "message", "data": the error shape}} (${status})` })]),
          ),
        },
      },
    },
    async (request, reply) => {
      const principal = request.principal!
      // Only one audit_solidity call may carry a body past the small limit of every other message.
      if (bodyBytes(request) > MCP_BODY_BYTES && !isSourcesCall(request.body)) {
        throw new PayloadTooLargeError(`an MCP request is at most ${MCP_BODY_BYTES} bytes but one ${SOURCES_TOOL} call alone (its sources, at most ${sourceBytes} bytes)`)
      }
      const { answerMcpRequest } = await (loading ??= import('../../mcp/http.ts'))
      const clientGone = clientDisconnectSignal(reply.raw)
      const response = await answerMcpRequest(transportRequest(request), request.body, {
        services: deps.services,
        caller: { userId: principal.userId, admin: principal.admin, format: principal.format ?? deps.defaultFormat },
        bounded: (work, cancelled) =>
          withDeadline(deps.requestTimeoutMs, AbortSignal.any([clientGone, cancelled]), work, { elapsedMs: reply.elapsedTime, reserveAnswer: true }),
        meter: () => meter(principal),
        turn: (signal, work) => slots.run(principal.keyId, signal, work),
        logger: request.log,
        linkBase: deps.linkBase === undefined ? undefined : () => deps.linkBase!,
      })
      // The transport's own statuses (200, 202, or its 4xx for a malformed message), as it gives them.
      reply.status(response.status as 200)
      response.headers.forEach((value, name) => void reply.header(name, value))
      return reply.send(await response.text())
    },
  )

  const notHere = { config: { auth: true, meteredPerCall: true, jsonRpcErrors: true }, schema: { hide: true } }
  const refuse = async (_request: FastifyRequest, reply: FastifyReply) => reply.status(405).header('allow', 'POST').send(jsonRpcErrorBody(405, STATELESS))
  app.get(MCP_PATH, notHere, refuse)
  app.delete(MCP_PATH, notHere, refuse)
}
