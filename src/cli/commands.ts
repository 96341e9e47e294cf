import { describeSettings, settingsOf, type CommandName } from '../config/settings.ts'
import type { Io } from './io.ts'

/** An option of one command (its settings' flags come from the settings table). */
export interface CommandOption {
  type: 'string' | 'boolean'
  multiple?: boolean
  /** The placeholder of its value in the help. */
  value?: string
  help: string
}

/** What `tokenrisk` knows of a command before loading it: enough for its help and its flags. */
export interface CommandSpec {
  name: CommandName
  /** One line: what the command does. */
  summary: string
  /** Its usage lines, without the settings' flags. */
  usage: readonly string[]
  options: Readonly<Record<string, CommandOption>>
  /** A paragraph on what it does, for its own --help. */
  about?: string
  /** The command itself, imported only when it runs: `--help` loads nothing. */
  load(): Promise<(argv: string[], io: Io) => Promise<number>>
}

const json: CommandOption = { type: 'boolean', help: 'print JSON' }
const project: CommandOption = { type: 'string', value: 'ID', help: 'the project the audit belongs to' }
const user: CommandOption = { type: 'string', value: 'ID', help: 'the user who owns the project' }

/** The commands, in the order the help lists them. */
export const COMMANDS: Readonly<Record<CommandName, CommandSpec>> = {
  serve: {
    name: 'serve',
    summary: 'run the HTTP service (what npm start runs)',
    usage: ['tokenrisk serve'],
    about: 'Serves the API until SIGTERM or SIGINT, then lets requests in flight finish. With no EVM chain configured it starts the local worlds (a development install only).',
    options: {},
    load: async () => (await import('./serve.ts')).serveCommand,
  },
  worker: {
    name: 'worker',
    summary: 'run audits queued on Redis (needs REDIS_URL)',
    usage: ['tokenrisk worker [--concurrency N]'],
    options: { concurrency: { type: 'string', value: 'N', help: 'audits run at once (default 1)' } },
    load: async () => (await import('./audit.ts')).workerCommand,
  },
  scan: {
    name: 'scan',
    summary: 'one token report in the terminal, without the HTTP service',
    usage: ['tokenrisk scan <address> --chain <id|solana> [--json] [--no-color]'],
    about:
      "Reads the token from the chain's JSON-RPC (RPC_URL_<chainId>, CHAINS_FILE; SOLANA_RPC_URL), or from the local worlds while a service runs on them under the same data directory.",
    options: {
      chain: { type: 'string', value: '<id|solana>', help: 'decimal EVM chain id, or solana' },
      json: { type: 'boolean', help: "print exactly the API's body" },
      'no-color': { type: 'boolean', help: 'no colours (also NO_COLOR)' },
    },
    load: async () => (await import('./scan.ts')).scanCommand,
  },
  audit: {
    name: 'audit',
    summary: 'analyse a Solidity project (or import Slither output) and record the audit',
    usage: [
      'tokenrisk audit <path> --project <id> --user <id> [--name N] [--remap prefix=target]... [--include-path DIR]... [--format text|json|sarif] [--fail-on high|medium|low] [--local] [--timeout-ms MS]',
      'tokenrisk audit --import-slither <results.json> [--root <project path>] --project <id> --user <id> [--format text|json|sarif] [--fail-on high|medium|low]',
    ],
    about:
      'Runs as a job: in this process, or with REDIS_URL on Redis for a tokenrisk worker, waiting for the result either way. --format sarif prints the audit as SARIF 2.1.0 (GitHub code scanning, IDEs), locations relative to the project folder. Imports, remappings and node_modules are resolved inside the project (the folder, or the root found above a file) and the include paths only. --fail-on exits with 3 when the audit counts a finding of that severity or a higher one (a CI gate); the audit is recorded either way.',
    options: {
      project,
      user,
      name: { type: 'string', value: 'N', help: "the project's name" },
      remap: { type: 'string', multiple: true, value: 'prefix=target', help: 'an import remapping (repeatable); remappings.txt and foundry.toml are read too' },
      'include-path': { type: 'string', multiple: true, value: 'DIR', help: "a folder outside the project imports are looked for in, as solc's --include-path (repeatable); nothing else outside the project is read" },
      json: { type: 'boolean', help: 'print the audit in the API shape (--format json)' },
      format: { type: 'string', value: 'text|json|sarif', help: 'what to print: a summary (default), the audit in the API shape, or SARIF 2.1.0' },
      'fail-on': { type: 'string', value: 'high|medium|low', help: 'exit with 3 when a finding of this severity or higher is counted' },
      local: { type: 'boolean', help: 'run the audit in this process even with REDIS_URL' },
      'import-slither': { type: 'string', value: 'FILE', help: "record Slither's JSON output instead of analysing" },
      root: { type: 'string', value: 'DIR', help: 'the project Slither analysed (for snippets and line counts)' },
      'timeout-ms': { type: 'string', value: 'MS', help: 'how long to wait for the job (default 10 minutes)' },
    },
    load: async () => (await import('./audit.ts')).auditCommand,
  },
  audits: {
    name: 'audits',
    summary: "import audits in the API's shape",
    usage: ['tokenrisk audits import <file.json> --project <id> --user <id> [--name N]'],
    options: { project, user, name: { type: 'string', value: 'N', help: "the project's name" } },
    load: async () => (await import('./audits.ts')).auditsCommand,
  },
  keys: {
    name: 'keys',
    summary: 'create, list and revoke API keys',
    usage: [
      'tokenrisk keys create --user <id> [--name N] [--admin] [--rate-limit RPS] [--format F] [--json]',
      'tokenrisk keys list [--json]',
      'tokenrisk keys revoke <id>',
      'tokenrisk keys set-format <id> --format F',
    ],
    options: {
      user: { type: 'string', value: 'ID', help: 'the user the key belongs to' },
      name: { type: 'string', value: 'N', help: "the key's name" },
      admin: { type: 'boolean', help: "the key reads every user's projects" },
      'rate-limit': { type: 'string', value: 'RPS', help: "the key's own requests per second" },
      format: { type: 'string', value: 'F', help: 'view of the token reports answered to the key: v1 (the contract\'s) or quillcheck-v2 (the hosted QuillCheck service\'s, docs/compat.md); default (or no --format): the instance\'s DEFAULT_FORMAT' },
      json,
    },
    load: async () => (await import('./keys.ts')).keysCommand,
  },
  mcp: {
    name: 'mcp',
    summary: 'the MCP server over stdio, for AI agents on this machine',
    usage: ['tokenrisk mcp [--user ID]'],
    about:
      "Speaks the Model Context Protocol on standard input and output (logs go to standard error): the tools evm_token_report, solana_token_report, audit_history and audit_solidity, over the chains, Solana RPC and store this command is configured with (or the local worlds a service runs under the same data directory). A desktop agent starts it as a command (README, \"AI agents\"); remote agents use the service's /mcp. Runs until its input ends, or SIGTERM or SIGINT.",
    options: { user: { type: 'string', value: 'ID', help: 'the user whose projects the audit tools read and record when a call names none' } },
    load: async () => (await import('./mcp.ts')).mcpCommand,
  },
  devnet: {
    name: 'devnet',
    summary: 'run the local chain world alone (a development install only)',
    usage: ['tokenrisk devnet [--port P] [--rebuild]'],
    about:
      'Starts anvil on 127.0.0.1 with the local world (Uniswap V2 and V3, USD, WETH, the token zoo), prints its RPC URL and addresses, writes <data-dir>/devnet/manifest.json, and runs until Ctrl-C (SIGINT) or SIGTERM.',
    options: {
      port: { type: 'string', value: 'P', help: "anvil's port (default: a free one)" },
      rebuild: { type: 'boolean', help: 'build the world anew instead of loading the saved one' },
    },
    load: async () => (await import('./devnet.ts')).devnetCommand,
  },
  chains: {
    name: 'chains',
    summary: "what each configured chain's node can do, and what a missing capability costs",
    usage: ['tokenrisk chains check [--chain <id>] [--json]'],
    about:
      "Probes each configured EVM chain's node (RPC_URL_<chainId>, CHAINS_FILE; the local world while a service runs on it under the same data directory) with cheap calls: state overrides in eth_call, eth_simulateV1, debug_traceCall (call and prestate tracers), ots_*, historical state, access lists, block receipts, eth_getLogs range, batch size and EVM version. Prints a table per chain with what each missing capability costs in the reports (docs/chains.md, \"Node kinds\"). Exit code 1 when a node does not answer.",
    options: {
      chain: { type: 'string', value: '<id>', help: 'only this chain (decimal chain id)' },
      json,
    },
    load: async () => (await import('./chains.ts')).chainsCommand,
  },
}

const column = (rows: [string, string][]): string[] => {
  const width = Math.max(...rows.map(([left]) => left.length))
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`)
}

/** `tokenrisk <command> --help`: usage, options, and the settings the command takes as flags. */
export function commandHelp(spec: CommandSpec): string {
  const lines = ['Usage:', ...spec.usage.map((u) => `  ${u}`), '', spec.about ?? `${spec.summary[0]?.toUpperCase()}${spec.summary.slice(1)}.`]
  const options = Object.entries(spec.options)
  if (options.length > 0) {
    lines.push('', 'Options:', ...column(options.map(([name, o]) => [`--${name}${o.value ? ` ${o.value}` : ''}`, o.help])))
  }
  const settings = settingsOf(spec.name)
  if (settings.length > 0) lines.push('', 'Settings (environment variable, or the flag that overrides it):', ...describeSettings(settings))
  return lines.join('\n')
}
