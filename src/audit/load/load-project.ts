import fs from 'node:fs'
import path from 'node:path'
import type { SourceFile } from '../../contract/services.ts'
import { InputError } from '../../errors.ts'
import type { ImportDirective, SourceUnit } from '../parse/ast.ts'
import { parseSource } from '../parse/parse-source.ts'
import { diskProjectFiles } from './disk-files.ts'
import { memoryProjectFiles, SOURCES_ROOT } from './memory-files.ts'
import { insideFolder, rootOf, type ProjectFiles } from './project-files.ts'
import { applyRemappings, projectRemappings, type Remapping } from './remappings.ts'

/** One Solidity file of a loaded project: the project's own or a dependency. */
export interface LoadedFile {
  absolutePath: string
  /** Path relative to the project root, with forward slashes. */
  path: string
  source: string
  /** Whether the file is the project's own (analysed and reported) or a dependency. */
  own: boolean
  /** Lines as counted for `totalLines` (see `countLines`). */
  lines: number
  /** The syntax tree, or null when the file does not parse (its error is in the project's errors). */
  ast: SourceUnit | null
  imports: { directive: ImportDirective; resolved: LoadedFile | null }[]
}

/** A file that was not analysed, and why. */
export interface SkippedFile {
  file: string
  reason: string
  /** Whether it is one of the project's own files (else a dependency it imports). */
  own: boolean
}

export interface LoadedProject {
  root: string
  /** The project's own files first (sorted by path), then dependencies in the order reached. */
  files: LoadedFile[]
  /** Files not analysed: unreadable, not text, too large, over the project's budget, or not parsed. */
  skipped: SkippedFile[]
  errors: { file: string; message: string }[]
}

export interface LoadProjectOptions {
  /** Extra remappings (`prefix=target`), taking precedence over the project's own. */
  remappings?: readonly string[]
  /**
   * Folders outside the project that imports may be found in, as solc's `--include-path`: an
   * import `a/b.sol` not found in the project is looked for as `<folder>/a/b.sol`. Nothing else
   * outside the project is read.
   */
  includePaths?: readonly string[]
  /** The project's code budget (default `MAX_PROJECT_CODE_BYTES`). */
  maxCodeBytes?: number
  /** The project's syntax budget in tokens (default `MAX_PROJECT_TOKENS`). */
  maxTokens?: number
}

/** Folders below the project root that hold dependencies, build output or tooling, not the project's code. */
const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  'node_modules', 'out', 'cache', 'artifacts', 'build', 'typechain', 'typechain-types', 'coverage', 'crytic-export',
  'test', 'tests', 'script', 'scripts', 'mocks', 'mock',
])

/** Files that are tests or deployment scripts by Foundry's naming convention. */
const SKIPPED_FILE_SUFFIXES = ['.t.sol', '.s.sol'] as const

/** Files whose presence marks a project root when a single file is analysed. */
const PROJECT_MARKERS = [
  'foundry.toml', 'remappings.txt', 'hardhat.config.js', 'hardhat.config.ts', 'truffle-config.js', 'truffle.js', 'package.json',
] as const

/** How far up from a single file we look for a project root. */
const MAX_ROOT_SEARCH_DEPTH = 8

/**
 * Lines of a source as reported in `totalLines`: the number of newline characters, plus one when
 * the text does not end with a newline (so a file's count equals what an editor shows, and an
 * empty file counts zero). Blank and comment lines count.
 */
export function countLines(source: string): number {
  if (source.length === 0) return 0
  let count = 0
  let index = source.indexOf('\n')
  while (index >= 0) {
    count++
    index = source.indexOf('\n', index + 1)
  }
  return source.endsWith('\n') ? count : count + 1
}

/**
 * Largest source file read; anything bigger is reported, not parsed (the largest OpenZeppelin file
 * is 65 kB). Reading is cheap: what one analysis may hold in memory is bounded by the syntax
 * budget (`MAX_PROJECT_TOKENS`), not by this.
 */
export const MAX_SOURCE_BYTES = 8 * 1024 * 1024

