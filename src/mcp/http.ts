import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { CallToolRequestSchema, ErrorCode, InitializeRequestSchema, ListToolsRequestSchema, PingRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import type { RunBounded } from './define-tool.ts'
import { MAX_MESSAGES_PER_POST } from './limits.ts'
import { createMcpServer, type McpServerDeps } from './server.ts'

/** The requests whose params are checked before the SDK sees them, by method. */
const REQUEST_SCHEMAS: Record<string, { safeParse(value: unknown): { success: boolean; error?: { issues: readonly ParamsIssue[] } } }> = {
  initialize: InitializeRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  ping: PingRequestSchema,
}

/** The part of a schema library's issue the answer words. */
interface ParamsIssue {
  code?: string
  path: readonly PropertyKey[]
  message: string
  expected?: string
}

/** What the POST's transport is also given: the turns of the key's tool calls (bounded concurrency per key). */
export interface McpHttpDeps extends McpServerDeps {
  /** Runs a tool's work when a turn of the caller's key is free (`CallSlots.run` bound to the key). */
  turn?: <T>(signal: AbortSignal, work: () => Promise<T>) => Promise<T>
}

/**
 * Answers one request of MCP's streamable HTTP transport, keeping nothing once it is answered:
 * a server and a transport are made for the request (the SDK's stateless mode: no session id, so
 * any instance behind a load balancer answers any request), the JSON-RPC messages it carries are
 * handled, and the answer is plain JSON (no event stream). `body` is the request's JSON, already
 * parsed; `request` carries the headers the transport checks (`accept`, `content-type`,
 * `mcp-protocol-version`). A POST carries at most `MAX_MESSAGES_PER_POST` messages; a request
 * whose params do not fit its method is answered -32602 "invalid params" with what is wrong
 * (the others of its batch are handled); each tool call waits for a turn of its key (`deps.turn`).
 *
 * @example
 * const response = await answerMcpRequest(new Request(url, { method: 'POST', headers }), body, deps)
 */
export async function answerMcpRequest(request: Request, body: unknown, deps: McpHttpDeps): Promise<Response> {
  const batch = Array.isArray(body)
  const messages: unknown[] = batch ? body : [body]
  if (messages.length > MAX_MESSAGES_PER_POST) {
    return json(400, rpcError(null, ErrorCode.InvalidRequest, `a POST carries at most ${MAX_MESSAGES_PER_POST} JSON-RPC messages; this one carries ${messages.length}: send the others in further POSTs`))
  }
  const refused: object[] = []
  const handled: unknown[] = []
  for (const message of messages) {
    const problem = paramsProblem(message)
    if (problem) refused.push(rpcError((message as { id: string | number }).id, ErrorCode.InvalidParams, problem))
    else handled.push(message)
  }
  if (refused.length > 0 && handled.length === 0) return json(200, batch ? refused : refused[0])
  const response = await handle(request, batch ? handled : handled[0], deps)
  if (refused.length === 0) return response
  // Part of a batch was refused: the answers of the others, then the refusals.
  const answered: unknown = response.status === 200 ? await response.json() : []
  return json(200, [...(Array.isArray(answered) ? answered : [answered]), ...refused])
}

/** The messages handed to a server and a transport made for them. */
async function handle(request: Request, body: unknown, deps: McpHttpDeps): Promise<Response> {
  const { turn } = deps
  const bounded: RunBounded = turn ? (work, cancelled) => deps.bounded((signal, deadlineAt) => turn(signal, () => work(signal, deadlineAt)), cancelled) : deps.bounded
  const server = createMcpServer({ ...deps, bounded })
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request, { parsedBody: body })
  } finally {
    await server.close()
  }
}

/** Why a request's params do not fit its method, in words ("invalid params: …"); undefined when they do, or it is no request checked here. */
function paramsProblem(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || !('id' in message) || !('method' in message)) return undefined
  const schema = REQUEST_SCHEMAS[String(message.method)]
  const parsed = schema?.safeParse(message)
  if (!parsed || parsed.success) return undefined
  const issue = parsed.error?.issues[0]
  if (!issue) return `invalid params of ${String(message.method)}`
  const where = issue.path.map(String).join('.') || 'the message'
  const what = issue.expected === 'record' || issue.expected === 'object' ? 'an object' : issue.expected ? `a ${issue.expected}` : undefined
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return `invalid params: ${String(message.method)} needs ${where}${what ? `, ${what}` : ''}`
  if (issue.code === 'invalid_type' && what) return `invalid params: ${where} must be ${what}`
  return `invalid params: ${where}: ${issue.message}`
}

function rpcError(id: unknown, code: number, message: string) {
  return { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error: { code, message } }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}
