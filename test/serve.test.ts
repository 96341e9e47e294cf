// `tokenrisk serve` as `npm start` runs it: with no chain configured it starts the local worlds
// and prints ready curl commands that answer real reports; with a chain configured it does not;
// SIGTERM stops it and its anvil.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { evmChainsConfigured } from '../src/cli/serve.ts'
import { loadConfig } from '../src/config/settings.ts'
import { freePort } from '@tokenrisk/devworld/anvil'
import { PROJECT_ROOT, TEST_DATA_ROOT, TEST_DEVNET_DIR } from './helpers/paths.ts'

/** The shared test world, built and saved before the tests start (test/global-setup.ts). */
const SAVED_WORLD = join(TEST_DEVNET_DIR, 'devnet')
/**
 * A data directory of the service's own, holding a copy of the saved world: the other test files
 * start and stop worlds on the shared one, and a world that stops takes back the chains file it
 * left there, which this service's commands read.
 */
const DATA_DIR = join(TEST_DATA_ROOT, 'test-serve')

beforeAll(() => {
  rmSync(DATA_DIR, { recursive: true, force: true })
  mkdirSync(join(DATA_DIR, 'devnet'), { recursive: true })
  for (const f of readdirSync(SAVED_WORLD)) {
    if (/^(state|world)-.*\.json$|manifest\.json$/.test(f)) copyFileSync(join(SAVED_WORLD, f), join(DATA_DIR, 'devnet', f))
  }
})

afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }))

async function serve(env: NodeJS.ProcessEnv): Promise<ChildProcessWithoutNullStreams> {
  // A port the system just handed out, not a guess that a client socket may already hold.
  const port = await freePort()
  return spawn(process.execPath, [join(PROJECT_ROOT, 'bin/tokenrisk.js'), 'serve'], {
    env: { ...process.env, DATA_DIR, PORT: String(port), LOG_LEVEL: 'warn', DEVNET: 'auto', ...env },
  })
}