/**
 * Code (bytes of a source without its comments and whitespace, see `codeBytes`) one analysis
 * reads in, the project's own files and their dependencies together; files past it are listed
 * as not analysed. All of OpenZeppelin is 0.6 MB of code.
 */
export const MAX_PROJECT_CODE_BYTES = 8 * 1024 * 1024

/**
 * Tokens one analysis parses, the project's own files and their dependencies together: what
 * bounds its memory, since the syntax tree, the IR and the analyses grow with the tokens, whatever
 * the shape of the code (about 0.6 KB per token at most, `npm run bench:audit-limits`). A file
 * that would take the project past it is listed as not analysed, its tree never built. All of
 * OpenZeppelin is about 0.13 million tokens; a generated 5 MB file of small contracts, 1.3 million.
 */
export const MAX_PROJECT_TOKENS = 1_400_000

/** Milliseconds of parsing after which the loader lets other work of the process run. */
const YIELD_EVERY_MS = 50

/**
 * Loads a project: its own files (one file, or every `.sol` below a folder except tests, scripts
 * and dependency folders), then every file they import, resolved through relative paths,
 * remappings, `node_modules` and the include paths. Each file is read and parsed once. Nothing
 * outside the project's root (the folder, or the root found above the file) and the include
 * paths is read: an import, a remapping or a symbolic link leading out of them is not found.
 */
export async function loadProject(target: string, options: LoadProjectOptions = {}): Promise<LoadedProject> {
  const absoluteTarget = path.resolve(target)
  let stat: fs.Stats
  try {
    stat = fs.statSync(absoluteTarget)
  } catch {
    throw new InputError(`no such file or folder: ${target}`)
  }
  const isFile = stat.isFile()
  if (isFile && !absoluteTarget.endsWith('.sol')) throw new InputError(`not a Solidity file: ${target}`)
  const givenRoot = isFile ? findProjectRoot(path.dirname(absoluteTarget)) : absoluteTarget
  const includePaths: string[] = []
  for (const folder of options.includePaths ?? []) {
    if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw new InputError(`include path ${folder} is not a folder`)
    includePaths.push(folder)
  }
  const files = diskProjectFiles([givenRoot, ...includePaths])
  const root = files.roots[0]
  const ownPaths = isFile ? [path.join(root, path.relative(givenRoot, absoluteTarget))] : findOwnSourcesIn(files, root, options.remappings ?? [])
  if (ownPaths.length === 0) throw new InputError(`no Solidity files found in ${target}`)
  return loadFrom(files, ownPaths, options)
}

/**
 * Loads sources given as text: their imports are resolved among them alone, in memory (paths
 * relative to the project, as given). Nothing is read from the disk, whatever a path names.
 */
export async function loadSources(sources: readonly SourceFile[], options: Omit<LoadProjectOptions, 'includePaths'> = {}): Promise<LoadedProject> {
  const files = memoryProjectFiles(sources)
  const ownPaths = findOwnSourcesIn(files, SOURCES_ROOT, options.remappings ?? [])
  if (ownPaths.length === 0) throw new InputError('no Solidity files among the sources given')
  return loadFrom(files, ownPaths, options)
}

