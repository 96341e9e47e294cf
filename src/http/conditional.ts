import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * `ETag` and `Cache-Control` for a cacheable JSON answer; answers 304 when the client's
 * `If-None-Match` already holds this body. Use as an `onSend` hook of the route.
 */
export function conditionalGet(maxAgeSeconds: number) {
  return async function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    if (reply.statusCode !== 200 || typeof payload !== 'string') return payload
    const etag = `W/"${createHash('sha1').update(payload).digest('base64url')}"`
    reply.header('etag', etag)
    // Reports are per API key holder: shared caches must not keep them.
    reply.header('cache-control', `private, max-age=${maxAgeSeconds}`)
    const match = request.headers['if-none-match']
    if (match && match.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
      reply.code(304)
      return ''
    }
    return payload
  }
}
