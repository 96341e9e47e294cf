// Security: the edges of the MCP endpoint. One POST carrying many tool calls: they count against
// the key's rate limit, a batch past its size is refused whole, and a key's calls run a few at a
// time whatever the POSTs they came in (counted around a real EVM engine, whose node never
// answers: every report runs until its deadline).
// Params that do not fit a method answer -32602 "invalid params" with what is wrong, never -32603
// with a validation dump. Only one audit_solidity call may carry a large body.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { createSourceAuditService, MAX_SOURCE_AUDIT_BYTES, MAX_SOURCE_AUDIT_FILES } from '../src/cli/source-audits.ts'
import { loadConfig } from '../src/config/settings.ts'
import type { EvmReportService } from '../src/contract/services.ts'
import type { SourceAuditService } from '../src/contract/services.ts'
import { MCP_BODY_BYTES } from '../src/http/routes/mcp.ts'
import { MAX_CONCURRENT_TOOL_CALLS_PER_KEY, MAX_MESSAGES_PER_POST } from '../src/mcp/limits.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

const DEADLINE_MS = 4_000
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
const TOKEN = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'

let t: TestStore
let api: TestApp
let audits: SourceAuditService
let node: Server
/** Reports running in the EVM engine now, the most at once, and how many were asked. */
const reports = { running: 0, most: 0, asked: 0 }

beforeAll(async () => {
  // An EVM node that takes every request and never answers.
  node = createServer(() => {})
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', () => resolve()))
  t = await embeddedStore()
  const config = loadConfig({ REQUEST_TIMEOUT_MS: String(DEADLINE_MS) })
  const deps = { config, env: { RPC_URL_1: `http://127.0.0.1:${(node.address() as AddressInfo).port}` }, cache: createMemoryCache(), store: t.store, logger: silent }
  const engine = createEvmEngine({ ...deps, holderIndexing: false }).service
  const evm: EvmReportService = {
    ...engine,
    async report(...args) {
      reports.asked++
      reports.most = Math.max(reports.most, ++reports.running)
      try {
        return await engine.report(...args)
      } finally {
        reports.running--
      }
    },
  }
  const tokens = { evm, solana: createSolanaEngine({ ...deps, rpcUrls: [] }) }
  api = await buildTestApp(t.store, { tokens, options: { requestTimeoutMs: DEADLINE_MS } })
  audits = createSourceAuditService({ audits: api.audits })
  await api.app.close()
  api = await buildTestApp(t.store, {
    tokens,
    audits: api.audits,
    sourceAudits: { service: audits, bounds: { maxFiles: MAX_SOURCE_AUDIT_FILES, maxBytes: MAX_SOURCE_AUDIT_BYTES, deadlineMs: DEADLINE_MS } },
    options: { requestTimeoutMs: DEADLINE_MS },
  })
}, 60_000)

afterAll(async () => {
  await api?.app.close()
  await audits?.close()
  await t?.cleanup()
  node?.closeAllConnections()
  node?.close()
})

const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }
const post = (key: string, payload: unknown) => api.app.inject({ method: 'POST', url: '/mcp', headers: { ...HEADERS, 'x-api-key': key }, payload: JSON.stringify(payload) })
const call = (id: number, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })

