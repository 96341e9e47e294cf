/**
 * The lexer of tokenrisk's Solidity parser: one pass over the source, no regular expressions in
 * the hot loop. Comments and whitespace are skipped; every token keeps its offsets (UTF-16 code
 * units of the JS string), its 1-based line and its 0-based column, which is what source ranges
 * and snippets are made of.
 */

export const TokenKind = {
  Identifier: 0,
  Number: 1,
  /** `"…"` or `'…'`, possibly prefixed by `unicode`. */
  String: 2,
  /** `hex"…"` or `hex'…'`. */
  HexString: 3,
  Punct: 4,
  EOF: 5,
} as const
export type TokenKind = (typeof TokenKind)[keyof typeof TokenKind]

export interface Token {
  kind: TokenKind
  /** The token's text exactly as in the source (strings keep their quotes and prefix). */
  text: string
  /** Offset of the first character. */
  start: number
  /** Offset just past the last character. */
  end: number
  line: number
  column: number
}

/** A syntax error with its position; the parser's only error type. */
export class SolidityParseError extends Error {
  override name = 'SolidityParseError'
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} (line ${line}, column ${column + 1})`)
  }
}

/** Punctuators, longest first within each starting character. */
const PUNCTUATORS: Record<string, readonly string[]> = {
  '>': ['>>>=', '>>>', '>>=', '>>', '>=', '>'],
  '<': ['<<=', '<<', '<=', '<'],
  '=': ['=>', '==', '=:', '='],
  '!': ['!=', '!'],
  '&': ['&&', '&=', '&'],
  '|': ['||', '|=', '|'],
  '+': ['++', '+=', '+'],
  '-': ['--', '-=', '->', '-'],
  '*': ['**', '*=', '*'],
  '/': ['/=', '/'],
  '%': ['%=', '%'],
  '^': ['^=', '^'],
  ':': [':=', ':'],
  '~': ['~'],
  '?': ['?'],
  ';': [';'],
  ',': [','],
  '.': ['.'],
  '(': ['('],
  ')': [')'],
  '[': ['['],
  ']': [']'],
  '{': ['{'],
  '}': ['}'],
}

function isIdentifierStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36
}

function isIdentifierPart(c: number): boolean {
  return isIdentifierStart(c) || (c >= 48 && c <= 57)
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57
}

function isHexDigitOrUnderscore(c: number): boolean {
  return isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70) || c === 95
}

/**
 * Splits a Solidity source into tokens. Throws `SolidityParseError` on an unterminated comment or
 * string or on a character that cannot start a token.
 */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  const length = source.length
  let pos = 0
  let line = 1
  let lineStart = 0

  const push = (kind: TokenKind, start: number, startLine: number, startColumn: number): void => {
    tokens.push({ kind, text: source.slice(start, pos), start, end: pos, line: startLine, column: startColumn })
  }

  while (pos < length) {
    const c = source.charCodeAt(pos)
    // Whitespace.
    if (c === 10) {
      pos++
      line++
      lineStart = pos
      continue
    }
    if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff) {
      pos++
      continue
    }
    // Comments.
    if (c === 47 /* / */) {
      const next = source.charCodeAt(pos + 1)
      if (next === 47) {
        pos += 2
        while (pos < length && source.charCodeAt(pos) !== 10) pos++
        continue
      }
      if (next === 42) {
        const startLine = line
        const startColumn = pos - lineStart
        const close = source.indexOf('*/', pos + 2)
        if (close < 0) throw new SolidityParseError('unterminated comment', startLine, startColumn)
        for (let i = pos + 2; i < close; i++) {
          if (source.charCodeAt(i) === 10) {
            line++
            lineStart = i + 1
          }
        }
        pos = close + 2
        continue
      }
    }

    const start = pos
    const startLine = line
    const startColumn = pos - lineStart

    if (isIdentifierStart(c)) {
      pos++
      while (pos < length && isIdentifierPart(source.charCodeAt(pos))) pos++
      // hex"…" and unicode"…" prefixes glue to the string that follows.
      const quote = source.charCodeAt(pos)
      if ((quote === 34 || quote === 39) && pos - start <= 7) {
        const word = source.slice(start, pos)
        if (word === 'hex' || word === 'unicode') {
          pos = scanString(source, pos, startLine, startColumn)
          push(word === 'hex' ? TokenKind.HexString : TokenKind.String, start, startLine, startColumn)
          continue
        }
      }
      push(TokenKind.Identifier, start, startLine, startColumn)
      continue
    }

    if (isDigit(c) || (c === 46 && isDigit(source.charCodeAt(pos + 1)))) {
      if (c === 48 && (source.charCodeAt(pos + 1) === 120 || source.charCodeAt(pos + 1) === 88)) {
        pos += 2
        while (pos < length && isHexDigitOrUnderscore(source.charCodeAt(pos))) pos++
      } else {
        while (pos < length && (isDigit(source.charCodeAt(pos)) || source.charCodeAt(pos) === 95)) pos++
        if (source.charCodeAt(pos) === 46 && isDigit(source.charCodeAt(pos + 1))) {
          pos++
          while (pos < length && (isDigit(source.charCodeAt(pos)) || source.charCodeAt(pos) === 95)) pos++
        }
        const e = source.charCodeAt(pos)
        if (e === 101 || e === 69) {
          const after = source.charCodeAt(pos + 1)
          if (isDigit(after) || (after === 45 && isDigit(source.charCodeAt(pos + 2)))) {
            pos += after === 45 ? 2 : 1
            while (pos < length && (isDigit(source.charCodeAt(pos)) || source.charCodeAt(pos) === 95)) pos++
          }
        }
      }
      push(TokenKind.Number, start, startLine, startColumn)
      continue
    }

    if (c === 34 || c === 39) {
      pos = scanString(source, pos, startLine, startColumn)
      push(TokenKind.String, start, startLine, startColumn)
      continue
    }

    const candidates = PUNCTUATORS[source[pos]]
    if (candidates) {
      for (const p of candidates) {
        if (source.startsWith(p, pos)) {
          pos += p.length
          break
        }
      }
      push(TokenKind.Punct, start, startLine, startColumn)
      continue
    }

    throw new SolidityParseError(`unexpected character ${JSON.stringify(source[pos])}`, startLine, startColumn)
  }

  tokens.push({ kind: TokenKind.EOF, text: '', start: length, end: length, line, column: length - lineStart })
  return tokens
}

/** Returns the offset just past the closing quote of the string starting at `pos`. */
function scanString(source: string, pos: number, line: number, column: number): number {
  const quote = source.charCodeAt(pos)
  let i = pos + 1
  while (i < source.length) {
    const c = source.charCodeAt(i)
    if (c === 92 /* \ */) {
      i += 2
      continue
    }
    if (c === quote) return i + 1
    if (c === 10) break
    i++
  }
  throw new SolidityParseError('unterminated string literal', line, column)
}
