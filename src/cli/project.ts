import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

interface Manifest {
  name?: unknown
  version?: unknown
}

function readManifest(dir: string): Manifest | undefined {
  const path = join(dir, 'package.json')
  if (!existsSync(path)) return undefined
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Manifest
  } catch {
    return undefined // an unreadable package.json is not ours
  }
}

/**
 * The tokenrisk project this code runs from: the nearest folder above `from` (this module, in the
 * sources or the bundle) whose package.json is tokenrisk's; undefined outside one.
 */
export function projectRoot(from: string = fileURLToPath(import.meta.url)): string | undefined {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (readManifest(dir)?.name === 'tokenrisk') return dir
    if (dirname(dir) === dir) return undefined
  }
}

/** tokenrisk's version, from its package.json ('unknown' outside its project). */
export function tokenriskVersion(): string {
  const root = projectRoot()
  const version = root ? readManifest(root)?.version : undefined
  return typeof version === 'string' ? version : 'unknown'
}
