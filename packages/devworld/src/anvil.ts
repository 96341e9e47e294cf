import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { DevnetError } from './rpc.ts'
import { SUPERVISOR_SOURCE } from './supervisor.ts'

/** How long anvil may take to answer its first request, and how often to ask. */
export const ANVIL_READY_TIMEOUT_MS = 20_000
export const ANVIL_POLL_MS = 20
/** Free ports tried when one picked turns out to be taken. */
const PORT_ATTEMPTS = 3
/** How long `stop()` waits for anvil and its supervisor to exit before killing them. */
export const ANVIL_STOP_TIMEOUT_MS = 5_000
/** Host anvil listens on: never anything but the loopback interface. */
export const ANVIL_HOST = '127.0.0.1'

const require = createRequire(import.meta.url)

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
}

/**
 * Path of the anvil binary shipped inside `@foundry-rs/anvil`'s platform package (no network).
 *
 * @example
 * anvilBinaryPath() // '/repo/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil'
 */
export function anvilBinaryPath(): string {
  const key = `${process.platform}-${process.arch}`
  const pkg = PLATFORM_PACKAGES[key]
  if (!pkg) throw new DevnetError(`anvil from npm has no binary for ${key}`)
  const name = process.platform === 'win32' ? 'anvil.exe' : 'anvil'
  let path: string
  try {
    path = require.resolve(`${pkg}/bin/${name}`)
  } catch (cause) {
    throw new DevnetError(`anvil binary package ${pkg} is not installed (run npm install)`, { cause })
  }
  if (!existsSync(path)) throw new DevnetError(`anvil binary missing at ${path}`)
  return path
}

export interface StartAnvilOptions {
  /** TCP port; 0 or absent lets the system pick a free one. */
  port?: number
  /** Extra anvil arguments (chain id, accounts, state...). */
  args?: readonly string[]
  /** Receives anvil's output (it runs quiet: errors only), line by line. */
  log?: (line: string) => void
}

export interface AnvilProcess {
  rpcUrl: string
  port: number
  /** Process id of anvil itself. */
  pid: number
  /** Process id of the supervisor between us and anvil. */
  supervisorPid: number
  /** Resolves when anvil (through its supervisor) has exited, for whatever reason. */
  exited: Promise<void>
  /** Stops anvil and waits for it; safe to call more than once. */
  stop(): Promise<void>
}

function killQuietly(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return
  try {
    process.kill(pid, signal)
  } catch {
    // already gone
  }
}

/** A TCP port on the loopback interface that is free right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', reject)
    server.listen(0, ANVIL_HOST, () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => (port ? resolve(port) : reject(new DevnetError('no free port found'))))
    })
  })
}

async function answers(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1_000),
    })
    return response.ok
  } catch {
    return false
  }
}

/** TCP state of a listening socket in /proc/net/tcp. */
const TCP_LISTEN = '0A'

/**
 * Whether process `pid` holds the socket listening on `port` of the loopback interface; undefined
 * where the system cannot tell (no /proc). Another process's anvil may answer on a port this one
 * was given while this one still loads its state (two processes can be handed the same free
 * port): talking to it would send our world's calls — automine off included — to its chain.
 */
function ownsPort(pid: number, port: number): boolean | undefined {
  let table: string
  try {
    table = readFileSync('/proc/net/tcp', 'utf8')
  } catch {
    return undefined
  }
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`
  const inodes = new Set<string>()
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/)
    if (fields[1] === local && fields[3] === TCP_LISTEN) inodes.add(fields[9])
  }
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`)
        return inodes.has(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? '')
      } catch {
        return false
      }
    })
  } catch {
    return false
  }
}

/** Starts anvil once, on `port`; rejects with anvil's output if it exits before it answers. */
async function launch(port: number, options: StartAnvilOptions): Promise<AnvilProcess> {
  const binary = anvilBinaryPath()
  const args = ['--host', ANVIL_HOST, '--port', String(port), '--quiet', ...(options.args ?? [])]
  const supervisor: ChildProcess = spawn(process.execPath, ['-e', SUPERVISOR_SOURCE, binary, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  })
  const log = options.log ?? (() => {})
  let exitCode: number | null | undefined
  const exited = new Promise<void>((resolve) =>
    supervisor.once('exit', (code) => {
      exitCode = code
      resolve()
    }),
  )
  let spawnError: Error | undefined
  supervisor.once('error', (error) => {
    spawnError = error
  })
  let anvilPid = 0
  const output: string[] = []
  let pending = ''
  const onData = (chunk: Buffer): void => {
    pending += chunk.toString('utf8')
    let newline: number
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline).replace(/\r$/, '')
      pending = pending.slice(newline + 1)
      const pidMatch = /^supervisor: anvil pid (\d+)/.exec(line)
      if (pidMatch) {
        anvilPid = Number(pidMatch[1])
        continue
      }
      output.push(line)
      if (output.length > 40) output.shift()
      log(line)
    }
  }
  supervisor.stdout?.on('data', onData)
  supervisor.stderr?.on('data', onData)

  let stopped: Promise<void> | undefined
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      supervisor.stdin?.end()
      const killer = setTimeout(() => {
        killQuietly(anvilPid, 'SIGKILL')
        killQuietly(supervisor.pid, 'SIGKILL')
      }, ANVIL_STOP_TIMEOUT_MS)
      await exited
      clearTimeout(killer)
    })()
    return stopped
  }

  const rpcUrl = `http://${ANVIL_HOST}:${port}`
  const deadline = Date.now() + ANVIL_READY_TIMEOUT_MS
  for (;;) {
    if (spawnError) {
      await stop()
      throw new DevnetError('could not start the anvil supervisor', { cause: spawnError })
    }
    if (exitCode !== undefined) {
      throw new DevnetError(`anvil exited before it answered (code ${exitCode})`, { details: output.join('\n') })
    }
    // Ready when the port answers and it is our anvil that listens there.
    if (anvilPid && (await answers(rpcUrl)) && ownsPort(anvilPid, port) !== false) break
    if (Date.now() > deadline) {
      await stop()
      throw new DevnetError(`anvil did not answer within ${ANVIL_READY_TIMEOUT_MS} ms`, { details: output.join('\n') })
    }
    await new Promise((resolve) => setTimeout(resolve, ANVIL_POLL_MS))
  }
  return { rpcUrl, port, pid: anvilPid, supervisorPid: supervisor.pid ?? 0, exited, stop }
}

/**
 * Starts anvil on 127.0.0.1 through a supervisor that kills it when this process ends, however
 * it ends (see `supervisor.ts`), and resolves once anvil answers JSON-RPC. Without a port, a
 * free one is picked (and another one tried if it was taken in the meantime).
 *
 * @example
 * const anvil = await startAnvil({ args: ['--chain-id', '31337'] })
 * // ... use anvil.rpcUrl
 * await anvil.stop()
 */
export async function startAnvil(options: StartAnvilOptions = {}): Promise<AnvilProcess> {
  if (options.port) return launch(options.port, options)
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(await freePort(), options)
    } catch (error) {
      const busy = error instanceof DevnetError && /in use/i.test(error.details ?? '')
      if (!busy || attempt >= PORT_ATTEMPTS) throw error
    }
  }
}
