import { ConfigError } from '../errors.ts'
import { DEFAULT_ARWEAVE_GATEWAY, DEFAULT_IPFS_GATEWAY } from '../net/content-uri.ts'
import { SAFE_FETCH_TIMEOUT_MS } from '../net/safe-fetch.ts'
import { DEFAULT_REPORT_FORMAT, REPORT_FORMATS } from '../contract/report-formats.ts'

/**
 * The one table of tokenrisk's settings. Each row is an environment variable and the flag that
 * overrides it (flags win), with its type, default, meaning and the commands that take the flag.
 * From it come the `Config` type, the validation at start (every bad value reported at once,
 * one line each, credentials never echoed), `tokenrisk --help` and each command's help, the
 * flags each command accepts, and the README's configuration table (`npm run docs`).
 *
 * Kept free of imports that cost time (no schema library): `tokenrisk --help` reads it.
 */

/** The commands of `tokenrisk`. */
export const COMMAND_NAMES = ['serve', 'worker', 'scan', 'audit', 'audits', 'keys', 'mcp', 'devnet', 'chains'] as const
export type CommandName = (typeof COMMAND_NAMES)[number]

/** A setting's type: how its raw text (environment variable or flag) becomes a value. */
export interface SettingType<T> {
  /** The value of `raw`; throws an Error whose message completes "NAME=value: …". */
  read(raw: string): T
  /** What a valid value is, in words, for the README ('' when any text will do). */
  describe: string
}

/** A whole number from `min` to `max`. */
export const int = (min: number, max: number): SettingType<number> => ({
  describe: `a whole number from ${min} to ${max}`,
  read(raw) {
    const n = Number(raw)
    if (!/^\d+$/.test(raw.trim()) || n < min || n > max) throw new Error(`must be a whole number from ${min} to ${max}`)
    return n
  },
})

/** One of `values`. */
export const oneOf = <T extends string>(values: readonly T[]): SettingType<T> => ({
  describe: values.map((v) => `\`${v}\``).join(', '),
  read(raw) {
    if (!values.includes(raw as T)) throw new Error(`must be one of ${values.join(', ')}`)
    return raw as T
  },
})

/** `0` (false) or `1` (true). */
export const zeroOrOne: SettingType<boolean> = {
  describe: '`0` or `1`',
  read: (raw) => oneOf(['0', '1'] as const).read(raw) === '1',
}

/** Any text. */
export const text: SettingType<string> = { describe: '', read: (raw) => raw }

/** Text of at least `min` characters. */
export const secretText = (min: number): SettingType<string> => ({
  describe: `text of ${min} characters or more`,
  read(raw) {
    if (raw.length < min) throw new Error(`must be at least ${min} characters`)
    return raw
  },
})

/** A URL of one of `protocols`. */
export const url = (protocols: readonly string[]): SettingType<string> => ({
  describe: `a URL (${protocols.join(', ')})`,
  read(raw) {
    let parsed: URL
    try {
      parsed = new URL(raw)
    } catch {
      throw new Error(`must be a URL (${protocols.join(', ')})`)
    }
    if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) throw new Error(`must be a URL (${protocols.join(', ')})`)
    return raw
  },
})

/** An http(s) base URL without query, fragment or credentials, ending in "/" (a content gateway). */
export const gatewayUrl: SettingType<string> = {
  describe: 'an http(s) base URL',
  read(raw) {
    const u = new URL(url(['http', 'https']).read(raw))
    if (u.search || u.hash || u.username || u.password) throw new Error('must be a base URL without query, fragment or credentials')
    return u.href.endsWith('/') ? u.href : `${u.href}/`
  },
}

/** An http(s) URL links are built on, without its trailing slashes. */
export const baseUrl: SettingType<string> = {
  describe: 'an http(s) URL',
  read: (raw) => url(['http', 'https']).read(raw).replace(/\/+$/, ''),
}

/**
 * Several values separated by commas or blanks, in order. An entry's problem names its position,
 * never its text (a URL may carry an API key).
 */
