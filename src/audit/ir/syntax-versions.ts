import type * as AST from '../parse/ast.ts'
import type { VersionRange } from './types.ts'
import { encodeVersion } from './version.ts'

/** A construct that only some compiler versions accept, and the bound it sets. */
export interface VersionEvidence {
  node: AST.BaseASTNode
  /** What the construct is, for messages (`throw`, `var`, a constructor named after the contract). */
  construct: string
  /** The construct needs at least this version (encoded), or compiles only below it (`until`). */
  since?: number
  until?: number
}

const V0_4_21 = encodeVersion(0, 4, 21)
const V0_4_22 = encodeVersion(0, 4, 22)
const V0_5_0 = encodeVersion(0, 5, 0)
const V0_6_0 = encodeVersion(0, 6, 0)
const V0_7_0 = encodeVersion(0, 7, 0)
const V0_8_0 = encodeVersion(0, 8, 0)
const V0_8_4 = encodeVersion(0, 8, 4)

/** Builtins removed in 0.5.0 (`sha3`, `suicide`), called by name. */
const REMOVED_IN_0_5_BUILTINS: ReadonlySet<string> = new Set(['sha3', 'suicide'])

/**
 * The compiler versions a file's syntax allows, whatever its pragma says, with the constructs that
 * show it: `throw`, `var`, `constant` functions, constructors named after their contract,
 * functions without visibility, `sha3`, `suicide`, `callcode`, `msg.gas` and `block.blockhash`
 * compile only before 0.5.0; an unnamed `function()` fallback before 0.6.0; `now` and the
 * `.value(…)` / `.gas(…)` call options before 0.7.0; the `byte` type before 0.8.0. `emit` needs
 * 0.4.21, the `constructor` keyword 0.4.22, `receive`/`fallback`/`try` 0.6.0, `unchecked` 0.8.0
 * and custom errors 0.8.4. Returns null for the range when nothing in the file narrows it.
 */
export function syntaxVersions(ast: AST.SourceUnit): { range: VersionRange | null; evidence: VersionEvidence[] } {
  const evidence: VersionEvidence[] = []
  const until = (node: AST.BaseASTNode, construct: string, version: number): void => void evidence.push({ node, construct, until: version })
  const since = (node: AST.BaseASTNode, construct: string, version: number): void => void evidence.push({ node, construct, since: version })
  const declaresNow = hasDeclarationNamed(ast, 'now')

  // Iterative, so deeply nested code cannot exhaust the stack.
  const stack: [AST.ASTNode, AST.ContractDefinition | null][] = [[ast, null]]
  while (stack.length > 0) {
    const [node, enclosing] = stack.pop() as [AST.ASTNode, AST.ContractDefinition | null]
    let contract = enclosing
    switch (node.type) {
      case 'ContractDefinition':
        contract = node
        break
      case 'ThrowStatement':
        until(node, '`throw`', V0_5_0)
        break
      case 'VariableDeclarationStatement':
        if ((node.variables as (AST.VariableDeclaration | null)[]).some((v) => v !== null && (v.typeName === null || (v.typeName.type === 'ElementaryTypeName' && v.typeName.name === 'var')))) {
          until(node, '`var`', V0_5_0)
        }
        break
      case 'FunctionDefinition':
        if ((node.stateMutability as string | null) === 'constant') until(node, 'a `constant` function', V0_5_0)
        if (node.isConstructor && node.name) until(node, 'a constructor named after its contract', V0_5_0)
        else if (node.isConstructor) since(node, 'the `constructor` keyword', V0_4_22)
        else if (node.visibility === 'default' && contract !== null) until(node, 'a function without visibility', V0_5_0)
        if (node.isFallback && node.name === '') until(node, 'an unnamed `function()` fallback', V0_6_0)
        else if ((node.isFallback || node.isReceiveEther) && node.name === null) since(node, node.isFallback ? '`fallback()`' : '`receive()`', V0_6_0)
        break
      case 'FunctionCall':
        if (node.expression.type === 'Identifier' && REMOVED_IN_0_5_BUILTINS.has(node.expression.name)) until(node, `\`${node.expression.name}\``, V0_5_0)
        if (node.expression.type === 'MemberAccess' && (node.expression.memberName === 'value' || node.expression.memberName === 'gas') && isCalledMember(node.expression.expression)) {
          until(node, `the \`.${node.expression.memberName}(…)\` call option`, V0_7_0)
        }
        break
      case 'MemberAccess': {
        const base = node.expression.type === 'Identifier' ? node.expression.name : ''
        if (node.memberName === 'callcode') until(node, '`callcode`', V0_5_0)
        if (base === 'msg' && node.memberName === 'gas') until(node, '`msg.gas`', V0_5_0)
        if (base === 'block' && node.memberName === 'blockhash') until(node, '`block.blockhash`', V0_5_0)
        break
      }
      case 'Identifier':
        if (node.name === 'now' && !declaresNow) until(node, '`now`', V0_7_0)
        break
      case 'ElementaryTypeName':
        if (node.name === 'byte') until(node, 'the `byte` type', V0_8_0)
        break
      case 'EmitStatement':
        since(node, '`emit`', V0_4_21)
        break
      case 'TryStatement':
        since(node, '`try`', V0_6_0)
        break
      case 'UncheckedStatement':
        since(node, '`unchecked`', V0_8_0)
        break
      case 'CustomErrorDefinition':
      case 'RevertStatement':
        since(node, 'a custom error', V0_8_4)
        break
      default:
        break
    }
    forEachChild(node, (child) => void stack.push([child, contract]))
  }

  let min = 0
  let max = Infinity
  for (const e of evidence) {
    if (e.since !== undefined) min = Math.max(min, e.since)
    if (e.until !== undefined) max = Math.min(max, e.until)
  }
  if (evidence.length === 0 || min >= max) return { range: null, evidence }
  return { range: { min, max, pinned: false }, evidence }
}