/** Collects a stream's text and resolves when `pattern` appears in it. */
function waitFor(stream: NodeJS.ReadableStream, pattern: RegExp, timeoutMs: number): Promise<string> {
  let text = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; got:\n${text}`)), timeoutMs)
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      if (pattern.test(text)) {
        clearTimeout(timer)
        resolve(text)
      }
    })
  })
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('tokenrisk serve', () => {
  it('starts the local worlds when no chain is configured, prints curl commands that work, and stops anvil on SIGTERM', async () => {
    const child = await serve({ RPC_URL_1: '', CHAINS_FILE: '', SOLANA_RPC_URL: '' })
    const stderr = waitFor(child.stderr, /tokenrisk listening on/, 120_000)
    const banner = await waitFor(child.stdout, /API docs:/, 120_000)
    const log = await stderr
    expect(log).toMatch(/local chain world ready in \d+ ms at http:\/\/127\.0\.0\.1:(\d+)/)
    const anvilPort = /local chain world ready in \d+ ms at http:\/\/127\.0\.0\.1:(\d+)/.exec(log)![1]

    const commands = [...banner.matchAll(/curl -s -H 'x-api-key: (\S+)' '(\S+)'/g)]
    expect(commands.length).toBeGreaterThanOrEqual(6)
    for (const [, key, url] of commands) {
      const res = await fetch(url, { headers: { 'x-api-key': key } })
      expect(res.status, url).toBe(200)
      const body = (await res.json()) as Record<string, unknown>
      if (url.includes('/tokens/solana/')) expect(Object.keys(body)).toEqual(expect.arrayContaining(['tokenInformation', 'codeChecks', 'honeypotDetails']))
      else if (url.includes('/tokens/')) expect(Object.keys(body)).toEqual(expect.arrayContaining(['tokenInformation', 'tokenScore', 'codeChecks']))
      else expect(body).toEqual({ audits: [], auditCount: expect.any(Number) })
    }
    expect(banner).toMatch(/# Honeypot Token \(honeypot\)/)
    // A demo key of each view, and which clients read which.
    const [, v1Key, v2Key] = /Which key: v1 (trk_\S+) .*; quillcheck-v2 (trk_\S+) for clients of the hosted QuillCheck service/.exec(banner)!
    expect(commands.filter(([, key]) => key === v2Key).length).toBe(1)
    expect(commands.filter(([, key]) => key === v1Key).length).toBe(commands.length - 1)

    // Agents reach the same service through /mcp with the same keys: the served bundle loads the
    // MCP SDK with the first request, and audits sources in its bundled worker thread.
    const served = /tokenrisk listening on (\S+)/.exec(log)![1].replace('0.0.0.0', '127.0.0.1')
    const agent = new Client({ name: 'serve-test', version: '1.0.0' })
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${served}/mcp`), { requestInit: { headers: { 'x-api-key': v1Key } } }))
    expect((await agent.listTools()).tools.map((t) => t.name)).toEqual(['evm_token_report', 'solana_token_report', 'audit_history', 'audit_solidity'])
    const honeypot = /# Honeypot Token \(honeypot\)\n.*tokens\/information\/(0x[0-9a-fA-F]{40})/.exec(banner)![1]
    const verdict = (await agent.callTool({ name: 'evm_token_report', arguments: { chainId: 31337, tokenAddress: honeypot } })) as CallToolResult
    expect(verdict.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^HONEYPOT: /) })
    const source = 'pragma solidity 0.8.20;\ncontract Open {\n    function close() external { selfdestruct(payable(msg.sender)); }\n}\n'
    const audit = (await agent.callTool({ name: 'audit_solidity', arguments: { files: [{ path: 'Open.sol', content: source }] } })) as CallToolResult
    expect(audit.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('- [high/high] Unprotected selfdestruct — Open.sol:3-3') })
    await agent.close()

    const chainId = async () =>
      fetch(`http://127.0.0.1:${anvilPort}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      })
    expect(((await (await chainId()).json()) as { result: string }).result).toBe('0x7a69')

    // A second start on the same data directory says so and leaves the running world's files alone.
    const worldFiles = ['chains.json', 'solana.json'].map((f) => join(DATA_DIR, 'devnet', f))
    const before = worldFiles.map((f) => [readFileSync(f, 'utf8'), statSync(f).mtimeMs])
    const second = await serve({ RPC_URL_1: '', CHAINS_FILE: '', SOLANA_RPC_URL: '' })
    let secondErr = ''
    second.stderr.on('data', (c: Buffer) => (secondErr += c.toString()))
    const [secondCode] = await once(second, 'exit')
    expect(secondCode).toBe(2)
    expect(secondErr.trim()).toMatch(new RegExp(`^tokenrisk serve \\(pid ${child.pid}, http://127\\.0\\.0\\.1:\\d+\\) runs on the data directory ${DATA_DIR}: `))
    expect(worldFiles.map((f) => [readFileSync(f, 'utf8'), statSync(f).mtimeMs])).toEqual(before)
    // scan reads the running world through the files it left.
    const scan = spawnSync(process.execPath, [join(PROJECT_ROOT, 'bin/tokenrisk.js'), 'scan', honeypot, '--chain', '31337', '--json'], { env: { ...process.env, DATA_DIR, RPC_URL_31337: '' }, encoding: 'utf8' })
    expect(scan.status, scan.stderr).toBe(0)
    expect(JSON.parse(scan.stdout).codeChecks.otherChecks.cannotSellAll).toMatchObject({ status: '1', risk: 'Critical' })

    child.kill('SIGTERM')
    const [code] = await once(child, 'exit')
    expect(code).toBe(0)
    await expect(chainId()).rejects.toThrow()
    // The files that told other processes where the world was go with it.
    expect(worldFiles.map((f) => existsSync(f))).toEqual([false, false])
  }, 180_000)

  it.each(['SIGTERM', 'SIGINT'] as const)('npm start stops everything it started (service, anvil, the Solana world) on %s sent to npm', async (signal) => {
    const port = await freePort()
    const npm = spawn('npm', ['start'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_DIR, PORT: String(port), LOG_LEVEL: 'warn', DEVNET: 'auto', RPC_URL_1: '', CHAINS_FILE: '', SOLANA_RPC_URL: '' },
    })
    const log = waitFor(npm.stderr, /tokenrisk listening on/, 120_000)
    await waitFor(npm.stdout, /API docs:/, 120_000)
    const anvilPort = /local chain world ready in \d+ ms at http:\/\/127\.0\.0\.1:(\d+)/.exec(await log)![1]
    const servicePid = (JSON.parse(readFileSync(join(DATA_DIR, 'tokenrisk.lock'), 'utf8')) as { pid: number }).pid
    const solanaUrl = (JSON.parse(readFileSync(join(DATA_DIR, 'devnet', 'solana.json'), 'utf8')) as { rpcUrl: string }).rpcUrl
    const answers = async (url: string) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"getHealth","params":[]}', signal: AbortSignal.timeout(2_000) }).then(
        () => true,
        () => false,
      )
    expect(servicePid).not.toBe(npm.pid)
    expect(alive(servicePid)).toBe(true)
    expect(await answers(`http://127.0.0.1:${anvilPort}`)).toBe(true)
    expect(await answers(solanaUrl)).toBe(true)

    npm.kill(signal)
    await once(npm, 'exit')
    await expect.poll(() => alive(servicePid), { timeout: 30_000, interval: 200 }).toBe(false)
    expect(await answers(`http://127.0.0.1:${anvilPort}`)).toBe(false)
    expect(await answers(solanaUrl)).toBe(false)
    expect(await answers(`http://127.0.0.1:${port}/healthz`)).toBe(false)
    expect(existsSync(join(DATA_DIR, 'tokenrisk.lock'))).toBe(false)
    expect(existsSync(join(DATA_DIR, 'devnet', 'chains.json'))).toBe(false)
    expect(existsSync(join(DATA_DIR, 'devnet', 'solana.json'))).toBe(false)
  }, 180_000)

  it('serves the configured chains and no local world when an RPC URL or a chains file is given', () => {
    const config = loadConfig({})
    expect(evmChainsConfigured(config, {})).toBe(false)
    expect(evmChainsConfigured(config, { RPC_URL_1: 'https://eth.example' })).toBe(true)
    expect(evmChainsConfigured(config, { RPC_URL_1: '  ' })).toBe(false)
    expect(evmChainsConfigured({ ...config, chainsFile: 'chains.json' }, {})).toBe(true)
  })

  it('does not start a world with a chain configured: readiness checks that chain only', async () => {
    const child = await serve({ RPC_URL_1: 'http://127.0.0.1:9', SOLANA_RPC_URL: 'http://127.0.0.1:9' })
    const log = await waitFor(child.stderr, /tokenrisk listening on (\S+)/, 60_000)
    expect(log).not.toMatch(/local chain world/)
    expect(log).not.toMatch(/solana world/)
    const url = /tokenrisk listening on (\S+)/.exec(log)![1]
    const ready = await fetch(`${url}/readyz`)
    expect(ready.status).toBe(503)
    const checks = ((await ready.json()) as { checks: Record<string, string> }).checks
    expect(Object.keys(checks).sort()).toEqual(['chain 1', 'solana', 'store'])
    expect(checks.store).toBe('ok')
    child.kill('SIGTERM')
    const [code] = await once(child, 'exit')
    expect(code).toBe(0)
    expect(alive(child.pid!)).toBe(false)
  }, 90_000)
})