export const list = <T>(item: SettingType<T>): SettingType<T[]> => ({
  describe: `${item.describe || 'values'}, several separated by commas`,
  read(raw) {
    return raw
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((entry, i) => {
        try {
          return item.read(entry)
        } catch (error) {
          throw new Error(`entry ${i + 1} ${(error as Error).message}`)
        }
      })
  },
})

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export interface Setting<T = unknown, D extends T | undefined = T | undefined> {
  /** Environment variable. */
  env: string
  /** The flag that overrides it, without its dashes. */
  flag: string
  /** The placeholder of the flag's value in usage lines. */
  value: string
  type: SettingType<T>
  /** The value when unset; `undefined` when the setting is off or optional. */
  default: D
  /** How the default reads in --help and the README, when not the value itself. */
  shownDefault?: string
  help: string
  /** The commands that take the flag; every command reads the environment. */
  commands: readonly CommandName[]
  /** A credential (or a URL that may carry one): a bad value is reported without echoing it. */
  secret?: boolean
}

function setting<T, D extends T | undefined>(s: Setting<T, D>): Setting<T, D> {
  return s
}

/** Commands by what they touch. */
const STORE: readonly CommandName[] = ['serve', 'worker', 'scan', 'audit', 'audits', 'keys', 'mcp']
const LINKS: readonly CommandName[] = ['serve', 'worker', 'audit', 'mcp']
const QUEUE: readonly CommandName[] = ['serve', 'worker', 'audit']
const REPORTS: readonly CommandName[] = ['serve', 'scan', 'mcp']
const SERVE: readonly CommandName[] = ['serve']

