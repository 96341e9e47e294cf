// The local world's life cycle: built, saved, loaded again; anvil never outlives its process,
// whether that process stops it, exits, crashes, or is killed with SIGTERM or SIGKILL.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devnetCommand } from '../src/cli/devnet.ts'
import { PROJECT_ROOT } from './helpers/paths.ts'
import { startAnvil } from '@tokenrisk/devworld/anvil'
import type { DevnetManifest } from '@tokenrisk/devworld/manifest'
import { DevnetError } from '@tokenrisk/devworld/rpc'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { captureIo } from './helpers/io.ts'

const GONE_WITHIN_MS = 10_000

/** Whether a process runs (a zombie waiting to be reaped counts as gone). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return existsSync(`/proc/${pid}`)
  }
}

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return !isAlive(pid)
}

async function chainId(rpcUrl: string): Promise<string> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
  })
  return ((await response.json()) as { result: string }).result
}

const withoutUrl = (m: DevnetManifest): Omit<DevnetManifest, 'rpcUrl'> => {
  const { rpcUrl: _, ...rest } = m
  return rest
}

/**
 * Starts a world in a child Node process that prints `{ anvilPid, rpcUrl }` once ready, then
 * does what `then` says: wait, throw (crash), or exit.
 */
function childWorld(dataDir: string, then: 'wait' | 'crash' | 'exit'): Promise<{ child: ReturnType<typeof spawn>; anvilPid: number; rpcUrl: string }> {
  const worldModule = pathToFileURL(join(PROJECT_ROOT, 'packages', 'devworld', 'src', 'world.ts')).href
  const script = `
    const { startWorld } = await import(${JSON.stringify(worldModule)})
    const world = await startWorld({ dataDir: ${JSON.stringify(dataDir)} })
    console.log(JSON.stringify({ anvilPid: world.anvilPid, rpcUrl: world.rpcUrl }))
    const then = ${JSON.stringify(then)}
    if (then === 'crash') setTimeout(() => { throw new Error('crash on purpose') }, 200)
    else if (then === 'exit') setTimeout(() => process.exit(0), 200)
    else setInterval(() => {}, 1000)
  `
  const child = spawn(process.execPath, ['--conditions=tokenrisk-source', '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const line = out.split('\n').find((l) => l.startsWith('{'))
      if (line) resolve({ child, ...(JSON.parse(line) as { anvilPid: number; rpcUrl: string }) })
    })
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString()
    })
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before the world was ready: ${err}`)))
  })
}

describe('the local world across processes', () => {
  let dataDir: string
  let built: World

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-devnet-'))
    built = await startWorld({ dataDir, useSavedState: false })
  })

  afterAll(async () => {
    await built?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('builds the world anew and reports how long it took', async () => {
    expect(built.loaded).toBe(false)
    expect(built.readyMs).toBeGreaterThan(0)
    expect(await chainId(built.rpcUrl)).toBe('0x7a69')
    const onDisk = JSON.parse(readFileSync(join(dataDir, 'devnet', 'manifest.json'), 'utf8')) as DevnetManifest
    expect(onDisk).toEqual(built.manifest)
    console.log(`world built in ${built.readyMs} ms`)
  })

  it('stops anvil on stop(), and loads the saved world on the next start with a new RPC URL', async () => {
    const first = built.manifest
    const pid = built.anvilPid
    await built.stop()
    expect(await goneWithin(pid, GONE_WITHIN_MS)).toBe(true)
    await built.stop() // twice is harmless

    const again = await startWorld({ dataDir })
    try {
      expect(again.loaded).toBe(true)
      expect(again.manifest.rpcUrl).toBe(again.rpcUrl)
      expect(withoutUrl(again.manifest)).toEqual(withoutUrl(first))
      expect(JSON.parse(readFileSync(join(dataDir, 'devnet', 'manifest.json'), 'utf8')).rpcUrl).toBe(again.rpcUrl)
      // The chain behind it is the saved one: same head, same code.
      const head = await fetch(again.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      })
      expect(Number(((await head.json()) as { result: string }).result)).toBe(first.readyBlock)
      console.log(`saved world loaded in ${again.readyMs} ms`)
    } finally {
      await again.stop()
    }
  })

  it('takes anvil down with a parent killed by SIGKILL', async () => {
    const { child, anvilPid, rpcUrl } = await childWorld(dataDir, 'wait')
    expect(await chainId(rpcUrl)).toBe('0x7a69')
    expect(isAlive(anvilPid)).toBe(true)
    child.kill('SIGKILL')
    expect(await goneWithin(anvilPid, GONE_WITHIN_MS)).toBe(true)
  })

  it('takes anvil down with a parent ended by SIGTERM', async () => {
    const { child, anvilPid } = await childWorld(dataDir, 'wait')
    expect(isAlive(anvilPid)).toBe(true)
    child.kill('SIGTERM')
    expect(await goneWithin(anvilPid, GONE_WITHIN_MS)).toBe(true)
  })

  it('takes anvil down with a parent that crashes or just exits', async () => {
    const crashed = await childWorld(dataDir, 'crash')
    expect(await goneWithin(crashed.anvilPid, GONE_WITHIN_MS)).toBe(true)
    const exited = await childWorld(dataDir, 'exit')
    expect(await goneWithin(exited.anvilPid, GONE_WITHIN_MS)).toBe(true)
  })

  it('fails clearly when the port asked for is taken', async () => {
    const server = createServer()
    const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)))
    try {
      await expect(startAnvil({ port })).rejects.toThrow(DevnetError)
    } finally {
      server.close()
    }
  })

  it('tokenrisk devnet prints the RPC URL, the time it took and the addresses, then stops on request', async () => {
    const io = captureIo({})
    let release: () => void = () => {}
    const until = new Promise<void>((resolve) => {
      release = resolve
    })
    const running = devnetCommand(['--data-dir', dataDir], io, { until })
    const deadline = Date.now() + 60_000
    while (!io.stdout.join('\n').includes('Press Ctrl-C') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    const out = io.stdout.join('\n')
    const url = /RPC URL\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1]
    expect(url).toBeDefined()
    expect(out).toMatch(/devnet ready in \d+ ms/)
    const manifest = JSON.parse(readFileSync(join(dataDir, 'devnet', 'manifest.json'), 'utf8')) as DevnetManifest
    for (const t of manifest.tokens) expect(out).toContain(`${t.key}`)
    for (const t of manifest.tokens) expect(out).toContain(t.address)
    expect(out).toContain(manifest.contracts.v2Router)
    expect(await chainId(url!)).toBe('0x7a69')
    release()
    expect(await running).toBe(0)
    await expect(chainId(url!)).rejects.toThrow()
  })

  it('builds the world anew when the saved state is damaged', async () => {
    const dir = join(dataDir, 'devnet')
    const state = readdirSync(dir).find((f) => /^state-[0-9a-f]{16}\.json$/.test(f))
    expect(state).toBeDefined()
    writeFileSync(join(dir, state!), '{ this is not a state')
    const lines: string[] = []
    const world = await startWorld({ dataDir, log: (l) => lines.push(l) })
    try {
      expect(world.loaded).toBe(false)
      expect(lines.join('\n')).toMatch(/could not be loaded|does not match/)
      expect(await chainId(world.rpcUrl)).toBe('0x7a69')
    } finally {
      await world.stop()
    }
  }, 300_000)

  it('tokenrisk devnet rejects bad arguments with exit code 2', async () => {
    const io = captureIo({})
    expect(await devnetCommand(['--port', 'eighty'], io)).toBe(2)
    expect(io.stderr.join('\n')).toMatch(/--port/)
    expect(await devnetCommand(['--what'], captureIo({}))).toBe(2)
  })
})
