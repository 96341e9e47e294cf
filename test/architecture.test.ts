// The house's rules, read from the sources (docs/architecture.md, "Rooms and stages"): imports
// point down the layers, the two engines do not lean on each other, and a long source file says
// why it is long.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from './helpers/paths.ts'

const SRC = join(PROJECT_ROOT, 'src')

/**
 * The rooms of src/ by layer, bottom first (docs/architecture.md). A room may import rooms of its
 * own layer or of a lower one; importing a higher layer is an upward import.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['contract', 'errors', 'abort', 'evm-address'],
  ['config', 'net', 'cache'],
  ['metadata', 'report', 'store'],
  ['audit'],
  ['queue'],
  ['engines/evm', 'engines/solana'],
  ['http', 'web', 'mcp'],
  ['cli'],
]
/** Upward imports the house still has, each with its reason (at most two). */
const UPWARD_ALLOWED: readonly string[] = []
/** Lines above which a source file gives, in its header, the reason it stays one file. */
const LONG_FILE_LINES = 600
/** Long files say why in a header comment paragraph starting with this. */
const LONG_FILE_REASON = /^\s*(?:\/\/|\*)\s*Why (?:it is|this file is) long:/m
/** Rooms whose long files are not checked (none: every room is). */
const LONG_FILES_NOT_YET_CHECKED: string[] = []

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : []
  })
}

/** The room of a file: its first directory under src/ (the engines' second), or its own name. */
function roomOf(path: string): string {
  const parts = relative(SRC, path).split('/')
  if (parts[0] === 'engines') return `engines/${parts[1]}`
  return parts.length === 1 ? parts[0].replace(/\.ts$/, '') : parts[0]
}

const layerOf = (room: string): number => {
  const layer = LAYERS.findIndex((rooms) => rooms.includes(room))
  if (layer < 0) throw new Error(`room ${room} has no layer: add it to LAYERS and to docs/architecture.md`)
  return layer
}

/** Every relative import (static, re-export or dynamic) from one room into another. */
function crossRoomImports(): { from: string; to: string; fromRoom: string; toRoom: string }[] {
  const found: { from: string; to: string; fromRoom: string; toRoom: string }[] = []
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8')
    const specifiers = [
      ...[...text.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm)].map((m) => m[1]),
      ...[...text.matchAll(/^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm)].map((m) => m[1]),
      ...[...text.matchAll(/import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)].map((m) => m[1]),
    ]
    for (const specifier of specifiers) {
      const target = resolve(dirname(file), specifier)
      const fromRoom = roomOf(file)
      const toRoom = roomOf(target)
      if (fromRoom !== toRoom) found.push({ from: relative(SRC, file), to: relative(SRC, target), fromRoom, toRoom })
    }
  }
  return found
}

describe('rooms and layers', () => {
  const imports = crossRoomImports()

  it('finds the imports it judges', () => {
    // The check reads import statements; a change of style that hid them would make it pass vacuously.
    expect(imports.some((i) => i.fromRoom === 'engines/evm' && i.toRoom === 'report')).toBe(true)
    expect(imports.some((i) => i.fromRoom === 'cli' && i.toRoom === 'http')).toBe(true)
  })

  it('imports point down the layers (at most two upward, each listed with its reason)', () => {
    const upward = imports.filter((i) => layerOf(i.toRoom) > layerOf(i.fromRoom)).map((i) => `${i.from} -> ${i.to}`)
    expect(upward).toEqual([...UPWARD_ALLOWED])
    expect(UPWARD_ALLOWED.length).toBeLessThanOrEqual(2)
  })

  it('the two engines stand side by side: neither imports the other', () => {
    expect(imports.filter((i) => i.fromRoom.startsWith('engines/') && i.toRoom.startsWith('engines/'))).toEqual([])
  })

  it('nothing below the web layer imports http/', () => {
    expect(imports.filter((i) => i.toRoom === 'http' && i.fromRoom !== 'cli')).toEqual([])
  })

  it(`a source file over ${LONG_FILE_LINES} lines says in its header why it is long`, () => {
    const unexplained = sourceFiles(SRC)
      .filter((file) => !LONG_FILES_NOT_YET_CHECKED.some((room) => relative(SRC, file).startsWith(room)))
      .filter((file) => readFileSync(file, 'utf8').split('\n').length > LONG_FILE_LINES)
      .filter((file) => !LONG_FILE_REASON.test(readFileSync(file, 'utf8').split('\n').slice(0, 40).join('\n')))
      .map((file) => relative(SRC, file))
    expect(unexplained).toEqual([])
  })

  it("takes viem's runtime values from its subpaths: its root module costs every command hundreds of milliseconds to load", () => {
    const rootImports = sourceFiles(SRC)
      .filter((file) => /^import (?!type\b)(?:\{[^}]*\}|\* as \w+|\w+) from 'viem'$/m.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file))
    expect(rootImports).toEqual([])
  })
})

/** The analyzer's detectors (src/audit/detectors): they read IR facts and ask the analyses. */
const DETECTORS = join(SRC, 'audit', 'detectors')

/**
 * Ways of looking inside the syntax tree: importing its node types, testing a node's kind, casting
 * to a node type, or walking a tree. A detector does none of them; what it needs is a fact of the
 * IR (src/audit/ir) or a question to a named analysis (src/audit/analyses). Nodes it holds are
 * `SourceNode`s: places to report and quote.
 */
const SYNTAX_USES: readonly { what: string; pattern: RegExp }[] = [
  { what: 'imports the syntax tree types', pattern: /from\s+['"][./]*parse\/ast(\.ts)?['"]/ },
  { what: "tests a node's kind", pattern: /\.type\s*[!=]==\s*['"]/ },
  { what: 'casts to a node type', pattern: /\bas\s+AST\./ },
  { what: 'walks a syntax tree', pattern: /\bwalkNodes\(/ },
]

/**
 * Detectors still looking inside the syntax tree, each with its reason (none today). The list
 * only shrinks: a detector leaving it is removed from it, and no new one joins.
 */
const DETECTORS_READING_SYNTAX: Readonly<Record<string, string>> = {}

describe("the analyzer's detectors read facts, not syntax", () => {
  const uses = sourceFiles(DETECTORS).flatMap((file) => {
    const text = readFileSync(file, 'utf8')
    return SYNTAX_USES.filter(({ pattern }) => pattern.test(text)).map(({ what }) => ({ file: relative(DETECTORS, file), what }))
  })

  it('finds the detectors it judges', () => {
    expect(sourceFiles(DETECTORS).length).toBeGreaterThan(60)
  })

  it('no detector looks inside the syntax tree but those listed, each with its reason', () => {
    expect(uses.filter((u) => !(u.file in DETECTORS_READING_SYNTAX))).toEqual([])
  })

  it('every detector listed still does (the list only shrinks)', () => {
    const reading = new Set(uses.map((u) => u.file))
    expect(Object.keys(DETECTORS_READING_SYNTAX).filter((file) => !reading.has(file))).toEqual([])
  })
})
