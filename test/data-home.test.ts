// A newcomer's traps around starting the service: a bad chains file is one line and exit 2 on
// every path (report worker threads or not); one service owns a data directory, a second start
// on it says so and touches nothing, while the other commands keep working beside it; the data
// directory is found (DATA_DIR, else the project's data/), not taken from wherever a command runs.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@tokenrisk/devworld/anvil'
import { describe, expect, it } from 'vitest'
import { parseCommand } from '../src/cli/args.ts'
import { COMMANDS } from '../src/cli/commands.ts'
import { DATA_DIR_LOCK_FILE, dataDirOwner, linkBase, lockDataDir, noteSecondStore, resolveDataDir } from '../src/cli/data-dir.ts'
import { projectRoot } from '../src/cli/project.ts'
import { deserializeError, serializeError } from '../src/cli/report-workers.ts'
import { ConfigError } from '../src/errors.ts'
import { captureIo } from './helpers/io.ts'
import { PROJECT_ROOT } from './helpers/paths.ts'

const BIN = join(PROJECT_ROOT, 'bin/tokenrisk.js')

/** Runs `tokenrisk …args` to its end: exit code and output. */
async function run(args: string[], env: NodeJS.ProcessEnv, cwd = PROJECT_ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, LOG_LEVEL: 'warn', ...env } })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  const [code] = (await once(child, 'exit')) as [number]
  return { code, stdout, stderr }
}

const tmp = (name: string) => mkdtempSync(join(tmpdir(), `tokenrisk-${name}-`))

describe('configuration errors are one line and exit 2 on every path', () => {
  const dir = tmp('chains')
  const files = {
    bad: (() => {
      const path = join(dir, 'bad.json')
      writeFileSync(path, JSON.stringify([{ chainId: 'one', name: 5 }]))
      return path
    })(),
    missing: join(dir, 'missing.json'),
    unparsable: (() => {
      const path = join(dir, 'unparsable.json')
      writeFileSync(path, '[{"chainId": 1,')
      return path
    })(),
  }

  it('a missing or unparsable file is one line', async () => {
    for (const file of [files.missing, files.unparsable]) {
      const { code, stderr } = await run(['serve', '--chains', file], { DATA_DIR: join(tmp('cfg'), 'data'), PORT: '0' })
      expect(code).toBe(2)
      expect(stderr.trim().split('\n')).toHaveLength(1)
    }
  }, 30_000)

  it.each(Object.entries(files))('serve --chains <%s file> with report workers, without them, and scan', async (_kind, file) => {
    const said = new Set<string>()
    for (const args of [['serve', '--chains', file], ['serve', '--chains', file, '--report-workers', '2'], ['serve', '--chains', file, '--report-workers', '0'], ['scan', '0x0000000000000000000000000000000000000001', '--chain', '1', '--chains', file]]) {
      const dataDir = join(tmp('cfg'), 'data')
      const { code, stderr } = await run(args, { DATA_DIR: dataDir, PORT: '0' })
      expect([args.join(' '), code]).toEqual([args.join(' '), 2])
      expect(stderr).not.toMatch(/unexpected error|\n\s+at /)
      // One line naming the file (a file with several problems lists them below it, one a line).
      expect(stderr.split('\n')[0]).toContain(file)
      said.add(stderr)
      // Nothing was started or written: not even the data directory.
      expect(existsSync(dataDir)).toBe(false)
    }
    // The same words whichever path read the file.
    expect(said.size).toBe(1)
  }, 60_000)

  it('a ConfigError raised in a report worker thread crosses to the serving thread as a ConfigError', () => {
    const back = deserializeError(serializeError(new ConfigError('chains file x.json cannot be read: ENOENT')))
    expect(back).toBeInstanceOf(ConfigError)
    expect(back.message).toBe('chains file x.json cannot be read: ENOENT')
  })
})

