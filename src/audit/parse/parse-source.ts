import { parse as parseWithAntlr } from '@solidity-parser/parser'
import type { SourceUnit } from './ast.ts'
import { SolidityParseError } from './lexer.ts'
import { parseSolidity } from './parser.ts'

/** Files larger than this are not handed to the slow reference parser when the fast one rejects them. */
export const MAX_REFERENCE_PARSER_BYTES = 256 * 1024

export type ParseSourceResult =
  | { ok: true; ast: SourceUnit; parser: 'tokenrisk' | 'antlr' }
  | { ok: false; message: string }

/**
 * Parses one Solidity source: with tokenrisk's fast parser, and, when it rejects the file, with
 * the ANTLR parser of `@solidity-parser/parser` (slower, but the reference grammar). Both produce
 * the same node types. A file neither accepts is an error carrying the fast parser's message,
 * which names the offending token and its position.
 */
export function parseSource(source: string): ParseSourceResult {
  let fastError: unknown
  try {
    return { ok: true, ast: parseSolidity(source), parser: 'tokenrisk' }
  } catch (error) {
    fastError = error
  }
  // Nesting deep enough to exhaust the stack would send the ANTLR parser into a search that
  // does not end in useful time: refuse the file instead.
  if (fastError instanceof RangeError) return { ok: false, message: 'syntax error: the code is nested too deeply to analyse' }
  if (source.length > MAX_REFERENCE_PARSER_BYTES) {
    return { ok: false, message: `syntax error: ${fastError instanceof Error ? fastError.message : String(fastError)}` }
  }
  try {
    const ast = parseWithAntlr(source, { loc: true, range: true }) as SourceUnit
    return { ok: true, ast, parser: 'antlr' }
  } catch (antlrError) {
    const chosen = fastError instanceof SolidityParseError ? fastError : antlrError
    return { ok: false, message: `syntax error: ${chosen instanceof Error ? chosen.message : String(chosen)}` }
  }
}
