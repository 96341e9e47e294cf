// Security: the edges of the HTTP surface. A caller's x-request-id is echoed and logged only when
// short and plain (else replaced); every error — the router's 414 and bad %-escapes, the HTTP
// parser's 431 included — comes in the one shape `{statusCode, error, message}`, with a request
// id, quoting at most a bounded part of the path.
import { connect } from 'node:net'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_REQUEST_ID_CHARS } from '../src/http/errors.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** The one shape of every error. */
const errorShape = (status: number) => ({ statusCode: status, error: expect.any(String), message: expect.any(String) })

let t: TestStore
let api: TestApp
let base: string
const logs: { reqId?: string; msg?: string }[] = []

beforeAll(async () => {
  t = await embeddedStore()
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as { reqId?: string }) })
  api = await buildTestApp(t.store, { options: { logger } })
  base = await api.app.listen({ port: 0, host: '127.0.0.1' })
})
afterAll(async () => {
  await api?.app.close()
  await t?.cleanup()
})

/** Sends raw bytes and reads the raw answer (what the HTTP parser refuses never reaches a route). */
function rawRequest(text: string): Promise<string> {
  const { port } = new URL(base)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text))
    let answer = ''
    socket.on('data', (d) => (answer += d))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}

describe('request ids', () => {
  it('keep a short plain id, and replace one of any length or with other characters, in the answer and in the log', async () => {
    const plain = 'trace-0123:abc/def'
    const kept = await fetch(`${base}/healthz`, { headers: { 'x-request-id': plain } })
    expect(kept.headers.get('x-request-id')).toBe(plain)
    const longest = 'a'.repeat(MAX_REQUEST_ID_CHARS)
    expect((await fetch(`${base}/healthz`, { headers: { 'x-request-id': longest } })).headers.get('x-request-id')).toBe(longest)

    for (const hostile of ['a'.repeat(MAX_REQUEST_ID_CHARS + 1), 'x'.repeat(8_000), 'id with spaces', '"}{"injected":1', '<script>']) {
      const res = await fetch(`${base}/healthz`, { headers: { 'x-request-id': hostile } })
      expect(res.headers.get('x-request-id')).toMatch(UUID)
    }
    expect(logs.filter((l) => typeof l.reqId === 'string' && l.reqId.length > MAX_REQUEST_ID_CHARS)).toEqual([])
    expect(logs.some((l) => l.reqId === plain)).toBe(true)
  })
})

describe('every error in one shape', () => {
  it('a path segment longer than any route takes: 414, in the shape, the path quoted short', async () => {
    const res = await fetch(`${base}/reports/${'a'.repeat(5_000)}`)
    expect(res.status).toBe(414)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const body = (await res.json()) as { message: string }
    expect(body).toEqual(errorShape(414))
    expect(body.message.length).toBeLessThan(400)
    expect(res.headers.get('x-request-id')).toMatch(UUID)
  })

  it('a malformed %-escape: 400 in the shape', async () => {
    const res = await fetch(`${base}/api/v1/tokens/information/%zz?chainId=1`)
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await res.json()).toEqual(errorShape(400))
  })

  it('no route: 404 in the shape, quoting a bounded part of a long path', async () => {
    const res = await fetch(`${base}/${'b'.repeat(3_000)}`)
    expect(res.status).toBe(404)
    const body = (await res.json()) as { message: string }
    expect(body).toEqual(errorShape(404))
    expect(body.message.length).toBeLessThan(400)
  })

  it('headers past what the parser reads: 431 in the shape; a request that is not HTTP: 400 in the shape', async () => {
    const huge = await rawRequest(`GET /${'c'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`)
    expect(huge).toMatch(/^HTTP\/1\.1 431 /)
    expect(huge).toMatch(/content-type: application\/json; charset=utf-8/i)
    expect(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4))).toEqual(errorShape(431))
    const garbage = await rawRequest('THIS IS NOT HTTP\r\n\r\n')
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /)
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toEqual(errorShape(400))
  })

  it('a body too large: in the shape', async () => {
    const tooLarge = await fetch(`${base}/healthz`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(20_000) })
    expect(tooLarge.status).toBe(413)
    expect(await tooLarge.json()).toEqual(errorShape(413))
  })
})
