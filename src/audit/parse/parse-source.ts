import { parse as parseWithAntlr } from '@solidity-parser/parser'
import type { SourceUnit } from './ast.ts'
import { SolidityParseError, tokenize, type Token } from './lexer.ts'
import { parseSolidity } from './parser.ts'

/** Files larger than this are not handed to the slow reference parser when the fast one rejects them. */
export const MAX_REFERENCE_PARSER_BYTES = 256 * 1024

export type ParseSourceResult =
  | { ok: true; ast: SourceUnit; parser: 'tokenrisk' | 'antlr'; tokens: number }
  /** `overBudget`: refused for holding more than `maxTokens` tokens (`tokens` of them), not for its syntax. */
  | { ok: false; message: string; tokens?: number; overBudget?: true }

/**
 * Parses one Solidity source: with tokenrisk's fast parser, and, when it rejects the file, with
 * the ANTLR parser of `@solidity-parser/parser` (slower, but the reference grammar). Both produce
 * the same node types. A file neither accepts is an error carrying the fast parser's message,
 * which names the offending token and its position. The answer says how many tokens the file
 * holds (the measure of the project's syntax budget); a file of more than `maxTokens` is not
 * parsed (the error says so, with its count), so that no syntax tree past the budget is built.
 */
export function parseSource(source: string, options: { maxTokens?: number } = {}): ParseSourceResult {
  const maxTokens = options.maxTokens ?? Number.POSITIVE_INFINITY
  let fastError: unknown
  let tokens: Token[] | null = null
  try {
    tokens = tokenize(source)
  } catch (error) {
    fastError = error
  }
  if (tokens !== null) {
    if (tokens.length > maxTokens) return { ok: false, message: overBudget(tokens.length, maxTokens), tokens: tokens.length, overBudget: true }
    try {
      return { ok: true, ast: parseSolidity(source, tokens), parser: 'tokenrisk', tokens: tokens.length }
    } catch (error) {
      fastError = error
    }
  }
  const count = tokens?.length
  // The fast parser's tokens are not needed past here: let them go before the reference parser runs.
  tokens = null
  // Nesting deep enough to exhaust the stack would send the ANTLR parser into a search that
  // does not end in useful time: refuse the file instead.
  if (fastError instanceof RangeError) return { ok: false, message: 'syntax error: the code is nested too deeply to analyse' }
  if (source.length > MAX_REFERENCE_PARSER_BYTES) {
    return { ok: false, message: `syntax error: ${fastError instanceof Error ? fastError.message : String(fastError)}` }
  }
  try {
    const ast = parseWithAntlr(source, { loc: true, range: true, tokens: true }) as SourceUnit & { tokens?: unknown[] }
    const antlrTokens = ast.tokens?.length ?? count ?? 0
    delete ast.tokens
    if (antlrTokens > maxTokens) return { ok: false, message: overBudget(antlrTokens, maxTokens), tokens: antlrTokens, overBudget: true }
    return { ok: true, ast, parser: 'antlr', tokens: antlrTokens }
  } catch (antlrError) {
    const chosen = fastError instanceof SolidityParseError ? fastError : antlrError
    return { ok: false, message: `syntax error: ${chosen instanceof Error ? chosen.message : String(chosen)}` }
  }
}

function overBudget(tokens: number, maxTokens: number): string {
  return `the file holds ${tokens} tokens and the budget has ${maxTokens} left`
}
