import { authorizationOf } from '../../analyses/authorization.ts'
import { derivedLocals, mentionsAny, unwrap, walkNodes, type Queries } from '../../ir/queries.ts'
import type { FunctionIr } from '../../ir/types.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel, isMsgValue, isThis, normalised, sendsEth } from '../helpers.ts'

export const arbitrarySendEth = defineDetector({
  id: 'arbitrary-send-eth',
  title: 'ETH sent to an arbitrary address',
  category: 'calls',
  severity: 'high',
  confidence: 'medium',
  explanation:
    "Anyone can call this function and choose where the contract's ETH goes: nothing restricts the caller (no check on msg.sender, no signature of a signer the contract keeps, no approvals only restricted accounts record, as a multisig's confirmations), the destination comes from the function's arguments, and the amount is not the caller's own deposit.",
  recommendation: 'Restrict the function to authorised callers, send only to msg.sender, or pay only amounts recorded for the caller.',
  detect({ queries, entryPoints, report }) {
    for (const { fn, context } of entryPoints) {
      if (queries.isProtected(fn, context)) continue
      for (const call of fn.facts.calls) {
        const isEthSend = call.kind === 'send' || call.kind === 'transfer' || (call.kind === 'low-level' && call.lowLevel === 'call')
        if (!isEthSend || !sendsEth(call) || !call.target || !call.value) continue
        if (isMsgValue(call.value) || queries.isSender(unwrap(call.target), fn) || isThis(call.target)) continue
        if (!queries.dependsOnParameters(call.target, fn)) continue
        if (paysCallersOwn(queries, fn, call.value) || approvedByCaller(queries, fn, call.target)) continue
        // A multisig's confirmations or a signature of the contract's signer decided this payment.
        if (queries.isSenderGated(call.node, fn) || authorizationOf(queries, fn, context, call.node)) continue
        report(call.node, fn.file, `${functionLabel(fn)} lets any caller send ETH to ${code(fn.file, call.target)} with ${code(fn.file, call.node)}.`, { foundIn: [{ fn, context }] })
      }
    }
  },
})

/**
 * Whether an expression is an entry kept for the caller: a lookup with the caller among its keys
 * (`balances[msg.sender]`, `credit[token][msg.sender]`) or a field of one (`users[msg.sender].owed`).
 */
function isCallerEntry(queries: Queries, fn: FunctionIr, node: AST.BaseASTNode): boolean {
  let current = unwrap(node)
  while (current.type === 'MemberAccess') current = unwrap((current as AST.MemberAccess).expression)
  for (; current.type === 'IndexAccess'; current = unwrap((current as AST.IndexAccess).base)) {
    const index = (current as AST.IndexAccess).index
    if (index && queries.isSender(unwrap(index), fn)) return true
  }
  return false
}

/** Whether an expression reads an entry kept for the caller (see `isCallerEntry`). */
function readsCallerEntry(queries: Queries, fn: FunctionIr, node: AST.BaseASTNode): boolean {
  let found = false
  walkNodes(node, (n) => {
    if (found) return false
    if (isCallerEntry(queries, fn, n)) found = true
    return !found
  })
  return found
}

/**
 * Whether the amount sent is the caller's own: it is read from an entry kept for the caller,
 * directly or through locals (`uint amount = balances[msg.sender]; …; to.transfer(amount)`), or
 * the function debits such an entry by it (`credit[msg.sender] -= amount; to.transfer(amount)`).
 * The caller then spends what the contract owes them, wherever they send it. A mention of the
 * caller elsewhere, such as a deny-list check (`require(!blacklisted[msg.sender])`), is not one.
 */
function paysCallersOwn(queries: Queries, fn: FunctionIr, value: AST.BaseASTNode): boolean {
  if (readsCallerEntry(queries, fn, value)) return true
  const fromEntry = derivedLocals(fn, new Set(), (e) => readsCallerEntry(queries, fn, e))
  if (fromEntry.size > 0 && mentionsAny(value, fromEntry)) return true
  const amount = identifiersOf(value)
  if (amount.size === 0) return false
  return ((fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]).some((b) => {
    if (!isCallerEntry(queries, fn, b.left) || !mentionsAny(b.right, amount)) return false
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
 * Whether the destination must be one the caller approved in an entry kept for them: a guard of
 * `fn` admits only that address (`require(payees[msg.sender][to])`, `require(to == payoutOf[msg.sender])`).
 * An allow-list kept for everyone (`require(whitelist[to])`) is not the caller's choice.
 */
function approvedByCaller(queries: Queries, fn: FunctionIr, target: AST.BaseASTNode): boolean {
  const destination = normalised(fn.file, stripConversion(target))
  if (!destination) return false
  const isDestination = (e: AST.BaseASTNode): boolean => normalised(fn.file, stripConversion(e)) === destination
  return fn.facts.guards.some((g) =>
    queries.restrictingParts(g.condition, fn, isDestination, !g.negated).some((part) => readsCallerEntry(queries, fn, part)),
  )
}

/** An address without its conversions: `to` in `payable(to)` and `payable(address(to))`. */
function stripConversion(node: AST.BaseASTNode): AST.BaseASTNode {
  let current = unwrap(node)
  while (current.type === 'FunctionCall') {
    const call = current as AST.FunctionCall
    const callee = call.expression
    const name = callee.type === 'Identifier' ? callee.name : callee.type === 'ElementaryTypeName' ? callee.name : ''
    if ((name !== 'address' && name !== 'payable') || call.arguments.length !== 1) break
    current = unwrap(call.arguments[0])
  }
  return current
}