/** Every setting, in the order the help and the README list them. */
export const SETTINGS = {
  port: setting({ env: 'PORT', flag: 'port', value: 'N', type: int(0, 65535), default: 3000, help: 'HTTP port', commands: SERVE }),
  host: setting({ env: 'HOST', flag: 'host', value: 'ADDRESS', type: text, default: '127.0.0.1', help: 'interface to listen on (`0.0.0.0` for all)', commands: SERVE }),
  dataDir: setting({ env: 'DATA_DIR', flag: 'data-dir', value: 'DIR', type: text, default: './data', shownDefault: '`data/` of the tokenrisk project', help: 'embedded database, local world state, demo key, and the lock of the service that owns them; a relative value is taken from where the command runs, the default from the project whatever the folder (README, "Where data lives")', commands: [...STORE, 'devnet', 'chains'] }),
  databaseUrl: setting({ env: 'DATABASE_URL', flag: 'database-url', value: 'URL', type: url(['postgres', 'postgresql']), default: undefined, help: 'PostgreSQL URL; the embedded SQLite file under the data directory when unset', commands: STORE }),
  redisUrl: setting({ env: 'REDIS_URL', flag: 'redis-url', value: 'URL', type: url(['redis', 'rediss']), default: undefined, help: 'Redis: shared report cache, rate limits and audit queue across instances', commands: QUEUE }),
  publicBaseUrl: setting({ env: 'PUBLIC_BASE_URL', flag: 'public-base-url', value: 'URL', type: baseUrl, default: undefined, shownDefault: '`http://HOST:PORT`', help: 'base of report links (`projectReportLink`)', commands: LINKS }),
  logLevel: setting({ env: 'LOG_LEVEL', flag: 'log-level', value: 'LEVEL', type: oneOf(LOG_LEVELS), default: 'info', help: 'level of the JSON log', commands: [...SERVE, 'mcp'] }),
  corsOrigins: setting({ env: 'CORS_ORIGINS', flag: 'cors-origins', value: 'ORIGINS', type: list(text), default: [], shownDefault: 'off', help: 'allowed origins, or `*`; CORS is off when unset', commands: SERVE }),
  metricsToken: setting({ env: 'METRICS_TOKEN', flag: 'metrics-token', value: 'TOKEN', type: secretText(16), default: undefined, shownDefault: '— (open)', secret: true, help: 'when set, `/metrics` answers only `Authorization: Bearer <token>`', commands: SERVE }),
  publicPages: setting({ env: 'PUBLIC_PAGES', flag: 'public-pages', value: 'on|off', type: oneOf(['on', 'off'] as const), default: 'off', help: '`on`: the token pages (`/`, `/t/…`) read reports without an API key, each address limited to `PUBLIC_PAGES_RATE_LIMIT` and all anonymous visitors together to `PUBLIC_PAGES_COLD_REPORTS` new reports a minute (README, "What `PUBLIC_PAGES=on` costs"); the JSON API still needs a key; `off`: a person pastes an API key into the page once', commands: SERVE }),
  publicPagesRateLimit: setting({ env: 'PUBLIC_PAGES_RATE_LIMIT', flag: 'public-pages-rate-limit', value: 'N', type: int(0, 1_000_000), default: 30, help: 'with `PUBLIC_PAGES=on`: report and chain requests per minute a client address may make through the pages (a report page makes one or two; `0`: no limit)', commands: SERVE }),
  publicPagesColdReports: setting({ env: 'PUBLIC_PAGES_COLD_REPORTS', flag: 'public-pages-cold-reports', value: 'N', type: int(0, 1_000_000), default: 20, help: 'with `PUBLIC_PAGES=on`: reports a minute the pages may compute for all anonymous visitors together, whatever their addresses (counted across instances on Redis); past it the pages serve what is cached and say when to come back (`0`: cached reports only). API keys do not count against it', commands: SERVE }),
  publicPagesSecret: setting({ env: 'PUBLIC_PAGES_SECRET', flag: 'public-pages-secret', value: 'SECRET', type: secretText(32), default: undefined, shownDefault: '— (random at each start)', secret: true, help: 'with `PUBLIC_PAGES=on`: the key that signs page sessions; give every instance behind one address the same one', commands: SERVE }),
  rateLimitRps: setting({ env: 'RATE_LIMIT_RPS', flag: 'rate-limit-rps', value: 'N', type: int(0, 1_000_000), default: 0, shownDefault: '`0` (off)', help: 'requests per second per API key; a key may carry its own (`keys create --rate-limit`)', commands: SERVE }),
  requestTimeoutMs: setting({ env: 'REQUEST_TIMEOUT_MS', flag: 'request-timeout-ms', value: 'MS', type: int(100, 600_000), default: 15_000, help: 'deadline of every request (then 503), of a report of `tokenrisk scan` and of a tool call of `tokenrisk mcp`', commands: REPORTS }),
  defaultFormat: setting({ env: 'DEFAULT_FORMAT', flag: 'default-format', value: 'FORMAT', type: oneOf(REPORT_FORMATS), default: DEFAULT_REPORT_FORMAT, help: "view of the token reports answered to a key without a format of its own (`keys create --format`) and a request without `format`: `v1` the API contract's, `quillcheck-v2` the hosted QuillCheck service's, which its public clients read ([docs/compat.md](docs/compat.md))", commands: [...SERVE, 'mcp'] }),
  reportCacheTtlSeconds: setting({ env: 'REPORT_CACHE_TTL_SECONDS', flag: 'report-cache-ttl', value: 'S', type: int(0, 86_400), default: 30, help: 'how long a token report is reused (`0`: never)', commands: SERVE }),
  historyPageCacheSize: setting({ env: 'HISTORY_PAGE_CACHE_SIZE', flag: 'history-page-cache', value: 'N', type: int(0, 1_000_000), default: 1000, help: "audit-history pages kept in memory (exact: keyed by the project's audit count; `0`: none)", commands: SERVE }),
  historyPageCacheMb: setting({ env: 'HISTORY_PAGE_CACHE_MB', flag: 'history-page-cache-mb', value: 'MB', type: int(1, 1_000_000), default: 64, help: 'megabytes of audit-history pages kept in memory', commands: SERVE }),
  reportCacheMb: setting({ env: 'REPORT_CACHE_MB', flag: 'report-cache-mb', value: 'MB', type: int(1, 1_000_000), default: 128, help: 'megabytes of token reports (their JSON) the in-process cache keeps (with Redis, Redis bounds its own)', commands: SERVE }),
  reportWorkers: setting({ env: 'REPORT_WORKERS', flag: 'report-workers', value: 'N', type: int(0, 64), default: 1, help: 'worker threads computing EVM and Solana token reports, off the serving thread (`0`: in the serving thread)', commands: SERVE }),
  storeCacheMs: setting({ env: 'STORE_CACHE_MS', flag: 'store-cache-ms', value: 'MS', type: int(0, 60_000), default: 1000, help: 'how long API-key rows and project audit counts are reused: a revocation or an audit recorded by another process shows within this time', commands: SERVE }),
  chainsFile: setting({ env: 'CHAINS_FILE', flag: 'chains', value: 'FILE', type: text, default: undefined, help: 'JSON file adding or overriding EVM chains ([docs/chains.md](docs/chains.md))', commands: [...REPORTS, 'chains'] }),
  solanaRpcUrls: setting({ env: 'SOLANA_RPC_URL', flag: 'solana-rpc-url', value: 'URLS', type: list(url(['http', 'https'])), default: [], shownDefault: 'local Solana world', secret: true, help: 'Solana JSON-RPC URLs, tried in order', commands: REPORTS }),
  tokenList: setting({ env: 'TOKEN_LIST', flag: 'token-list', value: 'FILE|URL', type: text, default: undefined, help: 'a token list (Token Lists JSON), file or URL: images, categories, links; each field it gives wins over the bundled lists; every token it names is well known (a Solana mint taking its symbol or name is a look-alike)', commands: REPORTS }),
  metadataFetch: setting({ env: 'METADATA_FETCH', flag: 'metadata-fetch', value: 'on|off', type: oneOf(['on', 'off'] as const), default: 'on', help: "`on`: read a Solana mint's off-chain metadata JSON (its `uri`) for the image and links; `off`: never", commands: REPORTS }),
  metadataFetchTimeoutMs: setting({ env: 'METADATA_FETCH_TIMEOUT_MS', flag: 'metadata-fetch-timeout-ms', value: 'MS', type: int(100, 60_000), default: SAFE_FETCH_TIMEOUT_MS, help: 'time budget of one metadata fetch, DNS and redirects included', commands: REPORTS }),
  ipfsGateway: setting({ env: 'IPFS_GATEWAY', flag: 'ipfs-gateway', value: 'URL', type: gatewayUrl, default: DEFAULT_IPFS_GATEWAY, help: 'base URL `ipfs://` documents are read from and images linked to', commands: REPORTS }),
  arweaveGateway: setting({ env: 'ARWEAVE_GATEWAY', flag: 'arweave-gateway', value: 'URL', type: gatewayUrl, default: DEFAULT_ARWEAVE_GATEWAY, help: 'base URL `ar://` documents are read from and images linked to', commands: REPORTS }),
  metadataFetchAllowHttp: setting({ env: 'METADATA_FETCH_ALLOW_HTTP', flag: 'metadata-fetch-allow-http', value: '0|1', type: zeroOrOne, default: false, shownDefault: '`0`', help: '`1`: also fetch plain `http://` metadata URIs', commands: REPORTS }),
  metadataFetchAllowLoopback: setting({ env: 'METADATA_FETCH_ALLOW_LOOPBACK', flag: 'metadata-fetch-allow-loopback', value: '0|1', type: zeroOrOne, default: false, shownDefault: '`0`', help: '**unsafe, tests only**: `1` lets metadata fetches reach this machine', commands: REPORTS }),
  marketDataApiKey: setting({ env: 'MARKET_DATA_API_KEY', flag: 'market-data-api-key', value: 'KEY', type: text, default: undefined, secret: true, help: 'key of the market-data API (social figures, centralised exchanges)', commands: REPORTS }),
  marketDataApiUrl: setting({ env: 'MARKET_DATA_API_URL', flag: 'market-data-api-url', value: 'URL', type: url(['http', 'https']), default: undefined, help: 'base URL of the market-data API', commands: REPORTS }),
  explorerApiKey: setting({ env: 'EXPLORER_API_KEY', flag: 'explorer-api-key', value: 'KEY', type: text, default: undefined, secret: true, help: "key of an Etherscan-compatible explorer: whether a token's source is verified (`isOpenSource`), and its creation when the node has neither `ots_getContractCreator` nor historical state", commands: REPORTS }),
  explorerApiUrl: setting({ env: 'EXPLORER_API_URL', flag: 'explorer-api-url', value: 'URL', type: url(['http', 'https']), default: undefined, shownDefault: '— (Etherscan V2)', help: 'base URL of the explorer API', commands: REPORTS }),
  devnet: setting({ env: 'DEVNET', flag: 'devnet', value: 'auto|on|off', type: oneOf(['auto', 'on', 'off'] as const), default: 'auto', help: '`auto`: start the local worlds when no EVM chain is configured (a development install only); `on`; `off`', commands: SERVE }),
  only: setting({ env: 'ONLY', flag: 'only', value: 'tokens|audits', type: oneOf(['tokens', 'audits'] as const), default: undefined, shownDefault: 'both', help: 'serve only `tokens` or only `audits` (they have different base URLs in the contract)', commands: SERVE }),
}

