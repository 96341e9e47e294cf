import fs from 'node:fs'
import path from 'node:path'
import { rootOf, type EntryKind, type ProjectFiles } from './project-files.ts'

/** Symbolic links followed in one path before it counts as absent (a loop, or a maze). */
const MAX_SYMLINK_HOPS = 32

/** The calls of `node:fs` the disk layer makes: a test hands in a recorder of what is asked. */
export type DiskAccess = Pick<typeof fs, 'lstatSync' | 'readlinkSync' | 'readFileSync' | 'readdirSync'>

/**
 * The project's files on disk, jailed in `roots` (absolute folders, the project's root first;
 * each is taken as the operator gave it, symbolic links in it resolved once). A path is walked
 * from its root one name at a time with `lstat`: a symbolic link is followed only when its
 * target, read with `readlink`, lies in a root too, so that nothing outside is ever stat'ed,
 * opened or listed; only regular files and folders are seen, and a listing shows no links.
 *
 * @example
 * const files = diskProjectFiles(['/work/vault'])
 * files.kind('/etc/passwd') // undefined, and the disk was not asked
 */
export function diskProjectFiles(roots: readonly string[], access: DiskAccess = fs): ProjectFiles {
  const realRoots = roots.map((root) => fs.realpathSync(path.resolve(root)))
  const resolved = new Map<string, { real: string; kind: EntryKind } | null>()

  /** The real path and kind of `absolutePath`, walked inside the roots; null when absent or outside. */
  const walk = (absolutePath: string): { real: string; kind: EntryKind } | null => {
    let target = path.resolve(absolutePath)
    let root = rootOf(realRoots, target)
    if (root === undefined) return null
    let current = root
    let rest = path.relative(root, target).split(path.sep).filter(Boolean)
    let stat: fs.Stats
    try {
      stat = access.lstatSync(root)
    } catch {
      return null
    }
    let hops = 0
    while (rest.length > 0) {
      if (!stat.isDirectory()) return null
      const next = path.join(current, rest.shift() as string)
      try {
        stat = access.lstatSync(next)
      } catch {
        return null
      }
      if (!stat.isSymbolicLink()) {
        current = next
        continue
      }
      if (++hops > MAX_SYMLINK_HOPS) return null
      try {
        target = path.resolve(current, access.readlinkSync(next, 'utf8'))
      } catch {
        return null
      }
      // A link leading out of every root is absent: its target is never looked at.
      root = rootOf(realRoots, target)
      if (root === undefined) return null
      rest = [...path.relative(root, target).split(path.sep).filter(Boolean), ...rest]
      current = root
      try {
        stat = access.lstatSync(root)
      } catch {
        return null
      }
    }
    if (stat.isFile()) return { real: current, kind: 'file' }
    if (stat.isDirectory()) return { real: current, kind: 'folder' }
    return null
  }
  const resolve = (absolutePath: string) => {
    let known = resolved.get(absolutePath)
    if (known === undefined) resolved.set(absolutePath, (known = walk(absolutePath)))
    return known
  }
  const fileOf = (absolutePath: string): string => {
    const entry = resolve(absolutePath)
    if (entry?.kind !== 'file') throw new Error(`no such file in the project: ${absolutePath}`)
    return entry.real
  }

  return {
    roots: realRoots,
    kind: (absolutePath) => resolve(absolutePath)?.kind,
    size: (absolutePath) => access.lstatSync(fileOf(absolutePath)).size,
    read: (absolutePath) => access.readFileSync(fileOf(absolutePath), 'utf8'),
    list(absolutePath) {
      const entry = resolve(absolutePath)
      if (entry?.kind !== 'folder') return []
      let entries: fs.Dirent[]
      try {
        entries = access.readdirSync(entry.real, { withFileTypes: true })
      } catch {
        return []
      }
      // Symbolic links are not listed (an import may still follow one that stays inside).
      return entries.flatMap((e): { name: string; kind: EntryKind }[] => (e.isFile() ? [{ name: e.name, kind: 'file' }] : e.isDirectory() ? [{ name: e.name, kind: 'folder' }] : []))
    },
    identity: (absolutePath) => resolve(absolutePath)?.real ?? path.resolve(absolutePath),
  }
}
