// `npm run bench:cli`: how fast the tokenrisk command answers, run as a user runs it (the
// bundle in dist/bundle/, a new process each time), against a baseline measured in the same run:
// `node -e 0`, the cost of starting Node at all. Prints figures and ratios; asserts nothing.
//
//   tokenrisk --help                       target < 300 ms
//   tokenrisk keys list                    target < 500 ms
//   tokenrisk scan <zoo token> --chain 31337, against a running service's local world
//                                          target < 1 s
//   npm start, until the service listens (the saved local world loaded)
//                                          target < 5 s
//   tokenrisk mcp, until it has answered an agent's handshake and its tools/list
//                                          target < 1 s
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { buildAll } from '../scripts/build.mjs'
import { PROJECT_ROOT } from '../scripts/build-contracts.ts'

/** Runs of each measurement; the median is reported. */
const RUNS = Number(process.env.BENCH_RUNS ?? 5)
/** Where the service's local world is kept between runs (loaded, not rebuilt, after the first). */
const SERVICE_DATA_DIR = join(PROJECT_ROOT, 'data', 'bench-cli')
const BIN = join(PROJECT_ROOT, 'bin', 'tokenrisk.js')
/** How long a start may take before the bench gives up on it. */
const START_TIMEOUT_MS = 180_000
const TARGETS_MS = { help: 300, keysList: 500, scan: 1_000, npmStart: 5_000, mcp: 1_000 }

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** Wall time of a command run to its end (ms); throws when it fails. */
function timed(command: string, args: string[], env: NodeJS.ProcessEnv = {}): number {
  const started = performance.now()
  const run = spawnSync(command, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, encoding: 'utf8' })
  const ms = performance.now() - started
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.status}: ${run.stderr}`)
  return ms
}

function measure(label: string, run: () => number): number[] {
  const values: number[] = []
  for (let i = 0; i < RUNS; i++) values.push(run())
  process.stderr.write(`  ${label}: ${values.map((v) => Math.round(v)).join(', ')} ms\n`)
  return values
}

/** Wall time from spawning `tokenrisk mcp` to its answer to tools/list, as a desktop agent starts it (ms). */
async function mcpReady(dataDir: string): Promise<number> {
  const started = performance.now()
  const client = new Client({ name: 'bench-cli', version: '1.0.0' })
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env: { ...getDefaultEnvironment(), DATA_DIR: dataDir }, stderr: 'ignore' }))
  const { tools } = await client.listTools()
  const ms = performance.now() - started
  await client.close()
  if (tools.length === 0) throw new Error('tokenrisk mcp listed no tools')
  return ms
}

/** Starts `npm start` and resolves when the service listens: its URL and the time it took. */
function startService(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; ms: number; url: string }> {
  const started = performance.now()
  const child = spawn('npm', ['start', '--silent'], { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  return new Promise((resolve, reject) => {
    let err = ''
    const timer = setTimeout(() => reject(new Error(`npm start did not listen within ${START_TIMEOUT_MS} ms:\n${err}`)), START_TIMEOUT_MS)
    child.stdout?.resume()
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString()
      const m = /tokenrisk listening on (\S+)/.exec(err)
      if (m) {
        clearTimeout(timer)
        resolve({ child, ms: performance.now() - started, url: m[1] })
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`npm start exited (${code}) before listening:\n${err}`))
    })
  })
}

/** Stops the service (npm and its child, a process group) and waits for it to end. */
async function stopService(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  if (child.pid) process.kill(-child.pid, 'SIGTERM')
  await exited
}

async function main(): Promise<void> {
  await buildAll({ log: (line) => process.stderr.write(`${line}\n`) })
  const keysDir = mkdtempSync(join(tmpdir(), 'tokenrisk-bench-cli-'))
  try {
    process.stderr.write(`bench:cli — ${RUNS} runs each, medians\n`)
    const node = measure('node -e 0', () => timed(process.execPath, ['-e', '0']))
    const help = measure('tokenrisk --help', () => timed(process.execPath, [BIN, '--help']))
    timed(process.execPath, [BIN, 'keys', 'create', '--user', 'bench', '--data-dir', keysDir])
    const keysList = measure('tokenrisk keys list', () => timed(process.execPath, [BIN, 'keys', 'list', '--data-dir', keysDir]))
    const mcp: number[] = []
    for (let i = 0; i < RUNS; i++) mcp.push(await mcpReady(keysDir))
    process.stderr.write(`  tokenrisk mcp, tools listed: ${mcp.map((v) => Math.round(v)).join(', ')} ms\n`)

    const serviceEnv = { DATA_DIR: SERVICE_DATA_DIR, PORT: '0', LOG_LEVEL: 'warn' }
    const firstStart = await startService(serviceEnv)
    process.stderr.write(`  npm start, first (builds the world unless a saved one is young enough): ${Math.round(firstStart.ms)} ms\n`)
    const manifest = JSON.parse(readFileSync(join(SERVICE_DATA_DIR, 'devnet', 'manifest.json'), 'utf8')) as { tokens: { key: string; address: string }[] }
    const token = manifest.tokens.find((t) => t.key === 'tax-3-7-1') ?? manifest.tokens[0]
    let scan: number[]
    try {
      scan = measure(`tokenrisk scan ${token.key} --chain 31337`, () => timed(process.execPath, [BIN, 'scan', token.address, '--chain', '31337', '--json', '--data-dir', SERVICE_DATA_DIR]))
    } finally {
      await stopService(firstStart.child)
    }
    const starts: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const s = await startService(serviceEnv)
      starts.push(s.ms)
      await stopService(s.child)
    }
    process.stderr.write(`  npm start (saved world): ${starts.map((v) => Math.round(v)).join(', ')} ms\n`)

    const baseline = median(node)
    const row = (label: string, values: number[], target: number) => {
      const ms = median(values)
      return `${label.padEnd(44)} ${String(Math.round(ms)).padStart(6)} ms  ${(ms / baseline).toFixed(1).padStart(5)}× node -e 0   target < ${target} ms: ${ms < target ? 'met' : 'MISSED'}`
    }
    console.log('')
    console.log(`${'node -e 0 (baseline)'.padEnd(44)} ${String(Math.round(baseline)).padStart(6)} ms    1.0×`)
    console.log(row('tokenrisk --help', help, TARGETS_MS.help))
    console.log(row('tokenrisk keys list', keysList, TARGETS_MS.keysList))
    console.log(row('tokenrisk mcp, handshake and tools/list', mcp, TARGETS_MS.mcp))
    console.log(row(`tokenrisk scan (${token.key}, local world)`, scan, TARGETS_MS.scan))
    console.log(row('npm start, ready (saved local world)', starts, TARGETS_MS.npmStart))
    console.log(`\nmachine: ${process.platform} ${process.arch}, Node ${process.version}, load average ${loadAverage()}`)
  } finally {
    rmSync(keysDir, { recursive: true, force: true })
  }
}

function loadAverage(): string {
  return existsSync('/proc/loadavg') ? readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') : 'unknown'
}

await main()
