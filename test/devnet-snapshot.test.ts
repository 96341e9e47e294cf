// A new data directory takes the world this install already built (kept beside the compiled
// contracts) instead of building its own: ready in seconds, not minutes.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sharedWorldDir, worldStateKey } from '@tokenrisk/devworld/state-cache'
import { startWorld } from '@tokenrisk/devworld/world'
import { createDevnetRpc } from '@tokenrisk/devworld/rpc'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'

/** What a fresh data directory may take to have its world ready, loaded from the install's. */
const FRESH_READY_MS = 10_000

describe('the local world on a fresh data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-fresh-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('is loaded from the world this install built, not built again', async () => {
    // The shared test world (built or loaded by the global setup) left the install's copy.
    const shared = await startWorld({ dataDir: TEST_DEVNET_DIR })
    await shared.stop()
    expect(existsSync(join(sharedWorldDir(worldStateKey()), `world-${worldStateKey()}.json`))).toBe(true)
    const lines: string[] = []
    const started = Date.now()
    const world = await startWorld({ dataDir, log: (line) => lines.push(line) })
    const readyMs = Date.now() - started
    try {
      expect(lines).toContain('devnet: took the world this install built')
      expect(lines.some((l) => l.startsWith('devnet: loaded the saved world'))).toBe(true)
      expect(lines.some((l) => l.startsWith('devnet: built the world'))).toBe(false)
      expect(world.manifest.tokens.length).toBeGreaterThan(0)
      expect(readyMs).toBeLessThan(FRESH_READY_MS)
      process.stdout.write(`fresh data directory: world ready in ${readyMs} ms\n`)
    } finally {
      await world.stop()
    }
  }, 120_000)

  it('loads a saved world built days ago, its next block one second after its history', async () => {
    // Age the fresh directory's saved world (loaded by the test above) by three days.
    const key = worldStateKey()
    const worldFile = join(dataDir, 'devnet', `world-${key}.json`)
    const saved = JSON.parse(readFileSync(worldFile, 'utf8')) as { builtAt: number; manifest: { readyTimestamp: number } }
    writeFileSync(worldFile, JSON.stringify({ ...saved, builtAt: saved.builtAt - 3 * 24 * 3600 * 1000 }))
    const lines: string[] = []
    const world = await startWorld({ dataDir, log: (line) => lines.push(line) })
    try {
      expect(world.loaded).toBe(true)
      expect(lines.some((l) => l.startsWith('devnet: built the world'))).toBe(false)
      const rpc = createDevnetRpc(world.rpcUrl)
      await rpc.request('evm_mine')
      const head = await rpc.request<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false])
      const after = Number(BigInt(head.timestamp)) - saved.manifest.readyTimestamp
      // Without the clock set back, the mined block would carry the wall clock: as late after the
      // history as the world is old (minutes to days here).
      expect(after).toBeGreaterThanOrEqual(1)
      expect(after).toBeLessThan(60)
    } finally {
      await world.stop()
    }
  }, 120_000)
})
