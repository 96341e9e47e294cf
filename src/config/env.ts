import { ConfigError } from '../errors.ts'
import { DEFAULT_ARWEAVE_GATEWAY, DEFAULT_IPFS_GATEWAY } from '../net/content-uri.ts'
import { SAFE_FETCH_TIMEOUT_MS } from '../net/safe-fetch.ts'
import { parseSolanaRpcUrls } from './solana.ts'

/**
 * The service's configuration: environment variables, each overridable by a command-line flag.
 * Every value is validated at start; all bad values are reported at once, one line each.
 */
export interface Config {
  port: number
  host: string
  dataDir: string
  databaseUrl: string | undefined
  redisUrl: string | undefined
  publicBaseUrl: string | undefined
  logLevel: LogLevel
  corsOrigins: string[]
  metricsToken: string | undefined
  rateLimitRps: number
  requestTimeoutMs: number
  reportCacheTtlSeconds: number
  historyPageCacheSize: number
  historyPageCacheMb: number
  reportCacheMb: number
  storeCacheMs: number
  reportWorkers: number
  chainsFile: string | undefined
  solanaRpcUrls: string[]
  tokenList: string | undefined
  metadataFetch: 'on' | 'off'
  metadataFetchTimeoutMs: number
  ipfsGateway: string
  arweaveGateway: string
  metadataFetchAllowHttp: boolean
  metadataFetchAllowLoopback: boolean
  marketDataApiKey: string | undefined
  marketDataApiUrl: string | undefined
  explorerApiKey: string | undefined
  explorerApiUrl: string | undefined
  devnet: 'auto' | 'off' | 'on'
  only: 'tokens' | 'audits' | undefined
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

interface Setting<K extends keyof Config> {
  key: K
  env: string
  flag: string
  help: string
  default: string | undefined
  /** A credential: a bad value is reported without echoing it. */
  secret?: boolean
  parse(raw: string): Config[K]
}

const int = (min: number, max: number) => (raw: string) => {
  if (!/^\d+$/.test(raw.trim())) throw new Error(`must be a whole number from ${min} to ${max}`)
  const n = Number(raw)
  if (n < min || n > max) throw new Error(`must be a whole number from ${min} to ${max}`)
  return n
}

const url = (protocols: string[]) => (raw: string) => {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new Error(`must be a URL (${protocols.join(', ')})`)
  }
  if (!protocols.includes(u.protocol.replace(/:$/, ''))) throw new Error(`must be a URL (${protocols.join(', ')})`)
  return raw
}

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (raw: string): T => {
    if (!values.includes(raw as T)) throw new Error(`must be one of ${values.join(', ')}`)
    return raw as T
  }

/** The base URL of a content gateway: http(s), no query, fragment or credentials, ending in "/". */
const gateway = (raw: string) => {
  const u = new URL(url(['http', 'https'])(raw))
  if (u.search || u.hash || u.username || u.password) throw new Error('must be a base URL without query, fragment or credentials')
  return u.href.endsWith('/') ? u.href : `${u.href}/`
}

const flag = (raw: string) => oneOf(['0', '1'] as const)(raw) === '1'

const text = (raw: string) => raw
const optional = (raw: string) => (raw === '' ? undefined : raw)

function setting<K extends keyof Config>(s: Setting<K>): Setting<K> {
  return s
}