/**
 * The versions that can compile a file: its pragma's range narrowed by what its syntax allows
 * (see `syntaxVersions`). When the two contradict (a pragma `^0.8.0` over a `throw`), the file
 * compiles nowhere and the pragma's range is kept.
 */
export function effectiveVersions(pragma: VersionRange | null, syntax: VersionRange | null): VersionRange | null {
  if (!syntax) return pragma
  if (!pragma) return syntax
  const min = Math.max(pragma.min, syntax.min)
  const max = Math.min(pragma.max, syntax.max)
  return min < max ? { min, max, pinned: pragma.pinned } : pragma
}

/** Whether `x` in `x.value(…)` / `x.gas(…)` is a function that can take call options: `a.call`, `c.f`, or another option. */
function isCalledMember(node: AST.Expression): boolean {
  if (node.type === 'MemberAccess') return true
  return node.type === 'FunctionCall' && node.expression.type === 'MemberAccess' && (node.expression.memberName === 'value' || node.expression.memberName === 'gas')
}

/** Whether the file declares a variable, function or parameter by that name (`now` can be one before 0.7). */
function hasDeclarationNamed(ast: AST.SourceUnit, name: string): boolean {
  const stack: AST.ASTNode[] = [ast]
  while (stack.length > 0) {
    const node = stack.pop() as AST.ASTNode
    if ((node.type === 'VariableDeclaration' || node.type === 'FunctionDefinition') && node.name === name) return true
    forEachChild(node, (child) => void stack.push(child))
  }
  return false
}

function forEachChild(node: AST.ASTNode, visit: (child: AST.ASTNode) => void): void {
  for (const key in node) {
    if (key === 'loc' || key === 'range' || key === 'type' || key === 'comments') continue
    const value = (node as unknown as Record<string, unknown>)[key]
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof item === 'object' && 'type' in item) visit(item as AST.ASTNode)
    } else if (value && typeof value === 'object' && 'type' in value) visit(value as AST.ASTNode)
  }
}
