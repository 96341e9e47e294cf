// The MCP server as agents meet it, through the SDK's own client: over streamable HTTP against the
// service's /mcp (a listening app, with an API key), and over stdio against the built command
// (`tokenrisk mcp`, spawned as a desktop agent spawns it). Every tool is listed and called on the
// local worlds' zoo tokens and on a real source, and the failures come back as tool errors with
// the JSON API's own messages. A transcript of the calls is kept in test-results/mcp-transcript.md.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { localChains, writeLocalChainsFile, writeLocalSolanaFile } from '@tokenrisk/devworld/local-chain'
import { zooToken } from '@tokenrisk/devworld/manifest'
import { solanaMint } from '@tokenrisk/devworld/solana/manifest'
import { startSolanaWorld, type StartedSolanaWorld } from '@tokenrisk/devworld/solana/world'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { MAX_SOURCE_AUDIT_BYTES, MAX_SOURCE_AUDIT_FILES, createSourceAuditService } from '../src/cli/source-audits.ts'
import { DATA_DIR_LOCK_FILE } from '../src/cli/data-dir.ts'
import { createMcpServer } from '../src/mcp/server.ts'
import { loadConfig } from '../src/config/settings.ts'
import { createMetrics } from '../src/http/metrics.ts'
import type { TokenReport } from '../src/contract/token-report.ts'
import { evmVerdict } from '../src/report/verdict.ts'
import { CONCISE_MAX_VENUE_CHARS } from '../src/mcp/tools/token-answer.ts'
import { MAX_SOURCE_BYTES } from '../src/audit/load/load-project.ts'
import type { SourceAuditService } from '../src/contract/services.ts'
import { createAuditRepository } from '../src/store/repositories/audits.ts'
import { buildTestApp, TEST_BASE_URL, type TestApp } from './helpers/app.ts'
import { generateSolidity } from './helpers/big-solidity.ts'
import { PROJECT_ROOT, TEST_DEVNET_DIR } from './helpers/paths.ts'
import { withHoldersUnread } from './helpers/unread-holders.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

const DATA_DIR = TEST_DEVNET_DIR
const TRANSCRIPT = join(PROJECT_ROOT, 'test-results', 'mcp-transcript.md')
/** Bytes of each tool answer (the JSON-RPC result as sent), by default and as the whole report, kept for the closing note. */
const SIZES = join(PROJECT_ROOT, 'test-results', 'mcp-answer-sizes.md')
/** What a concise token answer may weigh, whole (texts and structured content): a few KB. */
const CONCISE_ANSWER_MAX_BYTES = 8 * 1024
/**
 * The request deadline of the app the agent talks to: generous, since a source audit's worker
 * thread runs the analyzer's TypeScript sources here (compiled as it loads them), which takes
 * seconds on a busy machine. The deadline itself is tested on an app with a short one.
 */
const DEADLINE_MS = 30_000
const SHORT_DEADLINE_MS = 2_000
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
const TOOLS = ['evm_token_report', 'solana_token_report', 'audit_history', 'audit_solidity']

/** A small project with a bug and its legitimate look-alike: anyone can destroy `Open`; only the owner `Guarded`. */
const VAULT_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.20;

contract Guarded {
    address public immutable owner = msg.sender;

    function close() external {
        require(msg.sender == owner, "not owner");
        selfdestruct(payable(owner));
    }
}

contract Open {
    function close() external {
        selfdestruct(payable(msg.sender));
    }
}
`

let world: World
let solanaWorld: StartedSolanaWorld
let t: TestStore
let api: TestApp
let base: string
/** The same engines behind an app with a short request deadline. */
let quick: TestApp
let quickBase: string
let key: string
let adminKey: string
let silentNode: Server
let sourceAudits: SourceAuditService
let quickAudits: SourceAuditService
const transcript: string[] = ['# MCP transcript', '', 'Written by test/mcp.test.ts: each call as the SDK client sent it, and the first text of its answer.', '']
const sizes: string[] = ['# MCP answer sizes', '', 'Written by test/mcp.test.ts: bytes of each tool answer (its JSON-RPC result), the whole report (as before) and the default answer.', '', '| transport | tool | call | whole (before) | default (after) |', '|---|---|---|---|---|']
/** Bytes of a tool's answer as the transport carries it. */
const bytes = (result: unknown) => Buffer.byteLength(JSON.stringify(result))

beforeAll(async () => {
  ;[world, solanaWorld] = await Promise.all([startWorld({ dataDir: DATA_DIR }), startSolanaWorld({ dataDir: DATA_DIR })])
  // A node that accepts connections and never answers.
  silentNode = createServer(() => {})
  await new Promise<void>((r) => silentNode.listen(0, '127.0.0.1', () => r()))
  const env = {
    // Ethereum's entry pointed at a closed port, BNB Chain's at the silent node.
    RPC_URL_1: 'http://127.0.0.1:9',
    RPC_URL_56: `http://127.0.0.1:${(silentNode.address() as AddressInfo).port}`,
  }
  const config = { ...loadConfig({ DATA_DIR, REQUEST_TIMEOUT_MS: String(DEADLINE_MS) }), devnet: 'on' as const }
  t = await embeddedStore()
  const metrics = createMetrics({ defaultMetrics: false })
  const deps = { config, env, cache: createMemoryCache(), store: t.store, logger: silent, metrics }
  const evm = createEvmEngine({ ...deps, chains: localChains(world.manifest) })
  const solana = createSolanaEngine({ ...deps, rpcUrls: [solanaWorld.rpcUrl], pricing: solanaWorld.manifest.pricing })
  const audits = createAuditRepository(t.store, { reportLink: (id) => `${TEST_BASE_URL}/reports/${id}` })
  sourceAudits = createSourceAuditService({ audits })
  const bounds = { maxFiles: MAX_SOURCE_AUDIT_FILES, maxBytes: MAX_SOURCE_AUDIT_BYTES, deadlineMs: DEADLINE_MS }
  api = await buildTestApp(t.store, { tokens: { evm: evm.service, solana }, audits, sourceAudits: { service: sourceAudits, bounds }, metrics, options: { requestTimeoutMs: DEADLINE_MS } })
  base = await api.app.listen({ port: 0, host: '127.0.0.1' })
  quickAudits = createSourceAuditService({ audits })
  quick = await buildTestApp(t.store, {
    tokens: { evm: evm.service, solana },
    audits,
    sourceAudits: { service: quickAudits, bounds: { ...bounds, deadlineMs: SHORT_DEADLINE_MS } },
    metrics,
    options: { requestTimeoutMs: SHORT_DEADLINE_MS },
  })
  quickBase = await quick.app.listen({ port: 0, host: '127.0.0.1' })
  key = (await api.keys.create({ userId: 'agent' })).key
  adminKey = (await api.keys.create({ userId: 'ops', admin: true })).key
}, 240_000)