/** Loads the project of `fileSystem` (its root is the first of its roots) from its own files `ownPaths`. */
async function loadFrom(fileSystem: ProjectFiles, ownPaths: readonly string[], options: LoadProjectOptions): Promise<LoadedProject> {
  const root = fileSystem.roots[0]
  const remappings = projectRemappings(fileSystem, root, options.remappings ?? [])
  const resolver = new ImportResolver(fileSystem, remappings)
  const errors: LoadedProject['errors'] = []
  const skipped: SkippedFile[] = []
  const skip = (file: string, own: boolean, reason: string) => {
    skipped.push({ file, reason, own })
    errors.push({ file, message: reason })
  }
  let codeSpent = 0
  const maxCodeBytes = options.maxCodeBytes ?? MAX_PROJECT_CODE_BYTES
  let tokensSpent = 0
  const maxTokens = options.maxTokens ?? MAX_PROJECT_TOKENS
  const byKey = new Map<string, LoadedFile>()
  const files: LoadedFile[] = []
  const queue: LoadedFile[] = []

  const add = (absolutePath: string, own: boolean): LoadedFile | null => {
    const key = resolver.identity(absolutePath)
    const existing = byKey.get(key)
    if (existing) return existing
    const projectPath = toProjectPath(root, absolutePath)
    let source: string
    try {
      const size = fileSystem.size(absolutePath)
      if (size > MAX_SOURCE_BYTES) {
        skip(projectPath, own, `file of ${size} bytes is larger than the ${MAX_SOURCE_BYTES}-byte limit; not analysed`)
        return null
      }
      source = fileSystem.read(absolutePath)
    } catch (error) {
      skip(projectPath, own, `cannot read the file: ${(error as Error).message}`)
      return null
    }
    if (source.includes('\u0000')) {
      skip(projectPath, own, 'not a text file (it holds NUL bytes); not analysed')
      return null
    }
    const code = codeBytes(source)
    if (codeSpent + code > maxCodeBytes) {
      skip(projectPath, own, `the project's code budget (${maxCodeBytes} bytes of code without comments, dependencies included) is spent; not analysed`)
      return null
    }
    codeSpent += code
    const file: LoadedFile = {
      absolutePath,
      path: projectPath,
      source,
      own,
      lines: countLines(source),
      ast: null,
      imports: [],
    }
    byKey.set(key, file)
    files.push(file)
    queue.push(file)
    return file
  }

  for (const ownPath of ownPaths) add(ownPath, true)

  let sliceStart = performance.now()
  while (queue.length > 0) {
    const file = queue.shift() as LoadedFile
    const parsed = parseSource(file.source, { maxTokens: maxTokens - tokensSpent })
    if (!parsed.ok) {
      skip(
        file.path,
        file.own,
        parsed.overBudget ? `the project's syntax budget (${maxTokens} tokens, dependencies included) is spent: ${parsed.message}; not analysed` : parsed.message,
      )
    } else {
      tokensSpent += parsed.tokens
      file.ast = parsed.ast
      for (const child of parsed.ast.children) {
        if (child.type !== 'ImportDirective') continue
        const resolvedPath = resolver.resolve(child.path, file.absolutePath)
        if (resolvedPath === null) {
          errors.push({ file: file.path, message: `line ${child.loc?.start.line ?? '?'}: import "${child.path}" not found` })
          file.imports.push({ directive: child, resolved: null })
          continue
        }
        file.imports.push({ directive: child, resolved: add(resolvedPath, false) })
      }
    }
    if (performance.now() - sliceStart > YIELD_EVERY_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve))
      sliceStart = performance.now()
    }
  }

  return { root, files, skipped, errors }
}

/**
 * Bytes of code in a source: everything but comments and whitespace (string literals count
 * whole). What the analyzer's memory grows with; comments and blank space cost it nearly nothing.
 */
export function codeBytes(source: string): number {
  let count = 0
  const n = source.length
  let i = 0
  while (i < n) {
    const c = source.charCodeAt(i)
    if (c === 0x2f /* / */ && source.charCodeAt(i + 1) === 0x2f) {
      const end = source.indexOf('\n', i + 2)
      i = end < 0 ? n : end
    } else if (c === 0x2f && source.charCodeAt(i + 1) === 0x2a /* * */) {
      const end = source.indexOf('*/', i + 2)
      i = end < 0 ? n : end + 2
    } else if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
      let j = i + 1
      while (j < n && source.charCodeAt(j) !== c && source.charCodeAt(j) !== 0x0a) j += source.charCodeAt(j) === 0x5c /* backslash */ ? 2 : 1
      count += Math.min(j + 1, n) - i
      i = j + 1
    } else {
      if (c > 0x20) count++
      i++
    }
  }
  return count
}

function toProjectPath(root: string, absolutePath: string): string {
  return path.relative(root, absolutePath).split(path.sep).join('/')
}

