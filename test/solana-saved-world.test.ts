// The local Solana world is built once per install and loaded by every start after: a loaded
// world serves the same accounts and history, and its reports read the same as the built one's.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Address } from '@solana/kit'
import { afterAll, describe, expect, it } from 'vitest'
import { readSavedSolanaWorld, SHARED_SOLANA_WORLD_DIR, solanaWorldKey } from '@tokenrisk/devworld/solana/saved-world'
import { startSolanaWorld, type StartedSolanaWorld } from '@tokenrisk/devworld/solana/world'
import { createMemoryCache } from '../src/cache/cache.ts'
import type { SolanaReport } from '../src/contract/solana-report.ts'
import { silentLogger } from '../src/engines/solana/logger.ts'
import { createSolanaReportService } from '../src/engines/solana/service.ts'

/** Mints whose reports read the world's history (launch buyers, creator), clock (age, unlocks) and pools. */
const COMPARED = ['clean-spl', 'pump-curve', 'serial-creator', 'meteora-damm-v2', 'pump-graduated']

async function reportsOf(world: StartedSolanaWorld): Promise<Map<string, SolanaReport>> {
  const service = createSolanaReportService({ rpcUrls: [world.rpcUrl], cache: createMemoryCache(), logger: silentLogger, options: { pricing: world.manifest.pricing } })
  try {
    const out = new Map<string, SolanaReport>()
    for (const key of COMPARED) {
      const mint = world.manifest.mints.find((m) => m.key === key)
      if (!mint) throw new Error(`the world has no mint ${key}`)
      out.set(key, await service.report(mint.address as Address))
    }
    return out
  } finally {
    await service.close()
  }
}

/** A report without the moment it was made (the machine's clock); everything measured stays. */
const measured = (r: SolanaReport) => ({ ...r, tokenInformation: { ...r.tokenInformation, generalInformation: { ...r.tokenInformation.generalInformation, lastUpdated: '' } } })

describe('the saved local Solana world', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-solana-saved-'))
  const otherDir = mkdtempSync(join(tmpdir(), 'tokenrisk-solana-saved-'))
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(otherDir, { recursive: true, force: true })
  })
  const key = solanaWorldKey()
  let built: Map<string, SolanaReport>
  let builtManifest: StartedSolanaWorld['manifest']

  it('is built and saved in the data directory and for the install when asked to build', async () => {
    const lines: string[] = []
    const world = await startSolanaWorld({ dataDir, useSaved: false, log: (l) => lines.push(l) })
    try {
      expect(world.loaded).toBe(false)
      expect(lines.some((l) => l.startsWith('solana world built'))).toBe(true)
      expect(existsSync(join(dataDir, 'devnet', `${key}.json`))).toBe(true)
      expect(existsSync(join(SHARED_SOLANA_WORLD_DIR, `${key}.json`))).toBe(true)
      builtManifest = world.manifest
      built = await reportsOf(world)
    } finally {
      await world.stop()
    }
  }, 120_000)

  it('is loaded, not built, on the next start, and its reports read the same', async () => {
    const lines: string[] = []
    const world = await startSolanaWorld({ dataDir, log: (l) => lines.push(l) })
    try {
      expect(world.loaded).toBe(true)
      expect(lines.some((l) => l.startsWith('solana world loaded'))).toBe(true)
      expect({ ...world.manifest, rpcUrl: '' }).toEqual({ ...builtManifest, rpcUrl: '' })
      const loaded = await reportsOf(world)
      for (const mintKey of COMPARED) expect(measured(loaded.get(mintKey)!), mintKey).toEqual(measured(built.get(mintKey)!))
      // The reports measured something: the history and the clock were there to read.
      expect(loaded.get('pump-curve')!.tokenInformation.generalInformation.tokenAgeDays.number).not.toBe('')
    } finally {
      await world.stop()
    }
  }, 120_000)

  it('is taken by a new data directory from the install, which keeps its own copy', async () => {
    const world = await startSolanaWorld({ dataDir: otherDir })
    try {
      expect(world.loaded).toBe(true)
      expect(existsSync(join(otherDir, 'devnet', `${key}.json`))).toBe(true)
    } finally {
      await world.stop()
    }
  }, 60_000)

  it('is taken from the install when this directory\'s copy is damaged, and the copy written whole again', async () => {
    writeFileSync(join(dataDir, 'devnet', `${key}.json`), '{"key":')
    const world = await startSolanaWorld({ dataDir })
    try {
      expect(world.loaded).toBe(true)
      expect(readSavedSolanaWorld(join(dataDir, 'devnet'), key)).not.toBeNull()
      expect(readdirSync(join(dataDir, 'devnet')).filter((f) => f.includes('.tmp-'))).toEqual([])
    } finally {
      await world.stop()
    }
  }, 60_000)
})
