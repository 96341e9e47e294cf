import { Type } from '@sinclair/typebox'
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ReportFormat } from '../../contract/report-formats.ts'
import type { McpServices } from '../../mcp/server.ts'
import type { Principal } from '../../store/repositories/api-keys.ts'
import { takeRateLimit } from '../auth.ts'
import { clientDisconnectSignal, withDeadline } from '../deadline.ts'
import { errorBody } from '../errors.ts'
import type { RateLimiter } from '../rate-limit.ts'
import { errorResponses } from '../schemas/responses.ts'
import type { UsageCounter } from '../usage.ts'

/** Where the MCP endpoint answers. */
export const MCP_PATH = '/mcp'
/** Largest body of an MCP request without the audit tool: JSON-RPC messages with a few arguments. */
const MCP_BODY_BYTES = 64 * 1024
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
  const meter = async (principal: Principal) => {
    await takeRateLimit(deps, principal)
    deps.usage.count(principal.keyId).catch((error: unknown) => deps.logger?.warn({ err: error }, 'usage not counted'))
  }

  app.post(
    MCP_PATH,
    {
      config: { auth: true, meteredPerCall: true },
      bodyLimit: MCP_BODY_BYTES + JSON_ESCAPE_FACTOR * sourceBytes,
      schema: {
        operationId: 'mcp',
        tags: ['agents'],
        summary: 'MCP endpoint for AI agents (streamable HTTP, stateless)',
        description: [
          'The Model Context Protocol over its streamable HTTP transport: a JSON-RPC message (`initialize`, `tools/list`, `tools/call`, notifications) per POST, answered as JSON (202 for a notification).',
          'Send `accept: application/json, text/event-stream`, `content-type: application/json` and the API key in `x-api-key`; an MCP client library does it all (README, "AI agents").',
          'Tools: `evm_token_report`, `solana_token_report`, `audit_history`, `audit_solidity`; each answers a verdict text first, then the structured report. A failed call is a tool result with `isError` and the message this API gives for the same request.',
          `Each tool call counts as one request against the key's rate limit and usage (the handshake and the tool list do not) and runs under the request deadline. ${STATELESS}`,
        ].join('\n\n'),
        security: [{ apiKey: [] }],
        body: Type.Unknown({ description: 'a JSON-RPC 2.0 message (or a batch of them)' }),
        response: {
          200: Type.Unknown({ description: 'the JSON-RPC response' }),
          202: Type.Null({ description: 'a notification or a response was accepted' }),
          ...errorResponses(400, 401, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const principal = request.principal!
      const { answerMcpRequest } = await (loading ??= import('../../mcp/http.ts'))
      const clientGone = clientDisconnectSignal(reply.raw)
      const response = await answerMcpRequest(transportRequest(request), request.body, {
        services: deps.services,
        caller: { userId: principal.userId, admin: principal.admin, format: principal.format ?? deps.defaultFormat },
        bounded: (work, cancelled) =>
          withDeadline(deps.requestTimeoutMs, AbortSignal.any([clientGone, cancelled]), work, { elapsedMs: reply.elapsedTime, reserveAnswer: true }),
        meter: () => meter(principal),
        logger: request.log,
      })
      // The transport's own statuses (200, 202, or its 4xx for a malformed message), as it gives them.
      reply.status(response.status as 200)
      response.headers.forEach((value, name) => void reply.header(name, value))
      return reply.send(await response.text())
    },
  )

  const notHere = { config: { auth: true, meteredPerCall: true }, schema: { hide: true } }
  const refuse = async (_request: FastifyRequest, reply: FastifyReply) => reply.status(405).header('allow', 'POST').send(errorBody(405, STATELESS))
  app.get(MCP_PATH, notHere, refuse)
  app.delete(MCP_PATH, notHere, refuse)
}
