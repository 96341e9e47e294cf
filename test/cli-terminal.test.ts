// The terminal as a person (or a pipe) meets tokenrisk: `chains check` on a node that does not
// answer says so and prints nothing it did not read; a reader that stops early (`| head -1`)
// ends the command quietly; -v is the version; an unknown option is told in tokenrisk's words;
// the request logs stay out of the way of the start banner on a terminal.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { promisify } from 'node:util'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../src/cli/main.ts'
import { buildTestApp } from './helpers/app.ts'
import { captureIo } from './helpers/io.ts'
import { PROJECT_ROOT } from './helpers/paths.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

const run = promisify(execFile)
const BIN = join(PROJECT_ROOT, 'bin', 'tokenrisk.js')

describe('tokenrisk on a terminal and in pipes', () => {
  let dataDir: string
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-terminal-'))
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  const cli = async (env: NodeJS.ProcessEnv, ...argv: string[]) => {
    const io = captureIo({ DATA_DIR: dataDir, ...env })
    const code = await main(argv, io)
    return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') }
  }

  it('chains check on a node that does not answer says "not answering", exits 1 and prints no value it did not read', async () => {
    const down = await cli({ RPC_URL_1: 'http://127.0.0.1:9' }, 'chains', 'check', '--chain', '1')
    expect(down.code).toBe(1)
    expect(down.out).toBe('chain 1 (Ethereum) at 127.0.0.1:9: not answering\n')
    expect(down.out).not.toMatch(/\bok\b|blocks|cancun|undefined|default/)
    expect(down.err).toBe('chain 1: the node did not answer (127.0.0.1:9); nothing of it was read')
    const json = await cli({ RPC_URL_1: 'http://127.0.0.1:9' }, 'chains', 'check', '--chain', '1', '--json')
    expect(json.code).toBe(1)
    expect(JSON.parse(json.out)).toEqual([{ chainId: 1, name: 'Ethereum', rpcHost: '127.0.0.1:9', answering: false }])
  })

  it('-v prints the version, and an unknown option or a missing value is told in tokenrisk\'s words', async () => {
    const version = await cli({}, '--version')
    expect(await cli({}, '-v')).toEqual(version)
    expect(await cli({}, 'scan', '0x0000000000000000000000000000000000000001', '--chian', '1')).toEqual({
      code: 2,
      out: '',
      err: 'unknown option --chian (a value starting with - goes after --); tokenrisk scan --help lists its options',
    })
    expect((await cli({}, 'scan', '0x0000000000000000000000000000000000000001', '--chain')).err).toBe('option --chain needs a value; tokenrisk scan --help lists its options')
  })

  it('ends quietly when the reader of its output stops early (| head -1): no stack, exit 0', async () => {
    // `true` reads nothing and exits before tokenrisk writes: every write meets a closed pipe.
    const { stdout, stderr } = await run('bash', ['-c', `node ${JSON.stringify(BIN)} help | true; echo "exit=\${PIPESTATUS[0]}"`], { env: { ...process.env, DATA_DIR: dataDir } })
    expect(stdout.trim()).toBe('exit=0')
    expect(stderr).toBe('')
    const head = await run('bash', ['-c', `node ${JSON.stringify(BIN)} help | head -1; echo "exit=\${PIPESTATUS[0]}"`], { env: { ...process.env, DATA_DIR: dataDir } })
    expect(head.stdout).toBe('tokenrisk — token risk reports and Solidity audit history\nexit=0\n')
    expect(head.stderr).toBe('')
  })

  describe('request logs', () => {
    let t: TestStore
    beforeAll(async () => {
      t = await embeddedStore()
    })
    afterAll(async () => t?.cleanup())

    /** The messages an app logs at info level for one request. */
    async function logged(quietRequestLogs: boolean): Promise<string[]> {
      const lines: string[] = []
      const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(...chunk.toString().split('\n').filter(Boolean)), done()) })
      const logger = pino({ level: 'info' }, sink)
      const { app } = await buildTestApp(t.store, { options: { logger, quietRequestLogs } })
      await app.inject({ url: '/healthz' })
      await app.inject({ url: '/api/v1/chains' })
      await app.close()
      return lines.map((l) => (JSON.parse(l) as { msg: string }).msg)
    }

    it('go at debug level on the terminal that shows the banner, and at info level elsewhere', async () => {
      expect(await logged(false)).toEqual(expect.arrayContaining(['incoming request', 'request completed']))
      const quiet = await logged(true)
      expect(quiet).not.toContain('incoming request')
      expect(quiet).not.toContain('request completed')
    })
  })
})
