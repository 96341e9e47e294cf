import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { worldArtifactsDir } from './compile.ts'
import { writeAtomic } from './files.ts'
import { anvilBinaryPath } from './anvil.ts'
import { dexArtifactsDigest } from './dex-artifacts.ts'
import type { DevnetManifest } from './manifest.ts'
import { PACKAGE_ROOT, SOURCES_DIR } from './paths.ts'

/** Bumped when the world changes in a way its sources do not show. */
export const WORLD_STATE_VERSION = 1
/** The world's scripts: their sources, whether this runs from them or from the build. */
const DEVNET_SOURCES = SOURCES_DIR
const require = createRequire(import.meta.url)

export interface SavedWorld {
  key: string
  /** Unix milliseconds. */
  builtAt: number
  /** The manifest as measured when the world was built (its rpcUrl is stale). */
  manifest: DevnetManifest
}

/**
 * What the saved world depends on: our compiled zoo and world contracts, the published DEX
 * artifacts, the anvil binary, and the world's own scripts.
 */
export function worldStateKey(): string {
  const hash = createHash('sha256')
  hash.update(`world-state v${WORLD_STATE_VERSION}\n`)
  const anvilPackage = JSON.parse(readFileSync(require.resolve('@foundry-rs/anvil/package.json'), 'utf8')) as { version: string }
  hash.update(`anvil ${anvilPackage.version} ${statSync(anvilBinaryPath()).size}\n`)
  hash.update(dexArtifactsDigest())
  const artifacts = worldArtifactsDir()
  hash.update(`artifacts ${artifacts}\n`)
  for (const file of readdirSync(artifacts).sort()) {
    if (!file.endsWith('.json')) continue
    const text = readFileSync(join(artifacts, file), 'utf8')
    const { sourceName } = JSON.parse(text) as { sourceName?: string }
    if (sourceName?.startsWith('contracts/zoo/') || sourceName?.startsWith('contracts/world/')) hash.update(file).update(text)
  }
  for (const file of readdirSync(DEVNET_SOURCES).sort()) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue
    hash.update(file).update(readFileSync(join(DEVNET_SOURCES, file)))
  }
  return hash.digest('hex').slice(0, 16)
}

/**
 * Where the worlds built on this install are kept for every data directory (beside the compiled
 * contracts, out of git): a new data directory loads the world from there instead of building it.
 */
export const SHARED_WORLDS_DIR = join(PACKAGE_ROOT, 'artifacts-worlds')

/** The shared copy of the world of `key`. */
export const sharedWorldDir = (key: string): string => join(SHARED_WORLDS_DIR, key)

/**
 * Copies the saved world of `key` from `from` to `to` (both its files), when `from` holds one;
 * true when it did. Used both ways: a new data directory takes the shared world, and a
 * data directory's world fills the shared place when it is empty.
 */
export function copySavedWorld(from: string, to: string, key: string): boolean {
  if (!findSavedWorld(from, key)) return false
  try {
    mkdirSync(to, { recursive: true })
    for (const path of [statePath, worldPath]) {
      const target = path(to, key)
      const tmp = `${target}.tmp-${process.pid}-${Date.now()}`
      copyFileSync(path(from, key), tmp)
      renameSync(tmp, target)
    }
    return true
  } catch {
    return false
  }
}

const statePath = (dir: string, key: string): string => join(dir, `state-${key}.json`)
const worldPath = (dir: string, key: string): string => join(dir, `world-${key}.json`)


/**
 * The saved world for `key` in `dir`, when there is one; its anvil state file. A saved world does
 * not age: its chain's clock is set back to the world's last block when it is loaded, so its
 * history (the last 24 h of swaps, unlock dates) reads as it did when it was built.
 */
export function findSavedWorld(dir: string, key: string): { statePath: string; saved: SavedWorld } | null {
  const state = statePath(dir, key)
  const world = worldPath(dir, key)
  if (!existsSync(state) || !existsSync(world)) return null
  try {
    const saved = JSON.parse(readFileSync(world, 'utf8')) as SavedWorld
    if (saved.key !== key) return null
    return { statePath: state, saved }
  } catch {
    return null
  }
}

/**
 * Saves a built world: anvil's state (from `anvil_dumpState`, gzip in hex) and its manifest.
 * Saved worlds of other keys are removed.
 */
export function saveWorld(dir: string, key: string, dumpedState: string, manifest: DevnetManifest, builtAt: number): void {
  mkdirSync(dir, { recursive: true })
  const raw = Buffer.from(dumpedState.replace(/^0x/, ''), 'hex')
  const json = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw
  writeAtomic(statePath(dir, key), json)
  const saved: SavedWorld = { key, builtAt, manifest }
  writeAtomic(worldPath(dir, key), JSON.stringify(saved))
  for (const file of readdirSync(dir)) {
    const match = /^(state|world)-([0-9a-f]{16})\.json$/.exec(file)
    if (match && match[2] !== key) rmSync(join(dir, file), { force: true })
  }
}

/** Writes the manifest where the service and the tests look for it. */
export function writeManifest(dir: string, manifest: DevnetManifest): string {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, 'manifest.json')
  writeAtomic(path, `${JSON.stringify(manifest, null, 2)}\n`)
  return path
}
