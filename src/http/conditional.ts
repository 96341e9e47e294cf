import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'

/** The `ETag` of an answer's body. */
export function etagOf(payload: string): string {
  return `W/"${createHash('sha1').update(payload).digest('base64url')}"`
}

/**
 * `ETag` and `Cache-Control` for a cacheable JSON answer; answers 304 when the client's
 * `If-None-Match` already holds this body. Use as an `onSend` hook of the route. A route that
 * knows its body's `ETag` already (`etagOf`, kept with the body) sets it, and it is not computed again.
 */
export function conditionalGet(maxAgeSeconds: number) {
  return async function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const known = reply.getHeader('etag')
    // A body already compressed comes with its ETag (that of the JSON it holds).
    if (reply.statusCode !== 200 || (typeof payload !== 'string' && typeof known !== 'string')) return payload
    const etag = typeof known === 'string' ? known : etagOf(payload as string)
    reply.header('etag', etag)
    // Reports are per API key holder: shared caches must not keep them.
    reply.header('cache-control', `private, max-age=${maxAgeSeconds}`)
    const match = request.headers['if-none-match']
    if (match && match.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
      reply.code(304)
      reply.removeHeader('content-encoding')
      return ''
    }
    return payload
  }
}