export type SettingName = keyof typeof SETTINGS

/** The configuration: every setting's value, typed by its row of the table. */
export type Config = {
  -readonly [K in SettingName]: (typeof SETTINGS)[K] extends Setting<infer T, infer D> ? (undefined extends D ? T | undefined : T) : never
}

/** Settings read from the environment by pattern rather than by name (shown beside the table). */
export const PATTERN_SETTINGS = [
  { env: 'RPC_URL_<chainId>', help: 'JSON-RPC URLs of an EVM chain, comma-separated, tried in order (e.g. `RPC_URL_1`)', commands: REPORTS },
] as const

const ENTRIES = Object.entries(SETTINGS) as [SettingName, Setting][]

/** The settings whose flags `command` takes, in table order. */
export function settingsOf(command: CommandName): [SettingName, Setting][] {
  return ENTRIES.filter(([, s]) => s.commands.includes(command))
}

/** A raw value as an error may show it: hidden for credentials, without a URL's password. */
function shown(s: Setting, raw: string): string {
  if (s.secret) return '(hidden)'
  try {
    const u = new URL(raw)
    if (u.password) {
      u.password = '***'
      return JSON.stringify(u.href)
    }
  } catch {
    // not a URL: shown as it is
  }
  return JSON.stringify(raw)
}

