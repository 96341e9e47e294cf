import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { writeAtomic } from '../files.ts'
import { PACKAGE_ROOT, SOURCES_DIR } from '../paths.ts'
import { SHARED_WORLDS_DIR } from '../state-cache.ts'
import type { LedgerSnapshot, SavedTransaction } from './ledger.ts'
import type { SolanaManifest } from './manifest.ts'

/** Bumped when the Solana world changes in a way its sources do not show. */
export const SOLANA_WORLD_STATE_VERSION = 1
const require = createRequire(import.meta.url)
/** The repository's sources the world reads its program ids, layouts and check names from. */
const REPOSITORY_SOURCES = ['src/engines/solana/programs.ts', 'src/engines/solana/venues/program-layouts.ts', 'src/contract/checks.ts'].map((p) => resolve(PACKAGE_ROOT, '..', '..', p))
const SOLANA_SOURCES = join(SOURCES_DIR, 'solana')
/** Packages whose code builds the world's accounts and transactions. */
const PACKAGES = ['litesvm', '@solana/kit']

/** A saved Solana world: what the ledger held when it was built, and its manifest (without an endpoint). */
export interface SavedSolanaWorld {
  key: string
  /** Unix milliseconds. */
  builtAt: number
  manifest: Omit<SolanaManifest, 'rpcUrl'>
  /** LiteSVM's snapshot, base64. */
  svm: string
  transactions: SavedTransaction[]
}

/**
 * What the saved Solana world depends on: the world's scripts, the repository's program ids and
 * layouts it writes accounts with, and the versions of LiteSVM and @solana/kit.
 */
export function solanaWorldKey(): string {
  const hash = createHash('sha256')
  hash.update(`solana-world v${SOLANA_WORLD_STATE_VERSION}\n`)
  for (const name of PACKAGES) hash.update(`${name} ${packageVersion(name)}\n`)
  for (const file of readdirSync(SOLANA_SOURCES).sort()) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue
    hash.update(file).update(readFileSync(join(SOLANA_SOURCES, file)))
  }
  for (const path of REPOSITORY_SOURCES) hash.update(path.slice(-60)).update(existsSync(path) ? readFileSync(path) : 'missing')
  return `solana-${hash.digest('hex').slice(0, 16)}`
}

/** The installed version of a package, from the package.json above its entry (some export no ./package.json). */
function packageVersion(name: string): string {
  let dir = dirname(require.resolve(name))
  for (;;) {
    const path = join(dir, 'package.json')
    if (existsSync(path)) {
      const json = JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string }
      if (json.name === name) return json.version ?? 'unknown'
    }
    const parent = dirname(dir)
    if (parent === dir) return 'unknown'
    dir = parent
  }
}

/** Where this install keeps its Solana world for every data directory (one key at a time). */
export const SHARED_SOLANA_WORLD_DIR = SHARED_WORLDS_DIR

// One file per world, so that two processes saving at once leave one whole world, never a mix.
export const savedSolanaWorldPath = (dir: string, key: string): string => join(dir, `${key}.json`)
const SAVED_FILE = /^(solana-[0-9a-f]{16})\.json$/


/** The saved world of `key` in `dir`, read whole; null when there is none or it is unreadable. */
export function readSavedSolanaWorld(dir: string, key: string): { saved: SavedSolanaWorld; snapshot: LedgerSnapshot } | null {
  const path = savedSolanaWorldPath(dir, key)
  if (!existsSync(path)) return null
  try {
    const saved = JSON.parse(readFileSync(path, 'utf8')) as SavedSolanaWorld
    if (saved.key !== key || typeof saved.svm !== 'string' || !Array.isArray(saved.transactions) || !saved.manifest) return null
    return { saved, snapshot: { svm: new Uint8Array(Buffer.from(saved.svm, 'base64')), transactions: saved.transactions } }
  } catch {
    return null
  }
}

/**
 * Saves a built world in `dir` (LiteSVM's snapshot, its transactions and its manifest in one
 * file, written whole before it takes its name); saved Solana worlds of other keys are removed.
 */
export function saveSolanaWorld(dir: string, key: string, snapshot: LedgerSnapshot, manifest: Omit<SolanaManifest, 'rpcUrl'>, builtAt: number): void {
  mkdirSync(dir, { recursive: true })
  const saved: SavedSolanaWorld = { key, builtAt, manifest, svm: Buffer.from(snapshot.svm).toString('base64'), transactions: snapshot.transactions }
  writeAtomic(savedSolanaWorldPath(dir, key), JSON.stringify(saved))
  for (const file of readdirSync(dir)) {
    const match = SAVED_FILE.exec(file)
    if (match && match[1] !== key) rmSync(join(dir, file), { force: true })
  }
}
