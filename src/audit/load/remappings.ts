import path from 'node:path'
import type { ProjectFiles } from './project-files.ts'

/**
 * An import remapping as solc understands it: `[context:]prefix=target`. An import whose path
 * starts with `prefix`, written in a file whose project-relative path starts with `context`, has
 * that prefix replaced by `target` (resolved against the project root). The longest context wins,
 * then the longest prefix.
 */
export interface Remapping {
  context: string
  prefix: string
  target: string
}

/** Parses remapping lines (`remappings.txt`, `foundry.toml` entries, `--remappings` options). */
export function parseRemappings(lines: readonly string[]): Remapping[] {
  const remappings: Remapping[] = []
  for (const raw of lines) {
    const line = raw.trim()
    if (!line || line.startsWith('#')) continue
    const eq = line.indexOf('=')
    if (eq <= 0) continue
    let left = line.slice(0, eq).trim()
    const target = line.slice(eq + 1).trim()
    let context = ''
    const colon = left.indexOf(':')
    if (colon >= 0) {
      context = left.slice(0, colon)
      left = left.slice(colon + 1)
    }
    if (!left) continue
    remappings.push({ context, prefix: left, target })
  }
  return remappings
}

/** The `remappings = [...]` array of a foundry.toml (every profile; the default one first). */
export function remappingsFromFoundryToml(text: string): string[] {
  const found: string[] = []
  const pattern = /^\s*remappings\s*=\s*\[([\s\S]*?)\]/gm
  for (const match of text.matchAll(pattern)) {
    for (const item of match[1].matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)) found.push(item[1] ?? item[2])
  }
  return found
}

/**
 * The remappings of a project, in precedence order: those given as options, then
 * `remappings.txt`, then `foundry.toml`, then Foundry's automatic ones for each folder of `lib/`
 * (`<name>/=lib/<name>/src/` when it has a `src/`, else `lib/<name>/`). Read through the
 * project's `files`, at its `root`.
 */
export function projectRemappings(files: ProjectFiles, root: string, extra: readonly string[] = []): Remapping[] {
  const lines: string[] = [...extra]
  const txt = path.join(root, 'remappings.txt')
  if (files.kind(txt) === 'file') lines.push(...files.read(txt).split(/\r?\n/))
  const toml = path.join(root, 'foundry.toml')
  if (files.kind(toml) === 'file') lines.push(...remappingsFromFoundryToml(files.read(toml)))
  const lib = path.join(root, 'lib')
  for (const entry of files.list(lib)) {
    if (entry.kind !== 'folder' || entry.name.startsWith('.')) continue
    const hasSrc = files.kind(path.join(lib, entry.name, 'src')) !== undefined
    lines.push(`${entry.name}/=lib/${entry.name}/${hasSrc ? 'src/' : ''}`)
  }
  // Earlier entries take precedence over later ones with the same context and prefix.
  const seen = new Set<string>()
  const unique: Remapping[] = []
  for (const r of parseRemappings(lines)) {
    const key = `${r.context}\0${r.prefix}`
    if (seen.has(key)) continue
    seen.add(key)
    unique.push(r)
  }
  return unique
}

/**
 * Applies the best matching remapping to `importPath` written in the file at project-relative
 * path `fromRelative`; returns the remapped path (relative to the root unless absolute), or null
 * when none applies.
 */
export function applyRemappings(importPath: string, fromRelative: string, remappings: readonly Remapping[]): string | null {
  let best: Remapping | null = null
  for (const r of remappings) {
    if (!importPath.startsWith(r.prefix)) continue
    if (r.context && !fromRelative.startsWith(r.context)) continue
    if (
      best === null ||
      r.context.length > best.context.length ||
      (r.context.length === best.context.length && r.prefix.length > best.prefix.length)
    ) {
      best = r
    }
  }
  return best ? best.target + importPath.slice(best.prefix.length) : null
}
