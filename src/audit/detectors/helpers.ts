import type { Analyses } from '../analyses/analyses.ts'
import type { CallIr, FunctionIr, SourceFileIr, StateVariableIr } from '../ir/types.ts'
import type * as AST from '../parse/ast.ts'
import { unwrap } from '../analyses/syntax.ts'
import { nodeText } from '../source.ts'

/** How a function is named in a finding: `Vault.withdraw()`, the constructor of `Vault`, … */
export function functionLabel(fn: FunctionIr): string {
  const owner = fn.contract ? fn.contract.name : ''
  switch (fn.kind) {
    case 'constructor':
      return `the constructor of \`${owner}\``
    case 'fallback':
      return `the fallback function of \`${owner}\``
    case 'receive':
      return `\`receive()\` of \`${owner}\``
    case 'modifier':
      return `modifier \`${owner ? `${owner}.` : ''}${fn.name}\``
    default:
      return `\`${owner ? `${owner}.` : ''}${fn.name}()\``
  }
}

/** `a`, `a and b`, `a, b and c`, `a, b, c and 2 more` (at most `max` named). */
export function enumerate(items: readonly string[], max: number): string {
  const named = items.slice(0, max)
  const more = items.length - named.length
  if (more > 0) return `${named.join(', ')} and ${more} more`
  return named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}` : (named[0] ?? '')
}

/** `name` of a state variable as shown in findings. */
export function variableLabel(variable: StateVariableIr): string {
  return `\`${variable.name}\``
}

/** The call's source text, shortened. */
export function callText(file: SourceFileIr, call: CallIr): string {
  return `\`${nodeText(file, call.node, 70)}\``
}

/** The source text of a node in backticks. */
export function code(file: SourceFileIr, node: AST.BaseASTNode, maxLength = 70): string {
  return `\`${nodeText(file, node, maxLength)}\``
}

/** Whether an expression is `msg.value`. */
export function isMsgValue(node: AST.BaseASTNode): boolean {
  const n = unwrap(node)
  return n.type === 'MemberAccess' && n.memberName === 'value' && n.expression.type === 'Identifier' && n.expression.name === 'msg'
}

/** Whether an expression is `address(this)` or `this`. */
export function isThis(node: AST.BaseASTNode): boolean {
  const n = unwrap(node)
  if (n.type === 'Identifier') return n.name === 'this'
  if (n.type === 'FunctionCall') {
    const call = n
    const callee = call.expression
    const name = callee.type === 'Identifier' ? callee.name : callee.type === 'ElementaryTypeName' ? callee.name : ''
    return (name === 'address' || name === 'payable') && call.arguments.length === 1 && isThis(call.arguments[0])
  }
  return false
}

/** Whether a call sends ETH (a non-zero value option, send or transfer). */
export function sendsEth(call: CallIr): boolean {
  if (call.value === null) return false
  const v = unwrap(call.value)
  return !(v.type === 'NumberLiteral' && Number(v.number) === 0)
}

/** Whether a call can run code we do not control and that code could call back (reenter). */
export function canReenter(call: CallIr): boolean {
  switch (call.kind) {
    case 'low-level':
      return call.lowLevel !== 'staticcall'
    case 'external':
      return !(call.callee !== null && (call.callee.mutability === 'view' || call.callee.mutability === 'pure'))
    default:
      return false
  }
}

/** Whether a node is a zero literal or `address(0)`. */
export function isZero(node: AST.BaseASTNode): boolean {
  const n = unwrap(node)
  if (n.type === 'NumberLiteral') return /^0+$|^0x0*$/.test(n.number)
  if (n.type === 'FunctionCall') {
    const call = n
    const callee = call.expression
    const name = callee.type === 'Identifier' ? callee.name : callee.type === 'ElementaryTypeName' ? callee.name : ''
    return (name === 'address' || name === 'payable') && call.arguments.length === 1 && isZero(call.arguments[0])
  }
  return false
}

/** Whether an expression reads a block value usable as (bad) randomness or a clock. */
export function blockValue(node: AST.BaseASTNode): 'timestamp' | 'number' | 'difficulty' | 'coinbase' | 'blockhash' | 'gaslimit' | null {
  const n = unwrap(node)
  if (n.type === 'Identifier' && n.name === 'now') return 'timestamp'
  if (n.type === 'MemberAccess') {
    const m = n
    if (m.expression.type === 'Identifier' && m.expression.name === 'block') {
      switch (m.memberName) {
        case 'timestamp':
          return 'timestamp'
        case 'number':
          return 'number'
        case 'difficulty':
        case 'prevrandao':
          return 'difficulty'
        case 'coinbase':
          return 'coinbase'
        case 'gaslimit':
          return 'gaslimit'
      }
    }
  }
  if (n.type === 'FunctionCall') {
    const call = n
    const callee = call.expression
    if (callee.type === 'Identifier' && callee.name === 'blockhash') return 'blockhash'
    if (callee.type === 'MemberAccess' && callee.memberName === 'blockhash' && callee.expression.type === 'Identifier' && callee.expression.name === 'block') return 'blockhash'
  }
  return null
}

/** Normalised source text of an expression, for comparing two occurrences. */
export function sameText(file: SourceFileIr, a: AST.BaseASTNode, b: AST.BaseASTNode): boolean {
  return normalised(file, a) === normalised(file, b)
}

export function normalised(file: SourceFileIr, node: AST.BaseASTNode): string {
  const n = unwrap(node)
  if (!n.range) return ''
  return file.source.slice(n.range[0], n.range[1] + 1).replace(/\s+/g, '')
}

/**
 * Whether a call's result is looked at (see `DataFlowAnalysis.resultChecked`): followed through
 * locals, state variables and internal returns to a condition or other use, so a flag copied or
 * returned by a helper and checked later counts, and a flag only stored does not. For a call made
 * in assembly, what the walker found (`AssemblyCallFacts.successChecked`).
 */
export function resultChecked(analyses: Analyses, fn: FunctionIr, call: CallIr): boolean {
  if (call.assembly) return call.assembly.successChecked
  return analyses.dataflow.resultChecked(call, fn)
}

/**
 * For a result `resultChecked` says nobody looks at, where it went (else empty): `: it is
 * returned to …, which drop it` when internal functions hand it back to callers that ignore it
 * (those calls are the evidence), `: it is stored in …, which nothing checks`.
 */
export function droppedByCallers(analyses: Analyses, fn: FunctionIr, call: CallIr): { text: string; evidence: { node: AST.BaseASTNode; file: SourceFileIr }[] } {
  if (call.assembly) return { text: '', evidence: [] }
  const { droppedAt, storedIn } = analyses.dataflow.resultUse(call, fn)
  const callers = [...new Set(droppedAt.map((d) => d.fn))]
  const parts = [
    ...(callers.length > 0 ? [`it is returned to ${enumerate(callers.map(functionLabel), 3)}, which ${callers.length === 1 ? 'drops' : 'drop'} it`] : []),
    ...(storedIn.length > 0 ? [`it is stored in ${enumerate(storedIn.map(variableLabel), 3)}, which nothing checks`] : []),
  ]
  return { text: parts.length > 0 ? `: ${parts.join(' and ')}` : '', evidence: droppedAt.map((d) => ({ node: d.node, file: d.fn.file })) }
}
