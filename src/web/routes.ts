import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { NotFoundError } from '../errors.ts'
import { assetBody, type WebAsset, type WebAssets } from './assets.ts'
import { pageClient, type PageSessions } from './session.ts'
import { renderShell, type PageAccess, type PageExample } from './shell.ts'

/** Assets carry their hash in their name: a browser keeps them until they change. */
const ASSET_MAX_AGE_SECONDS = 365 * 24 * 3600
/** Characters of an address shown in a page's first title. */
const TITLE_ADDRESS_CHARS = 64

/**
 * What a token page may load and do: its own script and style sheet, calls to its own origin (the
 * JSON API), links out; nothing from another origin, no inline script, no frames.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

export interface WebRouteDeps {
  assets: WebAssets
  /** Open pages: their sessions; absent when a person pastes an API key (`PUBLIC_PAGES=off`). */
  sessions?: PageSessions
  /** The path the service is served under (`PUBLIC_BASE_URL`'s), "" at the root. */
  basePath: string
  /** Tokens the home page offers to try (the local worlds' showcase), when there are. */
  examples?: PageExample[]
}

/**
 * The token pages: the home page (`/`) and a report page per token, `/t/{chainId}/{address}` and
 * `/t/solana/{mint}`, whose links can be shared. Each answers the same HTML shell; the page's
 * script reads the report from the JSON API and shows it (src/web/client/). With open pages, each
 * page load starts a page session (src/web/session.ts) for the page's API calls.
 */
export function webRoutes(app: FastifyInstance, deps: WebRouteDeps) {
  const access: PageAccess = deps.sessions ? 'open' : 'key'

  const page = (reply: FastifyReply, request: FastifyRequest, title: string, root: string) => {
    if (deps.sessions) reply.header('set-cookie', deps.sessions.cookie({ secure: request.protocol === 'https', path: `${deps.basePath}/api/v1/`, client: pageClient(request) }))
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .send(renderShell({ title, access, root, assets: deps.assets, examples: deps.examples }))
  }
  const shown = (text: string) => (text.length > TITLE_ADDRESS_CHARS ? `${text.slice(0, TITLE_ADDRESS_CHARS)}…` : text)

  app.get('/', { schema: { hide: true } }, (request, reply) => page(reply, request, 'tokenrisk — can this token hurt me?', './'))
  app.get<{ Params: { mint: string } }>('/t/solana/:mint', { schema: { hide: true } }, (request, reply) =>
    page(reply, request, `Solana token ${shown(request.params.mint)} — tokenrisk`, '../../'),
  )
  app.get<{ Params: { chainId: string; address: string } }>('/t/:chainId/:address', { schema: { hide: true } }, (request, reply) =>
    page(reply, request, `Token ${shown(request.params.address)} on chain ${shown(request.params.chainId)} — tokenrisk`, '../../'),
  )

  // The search box of the HTML error pages (a plain form): to the token's page, or back home with the text in the box.
  app.get<{ Querystring: { token?: string; chain?: string } }>('/search', { schema: { hide: true } }, (request, reply) => {
    const token = String(request.query.token ?? '').trim()
    const chain = String(request.query.chain ?? '').trim().toLowerCase()
    const solana = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(token)
    const evm = /^0x[0-9a-fA-F]{40}$/.test(token)
    if (evm && /^\d{1,12}$/.test(chain)) return reply.redirect(`./t/${chain}/${token}`, 303)
    if (solana && (chain === '' || chain === 'solana')) return reply.redirect(`./t/solana/${token}`, 303)
    return reply.redirect(`./?token=${encodeURIComponent(token.slice(0, 100))}`, 303)
  })

  const byName = new Map<string, WebAsset>([deps.assets.script, deps.assets.style].map((a) => [a.name, a]))
  app.get<{ Params: { name: string } }>('/assets/:name', { schema: { hide: true } }, (request, reply) => {
    const asset = byName.get(request.params.name)
    if (!asset) throw new NotFoundError('no such asset (the page may be older than the service: reload it)')
    const { body, encoding } = assetBody(asset, request.headers['accept-encoding'])
    if (encoding) reply.header('content-encoding', encoding)
    return reply
      .type(asset.type)
      .header('vary', 'accept-encoding')
      .header('cache-control', `public, max-age=${ASSET_MAX_AGE_SECONDS}, immutable`)
      .header('x-content-type-options', 'nosniff')
      .send(body)
  })
}