afterAll(async () => {
  mkdirSync(join(PROJECT_ROOT, 'test-results'), { recursive: true })
  writeFileSync(TRANSCRIPT, `${transcript.join('\n')}\n`)
  writeFileSync(SIZES, `${sizes.join('\n')}\n`)
  process.stdout.write(`\n${sizes.join('\n')}\n`)
  await api?.app.close()
  await quick?.app.close()
  await sourceAudits?.close()
  await quickAudits?.close()
  await t?.cleanup()
  await world?.stop()
  await solanaWorld?.stop()
  silentNode?.close()
})

const token = (k: string) => zooToken(world.manifest, k).address
const mint = (k: string) => solanaMint(solanaWorld.manifest, k).address

/** An SDK client connected to the service's /mcp (at `url`) with `apiKey`, in `x-api-key` or as `Authorization: Bearer` (what agents' hosts send). */
async function httpClient(apiKey?: string, url = base, how: 'x-api-key' | 'bearer' = 'x-api-key'): Promise<Client> {
  const client = new Client({ name: 'tokenrisk-test', version: '1.0.0' })
  const headers: Record<string, string> = apiKey ? (how === 'bearer' ? { authorization: `Bearer ${apiKey}` } : { 'x-api-key': apiKey }) : {}
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }))
  return client
}

/** The text blocks of a tool's answer. */
const texts = (result: CallToolResult) => result.content.flatMap((c) => (c.type === 'text' ? [c.text] : []))

/** Calls a tool and writes the call and the first text of its answer into the transcript. */
async function call(client: Client, transport: string, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  const shown = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, k === 'files' ? '[…sources…]' : v]))
  transcript.push(`## ${transport}: ${name}`, '', '```json', JSON.stringify({ method: 'tools/call', params: { name, arguments: shown } }), '```', '')
  transcript.push(`${result.isError ? 'isError: true — ' : ''}answer:`, '', '```', texts(result)[0] ?? '', '```', '')
  return result
}

/** The JSON API's error message for the same request. */
async function httpMessage(url: string): Promise<string> {
  const res = await api.app.inject({ url, headers: { 'x-api-key': key } })
  expect(res.statusCode).toBeGreaterThanOrEqual(400)
  return res.json().message as string
}

