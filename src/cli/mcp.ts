import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { pino } from 'pino'
import { createMemoryCache } from '../cache/cache.ts'
import { DEVNET_CHAIN_ID, loadChainRegistry } from '../config/chains.ts'
import { withDeadline } from '../http/deadline.ts'
import { createMcpServer, mcpTools, type McpServices } from '../mcp/server.ts'
import { createDatabase } from '../store/database.ts'
import { createAuditRepository } from '../store/repositories/audits.ts'
import { optional, parseCommand } from './args.ts'
import { linkBase, noteSecondStore } from './data-dir.ts'
import { COMMANDS } from './commands.ts'
import { createEvmEngine, createSolanaEngine } from './engines.ts'
import type { Io } from './io.ts'
import { localChainEntries, localSolanaEndpoint } from './local-worlds.ts'
import { sourceAuditsOf } from './source-audits.ts'

const MB = 1024 * 1024
/** The standard error stream: standard output carries the protocol, so every line of ours goes here. */
const STDERR_FD = 2

/**
 * `tokenrisk mcp`: the MCP server over stdio, for an agent on this machine (a desktop agent starts
 * it as a command). The same tools as the service's `/mcp`, on the engines built from this
 * command's configuration (the chains, Solana RPC and store that `tokenrisk scan` and `tokenrisk
 * audit` use, or the local worlds a service runs under the same data directory). The caller is the
 * local operator: it may read and record every user's projects; `--user` names the user it acts
 * as by default. Runs until the agent closes its input, or SIGTERM/SIGINT.
 */
export async function mcpCommand(argv: string[], io: Io): Promise<number> {
  const { config, values } = parseCommand(COMMANDS.mcp, argv, io.env)
  const logger = pino({ level: config.logLevel, base: { command: 'mcp' } }, pino.destination(STDERR_FD))
  // A bad chains file is told before the store is opened (or created).
  loadChainRegistry({ env: io.env, chainsFile: config.chainsFile })
  noteSecondStore(config, io)
  const store = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  const cache = createMemoryCache({ maxBytes: config.reportCacheMb * MB })
  // The local worlds, when a running service left them under the data dir (and no RPC URL replaces them).
  const localChain = io.env[`RPC_URL_${DEVNET_CHAIN_ID}`] ? [] : localChainEntries(config.dataDir)
  const localSolana = config.solanaRpcUrls.length === 0 ? localSolanaEndpoint(config.dataDir) : undefined
  const deps = { config, env: io.env, cache, store, logger }
  // Holder indexes are the service's to finish: this process ends with the agent's session.
  const evm = createEvmEngine({ ...deps, chains: { source: 'the local world', entries: localChain }, holderIndexing: false })
  const solana = createSolanaEngine({ ...deps, rpcUrls: localSolana ? [localSolana.rpcUrl] : config.solanaRpcUrls, pricing: localSolana?.pricing })
  // Links name where the service that owns the data directory answers (its lock file), asked at
  // each link: it may start after the agent's session does.
  const audits = createAuditRepository(store, { reportLink: (id) => `${linkBase(config)}/reports/${id}` })
  const sourceAudits = sourceAuditsOf(audits, config)
  const services: McpServices = { evm: evm.service, solana, audits, sourceAudits }
  const server = createMcpServer({
    services,
    caller: { userId: optional(values, 'user'), admin: true, format: config.defaultFormat },
    bounded: (work, cancelled) => withDeadline(config.requestTimeoutMs, cancelled, work),
    logger,
    linkBase: () => linkBase(config),
  })
  try {
    await new Promise<void>((resolve, reject) => {
      const transport = new StdioServerTransport()
      server.onclose = () => resolve()
      process.stdin.once('end', () => resolve())
      process.once('SIGTERM', () => resolve())
      process.once('SIGINT', () => resolve())
      server.connect(transport).then(() => {
        const chains = evm.service.chains().map((c) => c.chainId).join(', ') || 'none'
        io.err(`tokenrisk mcp: ${mcpTools(services).length} tools over stdio (EVM chains: ${chains}; store: ${store.location})`)
      }, reject)
    })
    return 0
  } finally {
    await server.close().catch(() => {})
    await sourceAudits.service.close()
    await solana.close()
    await evm.service.close()
    await store.close()
    logger.flush()
  }
}