/** Every setting, in the order `tokenrisk --help` lists them. */
export const SETTINGS = [
  setting({ key: 'port', env: 'PORT', flag: '--port', help: 'HTTP port', default: '3000', parse: int(0, 65535) }),
  setting({ key: 'host', env: 'HOST', flag: '--host', help: 'interface to listen on (0.0.0.0 for all)', default: '127.0.0.1', parse: text }),
  setting({ key: 'dataDir', env: 'DATA_DIR', flag: '--data-dir', help: 'embedded database, devnet state and caches', default: './data', parse: text }),
  setting({ key: 'databaseUrl', env: 'DATABASE_URL', flag: '--database-url', help: 'PostgreSQL URL; the embedded SQLite file is used when unset', default: undefined, parse: (r) => url(['postgres', 'postgresql'])(r) }),
  setting({ key: 'redisUrl', env: 'REDIS_URL', flag: '--redis-url', help: 'Redis URL: shared cache, rate limits and audit queue across instances', default: undefined, parse: (r) => url(['redis', 'rediss'])(r) }),
  setting({ key: 'publicBaseUrl', env: 'PUBLIC_BASE_URL', flag: '--public-base-url', help: 'base URL of report links (default http://HOST:PORT)', default: undefined, parse: (r) => url(['http', 'https'])(r).replace(/\/+$/, '') }),
  setting({ key: 'logLevel', env: 'LOG_LEVEL', flag: '--log-level', help: `one of ${LOG_LEVELS.join(', ')}`, default: 'info', parse: oneOf(LOG_LEVELS) }),
  setting({ key: 'corsOrigins', env: 'CORS_ORIGINS', flag: '--cors-origins', help: 'comma-separated allowed origins, or *; CORS is off when unset', default: '', parse: (r) => r.split(',').map((s) => s.trim()).filter(Boolean) }),
  setting({ key: 'metricsToken', env: 'METRICS_TOKEN', flag: '--metrics-token', help: '/metrics requires Authorization: Bearer <token> when set (at least 16 characters); open when unset', default: undefined, secret: true, parse: (r) => { if (r === '') return undefined; if (r.length < 16) throw new Error('must be at least 16 characters'); return r } }),
  setting({ key: 'rateLimitRps', env: 'RATE_LIMIT_RPS', flag: '--rate-limit-rps', help: 'requests per second per API key (0 = off; a key may carry its own)', default: '0', parse: int(0, 1_000_000) }),
  setting({ key: 'requestTimeoutMs', env: 'REQUEST_TIMEOUT_MS', flag: '--request-timeout-ms', help: 'deadline of every request; past it the answer is 503', default: '15000', parse: int(100, 600_000) }),
  setting({ key: 'reportCacheTtlSeconds', env: 'REPORT_CACHE_TTL_SECONDS', flag: '--report-cache-ttl', help: 'how long a token report is reused (0 = no cache)', default: '30', parse: int(0, 86_400) }),
  setting({ key: 'historyPageCacheSize', env: 'HISTORY_PAGE_CACHE_SIZE', flag: '--history-page-cache', help: 'audit-history pages kept in memory (0 = none)', default: '1000', parse: int(0, 1_000_000) }),
  setting({ key: 'historyPageCacheMb', env: 'HISTORY_PAGE_CACHE_MB', flag: '--history-page-cache-mb', help: 'megabytes of audit-history pages kept in memory', default: '64', parse: int(1, 1_000_000) }),
  setting({ key: 'reportCacheMb', env: 'REPORT_CACHE_MB', flag: '--report-cache-mb', help: 'megabytes of token reports (their JSON) the in-process cache keeps (with Redis, Redis bounds its own)', default: '128', parse: int(1, 1_000_000) }),
  setting({ key: 'storeCacheMs', env: 'STORE_CACHE_MS', flag: '--store-cache-ms', help: 'how long API-key rows and project audit counts are reused (0 = read every time)', default: '1000', parse: int(0, 60_000) }),
  setting({ key: 'reportWorkers', env: 'REPORT_WORKERS', flag: '--report-workers', help: 'worker threads computing EVM token reports, off the serving thread (0 = in the serving thread)', default: '1', parse: int(0, 64) }),
  setting({ key: 'chainsFile', env: 'CHAINS_FILE', flag: '--chains', help: 'JSON file adding or overriding EVM chains (docs/chains.md)', default: undefined, parse: optional }),
  setting({ key: 'solanaRpcUrls', env: 'SOLANA_RPC_URL', flag: '--solana-rpc-url', help: 'Solana JSON-RPC URLs, comma-separated (fallback in order); the local Solana world when unset', default: '', parse: (r) => (r.trim() === '' ? [] : parseSolanaRpcUrls(r)) }),
  setting({ key: 'tokenList', env: 'TOKEN_LIST', flag: '--token-list', help: 'token list (Token Lists JSON) file or URL: images, categories, links', default: undefined, parse: optional }),
  setting({ key: 'metadataFetch', env: 'METADATA_FETCH', flag: '--metadata-fetch', help: "on: read a Solana mint's off-chain metadata JSON (image, links) through the hardened fetcher; off: never", default: 'on', parse: oneOf(['on', 'off'] as const) }),
  setting({ key: 'metadataFetchTimeoutMs', env: 'METADATA_FETCH_TIMEOUT_MS', flag: '--metadata-fetch-timeout-ms', help: 'time budget of one metadata fetch, redirects included', default: String(SAFE_FETCH_TIMEOUT_MS), parse: int(100, 60_000) }),
  setting({ key: 'ipfsGateway', env: 'IPFS_GATEWAY', flag: '--ipfs-gateway', help: 'base URL ipfs:// CIDs are read from and linked to', default: DEFAULT_IPFS_GATEWAY, parse: gateway }),
  setting({ key: 'arweaveGateway', env: 'ARWEAVE_GATEWAY', flag: '--arweave-gateway', help: 'base URL ar:// transaction ids are read from and linked to', default: DEFAULT_ARWEAVE_GATEWAY, parse: gateway }),
  setting({ key: 'metadataFetchAllowHttp', env: 'METADATA_FETCH_ALLOW_HTTP', flag: '--metadata-fetch-allow-http', help: '1: also fetch plain http:// metadata URIs (0: https only)', default: '0', parse: flag }),
  setting({ key: 'metadataFetchAllowLoopback', env: 'METADATA_FETCH_ALLOW_LOOPBACK', flag: '--metadata-fetch-allow-loopback', help: 'UNSAFE, tests only: 1 lets metadata fetches reach this machine (loopback)', default: '0', parse: flag }),
  setting({ key: 'marketDataApiKey', env: 'MARKET_DATA_API_KEY', flag: '--market-data-api-key', help: 'key of the market-data API (social data, exchanges)', default: undefined, parse: optional }),
  setting({ key: 'marketDataApiUrl', env: 'MARKET_DATA_API_URL', flag: '--market-data-api-url', help: 'base URL of the market-data API', default: undefined, parse: (r) => url(['http', 'https'])(r) }),
  setting({ key: 'explorerApiKey', env: 'EXPLORER_API_KEY', flag: '--explorer-api-key', help: "key of an Etherscan-compatible explorer API: a token's creation when the node cannot tell", default: undefined, parse: optional }),
  setting({ key: 'explorerApiUrl', env: 'EXPLORER_API_URL', flag: '--explorer-api-url', help: 'base URL of the explorer API (default Etherscan V2, all its chains)', default: undefined, parse: (r) => url(['http', 'https'])(r) }),
  setting({ key: 'devnet', env: 'DEVNET', flag: '--devnet', help: 'auto: start the local chain world when no chain is configured; on; off', default: 'auto', parse: oneOf(['auto', 'on', 'off'] as const) }),
  setting({ key: 'only', env: 'ONLY', flag: '--only', help: 'serve only one surface: tokens or audits', default: undefined, parse: (r) => oneOf(['tokens', 'audits'] as const)(r) }),
] as const

