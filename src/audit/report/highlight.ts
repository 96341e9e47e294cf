import { escapeHtml } from './escape.ts'

const KEYWORDS = new Set([
  'pragma', 'solidity', 'import', 'from', 'as', 'contract', 'interface', 'library', 'abstract', 'is', 'function', 'modifier',
  'event', 'error', 'struct', 'enum', 'constructor', 'fallback', 'receive', 'returns', 'return', 'if', 'else', 'for', 'while',
  'do', 'break', 'continue', 'throw', 'emit', 'revert', 'try', 'catch', 'new', 'delete', 'using', 'assembly', 'unchecked',
  'public', 'private', 'internal', 'external', 'pure', 'view', 'payable', 'constant', 'immutable', 'virtual', 'override',
  'memory', 'storage', 'calldata', 'indexed', 'anonymous', 'var', 'let', 'switch', 'case', 'default', 'leave', 'type',
  'true', 'false', 'wei', 'gwei', 'ether', 'seconds', 'minutes', 'hours', 'days', 'weeks', 'years', 'transient', 'global',
])

const BUILTINS = new Set([
  'msg', 'block', 'tx', 'abi', 'this', 'super', 'now', 'require', 'assert', 'keccak256', 'sha3', 'sha256', 'ecrecover',
  'selfdestruct', 'suicide', 'blockhash', 'gasleft', 'addmod', 'mulmod',
])

const TYPE = /^(address|bool|string|bytes\d*|byte|u?int\d*|u?fixed(\d+x\d+)?|mapping)$/

/**
 * A small Solidity highlighter for report snippets: comments, strings, numbers, keywords, types
 * and built-ins become `<span class="…">`; everything is HTML-escaped (snippets are untrusted
 * source text). Lines are kept, so the caller can number them.
 */
export function highlightSolidity(code: string): string {
  let out = ''
  let i = 0
  const n = code.length
  const span = (cls: string, text: string): string => `<span class="${cls}">${escapeHtml(text)}</span>`
  while (i < n) {
    const c = code[i]
    const rest = code.startsWith('//', i) ? '//' : code.startsWith('/*', i) ? '/*' : ''
    if (rest === '//') {
      let end = code.indexOf('\n', i)
      if (end < 0) end = n
      out += span('c', code.slice(i, end))
      i = end
    } else if (rest === '/*') {
      let end = code.indexOf('*/', i + 2)
      end = end < 0 ? n : end + 2
      out += commentLines(code.slice(i, end))
      i = end
    } else if (c === '"' || c === "'") {
      let j = i + 1
      while (j < n && code[j] !== c && code[j] !== '\n') j += code[j] === '\\' ? 2 : 1
      j = Math.min(n, j + 1)
      out += span('s', code.slice(i, j))
      i = j
    } else if (/[0-9]/.test(c)) {
      const m = /^(0x[0-9a-fA-F_]*|[0-9][0-9_]*(\.[0-9_]+)?([eE]-?[0-9_]+)?)/.exec(code.slice(i, i + 100))
      const text = m ? m[0] : c
      out += span('n', text)
      i += text.length
    } else if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(code.slice(i, i + 200))
      const word = m ? m[0] : c
      if (KEYWORDS.has(word)) out += span('k', word)
      else if (TYPE.test(word)) out += span('t', word)
      else if (BUILTINS.has(word)) out += span('b', word)
      else out += escapeHtml(word)
      i += word.length
    } else {
      out += escapeHtml(c)
      i++
    }
  }
  return out
}

/** A block comment spanning lines, as one span per line so line numbering stays intact. */
function commentLines(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `<span class="c">${escapeHtml(line)}</span>` : ''))
    .join('\n')
}