describe('MCP over streamable HTTP (/mcp)', () => {
  let client: Client
  beforeAll(async () => {
    client = await httpClient(key)
  })
  afterAll(async () => client?.close())

  it('lists the four tools, each with a description an agent can act on and an input schema', async () => {
    const { tools } = await client.listTools()
    transcript.push('## HTTP: tools/list', '', tools.map((tool) => `- ${tool.name}: ${tool.title}`).join('\n'), '')
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS)
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(200)
      expect(tool.inputSchema.type).toBe('object')
    }
    const evm = tools.find((tool) => tool.name === 'evm_token_report')!
    expect(evm.inputSchema.required).toEqual(['chainId', 'tokenAddress'])
    expect(evm.description).toMatch(/HONEYPOT/)
    expect(evm.description).toContain('31337')
    expect(tools.find((tool) => tool.name === 'audit_solidity')!.inputSchema.required).toEqual(['files'])
  })

  it('reports an EVM honeypot: the verdict first and the facts to act on in a few KB, the report the JSON API serves on request', async () => {
    const address = token('honeypot')
    const result = await call(client, 'HTTP', 'evm_token_report', { chainId: 31337, tokenAddress: address })
    expect(result.isError).toBeFalsy()
    const [verdict, json] = texts(result)
    expect(verdict).toMatch(/^HONEYPOT: a holder of .* cannot sell on /)
    expect(verdict).toContain(`Token ${address} on chain 31337; its page: ${TEST_BASE_URL}/t/31337/${address}.`)
    const concise = result.structuredContent as { verdict: { word: string; market: { check: string }[] }; pools: { isHoneypot: string; sellTax: string }[]; links: { page: string }; more: string }
    expect(concise.verdict.word).toBe('HONEYPOT')
    expect(concise.verdict.market.map((m) => m.check)).toEqual(['liquidity-pullable', 'supply-concentrated'])
    expect(concise.pools[0]).toMatchObject({ isHoneypot: '1', sellTax: '' })
    expect(concise.links.page).toBe(`${TEST_BASE_URL}/t/31337/${address}`)
    expect(concise.more).toMatch(/full: true/)
    expect(JSON.parse(json)).toEqual(result.structuredContent)
    expect(bytes(result)).toBeLessThan(CONCISE_ANSWER_MAX_BYTES)
    const full = await call(client, 'HTTP', 'evm_token_report', { chainId: 31337, tokenAddress: address, full: true })
    const served = await api.app.inject({ url: `/api/v1/tokens/information/${address}?chainId=31337`, headers: { 'x-api-key': key } })
    expect(full.structuredContent).toEqual(served.json())
    expect(JSON.parse(texts(full)[1])).toEqual(served.json())
    expect(texts(full)[0]).toBe(verdict)
    sizes.push(`| HTTP | evm_token_report | honeypot | ${bytes(full)} | ${bytes(result)} |`)
    for (const k of ['tax-3-7-1', 'clean']) {
      const [whole, short] = await Promise.all([true, false].map((f) => client.callTool({ name: 'evm_token_report', arguments: { chainId: 31337, tokenAddress: token(k), full: f } })))
      expect(bytes(short), k).toBeLessThan(CONCISE_ANSWER_MAX_BYTES)
      sizes.push(`| HTTP | evm_token_report | ${k} | ${bytes(whole)} | ${bytes(short)} |`)
    }
  })

  it("says what runs on each pool (a V4 pool's hook and what it did), the longest words cut within the concise answer's share", async () => {
    const gate = await call(client, 'HTTP', 'evm_token_report', { chainId: 31337, tokenAddress: token('v4-sell-gate') })
    const pools = (gate.structuredContent as { pools: { venue: string }[] }).pools
    expect(pools[0].venue).toMatch(/^Uniswap V4 pool 0x[0-9a-f]{64} in the PoolManager .*\(beforeSwap\): sells through the pool fail: ZooHookSellGate: sells are closed$/)
    expect(bytes(gate)).toBeLessThan(CONCISE_ANSWER_MAX_BYTES)
    // The owner-raised fee's words (the hook's privileged calls, every account named) run longer than the share: cut at a word, and said.
    const [short, whole] = await Promise.all([false, true].map((full) => client.callTool({ name: 'evm_token_report', arguments: { chainId: 31337, tokenAddress: token('v4-owner-fee'), full } })))
    const words = (whole.structuredContent as { honeypotDetails: { venue: string }[] }).honeypotDetails[0].venue
    const cut = (short.structuredContent as { pools: { venue: string }[] }).pools[0].venue
    expect(words.length).toBeGreaterThan(CONCISE_MAX_VENUE_CHARS)
    expect(cut).toMatch(/ … \(cut; the full report has it whole\)$/)
    expect(words.startsWith(cut.replace(/ … \(cut; the full report has it whole\)$/, ''))).toBe(true)
    expect(bytes(short)).toBeLessThan(CONCISE_ANSWER_MAX_BYTES)
    // A pool the report says nothing more of (a V2 pair) has no words.
    const plain = await call(client, 'HTTP', 'evm_token_report', { chainId: 31337, tokenAddress: token('tax-3-7-1') })
    expect((plain.structuredContent as { pools: { venue: string }[] }).pools.map((p) => p.venue)).toEqual([''])
  })

  it('tells a mintable token and a clean one apart, never calling an unknown safe', async () => {
    const mintable = await call(client, 'HTTP', 'evm_token_report', { chainId: '31337', tokenAddress: token('mintable') })
    expect(texts(mintable)[0]).toMatch(/^OWNER CAN MINT: A privileged account can mint new tokens\./)
    const takes = await call(client, 'HTTP', 'evm_token_report', { chainId: 31337, tokenAddress: token('owner-change-balance') })
    expect(texts(takes)[0]).toMatch(/^OWNER CAN TAKE: /)
    const clean = await call(client, 'HTTP', 'evm_token_report', { chainId: 31337, tokenAddress: token('clean'), full: true })
    const report = clean.structuredContent as { codeChecks: Record<string, Record<string, { status: string }>>; honeypotDetails: { isPairHoneypot: string }[] }
    const statuses = [...Object.values(report.codeChecks.ownershipChecks), ...Object.values(report.codeChecks.otherChecks)].map((c) => c.status)
    expect(statuses).not.toContain('1')
    // Its code is clean, but its creator holds its LP tokens, unlocked: the market's grade is the verdict.
    expect(texts(clean)[0]).toMatch(/^LIQUIDITY CAN BE PULLED: The owner and creator 0x[0-9a-fA-F]{40} holds /)
    expect(texts(clean).join('\n')).not.toMatch(/\bsafe\b/i)

    // The same report with one check undecided and no sale simulated: never the best verdict.
    const unmeasured = structuredClone(clean.structuredContent) as unknown as TokenReport
    unmeasured.codeChecks.ownershipChecks.isMintable = { ...unmeasured.codeChecks.ownershipChecks.isMintable, status: '', risk: '', comment: 'not determinable: the node refused the simulation' }
    for (const pool of unmeasured.honeypotDetails) Object.assign(pool, { isPairHoneypot: '', honeypotReason: 'the sale could not be simulated' })
    // Nor who holds the LP tokens and the supply: nothing measured is found, and nothing reads as a pass.
    withHoldersUnread(unmeasured)
    const verdict = evmVerdict(unmeasured)
    expect(verdict.kind).toBe('not-measured')
    expect(verdict.headline).toMatch(/^COULD NOT BE MEASURED: whether a holder can sell, isMintable, liquidity, holders could not be measured for Clean Token \(CLEAN\)/)
    expect(verdict.unknown).toContainEqual({ check: 'isMintable', reason: 'the node refused the simulation' })
  })

  it('answers the newer shape when asked for quillcheck-v2', async () => {
    const address = token('honeypot')
    const result = await client.callTool({ name: 'evm_token_report', arguments: { chainId: 31337, tokenAddress: address, format: 'quillcheck-v2' } })
    const served = await api.app.inject({ url: `/api/v1/tokens/information/${address}?chainId=31337&format=quillcheck-v2`, headers: { 'x-api-key': key } })
    expect(result.structuredContent).toEqual(served.json())
    expect((result.structuredContent as { honeypotDetails: { isTokenHoneypot: unknown } }).honeypotDetails.isTokenHoneypot).toBe(1)
    // A key made for that shape gets it without asking, as on the JSON API.
    const v2Client = await httpClient((await api.keys.create({ userId: 'agent', format: 'quillcheck-v2' })).key)
    const byKey = await v2Client.callTool({ name: 'evm_token_report', arguments: { chainId: 31337, tokenAddress: address, full: true } })
    expect(byKey.structuredContent).toEqual(served.json())
    await v2Client.close()
  })

  it('reports a Solana mint whose freeze authority froze its pool: a honeypot, and why', async () => {
    const address = mint('freezable-spl')
    const result = await call(client, 'HTTP', 'solana_token_report', { tokenAddress: address })
    expect(result.isError).toBeFalsy()
    const [verdict] = texts(result)
    expect(verdict).toMatch(/^HONEYPOT: a holder of Freezable Coin \(FRZ\) cannot sell on .* vault is frozen/)
    expect(verdict).toMatch(/- \[Critical\] .*freeze.* \(isFreezable\)/i)
    expect((result.structuredContent as { verdict: { word: string } }).verdict.word).toBe('HONEYPOT')
    expect(bytes(result)).toBeLessThan(CONCISE_ANSWER_MAX_BYTES)
    const full = await call(client, 'HTTP', 'solana_token_report', { tokenAddress: address, full: true })
    const served = await api.app.inject({ url: `/api/v1/tokens/solana/${address}`, headers: { 'x-api-key': key } })
    expect(full.structuredContent).toEqual(served.json())
    sizes.push(`| HTTP | solana_token_report | freezable-spl | ${bytes(full)} | ${bytes(result)} |`)
  })

  it('says where a Solana token launched: its curve, how far it sold, in words and fields', async () => {
    const m = solanaMint(solanaWorld.manifest, 'pump-curve')
    const result = await call(client, 'HTTP', 'solana_token_report', { tokenAddress: m.address })
    const concise = result.structuredContent as { launchCurve: Record<string, string>; liquidity: Record<string, string> }
    expect(concise.launchCurve).toMatchObject({ state: 'on curve', address: m.curve!.address, progressPercent: String(m.curve!.progressPercent), graduatedPool: '' })
    expect(concise.launchCurve.words).toBe(`trading on its pump.fun bonding curve ${m.curve!.address}: ${m.curve!.progressPercent} % of its tokens sold, ${concise.launchCurve.words.match(/, ([\d.]+) SOL on it$/)?.[1]} SOL on it`)
    expect(Object.keys(concise.liquidity)).toEqual(['usd', 'lpPool', 'lockedPercent', 'lockedPools', 'nextUnlocks'])
    // Liquidity locked in a DAMM v2 pool's positions (no LP token): the pool, its locked share, the unlocks to come.
    const damm = solanaMint(solanaWorld.manifest, 'meteora-damm-v2')
    const locked = (await call(client, 'HTTP', 'solana_token_report', { tokenAddress: damm.address })).structuredContent as {
      liquidity: { lockedPools: { pool: string; lockedPercent: string }[]; nextUnlocks: { percent: string }[] }
    }
    const pool = damm.pools.find((p) => p.locks)!
    expect(locked.liquidity.lockedPools).toEqual([{ pool: pool.address, dex: 'Meteora DAMM v2', lockedPercent: String(pool.locks!.lockedPercent) }])
    expect(locked.liquidity.nextUnlocks.map((u) => u.percent)).toEqual(pool.locks!.unlocks.slice(0, 3).map((u) => String(u.percent)))
    const plain = await call(client, 'HTTP', 'solana_token_report', { tokenAddress: mint('freezable-spl') })
    expect((plain.structuredContent as { launchCurve: { state: string; words: string } }).launchCurve).toMatchObject({ state: 'none', words: '' })
  })

  it('audits a source, records it in a project, and reads the project back in its history', async () => {
    const recorded = await call(client, 'HTTP', 'audit_solidity', { files: [{ path: 'src/Vault.sol', content: VAULT_SOURCE }], projectId: 'vault', projectName: 'Vault' })
    expect(recorded.isError, texts(recorded)[0]).toBeFalsy()
    const [summary] = texts(recorded)
    expect(summary).toMatch(/^Security score [\d.]+\/100 over 17 lines: 1 high, /)
    // The bug is found where it is, and its guarded look-alike is not.
    expect(summary).toContain('- [high/high] Unprotected selfdestruct — src/Vault.sol:15-15')
    expect(summary).not.toContain('src/Vault.sol:9-')
    const link = (recorded.structuredContent as { audit: { projectReportLink: string } }).audit.projectReportLink
    expect(link).toMatch(/^https:\/\/tokenrisk\.test\/reports\/[\w-]{24}$/)
    expect(summary).toContain(`Recorded in project vault: ${link}`)

    const history = await call(client, 'HTTP', 'audit_history', { projectId: 'vault' })
    expect(texts(history)[0]).toMatch(/^Project vault of user agent: 1 audit recorded; audits 1–1 below, newest first\.\n- security score [\d.]+\/100 over 17 lines: 1 high, /)
    expect(texts(history)[0]).toContain(link)
    const served = (await api.app.inject({ url: '/api/v1/projects/audit/history?projectId=vault&userId=agent', headers: { 'x-api-key': key } })).json() as {
      audits: { vulnerabilities: unknown[]; projectReportLink: string }[]
      auditCount: number
    }
    // The history page, each audit's findings paged (the JSON API lists them all).
    const paged = history.structuredContent as { audits: { findings: unknown[]; findingsListed: number; findingsPage: number; projectReportLink: string }[]; auditCount: number }
    expect(paged.auditCount).toBe(served.auditCount)
    expect(paged.audits[0]).toMatchObject({ findingsListed: served.audits[0].vulnerabilities.length, findingsPage: 1, projectReportLink: served.audits[0].projectReportLink })
    expect(paged.audits[0].findings).toEqual(served.audits[0].vulnerabilities.slice(0, 10))
    const second = await client.callTool({ name: 'audit_history', arguments: { projectId: 'vault', findingsPerPage: 1, findingsPage: 2 } })
    expect((second.structuredContent as typeof paged).audits[0].findings).toEqual(served.audits[0].vulnerabilities.slice(1, 2))
  })

  it('pages the findings of a large audit: one audit is a few KB, not the whole list', async () => {
    const big = await client.callTool({ name: 'audit_solidity', arguments: { files: [{ path: 'Generated.sol', content: generateSolidity(24_000) }], projectId: 'big' } })
    expect(big.isError, texts(big as CallToolResult)[0]).toBeFalsy()
    const served = await api.app.inject({ url: '/api/v1/projects/audit/history?projectId=big&userId=agent&limit=1', headers: { 'x-api-key': key } })
    const listed = (served.json() as { audits: { vulnerabilities: unknown[] }[] }).audits[0].vulnerabilities.length
    expect(listed).toBeGreaterThan(10)
    const history = (await call(client, 'HTTP', 'audit_history', { projectId: 'big', limit: 1 })) as CallToolResult
    expect(texts(history)[0]).toMatch(/Findings 1–10 of each audit are listed; findingsPage: 2 lists the next 10\./)
    expect((history.structuredContent as { audits: { findings: unknown[] }[] }).audits[0].findings).toHaveLength(10)
    // Before: the history page as the JSON API serves it, as text and as structured content.
    const before = { content: [{ type: 'text', text: texts(history)[0] }, { type: 'text', text: served.body }], structuredContent: served.json() }
    expect(bytes(history)).toBeLessThan(bytes(before))
    sizes.push(`| HTTP | audit_history | one audit, ${listed} findings, limit 1 | ${bytes(before)} | ${bytes(history)} |`)
  }, 120_000)

  it('answers bad input and failed nodes with the JSON API\'s messages, as tool errors', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ chainId: 31337, tokenAddress: '0x1234' }, `/api/v1/tokens/information/0x1234?chainId=31337`],
      [{ chainId: 31337, tokenAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB49' }, '/api/v1/tokens/information/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB49?chainId=31337'],
      [{ chainId: 'one', tokenAddress: token('clean') }, `/api/v1/tokens/information/${token('clean')}?chainId=one`],
      [{ chainId: 31337, tokenAddress: world.manifest.tokens[0].address, format: 'v3' }, `/api/v1/tokens/information/${world.manifest.tokens[0].address}?chainId=31337&format=v3`],
      // No contract at the address: 404.
      [{ chainId: 31337, tokenAddress: '0x000000000000000000000000000000000000dEaD' }, '/api/v1/tokens/information/0x000000000000000000000000000000000000dEaD?chainId=31337'],
      // The node of chain 1 refuses connections: 503.
      [{ chainId: 1, tokenAddress: token('clean') }, `/api/v1/tokens/information/${token('clean')}?chainId=1`],
    ]
    for (const [args, url] of cases) {
      const result = await call(client, 'HTTP', 'evm_token_report', args)
      expect(result.isError, url).toBe(true)
      expect(texts(result)[0], url).toBe(await httpMessage(url))
    }
    // A chain not served is a configuration of the instance: what to set, and no retry.
    const unserved = await call(client, 'HTTP', 'evm_token_report', { chainId: 999, tokenAddress: token('clean') })
    expect(unserved.isError).toBe(true)
    expect(texts(unserved)[0]).toMatch(/^chain 999 is not served by this tokenrisk; it serves 1 \(Ethereum\), 56 \(BNB Chain\), 31337 \(local\)\. To serve it, its operator sets RPC_URL_999=<JSON-RPC URL> /)
    expect(texts(unserved)[0]).not.toContain('/api/v1/')
    expect(unserved.structuredContent).toEqual({ error: expect.objectContaining({ retryable: false, setting: 'RPC_URL_999' }) })
    expect((unserved.structuredContent as { error: object }).error).not.toHaveProperty('retryAfterSeconds')
    const missing = await client.callTool({ name: 'evm_token_report', arguments: { chainId: 31337 } })
    expect(texts(missing as CallToolResult)[0]).toBe("must have required property 'tokenAddress'")
    const notMint = await call(client, 'HTTP', 'solana_token_report', { tokenAddress: solanaWorld.manifest.notMints.wallet })
    expect(notMint.isError).toBe(true)
    expect(texts(notMint)[0]).toBe(await httpMessage(`/api/v1/tokens/solana/${solanaWorld.manifest.notMints.wallet}`))
    const othersProject = await call(client, 'HTTP', 'audit_history', { projectId: 'vault', userId: 'someone-else' })
    expect(texts(othersProject)[0]).toBe(await httpMessage('/api/v1/projects/audit/history?projectId=vault&userId=someone-else'))
    const badPath = await call(client, 'HTTP', 'audit_solidity', { files: [{ path: '../etc/passwd.sol', content: VAULT_SOURCE }] })
    expect(badPath.isError).toBe(true)
    expect(texts(badPath)[0]).toMatch(/^path '\.\.\/etc\/passwd\.sol' must be a relative path ending in \.sol/)
    expect(badPath.structuredContent).toMatchObject({ error: { statusCode: 400, error: 'Bad Request' } })
  })

  it('answers a node that never answers within the request deadline', async () => {
    const quickKey = (await quick.keys.create({ userId: 'agent' })).key
    const quickClient = await httpClient(quickKey, quickBase)
    const result = await call(quickClient, 'HTTP', 'evm_token_report', { chainId: 56, tokenAddress: token('clean') })
    expect(result.isError).toBe(true)
    expect(texts(result)[0]).toBe(`no answer within the ${SHORT_DEADLINE_MS / 1000} s deadline; try again`)
    expect(result.structuredContent).toMatchObject({ error: { statusCode: 503, retryAfterSeconds: expect.any(Number) } })
    // An audit past the deadline is answered so, and its thread ended: a thousand contracts of findings take longer.
    const audit = await call(quickClient, 'HTTP', 'audit_solidity', { files: [{ path: 'Generated.sol', content: generateSolidity(MAX_SOURCE_AUDIT_BYTES / 2) }] })
    expect(texts(audit)[0]).toBe(`the audit did not finish within the ${SHORT_DEADLINE_MS / 1000} s deadline: audit fewer files at a time, or the whole project with tokenrisk audit`)
    expect(audit.structuredContent).toMatchObject({ error: { statusCode: 503 } })
    await quickClient.close()
  })

  it('refuses an agent without a key (401) in a JSON-RPC error with the message, and a key that reads another user\'s projects is told so', async () => {
    await expect(httpClient()).rejects.toThrow(/401.*missing API key: send it in the x-api-key header \(or as Authorization: Bearer <key>\)/)
    await expect(httpClient('trk_nope_nope')).rejects.toThrow(/401.*invalid or revoked API key/)
    await expect(httpClient('trk_nope_nope', base, 'bearer')).rejects.toThrow(/401.*invalid or revoked API key/)
    const raw = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' })
    expect(raw.status).toBe(401)
    const message = 'missing API key: send it in the x-api-key header (or as Authorization: Bearer <key>)'
    expect(await raw.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32001, message, data: { statusCode: 401, error: 'Unauthorized', message } } })
    // Authorization: Bearer is a key as x-api-key is, on /mcp as on the JSON API.
    const bearer = await httpClient(key, base, 'bearer')
    const answer = (await bearer.callTool({ name: 'evm_token_report', arguments: { chainId: 31337, tokenAddress: token('tax-3-7-1') } })) as CallToolResult
    expect(texts(answer)[0]).toMatch(/^LIQUIDITY CAN BE PULLED: /)
    expect(bytes(answer)).toBeLessThan(CONCISE_ANSWER_MAX_BYTES)
    await bearer.close()
    expect((await api.app.inject({ url: '/api/v1/chains', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(200)
    // An admin key reads any user's project.
    const admin = await httpClient(adminKey)
    const history = await admin.callTool({ name: 'audit_history', arguments: { projectId: 'vault', userId: 'agent' } })
    expect((history.structuredContent as { auditCount: number }).auditCount).toBe(1)
    await admin.close()
  })

  it('keeps no session: any instance answers a call without a handshake, and GET opens no stream', async () => {
    const raw = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'evm_token_report', arguments: { chainId: 31337, tokenAddress: token('mintable') } } }),
    })
    expect(raw.status).toBe(200)
    expect(raw.headers.get('mcp-session-id')).toBeNull()
    const body = (await raw.json()) as { id: number; result: CallToolResult }
    expect(body.id).toBe(7)
    expect(texts(body.result)[0]).toMatch(/^OWNER CAN MINT: /)
    const stream = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream', 'x-api-key': key } })
    expect(stream.status).toBe(405)
    expect(stream.headers.get('allow')).toBe('POST')
  })

  it('is described in the OpenAPI document, with the API key it needs', async () => {
    const doc = (await api.app.inject('/openapi.json')).json()
    const post = doc.paths['/mcp'].post
    expect(post.tags).toEqual(['agents'])
    expect(post.security).toEqual([{ apiKey: [] }])
    expect(post.description).toMatch(/evm_token_report.*solana_token_report.*audit_history.*audit_solidity/s)
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['200', '202', '401']))
    expect(doc.paths['/mcp'].get).toBeUndefined()
  })

  it('counts each tool call against the key\'s rate limit and usage, not the handshake', async () => {
    const limited = await api.keys.create({ userId: 'agent', rateLimitRps: 1 })
    const usage = async () =>
      (await api.app.inject({ url: '/api/v1/auth/user/plan/usage', headers: { 'x-api-key': limited.key } })).json().data.usageStats.usedRequests as number
    const limitedClient = await httpClient(limited.key)
    await limitedClient.listTools()
    // The handshake and the list made three requests within a second at 1 per second: none was refused or counted.
    await new Promise((r) => setTimeout(r, 1_100))
    expect(await usage()).toBe(1)
    const answers: CallToolResult[] = []
    for (let i = 0; i < 4; i++) answers.push((await limitedClient.callTool({ name: 'evm_token_report', arguments: { chainId: 31337, tokenAddress: '0x12' } })) as CallToolResult)
    const refused = answers.filter((a) => texts(a)[0] === 'rate limit exceeded; retry in 1 s')
    expect(refused.length).toBeGreaterThan(0)
    expect(refused[0].structuredContent).toMatchObject({ error: { statusCode: 429, retryAfterSeconds: 1 } })
    await new Promise((r) => setTimeout(r, 1_100))
    // The usage request above counted one; the calls that passed the rate limit count one each.
    expect(await usage()).toBe(2 + answers.length - refused.length)
    await limitedClient.close()
  })
})