function findProjectRoot(start: string): string {
  let dir = start
  for (let depth = 0; depth < MAX_ROOT_SEARCH_DEPTH; depth++) {
    if (PROJECT_MARKERS.some((marker) => fs.existsSync(path.join(dir, marker)))) return dir
    const parent = path.dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return start
}

/**
 * The project's own Solidity files below `root` (absolute paths, sorted): every `.sol` except
 * Foundry tests and scripts (`*.t.sol`, `*.s.sol`), files in test, script, mock, build-output and
 * dependency folders (`node_modules`, a root-level `lib`, remapping targets) and hidden folders.
 */
export function findOwnSources(root: string, extraRemappings: readonly string[] = []): string[] {
  const files = diskProjectFiles([root])
  return findOwnSourcesIn(files, files.roots[0], extraRemappings).map((found) => path.join(path.resolve(root), path.relative(files.roots[0], found)))
}

/** `findOwnSources` through the project's `files`. */
function findOwnSourcesIn(files: ProjectFiles, root: string, extraRemappings: readonly string[]): string[] {
  const dependencyFolders = new Set(
    projectRemappings(files, root, extraRemappings)
      .map((r) => path.resolve(root, r.target).replace(/[\\/]+$/, ''))
      .filter((folder) => folder.startsWith(root + path.sep)),
  )
  const found: string[] = []
  const walk = (dir: string, depth: number): void => {
    for (const entry of files.list(dir)) {
      if (entry.name.startsWith('.')) continue
      const full = path.join(dir, entry.name)
      if (entry.kind === 'folder') {
        if (SKIPPED_FOLDERS.has(entry.name)) continue
        if (depth === 0 && entry.name === 'lib') continue
        if (dependencyFolders.has(full)) continue
        walk(full, depth + 1)
      } else if (entry.name.endsWith('.sol') && !SKIPPED_FILE_SUFFIXES.some((s) => entry.name.endsWith(s))) {
        found.push(full)
      }
    }
  }
  walk(root, 0)
  return found.sort()
}

/**
 * Resolves import paths the way solc with a base path, include paths, remappings and
 * Hardhat-style `node_modules` does, within the project's files: a candidate outside its roots
 * (an absolute path, `..` past the root, a remapping or `node_modules` above it) is never asked.
 */
class ImportResolver {
  private readonly root: string

  constructor(
    private readonly files: ProjectFiles,
    private readonly remappings: readonly Remapping[],
  ) {
    this.root = files.roots[0]
  }

  /** A stable key for a file, the same through symlinks. */
  identity(absolutePath: string): string {
    return this.files.identity(absolutePath)
  }

  resolve(importPath: string, fromFile: string): string | null {
    for (const candidate of this.candidates(importPath, fromFile)) {
      if (rootOf(this.files.roots, candidate) !== undefined && this.files.kind(candidate) === 'file') return candidate
    }
    return null
  }

  private *candidates(importPath: string, fromFile: string): Generator<string> {
    if (importPath.startsWith('./') || importPath.startsWith('../')) {
      yield path.resolve(path.dirname(fromFile), importPath)
      return
    }
    const remapped = applyRemappings(importPath, toProjectPath(this.root, fromFile), this.remappings)
    if (remapped !== null) {
      yield path.resolve(this.root, remapped)
      if (remapped.startsWith('./') || remapped.startsWith('../')) yield path.resolve(path.dirname(fromFile), remapped)
    }
    if (path.isAbsolute(importPath)) yield importPath
    for (const root of this.files.roots) yield path.resolve(root, importPath)
    // node_modules folders from the importing file's folder up to its root, never above it.
    const fromRoot = rootOf(this.files.roots, fromFile) ?? this.root
    const seen = new Set<string>()
    for (const start of [path.dirname(fromFile), this.root]) {
      const top = start === this.root ? this.root : fromRoot
      let dir = start
      while (insideFolder(top, dir)) {
        if (!seen.has(dir)) {
          seen.add(dir)
          yield path.join(dir, 'node_modules', importPath)
        }
        if (dir === top) break
        dir = path.dirname(dir)
      }
    }
  }
}
