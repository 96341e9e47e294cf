import path from 'node:path'

/** What a path of a project is: a regular file or a folder (anything else is not the loader's). */
export type EntryKind = 'file' | 'folder'

/**
 * The file system as the project loader sees it: the folders it may read (the project's root,
 * then the include paths an operator names) and nothing past them. A path outside every root, a
 * symbolic link leading out of them, a device, a FIFO or a socket is absent, and asking about a
 * path outside touches nothing. The loader reads through this layer only: on disk
 * (`diskProjectFiles`, `tokenrisk audit` of a folder) or in memory (`memoryProjectFiles`, sources
 * given as text, which never touch the disk).
 */
export interface ProjectFiles {
  /** The folders files are read from, absolute: the project's root first. */
  readonly roots: readonly string[]
  /** What `absolutePath` is, or undefined when it is absent or not the loader's to read. */
  kind(absolutePath: string): EntryKind | undefined
  /** The size in bytes of the file at `absolutePath` (a `kind` of 'file'). */
  size(absolutePath: string): number
  /** The text of the file at `absolutePath` (a `kind` of 'file'). */
  read(absolutePath: string): string
  /** The files and folders directly in the folder at `absolutePath` (empty when it is none). */
  list(absolutePath: string): { name: string; kind: EntryKind }[]
  /** A key of the file, the same through symbolic links. */
  identity(absolutePath: string): string
}

/** Whether `absolutePath` lies in `folder` (or is it), by the letters of the paths alone. */
export function insideFolder(folder: string, absolutePath: string): boolean {
  const relative = path.relative(folder, absolutePath)
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
}

/** The root of `roots` that `absolutePath` lies in (the deepest), or undefined when it is outside them all. */
export function rootOf(roots: readonly string[], absolutePath: string): string | undefined {
  let found: string | undefined
  for (const root of roots) if (insideFolder(root, absolutePath) && (found === undefined || root.length > found.length)) found = root
  return found
}
