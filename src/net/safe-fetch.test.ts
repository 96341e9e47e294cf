import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { createSafeFetcher, SAFE_FETCH_MAX_BYTES, SafeFetchError, type SafeFetchFailure, type SafeFetchOptions } from './safe-fetch.ts'

/**
 * The hardened fetcher against a real HTTP server on 127.0.0.1. The loopback hatch is opened so
 * the server can be reached at all; every other refused range stays refused, which is what the
 * redirect and DNS cases show. Host names are answered by a resolver of the test's own.
 */

const CID = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'
const METADATA = { name: 'Local Token', symbol: 'LOC', image: 'https://cdn.tokenrisk.dev/loc.png' }

let server: Server
let base: string
let port: number
const seen: { url: string; headers: IncomingMessage['headers'] }[] = []
const closedEarly: string[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '/'
    seen.push({ url, headers: req.headers })
    const json = (body: unknown, type = 'application/json') => {
      res.writeHead(200, { 'content-type': type })
      res.end(JSON.stringify(body))
    }
    const redirect = (location: string, status = 302) => {
      res.writeHead(status, { location })
      res.end()
    }
    const hop = /^\/hops\/(\d+)$/.exec(url)
    if (hop) return Number(hop[1]) === 0 ? json(METADATA) : redirect(`/hops/${Number(hop[1]) - 1}`, 301)
    switch (url) {
      case '/meta.json':
        return json(METADATA)
      case '/plain':
        return json(METADATA, 'text/plain; charset=utf-8')
      case '/ld':
        return json(METADATA, 'application/ld+json')
      case '/bom':
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end(`\uFEFF${JSON.stringify(METADATA)}`)
      case '/html':
        res.writeHead(200, { 'content-type': 'text/html' })
        return res.end('<html><body>{"image":"x"}</body></html>')
      case '/untyped':
        res.writeHead(200)
        return res.end(JSON.stringify(METADATA))
      case '/garbage':
        res.writeHead(200, { 'content-type': 'text/plain' })
        return res.end('image: https://cdn.tokenrisk.dev/loc.png')
      case '/gzip':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
        return res.end(gzipSync(JSON.stringify(METADATA)))
      case '/big-declared': {
        const body = JSON.stringify({ ...METADATA, description: 'x'.repeat(SAFE_FETCH_MAX_BYTES) })
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
        return res.end(body)
      }
      case '/big-streamed': {
        // Chunked, no Content-Length: only counting while reading can stop it. 16 MiB offered,
        // far more than the socket buffers hold, so the server sees the reader leave.
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write(`{"description":"`)
        const chunk = 'y'.repeat(64 * 1024)
        let sent = 0
        const pump = () => {
          while (sent < 256 && !res.destroyed) {
            sent++
            if (!res.write(chunk)) return void res.once('drain', pump)
          }
          res.end('"}')
        }
        res.on('close', () => {
          if (!res.writableFinished) closedEarly.push(url)
        })
        return pump()
      }
      case '/hang':
        // Headers never come: only the time budget ends this.
        req.on('close', () => closedEarly.push(url))
        return
      case '/missing':
        res.writeHead(404, { 'content-type': 'application/json' })
        return res.end('{}')
      case '/cookie':
        res.writeHead(302, { location: '/echo', 'set-cookie': 'session=secret; Path=/' })
        return res.end()
      case '/echo':
        return json({ headers: req.headers })
      case '/to-link-local':
        return redirect('http://169.254.169.254/latest/meta-data/')
      case '/to-mapped':
        return redirect(`http://[::ffff:a9fe:a9fe]:${port}/meta.json`)
      case '/to-private-name':
        return redirect(`http://bucket.tokenrisk-internal.dev:${port}/meta.json`)
      case '/to-file':
        return redirect('file:///etc/passwd')
      case '/to-credentials':
        return redirect(`http://user:pw@127.0.0.1:${port}/meta.json`)
      case '/no-location':
        res.writeHead(302)
        return res.end()
      default:
        if (url.startsWith(`/ipfs/${CID}/`)) return json({ ...METADATA, path: url })
        res.writeHead(404)
        return res.end()
    }
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  port = (server.address() as AddressInfo).port
  base = `http://127.0.0.1:${port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((r) => server.close(r))
})

beforeEach(() => {
  seen.length = 0
})

/** A fetcher that may reach this machine (and http:), with a resolver that knows `names`. */
const local = (options: Partial<SafeFetchOptions> = {}, names: Record<string, string[]> = {}) => {
  const asked: string[] = []
  const fetcher = createSafeFetcher({
    allowHttp: true,
    allowLoopback: true,
    resolve: async (hostname) => {
      asked.push(hostname)
      const addresses = names[hostname]
      if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
    },
    ...options,
  })
  return { fetcher, asked }
}

async function failure(promise: Promise<unknown>): Promise<{ failure: SafeFetchFailure; message: string }> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(SafeFetchError)
    return { failure: (error as SafeFetchError).failure, message: (error as Error).message }
  }
  throw new Error('the fetch did not fail')
}

describe('createSafeFetcher: what it reads', () => {
  it('reads a JSON document, and text/plain, +json and a byte-order mark too', async () => {
    const { fetcher } = local()
    for (const path of ['/meta.json', '/plain', '/ld', '/bom']) {
      const answer = await fetcher.fetchJson(`${base}${path}`)
      expect(answer.json, path).toEqual(METADATA)
      expect(answer.url).toBe(`${base}${path}`)
    }
  })

  it('sends a tokenrisk User-Agent, asks for no compression and never sends a cookie it was given', async () => {
    const { fetcher } = local()
    const { json } = await fetcher.fetchJson(`${base}/cookie`)
    const headers = (json as { headers: Record<string, string> }).headers
    expect(headers['user-agent']).toMatch(/^tokenrisk/)
    expect(headers['accept-encoding']).toBe('identity')
    expect(headers.cookie).toBeUndefined()
    expect(headers.authorization).toBeUndefined()
  })

  it('reads ipfs:// through the configured gateway', async () => {
    const { fetcher } = local({ gateways: { ipfs: `${base}/ipfs/`, arweave: `${base}/ar/` } })
    const { json, url } = await fetcher.fetchJson(`ipfs://${CID}/token.json`)
    expect(url).toBe(`${base}/ipfs/${CID}/token.json`)
    expect(json).toMatchObject({ path: `/ipfs/${CID}/token.json` })
  })

  it('follows up to three redirects, each one a new request', async () => {
    const { fetcher } = local()
    expect((await fetcher.fetchJson(`${base}/hops/3`)).json).toEqual(METADATA)
    expect(seen.map((s) => s.url)).toEqual(['/hops/3', '/hops/2', '/hops/1', '/hops/0'])
    seen.length = 0
    expect(await failure(fetcher.fetchJson(`${base}/hops/4`))).toMatchObject({ failure: 'redirect', message: 'more than 3 redirects' })
    expect(seen).toHaveLength(4)
  })
})

