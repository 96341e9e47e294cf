import { ConfigError } from '../errors.ts'

/**
 * The RPC endpoints of `SOLANA_RPC_URL`: one URL, or several separated by commas or blanks,
 * tried in that order. Throws ConfigError (at start, before serving) for anything that is not an
 * http(s) URL; the message names the position, never the URL (it may carry an API key).
 *
 * @example
 * parseSolanaRpcUrls('https://a.example/rpc?key=1, https://b.example') // two endpoints
 */
export function parseSolanaRpcUrls(value: string): string[] {
  const urls = value.split(/[\s,]+/).filter(Boolean)
  if (urls.length === 0) throw new ConfigError('SOLANA_RPC_URL is empty: give one or more http(s) URLs separated by commas')
  urls.forEach((url, i) => {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      throw new ConfigError(`SOLANA_RPC_URL: entry ${i + 1} is not a URL`)
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(`SOLANA_RPC_URL: entry ${i + 1} must be http or https, not ${parsed.protocol}`)
  })
  return urls
}
