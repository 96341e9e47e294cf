import { Type } from '@sinclair/typebox'

const DESCRIPTIONS: Record<number, string> = {
  304: 'not modified (the ETag of `If-None-Match` still matches)',
  400: 'a parameter is missing or malformed; `message` says which',
  401: 'the `x-api-key` header is missing, unknown or revoked, or the key may not read this resource',
  404: 'not found',
  413: 'the request body is larger than this request may be; `message` says the limit',
  429: 'too many requests for this API key; see `Retry-After`',
  503: 'an upstream (chain node, database) failed, the request deadline passed, or the service is stopping',
}

/** Response schemas of error statuses, all the shared `Error` body. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((s) => [s, Type.Ref('Error', { description: DESCRIPTIONS[s] ?? 'error' })]),
  ) as Record<number, ReturnType<typeof Type.Ref>>
}