describe('createSafeFetcher: what it refuses', () => {
  it('refuses answers that are not JSON', async () => {
    const { fetcher } = local()
    expect((await failure(fetcher.fetchJson(`${base}/html`))).failure).toBe('content-type')
    expect((await failure(fetcher.fetchJson(`${base}/untyped`))).failure).toBe('content-type')
    expect((await failure(fetcher.fetchJson(`${base}/garbage`))).failure).toBe('not-json')
    expect((await failure(fetcher.fetchJson(`${base}/gzip`))).failure).toBe('encoding')
    expect(await failure(fetcher.fetchJson(`${base}/missing`))).toMatchObject({ failure: 'status', message: 'HTTP 404' })
  })

  it('refuses a body over the size cap, declared or streamed, and stops reading it', async () => {
    const { fetcher } = local()
    expect((await failure(fetcher.fetchJson(`${base}/big-declared`))).failure).toBe('too-large')
    expect(await failure(fetcher.fetchJson(`${base}/big-streamed`))).toMatchObject({ failure: 'too-large', message: `the answer exceeds ${SAFE_FETCH_MAX_BYTES} bytes` })
    await expect.poll(() => closedEarly).toContain('/big-streamed')
  })

  it('gives up at the time budget and closes the connection', async () => {
    const { fetcher } = local({ timeoutMs: 200 })
    expect(await failure(fetcher.fetchJson(`${base}/hang`))).toMatchObject({ failure: 'timeout', message: 'no complete answer within 200 ms' })
    await expect.poll(() => closedEarly).toContain('/hang')
  })

  it("stops when the caller's signal aborts", async () => {
    const { fetcher } = local({ timeoutMs: 30_000 })
    const controller = new AbortController()
    const pending = fetcher.fetchJson(`${base}/hang`, { signal: controller.signal })
    await expect.poll(() => seen.length).toBe(1)
    controller.abort()
    expect((await failure(pending)).failure).toBe('aborted')
  })

  it('refuses schemes other than https (http only when allowed) and URLs with credentials, without a request', async () => {
    const strict = createSafeFetcher({ allowLoopback: true })
    expect(await failure(strict.fetchJson(`${base}/meta.json`))).toMatchObject({ failure: 'uri', message: 'the http: scheme is not fetched' })
    const { fetcher } = local()
    for (const uri of ['javascript:alert(1)', 'data:application/json,{"image":"x"}', 'file:///etc/passwd', `http://user:pw@127.0.0.1:${port}/meta.json`]) {
      expect((await failure(fetcher.fetchJson(uri))).failure, uri).toBe('uri')
    }
    expect(seen).toEqual([])
  })

  it('without the loopback hatch, refuses this machine by address and by name before connecting', async () => {
    const { fetcher, asked } = local({ allowLoopback: false }, { 'pinned.tokenrisk.dev': ['127.0.0.1'] })
    expect(await failure(fetcher.fetchJson(`${base}/meta.json`))).toMatchObject({ failure: 'address', message: `127.0.0.1:${port} is refused: loopback address` })
    expect((await failure(fetcher.fetchJson(`http://[::1]:${port}/meta.json`))).failure).toBe('address')
    expect((await failure(fetcher.fetchJson(`http://[::ffff:127.0.0.1]:${port}/meta.json`))).failure).toBe('address')
    expect((await failure(fetcher.fetchJson(`http://2130706433:${port}/meta.json`))).failure).toBe('address')
    expect((await failure(fetcher.fetchJson(`http://localhost:${port}/meta.json`))).failure).toBe('host')
    expect(await failure(fetcher.fetchJson(`http://pinned.tokenrisk.dev:${port}/meta.json`))).toMatchObject({
      failure: 'address',
      message: 'pinned.tokenrisk.dev resolves to a refused address (loopback)',
    })
    expect(asked).toEqual(['pinned.tokenrisk.dev'])
    expect(seen).toEqual([])
  })

  it('refuses reserved and local names without asking DNS', async () => {
    const { fetcher, asked } = local()
    for (const host of ['metadata.invalid', 'metadata.google.internal', 'nas.local', 'metadata']) {
      expect((await failure(fetcher.fetchJson(`https://${host}/token.json`))).failure, host).toBe('host')
    }
    expect(asked).toEqual([])
  })

  it('connects to the address it checked: one resolution per connection, the name kept for Host', async () => {
    const { fetcher, asked } = local({}, { 'pinned.tokenrisk.dev': ['127.0.0.1'] })
    expect((await fetcher.fetchJson(`http://pinned.tokenrisk.dev:${port}/meta.json`)).json).toEqual(METADATA)
    expect(asked).toEqual(['pinned.tokenrisk.dev'])
    expect(seen.map((s) => s.headers.host)).toEqual([`pinned.tokenrisk.dev:${port}`])
  })

  it('refuses a name when any of its addresses is refused', async () => {
    const { fetcher } = local({}, { 'mixed.tokenrisk.dev': ['127.0.0.1', '10.0.0.8'] })
    expect(await failure(fetcher.fetchJson(`http://mixed.tokenrisk.dev:${port}/meta.json`))).toMatchObject({ failure: 'address', message: 'mixed.tokenrisk.dev resolves to a refused address (private)' })
    expect(seen).toEqual([])
  })

  it('checks every redirect again: private, link-local, mapped, private by DNS, other schemes, credentials', async () => {
    const { fetcher, asked } = local({}, { 'bucket.tokenrisk-internal.dev': ['10.20.30.40'] })
    expect(await failure(fetcher.fetchJson(`${base}/to-link-local`))).toMatchObject({ failure: 'address', message: '169.254.169.254 is refused: link-local address' })
    expect(await failure(fetcher.fetchJson(`${base}/to-mapped`))).toMatchObject({ failure: 'address', message: `[::ffff:a9fe:a9fe]:${port} is refused: IPv4-mapped link-local address` })
    expect(await failure(fetcher.fetchJson(`${base}/to-private-name`))).toMatchObject({ failure: 'address', message: 'bucket.tokenrisk-internal.dev resolves to a refused address (private)' })
    expect(asked).toEqual(['bucket.tokenrisk-internal.dev'])
    expect(await failure(fetcher.fetchJson(`${base}/to-file`))).toMatchObject({ failure: 'redirect', message: 'a redirect to a file: URL is not followed' })
    expect((await failure(fetcher.fetchJson(`${base}/to-credentials`))).failure).toBe('redirect')
    expect((await failure(fetcher.fetchJson(`${base}/no-location`))).failure).toBe('redirect')
    // Only the first hop of each reached the server.
    expect(seen.map((s) => s.url)).toEqual(['/to-link-local', '/to-mapped', '/to-private-name', '/to-file', '/to-credentials', '/no-location'])
  })

  it('reports a name that does not resolve', async () => {
    const { fetcher } = local()
    expect((await failure(fetcher.fetchJson('https://nowhere.tokenrisk.dev/token.json'))).failure).toBe('dns')
  })
})