/**
 * Reads the configuration from `env`, then `flags` (by flag name, without dashes) on top. An
 * empty value is an unset one. Throws one `ConfigError` listing every bad value.
 *
 * @example
 * const config = loadConfig(process.env, { port: '8080' })
 */
export function loadConfig(env: NodeJS.ProcessEnv, flags: Readonly<Record<string, string>> = {}): Config {
  const problems: string[] = []
  const config: Record<string, unknown> = {}
  for (const [key, s] of ENTRIES) {
    const fromFlag = flags[s.flag]
    const raw = fromFlag ?? env[s.env]
    if (raw === undefined || raw.trim() === '') {
      config[key] = s.default
      continue
    }
    try {
      config[key] = s.type.read(raw)
    } catch (error) {
      problems.push(`${fromFlag !== undefined ? `--${s.flag}` : s.env}=${shown(s, raw)}: ${(error as Error).message}`)
    }
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`)
  return config as Config
}

/** How a default reads in --help and the README ('—' when the setting is unset by default). */
export function shownDefault(s: Setting): string {
  if (s.shownDefault) return s.shownDefault
  if (s.default === undefined) return '—'
  if (typeof s.default === 'boolean') return s.default ? '`1`' : '`0`'
  return `\`${Array.isArray(s.default) ? s.default.join(',') : String(s.default)}\``
}

/** Lines describing `settings` for --help: name, flag, default, meaning (Markdown marks removed). */
export function describeSettings(settings: readonly (readonly [string, Setting])[], options: { commands?: boolean } = {}): string[] {
  const plain = (s: string) => s.replace(/\*\*|`/g, '').replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
  const rows = settings.map(([, s]) => {
    // '— (open)' reads 'open': what an unset value means.
    const dflt = plain(shownDefault(s)).replace(/^— \((.*)\)$/, '$1')
    return {
      name: `${s.env}, --${s.flag} ${s.value}`,
      help: `${plain(s.help)}${dflt === '—' ? '' : ` (default ${dflt})`}${options.commands ? ` [${s.commands.join(', ')}]` : ''}`,
    }
  })
  const width = Math.max(...rows.map((r) => r.name.length))
  return rows.map((r) => `  ${r.name.padEnd(width)}  ${r.help}`)
}

/** The README's configuration table, in Markdown (`npm run docs` writes it). */
export function settingsTable(): string {
  const lines = ['| Variable | Flag | Commands | Default | Meaning |', '|---|---|---|---|---|']
  for (const [, s] of ENTRIES) {
    const values = s.type.describe ? ` (${s.type.describe})` : ''
    lines.push(`| \`${s.env}\` | \`--${s.flag}\` | ${s.commands.join(', ')} | ${shownDefault(s)} | ${s.help}${values} |`)
  }
  for (const p of PATTERN_SETTINGS) lines.push(`| \`${p.env}\` | — | ${p.commands.join(', ')} | — | ${p.help} |`)
  return lines.join('\n')
}

/** The base URL of links the service gives out. */
export function publicBaseUrl(config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>): string {
  if (config.publicBaseUrl) return config.publicBaseUrl
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`
}
