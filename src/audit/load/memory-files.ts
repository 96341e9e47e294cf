import path from 'node:path'
import type { SourceFile } from '../../contract/services.ts'
import { insideFolder, type EntryKind, type ProjectFiles } from './project-files.ts'

/**
 * Where sources given as text sit for the loader: a name, not a folder of the disk (nothing is
 * ever read from or written to it). Paths reported are relative to it.
 */
export const SOURCES_ROOT = '/sources'

/**
 * Sources given as text as the loader's file system, in memory: the files given, the folders
 * their paths name, and nothing else. No path — absolute, `..` out of the project, anything
 * the disk holds — is ever read from the disk: whatever exists there, the answer is the same.
 *
 * @example
 * const files = memoryProjectFiles([{ path: 'src/Vault.sol', content: source }])
 * files.kind('/sources/src/Vault.sol') // 'file'
 * files.kind('/etc/passwd') // undefined
 */
export function memoryProjectFiles(sources: readonly SourceFile[]): ProjectFiles {
  const files = new Map<string, string>()
  const folders = new Map<string, Map<string, EntryKind>>([[SOURCES_ROOT, new Map()]])
  for (const source of sources) {
    const absolute = path.resolve(SOURCES_ROOT, source.path)
    // Paths are checked before they come here; one that would leave the project is not a file of it.
    if (!insideFolder(SOURCES_ROOT, absolute) || absolute === SOURCES_ROOT) continue
    files.set(absolute, source.content)
    let child = absolute
    let kind: EntryKind = 'file'
    while (child !== SOURCES_ROOT) {
      const parent = path.dirname(child)
      let entries = folders.get(parent)
      if (!entries) folders.set(parent, (entries = new Map()))
      entries.set(path.basename(child), kind)
      child = parent
      kind = 'folder'
    }
  }
  const kindOf = (absolutePath: string): EntryKind | undefined => {
    const p = path.resolve(absolutePath)
    return files.has(p) ? 'file' : folders.has(p) ? 'folder' : undefined
  }
  const fileOf = (absolutePath: string): string => {
    const text = files.get(path.resolve(absolutePath))
    if (text === undefined) throw new Error(`no such file among the sources given: ${path.relative(SOURCES_ROOT, absolutePath)}`)
    return text
  }
  return {
    roots: [SOURCES_ROOT],
    kind: kindOf,
    size: (absolutePath) => Buffer.byteLength(fileOf(absolutePath)),
    read: fileOf,
    list: (absolutePath) => [...(folders.get(path.resolve(absolutePath)) ?? [])].map(([name, kind]) => ({ name, kind })),
    identity: (absolutePath) => path.resolve(absolutePath),
  }
}