describe('many tool calls in one POST', () => {
  it('a batch past the size is refused whole, before anything runs', async () => {
    const { key } = await api.keys.create({ userId: 'agent' })
    const res = await post(key, Array.from({ length: 100 }, (_, i) => call(i, 'audit_history', { projectId: 'p' })))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining(`at most ${MAX_MESSAGES_PER_POST} JSON-RPC messages`) } })
  })

  it('count each against the key\'s rate limit', async () => {
    const { key } = await api.keys.create({ userId: 'agent', rateLimitRps: 3 })
    const res = await post(key, Array.from({ length: MAX_MESSAGES_PER_POST }, (_, i) => call(i, 'audit_history', { projectId: 'p' })))
    expect(res.statusCode).toBe(200)
    const answers = res.json() as { result: { isError?: boolean; structuredContent: { error?: { statusCode: number } } } }[]
    expect(answers).toHaveLength(MAX_MESSAGES_PER_POST)
    const limited = answers.filter((a) => a.result.structuredContent.error?.statusCode === 429)
    // At 3 a second, at most 3 (or 6 across a second's turn) went through.
    expect(limited.length).toBeGreaterThanOrEqual(MAX_MESSAGES_PER_POST - 6)
  })

  it('run a few at a time per key, whatever the POSTs they came in', async () => {
    const { key } = await api.keys.create({ userId: 'agent' })
    reports.most = 0
    // Two full POSTs at once, same key: its turns run (until the deadline, the node never
    // answers); the others wait for a turn, and their deadline passes before one is free.
    const batch = (from: number) => Array.from({ length: MAX_MESSAGES_PER_POST }, (_, i) => call(from + i, 'evm_token_report', { chainId: 1, tokenAddress: TOKEN }))
    const [a, b] = await Promise.all([post(key, batch(0)), post(key, batch(100))])
    const results = [...(a.json() as { result: { isError?: boolean } }[]), ...(b.json() as { result: { isError?: boolean } }[])]
    expect(results).toHaveLength(2 * MAX_MESSAGES_PER_POST)
    expect(results.every((r) => r.result.isError === true)).toBe(true)
    process.stdout.write(`  ${2 * MAX_MESSAGES_PER_POST} calls of one key in two POSTs: at most ${reports.most} reports at once\n`)
    expect(reports.most).toBe(MAX_CONCURRENT_TOOL_CALLS_PER_KEY)
    // Another key has turns of its own, beside a key whose turns are all taken.
    reports.most = 0
    const other = await api.keys.create({ userId: 'other' })
    const busy = post(key, batch(200))
    await new Promise((r) => setTimeout(r, 200))
    const asked = reports.asked
    expect((await post(other.key, call(1, 'evm_token_report', { chainId: 1, tokenAddress: TOKEN }))).json().result.isError).toBe(true)
    expect(reports.asked).toBeGreaterThan(asked)
    expect(reports.most).toBe(MAX_CONCURRENT_TOOL_CALLS_PER_KEY + 1)
    await busy
  }, 30_000)
})

describe('invalid params', () => {
  it('answer -32602 "invalid params" saying what is wrong, never -32603 with a validation dump', async () => {
    const { key } = await api.keys.create({ userId: 'agent' })
    const cases: [unknown, string][] = [
      [{ jsonrpc: '2.0', id: 1, method: 'initialize' }, 'invalid params: initialize needs params, an object'],
      [call(2, 'audit_history', 'projectId=p'), 'invalid params: params.arguments must be an object'],
      [{ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 5 } }, 'invalid params: params.name must be a string'],
      [{ jsonrpc: '2.0', id: 4, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: 'me' } }, 'invalid params: params.clientInfo must be an object'],
    ]
    for (const [message, expected] of cases) {
      const res = await post(key, message)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ jsonrpc: '2.0', id: (message as { id: number }).id, error: { code: -32602, message: expected } })
    }
  })

  it('in a batch, the others are answered', async () => {
    const { key } = await api.keys.create({ userId: 'agent' })
    const res = await post(key, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, call(2, 'audit_history', 7)])
    const answers = res.json() as { id: number; result?: { tools: unknown[] }; error?: { code: number } }[]
    expect(answers.find((a) => a.id === 1)?.result?.tools.length).toBeGreaterThan(0)
    expect(answers.find((a) => a.id === 2)?.error?.code).toBe(-32602)
  })
})

describe('body limits per method', () => {
  it('a large body is refused but for one audit_solidity call', async () => {
    const { key } = await api.keys.create({ userId: 'agent' })
    const padding = 'x'.repeat(MCP_BODY_BYTES + 1)
    const big = await post(key, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { padding } } })
    expect(big.statusCode).toBe(413)
    // A JSON-RPC error an MCP client shows, the one error shape as its data.
    const message = expect.stringContaining(`at most ${MCP_BODY_BYTES} bytes`)
    expect(big.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message, data: { statusCode: 413, error: 'Payload Too Large', message } } })
    const bigCall = await post(key, call(2, 'audit_history', { projectId: padding }))
    expect(bigCall.statusCode).toBe(413)
    const bigBatch = await post(key, [call(3, 'audit_solidity', { files: [{ path: 'A.sol', content: padding }] }), { jsonrpc: '2.0', id: 4, method: 'tools/list' }])
    expect(bigBatch.statusCode).toBe(413)
    // One audit_solidity call carries its sources: the body is taken (here its bad path answers as a tool error).
    const audit = await post(key, call(5, 'audit_solidity', { files: [{ path: '../A.sol', content: padding }] }))
    expect(audit.statusCode).toBe(200)
    expect(audit.json().result.structuredContent.error.statusCode).toBe(400)
  })
})