describe('one service owns a data directory', () => {
  it('a second serve on it says so in one line, exits 2 and touches nothing; the other commands keep working beside it', async () => {
    const dataDir = join(tmp('owner'), 'data')
    const port = await freePort()
    // A configured chain (a dead one): no local world, so the service is up in a moment.
    const env = { DATA_DIR: dataDir, RPC_URL_1: 'http://127.0.0.1:9', SOLANA_RPC_URL: 'http://127.0.0.1:9' }
    const first = spawn(process.execPath, [BIN, 'serve'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port) } })
    let log = ''
    first.stderr.on('data', (c: Buffer) => (log += c.toString()))
    await expect.poll(() => log, { timeout: 60_000, interval: 200 }).toMatch(/tokenrisk listening on/)
    const lockPath = join(dataDir, DATA_DIR_LOCK_FILE)
    const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as { pid: number; url: string; command: string }
    expect(lock).toMatchObject({ pid: first.pid, command: 'serve', url: `http://127.0.0.1:${port}` })

    const before = readdirSync(dataDir).map((f) => [f, statSync(join(dataDir, f)).mtimeMs])
    const second = await run(['serve'], { ...env, PORT: String(await freePort()) })
    expect(second.code).toBe(2)
    expect(second.stderr.trim().split('\n')).toEqual([
      `tokenrisk serve (pid ${first.pid}, http://127.0.0.1:${port}) runs on the data directory ${dataDir}: use that one, stop it first, or start this one with its own DATA_DIR`,
    ])
    expect(readdirSync(dataDir).map((f) => [f, statSync(join(dataDir, f)).mtimeMs])).toEqual(before)

    // The same port with another data directory: one line too, before any world starts.
    const samePort = await run(['serve'], { ...env, DATA_DIR: join(tmp('port'), 'data'), PORT: String(port) })
    expect(samePort.code).toBe(2)
    expect(samePort.stderr.trim()).toBe(`port ${port} on 127.0.0.1 is in use by another process: stop it, or set PORT (--port) to another port`)

    // keys, and the audit links, share the directory with the service.
    const keys = await run(['keys', 'create', '--user', 'someone', '--json'], env)
    expect(keys.code).toBe(0)
    expect(JSON.parse(keys.stdout)).toMatchObject({ userId: 'someone' })
    expect(linkBase({ dataDir, publicBaseUrl: undefined, host: '127.0.0.1', port: 3000 })).toBe(`http://127.0.0.1:${port}`)

    first.kill('SIGTERM')
    const [code] = await once(first, 'exit')
    expect(code).toBe(0)
    expect(existsSync(lockPath)).toBe(false)
    expect(linkBase({ dataDir, publicBaseUrl: undefined, host: '127.0.0.1', port: 3000 })).toBe('http://127.0.0.1:3000')
  }, 120_000)

  it('a lock left by a process that is gone is taken over; a live one is not', () => {
    const dataDir = tmp('stale')
    writeFileSync(join(dataDir, DATA_DIR_LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 12345, command: 'serve', url: 'http://127.0.0.1:1' }))
    expect(dataDirOwner(dataDir)).toBeUndefined()
    const lock = lockDataDir(dataDir, 'serve')
    expect(JSON.parse(readFileSync(join(dataDir, DATA_DIR_LOCK_FILE), 'utf8')).pid).toBe(process.pid)
    lock.release()
    expect(existsSync(join(dataDir, DATA_DIR_LOCK_FILE))).toBe(false)
    // The parent of this process is alive: its lock holds.
    writeFileSync(join(dataDir, DATA_DIR_LOCK_FILE), JSON.stringify({ pid: process.ppid, command: 'devnet', url: 'http://127.0.0.1:8545' }))
    expect(() => lockDataDir(dataDir, 'serve')).toThrow(ConfigError)
    expect(() => lockDataDir(dataDir, 'serve')).toThrow(`tokenrisk devnet (pid ${process.ppid}, http://127.0.0.1:8545) runs on the data directory ${dataDir}`)
  })
})

describe('the data directory is found, not guessed', () => {
  it('is DATA_DIR (relative to where the command runs) when set, else the data/ of the project wherever the command runs', () => {
    expect(projectRoot()).toBe(PROJECT_ROOT.replace(/\/$/, ''))
    const elsewhere = tmp('cwd')
    expect(resolveDataDir('./data', false, elsewhere)).toBe(join(PROJECT_ROOT, 'data'))
    expect(resolveDataDir('./mine', true, elsewhere)).toBe(join(elsewhere, 'mine'))
    expect(resolveDataDir('/srv/data', true, elsewhere)).toBe('/srv/data')
    expect(parseCommand(COMMANDS.keys, ['list'], {}).config.dataDir).toBe(join(PROJECT_ROOT, 'data'))
    expect(parseCommand(COMMANDS.keys, ['list', '--data-dir', '/srv/x'], {}).config.dataDir).toBe('/srv/x')
  })

  it('a command about to create a second store says where the running service keeps its own', () => {
    const projectData = tmp('project-data')
    const other = join(tmp('other'), 'data')
    const io = captureIo({})
    noteSecondStore({ dataDir: other, databaseUrl: undefined }, io, projectData)
    expect(io.stderr).toEqual([]) // no service runs: nothing to say
    writeFileSync(join(projectData, DATA_DIR_LOCK_FILE), JSON.stringify({ pid: process.ppid, command: 'serve', url: 'http://127.0.0.1:3000' }))
    noteSecondStore({ dataDir: other, databaseUrl: undefined }, io, projectData)
    expect(io.stderr).toEqual([
      `note: no store in ${other} yet, so this creates one; tokenrisk serve (pid ${process.ppid}, http://127.0.0.1:3000) runs on the data directory ${projectData}: set DATA_DIR=${projectData} (or leave DATA_DIR unset) to use its store`,
    ])
    // Its own directory, or one that has a store already, is no second store.
    const quiet = captureIo({})
    noteSecondStore({ dataDir: projectData, databaseUrl: undefined }, quiet, projectData)
    mkdirSync(other, { recursive: true })
    writeFileSync(join(other, 'tokenrisk.db'), '')
    noteSecondStore({ dataDir: other, databaseUrl: undefined }, quiet, projectData)
    expect(quiet.stderr).toEqual([])
  })
})
