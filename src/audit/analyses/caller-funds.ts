import type { Analyses } from './analyses.ts'
import { contains, mentionsAny, someNode, unwrap, walkNodes } from './syntax.ts'
import { derivedLocals } from './taint.ts'
import type { FunctionIr, StateVariableIr } from '../ir/types.ts'
import type * as AST from '../parse/ast.ts'

/**
 * Whether an expression is an entry kept for the caller: a lookup with the caller among its keys
 * (`balances[msg.sender]`, `credit[token][msg.sender]`) or a field of one (`users[msg.sender].owed`).
 */
export function isCallerEntry(analyses: Analyses, fn: FunctionIr, node: AST.BaseASTNode): boolean {
  let current = unwrap(node)
  while (current.type === 'MemberAccess') current = unwrap((current as AST.MemberAccess).expression)
  for (; current.type === 'IndexAccess'; current = unwrap((current as AST.IndexAccess).base)) {
    const index = (current as AST.IndexAccess).index
    if (index && analyses.access.isSender(unwrap(index), fn)) return true
  }
  return false
}

/** Whether an expression reads an entry kept for the caller (see `isCallerEntry`). */
export function readsCallerEntry(analyses: Analyses, fn: FunctionIr, node: AST.BaseASTNode): boolean {
  return someNode(node, (n) => isCallerEntry(analyses, fn, n))
}

/**
 * Whether the amount sent is the caller's own: it is read from an entry kept for the caller,
 * directly or through locals (`uint amount = balances[msg.sender]; …; to.transfer(amount)`), or
 * the function debits such an entry by it (`credit[msg.sender] -= amount; to.transfer(amount)`).
 * The caller then spends what the contract owes them, wherever they send it. A mention of the
 * caller elsewhere, such as a deny-list check (`require(!blacklisted[msg.sender])`), is not one.
 */
export function paysCallersOwn(analyses: Analyses, fn: FunctionIr, value: AST.BaseASTNode): boolean {
  if (readsCallerEntry(analyses, fn, value)) return true
  const fromEntry = derivedLocals(fn, new Set(), (e) => readsCallerEntry(analyses, fn, e))
  if (fromEntry.size > 0 && mentionsAny(value, fromEntry)) return true
  const amount = identifiersOf(value)
  if (amount.size === 0) return false
  return ((fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]).some((b) => {
    if (!isCallerEntry(analyses, fn, b.left) || !mentionsAny(b.right, amount)) return false
    return b.operator === '-=' || (b.operator === '=' && isSubtraction(b.right))
  })
}

/** `a - b`, or a library subtraction (`a.sub(b)`, `a.trySub(b)`). */
function isSubtraction(node: AST.BaseASTNode): boolean {
  const n = unwrap(node)
  if (n.type === 'BinaryOperation') return (n as AST.BinaryOperation).operator === '-'
  if (n.type !== 'FunctionCall') return false
  const callee = unwrap((n as AST.FunctionCall).expression)
  return callee.type === 'MemberAccess' && /^(try)?sub$/i.test((callee as AST.MemberAccess).memberName)
}

/** The names an expression mentions. */
function identifiersOf(node: AST.BaseASTNode): Set<string> {
  const names = new Set<string>()
  walkNodes(node, (n) => {
    if (n.type === 'Identifier') names.add((n as AST.Identifier).name)
  })
  return names
}

/**
 * The state variables whose caller entries the amount is read from (`deposits` in
 * `msg.sender.transfer(deposits[msg.sender])`, or through a local initialised from one).
 */
export function callerEntriesPaid(analyses: Analyses, fn: FunctionIr, value: AST.BaseASTNode): Set<StateVariableIr> {
  const sources: AST.BaseASTNode[] = [value]
  const names = new Set<string>()
  walkNodes(value, (n) => {
    if (n.type === 'Identifier' && fn.facts.locals.has(n.name)) names.add(n.name)
  })
  for (const d of (fn.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[])
    if (d.initialValue && d.variables.some((v) => v !== null && names.has((v as AST.VariableDeclaration).name ?? ''))) sources.push(d.initialValue)
  const result = new Set<StateVariableIr>()
  for (const source of sources) {
    walkNodes(source, (n) => {
      if (!isCallerEntry(analyses, fn, n)) return
      const read = fn.facts.stateReads.find((r) => contains(n, r.node))
      if (read) result.add(read.variable)
      return false
    })
  }
  return result
}
