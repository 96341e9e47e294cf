import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { createMcpServer, type McpServerDeps } from './server.ts'

/**
 * Answers one request of MCP's streamable HTTP transport, keeping nothing once it is answered:
 * a server and a transport are made for the request (the SDK's stateless mode: no session id, so
 * any instance behind a load balancer answers any request), the JSON-RPC messages it carries are
 * handled, and the answer is plain JSON (no event stream). `body` is the request's JSON, already
 * parsed; `request` carries the headers the transport checks (`accept`, `content-type`,
 * `mcp-protocol-version`).
 *
 * @example
 * const response = await answerMcpRequest(new Request(url, { method: 'POST', headers }), body, deps)
 */
export async function answerMcpRequest(request: Request, body: unknown, deps: McpServerDeps): Promise<Response> {
  const server = createMcpServer(deps)
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request, { parsedBody: body })
  } finally {
    await server.close()
  }
}
