// Malformed and over-long parameters on every route: the contract's 400 shape with the route's
// own message and an x-request-id (never the framework's 414); a repeated parameter says so; a
// key put in the URL by mistake never reaches the log; the OpenAPI document lists every status a
// route answers, and the answers here stay within it.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { loadConfig } from '../src/config/settings.ts'
import { redactUrl } from '../src/http/redact.ts'
import { createDatabase, type Store } from '../src/store/database.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
const lines: string[] = []
let store: Store
let api: TestApp
let key: string

beforeAll(async () => {
  store = await createDatabase({ dataDir: mkdtempSync(join(tmpdir(), 'tokenrisk-params-')) })
  const deps = { config: loadConfig({}), env: {}, cache: createMemoryCache(), logger: silent }
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) }))
  // Nothing answers on port 9: a report that got past validation would be a 503, never a 400.
  api = await buildTestApp(store, {
    tokens: { evm: createEvmEngine({ ...deps }).service, solana: createSolanaEngine({ ...deps, rpcUrls: ['http://127.0.0.1:9'] }) },
    options: { logger },
  })
  key = (await api.keys.create({ userId: 'alice' })).key
})

afterAll(async () => {
  await api?.app.close()
  await store?.close()
})

const get = (url: string) => api.app.inject({ url, headers: { 'x-api-key': key } })
const EVM_MESSAGE = 'tokenAddress must be an EVM address: 0x followed by 40 hexadecimal characters (20 bytes)'
const SOLANA_MESSAGE = 'tokenAddress must be a Solana mint address: base58 of 32 bytes (32 to 44 characters)'

async function expect400(url: string, message: string) {
  const res = await get(url)
  expect([url.slice(0, 60), res.statusCode]).toEqual([url.slice(0, 60), 400])
  expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message })
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
}

describe('over-long and malformed parameters', () => {
  it('answer 400 in the contract shape with the route\'s own message, whatever their length', async () => {
    for (const length of [41, 64, 65, 100, 101, 150, 1000]) {
      const evm = `0x${'a'.repeat(length)}`
      await expect400(`/api/v1/tokens/information/${evm}?chainId=1`, EVM_MESSAGE)
      await expect400(`/api/v1/tokens/frontend/information/${evm}?chainId=1`, EVM_MESSAGE)
      await expect400(`/api/v1/tokens/ui/information/${evm}?chainId=1`, EVM_MESSAGE)
    }
    // A Solana address of 65 to 100 characters (and longer) is told the Solana way.
    for (const length of [65, 80, 100, 101, 150, 1000]) await expect400(`/api/v1/tokens/solana/${'A'.repeat(length)}`, SOLANA_MESSAGE)
  })

  it('a report link over 100 characters is a 404 in the contract shape, not the framework\'s 414', async () => {
    const res = await get(`/reports/${'a'.repeat(150)}`)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'no report at this address' })
    expect(res.headers['x-request-id']).toBeDefined()
  })

  it('a repeated parameter says it was given more than once', async () => {
    await expect400('/api/v1/projects/audit/history?projectId=demo&userId=alice&userId=bob', 'userId was given more than once: give it once')
    await expect400(`/api/v1/tokens/information/0x${'a'.repeat(40)}?chainId=1&chainId=56`, 'chainId was given more than once: give it once')
    // A single bad value keeps its own message.
    await expect400(`/api/v1/projects/audit/history?projectId=demo&userId=${'u'.repeat(201)}`, 'userId must be a non-empty string of at most 200 characters')
  })

  it('format follows the same rules on every token route', async () => {
    const address = `0x${'a'.repeat(40)}`
    for (const url of [
      `/api/v1/tokens/information/${address}?chainId=1&format=garbage`,
      `/api/v1/tokens/frontend/information/${address}?chainId=1&format=garbage`,
      `/api/v1/tokens/ui/information/${address}?chainId=1&format=garbage`,
      '/api/v1/tokens/solana/So11111111111111111111111111111111111111112?format=garbage',
    ]) {
      await expect400(url, 'format must be one of v1, quillcheck-v2')
    }
  })
})

describe('keys never reach the log', () => {
  it('a key in the query string or the path is redacted in the request log', async () => {
    const secret = key.split('_').slice(2).join('_')
    lines.length = 0
    await get(`/api/v1/chains?x-api-key=${encodeURIComponent(key)}&apiKey=whatever-it-is&note=${key}`)
    await get(`/api/v1/tokens/solana/${key}`)
    const log = lines.join('')
    expect(log).toContain('"url":"/api/v1/chains?x-api-key=[redacted]&apiKey=[redacted]&note=trk_')
    expect(log).not.toContain(secret)
    expect(log).not.toContain('whatever-it-is')
    expect(redactUrl('/a?b=1&token=s3cret&k=trk_ab12cd_zzZZ-9')).toBe('/a?b=1&token=[redacted]&k=trk_ab12cd_[redacted]')
  })
})

describe('the OpenAPI document', () => {
  it('lists every status each route answers; the answers above stay within them', async () => {
    const doc = (await api.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> }
    const statuses = (path: string, method = 'get') => Object.keys(doc.paths[path][method].responses ?? {})
    expect(statuses('/reports/{reportId}')).toEqual(['200', '400', '404', '503'])
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect([method, path, Object.keys(op.responses ?? {})]).not.toEqual([method, path, []])
        expect([method, path, Object.keys(op.responses ?? {}).includes('default')]).toEqual([method, path, false])
      }
    }
    const answered: [string, string, number][] = [
      ['/api/v1/tokens/information/{tokenAddress}', `/api/v1/tokens/information/0x${'a'.repeat(200)}?chainId=1`, 0],
      ['/api/v1/tokens/information/{tokenAddress}', `/api/v1/tokens/information/0x${'a'.repeat(40)}?chainId=1`, 0],
      ['/api/v1/tokens/solana/{tokenAddress}', `/api/v1/tokens/solana/${'A'.repeat(200)}`, 0],
      ['/api/v1/tokens/solana/{tokenAddress}', '/api/v1/tokens/solana/So11111111111111111111111111111111111111112', 0],
      ['/api/v1/projects/audit/history', '/api/v1/projects/audit/history?projectId=demo&userId=a&userId=b', 0],
      ['/reports/{reportId}', `/reports/${'a'.repeat(200)}`, 0],
      ['/reports/{reportId}', '/reports/aaaaaaaaaaaaaaaaaaaa?page=x', 0],
    ]
    for (const row of answered) row[2] = (await get(row[1])).statusCode
    for (const [path, url, status] of answered) expect([url.slice(0, 70), statuses(path)]).toEqual([url.slice(0, 70), expect.arrayContaining([String(status)])])
  })
})
