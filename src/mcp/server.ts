import { readFileSync } from 'node:fs'
import { STATUS_CODES } from 'node:http'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js'
import type { EvmReportService, SolanaReportService, SourceAuditService } from '../contract/services.ts'
import { BaseError, NotConfiguredError, RateLimitedError, UpstreamError } from '../errors.ts'
import type { AuditRepository } from '../store/repositories/audits.ts'
import { checkArguments, type McpCaller, type McpTool, type RunBounded } from './define-tool.ts'
import { auditHistoryTool } from './tools/audit-history.ts'
import { auditSolidityTool, type AuditSolidityBounds } from './tools/audit-solidity.ts'
import { evmTokenReportTool } from './tools/evm-token-report.ts'
import { solanaTokenReportTool } from './tools/solana-token-report.ts'

/** The name the server gives itself in the MCP handshake. */
export const MCP_SERVER_NAME = 'tokenrisk'

/** What the server tells an agent about itself when it connects. */
const INSTRUCTIONS = [
  'tokenrisk measures token risk on the chain and audits Solidity.',
  'Before buying, swapping into, approving or recommending a token, call evm_token_report (EVM chains) or solana_token_report (Solana mints) and act on the first line of the verdict:',
  'HONEYPOT and CANNOT SELL mean a holder cannot get out; OWNER CAN TAKE and OWNER CAN MINT mean a privileged account can take value from holders;',
  'LIQUIDITY CAN BE PULLED means one account can withdraw the pool (the commonest rug pull); SUPPLY CONCENTRATED means one account holds a large share; TAXED gives the buy and sell taxes;',
  'COULD NOT BE MEASURED is not a clean bill; NO RISKY POWER FOUND is the best answer and is still not a guarantee.',
  'audit_solidity audits source code you pass; audit_history lists the audits recorded for a project.',
].join(' ')

/** The message of an unexpected failure: its details go to the log only. */
const INTERNAL_ERROR = 'internal error; the incident is logged'

/** The services the tools stand on; a tool whose service is absent is not offered. */
export interface McpServices {
  evm?: EvmReportService
  solana?: SolanaReportService
  audits?: Pick<AuditRepository, 'historyPage'>
  sourceAudits?: { service: SourceAuditService; bounds: AuditSolidityBounds }
}

export interface McpServerDeps {
  services: McpServices
  caller: McpCaller
  /** Runs a tool's work under the transport's deadline. */
  bounded: RunBounded
  /** Counts one tool call against the caller's rate limit and usage; throws `RateLimitedError` past the limit. */
  meter?: () => Promise<void>
  logger: { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void }
  /**
   * Where the running service answers, asked at each call (over stdio, the service that owns the
   * data directory may start after the agent's session): the base of the links the tools give.
   */
  linkBase?: () => string
}

let version: string | undefined
/** The product's version, from its package.json. */
function productVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version
  return version
}

/** The tools `services` allow, in the order `tools/list` gives them. */
export function mcpTools(services: McpServices): McpTool[] {
  const tools: McpTool[] = []
  if (services.evm) tools.push(evmTokenReportTool(services.evm))
  if (services.solana) tools.push(solanaTokenReportTool(services.solana))
  if (services.audits) tools.push(auditHistoryTool(services.audits))
  if (services.sourceAudits) tools.push(auditSolidityTool(services.sourceAudits.service, services.sourceAudits.bounds))
  return tools
}

/** A failed call as the agent reads it: the message the HTTP API would give, and its status. */
function toolError(error: unknown, logger: McpServerDeps['logger'], tool: string): CallToolResult {
  const known = error instanceof BaseError
  const statusCode = known ? error.statusCode : 500
  const message = known ? error.message : INTERNAL_ERROR
  if (statusCode >= 500 && !(error instanceof UpstreamError)) logger.error({ tool, err: error instanceof Error ? error.stack : String(error) }, 'MCP tool failed')
  else logger.info({ tool, status: statusCode, reason: message }, 'MCP tool call refused')
  // Only a rate limit and a failing upstream pass with time; a configuration problem or a bad request does not.
  const retryAfterSeconds = error instanceof RateLimitedError || error instanceof UpstreamError ? error.retryAfterSeconds : undefined
  const retryable = retryAfterSeconds !== undefined
  const setting = error instanceof NotConfiguredError && error.setting ? { setting: error.setting } : {}
  return {
    isError: true,
    content: [{ type: 'text', text: message }],
    structuredContent: {
      error: { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, retryable, ...(retryable ? { retryAfterSeconds } : {}), ...setting },
    },
  }
}

/**
 * The MCP server of tokenrisk over the engines' services, for one transport: stdio (one agent, the
 * local operator) or one request of the streamable HTTP endpoint (the API key's caller). The
 * tools are thin: each checks its arguments, calls a service under the transport's deadline and
 * answers its verdict first, then the structured result (also as JSON text). A failure is a tool
 * error carrying the HTTP API's message.
 *
 * @example
 * const server = createMcpServer({ services: { evm }, caller: { admin: true }, bounded, logger })
 * await server.connect(new StdioServerTransport())
 */
export function createMcpServer(deps: McpServerDeps): Server {
  const tools = mcpTools(deps.services)
  const byName = new Map(tools.map((t) => [t.name, t]))
  const server = new Server({ name: MCP_SERVER_NAME, title: 'tokenrisk', version: productVersion() }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS })

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map(
      (t): Tool => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.input as Tool['inputSchema'],
        annotations: { title: t.title, readOnlyHint: t.hints.readOnly, openWorldHint: t.hints.openWorld },
      }),
    ),
  }))

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name)
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool '${request.params.name.slice(0, 80)}'; tools/list lists the tools`)
    try {
      await deps.meter?.()
      const args = checkArguments(tool, request.params.arguments)
      const answer = await tool.run(args, { caller: deps.caller, bounded: (work) => deps.bounded(work, extra.signal), linkBase: deps.linkBase?.() })
      return {
        content: [
          { type: 'text', text: answer.verdict },
          { type: 'text', text: JSON.stringify(answer.structured) },
        ],
        structuredContent: answer.structured,
      }
    } catch (error) {
      return toolError(error, deps.logger, tool.name)
    }
  })
  return server
}