describe('MCP over stdio (tokenrisk mcp)', () => {
  let dataDir: string
  let client: Client
  let stderr = ''
  beforeAll(async () => {
    // A data directory of its own, where a service on the test's worlds would leave them.
    dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-mcp-'))
    writeLocalChainsFile(join(dataDir, 'devnet'), world.manifest)
    writeLocalSolanaFile(join(dataDir, 'devnet'), solanaWorld.manifest)
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(PROJECT_ROOT, 'bin', 'tokenrisk.js'), 'mcp', '--user', 'desk'],
      env: { ...getDefaultEnvironment(), DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://tokenrisk.example', LOG_LEVEL: 'warn', REQUEST_TIMEOUT_MS: String(DEADLINE_MS) },
      stderr: 'pipe',
    })
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    client = new Client({ name: 'tokenrisk-test', version: '1.0.0' })
    await client.connect(transport)
  }, 60_000)
  afterAll(async () => {
    await client?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('lists the tools and calls each one', async () => {
    const { tools } = await client.listTools()
    transcript.push('## stdio: tools/list', '', tools.map((tool) => `- ${tool.name}: ${tool.title}`).join('\n'), '')
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS)
    expect(stderr).toMatch(/tokenrisk mcp: 4 tools over stdio \(EVM chains: 31337;/)

    const honeypot = await call(client, 'stdio', 'evm_token_report', { chainId: 31337, tokenAddress: token('honeypot') })
    expect(texts(honeypot)[0]).toMatch(/^HONEYPOT: /)
    const freezable = await call(client, 'stdio', 'solana_token_report', { tokenAddress: mint('freezable-spl') })
    expect(texts(freezable)[0]).toMatch(/^HONEYPOT: .*\n(.*\n)*- \[Critical\] .*\(isFreezable\)/)
    const unrecorded = await call(client, 'stdio', 'audit_solidity', { files: [{ path: 'Vault.sol', content: VAULT_SOURCE }] })
    expect(texts(unrecorded)[0]).toMatch(/^Security score [\d.]+\/100 over 17 lines: 1 high, (.*\n)+Not recorded \(pass projectId to record it\)\.$/)
    expect((unrecorded.structuredContent as { audit: { projectReportLink?: string } }).audit.projectReportLink).toBeUndefined()
    const audit = await call(client, 'stdio', 'audit_solidity', { files: [{ path: 'Vault.sol', content: VAULT_SOURCE }], projectId: 'desk-vault' })
    expect(texts(audit)[0]).toContain('- [high/high] Unprotected selfdestruct — Vault.sol:15-15')
    expect(texts(audit)[0]).toMatch(/Recorded in project desk-vault: https:\/\/tokenrisk\.example\/reports\//)
    const history = await call(client, 'stdio', 'audit_history', { projectId: 'desk-vault' })
    expect(texts(history)[0]).toMatch(/^Project desk-vault of user desk: 1 audit recorded/)
  })

  it('answers bad input with the JSON API\'s messages, as tool errors', async () => {
    const bad = await call(client, 'stdio', 'evm_token_report', { chainId: 31337, tokenAddress: 'not-an-address' })
    expect(bad.isError).toBe(true)
    expect(texts(bad)[0]).toBe('tokenAddress must be an EVM address: 0x followed by 40 hexadecimal characters (20 bytes)')
    const unknown = await call(client, 'stdio', 'evm_token_report', { chainId: 999, tokenAddress: token('clean') })
    expect(texts(unknown)[0]).toMatch(/^chain 999 is not served by this tokenrisk; it serves 31337 \(.+\)\. To serve it, its operator sets RPC_URL_999=/)
    // Bounded like tokenrisk audit: no more source than the largest file it reads.
    expect(MAX_SOURCE_AUDIT_BYTES).toBeLessThanOrEqual(MAX_SOURCE_BYTES)
    const tooBig = await client.callTool({ name: 'audit_solidity', arguments: { files: [{ path: 'Big.sol', content: 'x'.repeat(MAX_SOURCE_AUDIT_BYTES + 1) }] } })
    expect(texts(tooBig as CallToolResult)[0]).toBe(`the sources are ${MAX_SOURCE_AUDIT_BYTES + 1} bytes; an audit takes at most ${MAX_SOURCE_AUDIT_BYTES} (audit larger projects with tokenrisk audit)`)
  })
})

describe('MCP configuration errors', () => {
  it('a Solana report without a Solana RPC says what to set, and is not retryable', async () => {
    const config = { ...loadConfig({ DATA_DIR }), devnet: 'off' as const }
    const solana = createSolanaEngine({ config, env: {}, cache: createMemoryCache(), store: t.store, logger: silent, rpcUrls: [] })
    const server = createMcpServer({ services: { solana }, caller: { admin: true }, bounded: (work) => work(new AbortController().signal, Date.now() + DEADLINE_MS), logger: silent })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: 'tokenrisk-test', version: '1.0.0' })
    await client.connect(clientSide)
    const result = await call(client, 'in-memory', 'solana_token_report', { tokenAddress: mint('clean-spl') })
    expect(result.isError).toBe(true)
    expect(texts(result)[0]).toBe('no Solana RPC is configured on this instance: its operator must set SOLANA_RPC_URL to a Solana JSON-RPC URL; asking again changes nothing until then')
    expect(result.structuredContent).toEqual({ error: { statusCode: 503, error: 'Service Unavailable', message: texts(result)[0], retryable: false, setting: 'SOLANA_RPC_URL' } })
    await client.close()
  })
})

