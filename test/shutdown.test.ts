import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '@tokenrisk/devworld/anvil'
import { PROJECT_ROOT } from './helpers/paths.ts'
import { createApiKeyRepository } from '../src/store/repositories/api-keys.ts'
import { createAuditRepository } from '../src/store/repositories/audits.ts'
import { sampleAudit } from './helpers/audits.ts'
import { postgresStore, postgresUp, requireService, TEST_DATABASE_URL, type TestStore } from './helpers/services.ts'

/** Starts `tokenrisk serve` as a real process and waits until it answers. */
async function startServe(env: NodeJS.ProcessEnv) {
  // A port the system just handed out, not a guess that a client socket may already hold.
  const port = await freePort()
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin/tokenrisk.js'), 'serve', '--only', 'audits'], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn', DEVNET: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { child, url, stderr: () => stderr }
    } catch {}
    if (child.exitCode !== null) break
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill('SIGKILL')
  throw new Error(`serve did not start: ${stderr}`)
}

describe.runIf(requireService('PostgreSQL', postgresUp))('graceful shutdown', () => {
  let t: TestStore
  let key: string
  let schema: string
  let dataDir: string
  beforeAll(async () => {
    t = await postgresStore()
    const row = await t.store.db.selectNoFrom((eb) => eb.fn<string>('current_schema', []).as('s')).executeTakeFirstOrThrow()
    schema = row.s
    key = (await createApiKeyRepository(t.store).create({ userId: 'u' })).key
    await createAuditRepository(t.store).record({ projectId: 'p', userId: 'u', audits: [sampleAudit(1)] })
    dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-shutdown-'))
  })
  afterAll(async () => {
    await t?.cleanup()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('finishes a request in flight on SIGTERM, then exits 0 with the store closed', async () => {
    const url = new URL(TEST_DATABASE_URL)
    url.searchParams.set('options', `-c search_path=${schema}`)
    const server = await startServe({ DATABASE_URL: url.toString(), DATA_DIR: dataDir })
    // Hold a lock so that the history query waits inside the database.
    const locker = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await locker.connect()
    await locker.query('begin')
    await locker.query(`lock table ${schema}.projects in access exclusive mode`)
    const inFlight = fetch(`${server.url}/api/v1/projects/audit/history?projectId=p&userId=u`, { headers: { 'x-api-key': key } })
    await new Promise((r) => setTimeout(r, 300))
    server.child.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 300))
    // The server no longer accepts new connections while it drains.
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow()
    await locker.query('rollback')
    await locker.end()
    const res = await inFlight
    expect(res.status).toBe(200)
    expect(((await res.json()) as { auditCount: number }).auditCount).toBe(1)
    const [code] = await once(server.child, 'exit')
    expect(code).toBe(0)
    expect(server.stderr()).toMatch(/SIGTERM: finishing in-flight requests/)
    expect(server.stderr()).not.toMatch(/still running|error/i)
  }, 30_000)
})
