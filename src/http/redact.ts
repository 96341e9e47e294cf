import type { FastifyRequest } from 'fastify'

/** Query parameters whose values are credentials, whatever they hold. */
const SECRET_PARAMS = /^(x-api-key|api[-_]?key|apikey|key|token|access[-_]?token|secret|password)$/i
/**
 * An API key of tokenrisk (`trk_<id>_<secret>`) anywhere in a text: its id is kept (it names the
 * key in `tokenrisk keys list`), its secret is not.
 */
const API_KEY_PATTERN = /\b(trk_[0-9A-Za-z]+_)[0-9A-Za-z_-]+/g
const REDACTED = '[redacted]'

/** `text` with every tokenrisk API key in it reduced to its id (a message that echoes an input). */
export function redactKeys(text: string): string {
  return text.replace(API_KEY_PATTERN, `$1${REDACTED}`)
}

/**
 * `url` as logs may keep it: every tokenrisk API key in it (path or query) reduced to its id, and
 * the values of credential-named query parameters replaced.
 *
 * @example
 * redactUrl('/api/v1/chains?x-api-key=trk_ab12_s3cret') // '/api/v1/chains?x-api-key=[redacted]'
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?')
  const path = url.slice(0, q < 0 ? url.length : q).replace(API_KEY_PATTERN, `$1${REDACTED}`)
  if (q < 0) return path
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      if (eq < 0) return pair.replace(API_KEY_PATTERN, `$1${REDACTED}`)
      let name = pair.slice(0, eq)
      try {
        name = decodeURIComponent(name)
      } catch {
        // a malformed escape: the raw name is compared
      }
      return SECRET_PARAMS.test(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair.replace(API_KEY_PATTERN, `$1${REDACTED}`)
    })
    .join('&')
  return `${path}?${query}`
}

/** Fastify's request serializer for logs, with the URL redacted (`redactUrl`). */
export function redactedRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket ? request.socket.remotePort : undefined,
  }
}