describe('MCP over stdio beside a running service', () => {
  it('links to where the service that owns the data directory answers (its lock file), not to the default port', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-mcp-lock-'))
    try {
      writeLocalChainsFile(join(dataDir, 'devnet'), world.manifest)
      // A service on port 3101 owns the directory: this test's own process stands for it (alive, not the agent's).
      writeFileSync(join(dataDir, DATA_DIR_LOCK_FILE), JSON.stringify({ pid: process.pid, command: 'serve', url: 'http://127.0.0.1:3101', startedAt: new Date().toISOString() }))
      const env = { ...getDefaultEnvironment(), DATA_DIR: dataDir, LOG_LEVEL: 'warn', REQUEST_TIMEOUT_MS: String(DEADLINE_MS) }
      const client = new Client({ name: 'tokenrisk-test', version: '1.0.0' })
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(PROJECT_ROOT, 'bin', 'tokenrisk.js'), 'mcp', '--user', 'desk'], env, stderr: 'ignore' }))
      try {
        const address = token('tax-3-7-1')
        const result = await call(client, 'stdio', 'evm_token_report', { chainId: 31337, tokenAddress: address })
        expect((result.structuredContent as { links: { page: string } }).links.page).toBe(`http://127.0.0.1:3101/t/31337/${address}`)
        expect(texts(result)[0]).toContain(`its page: http://127.0.0.1:3101/t/31337/${address}`)
        const full = await client.callTool({ name: 'evm_token_report', arguments: { chainId: 31337, tokenAddress: address, full: true } })
        sizes.push(`| stdio | evm_token_report | tax-3-7-1 | ${bytes(full)} | ${bytes(result)} |`)
        const audit = await client.callTool({ name: 'audit_solidity', arguments: { files: [{ path: 'Vault.sol', content: VAULT_SOURCE }], projectId: 'lock-vault' } })
        expect(texts(audit as CallToolResult)[0]).toMatch(/Recorded in project lock-vault: http:\/\/127\.0\.0\.1:3101\/reports\//)
      } finally {
        await client.close()
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