/**
 * Reads the configuration from `env`, then `flags` (`--name value` or `--name=value`) on top.
 * Throws one `ConfigError` listing every bad value.
 *
 * @example
 * const config = loadConfig(process.env, ['--port', '8080'])
 */
export function loadConfig(env: NodeJS.ProcessEnv, flags: Record<string, string> = {}): Config {
  const problems: string[] = []
  const config: Record<string, unknown> = {}
  for (const s of SETTINGS) {
    const flagName = s.flag.slice(2)
    const raw = flags[flagName] ?? env[s.env] ?? s.default
    if (raw === undefined || (raw === '' && s.default === undefined)) {
      config[s.key] = undefined
      continue
    }
    try {
      config[s.key] = s.parse(raw)
    } catch (error) {
      const source = flags[flagName] !== undefined ? s.flag : s.env
      const shown = 'secret' in s && s.secret ? '(hidden)' : JSON.stringify(raw)
      problems.push(`${source}=${shown}: ${(error as Error).message}`)
    }
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`)
  return config as unknown as Config
}

/** The flags `loadConfig` understands, for argument parsing. */
export const CONFIG_FLAGS: readonly string[] = SETTINGS.map((s) => s.flag.slice(2))

/** Lines for `tokenrisk --help`. */
export function describeSettings(): string[] {
  const width = Math.max(...SETTINGS.map((s) => `${s.env} / ${s.flag}`.length))
  return SETTINGS.map((s) => {
    const name = `${s.env} / ${s.flag}`.padEnd(width)
    const dflt = s.default ? ` (default ${s.default})` : ''
    return `  ${name}  ${s.help}${dflt}`
  })
}

/** The base URL of links the service gives out. */
export function publicBaseUrl(config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>): string {
  if (config.publicBaseUrl) return config.publicBaseUrl
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`
}
