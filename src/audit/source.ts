import type * as AST from './parse/ast.ts'
import type { SourceFileIr } from './ir/types.ts'

/** Longest snippet kept for one finding; longer ranges keep their first lines and say so. */
export const MAX_SNIPPET_LINES = 20
/** Longest line of a snippet; longer lines (minified or generated code) are cut and say so. */
export const MAX_SNIPPET_LINE_CHARS = 400

const lineCache = new WeakMap<SourceFileIr, string[]>()

function linesOf(file: SourceFileIr): string[] {
  let lines = lineCache.get(file)
  if (!lines) {
    lines = file.source.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
    lineCache.set(file, lines)
  }
  return lines
}

/**
 * The 1-based [first, last] lines of a node. With `header`, a function, modifier or contract is
 * cut at the line that opens its body, so the finding shows its signature only; any other node
 * is cut to its first line.
 */
export function nodeLines(file: SourceFileIr, node: AST.BaseASTNode, header = false): [number, number] {
  const first = node.loc?.start.line ?? 1
  let last = node.loc?.end.line ?? first
  if (header) {
    if ((node.type === 'FunctionDefinition' || node.type === 'ModifierDefinition') && (node as AST.FunctionDefinition).body?.loc) {
      last = (node as AST.FunctionDefinition).body!.loc!.start.line
    } else if (node.type === 'ContractDefinition' && node.range) {
      const brace = file.source.indexOf('{', node.range[0])
      if (brace >= 0) last = lineAt(file, brace)
    } else if (node.type === 'ForStatement' || node.type === 'WhileStatement') {
      const body = (node as AST.ForStatement).body
      last = body?.loc ? body.loc.start.line : first
    } else {
      last = first
    }
  }
  return [first, Math.max(first, last)]
}

const lineStartCache = new WeakMap<SourceFileIr, Uint32Array>()

/** Offsets at which the lines of a file start. */
function lineStarts(file: SourceFileIr): Uint32Array {
  let starts = lineStartCache.get(file)
  if (!starts) {
    const list = [0]
    const source = file.source
    for (let index = source.indexOf('\n'); index >= 0; index = source.indexOf('\n', index + 1)) list.push(index + 1)
    starts = Uint32Array.from(list)
    lineStartCache.set(file, starts)
  }
  return starts
}

/** The 1-based line of an offset. */
export function lineAt(file: SourceFileIr, offset: number): number {
  // The line of an offset is the number of line starts at or before it (a newline belongs to its line).
  const starts = lineStarts(file)
  let lo = 0
  let hi = starts.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (starts[mid] <= offset) lo = mid + 1
    else hi = mid
  }
  return Math.max(1, lo)
}

/** The source lines first..last (1-based, inclusive), at most MAX_SNIPPET_LINES of them. */
export function snippet(file: SourceFileIr, first: number, last: number): string {
  const lines = linesOf(file)
  const end = Math.min(last, first + MAX_SNIPPET_LINES - 1, lines.length)
  const text = lines
    .slice(first - 1, end)
    .map((l) => (l.length > MAX_SNIPPET_LINE_CHARS ? `${l.slice(0, MAX_SNIPPET_LINE_CHARS)} /* … ${l.length - MAX_SNIPPET_LINE_CHARS} more characters */` : l))
    .join('\n')
  return end < last ? `${text}\n// … ${last - end} more lines` : text
}

/** The exact source text of a node (for messages). */
export function nodeText(file: SourceFileIr, node: AST.BaseASTNode, maxLength = 80): string {
  if (!node.range) return ''
  const text = file.source.slice(node.range[0], node.range[1] + 1).replace(/\s+/g, ' ')
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text
}
