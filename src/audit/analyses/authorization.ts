import type { Analyses } from './analyses.ts'
import type { DispatchContext } from './dispatch.ts'
import { contains, unwrap, walkNodes } from './syntax.ts'
import { derivedLocals } from './taint.ts'
import type { FunctionIr, StateVariableIr } from '../ir/types.ts'
import type * as AST from '../parse/ast.ts'

/**
 * Access control that is not a check on `msg.sender`: a signature the contract verifies against
 * a signer it keeps (`require(ecrecover(h, v, r, s) == signer)`, `isOwner[ECDSA.recover(h, sig)]`,
 * `SignatureChecker.isValidSignatureNow(signer, h, sig)`), or approvals that only restricted callers
 * can record (a multisig's `require(confirmations[id] >= required)`, `if (isConfirmed(id)) { … }`).
 * Anyone may submit the transaction; what runs was decided by the signer or the approvers.
 */
export interface Authorization {
  kind: 'signature' | 'approvals'
  /** The guard condition (or `if` condition) that holds the check. */
  node: AST.BaseASTNode
  /** The function or modifier holding it. */
  fn: FunctionIr
}

/** Calls returning the signer of a signature: `ecrecover`, OpenZeppelin's `ECDSA.recover` / `tryRecover`. */
const RECOVER_NAME = /^(ecrecover|_?recover|tryRecover|_?recoverSigner)$/

/** Calls answering whether a given signer signed (ERC-1271 and OpenZeppelin's SignatureChecker). */
const SIGNATURE_CHECK_NAME = /^(isValidSignatureNow|isValidSignature|isValidERC1271SignatureNow)$/

/**
 * How `fn` (as `context` runs it, with its modifiers and the internal functions it calls) is
 * authorised other than by a check on the caller, for the code at `at` (a node of `fn`): by a
 * reverting guard on the way, or by an `if` around `at` whose branch only an authorised request
 * reaches. Null when it is not.
 */
export function authorizationOf(analyses: Analyses, fn: FunctionIr, context: DispatchContext = fn.contract, at?: AST.BaseASTNode): Authorization | null {
  for (const g of analyses.dispatch.reachableFunctions(fn, context)) {
    for (const guard of g.facts.guards) {
      if (guard.kind === 'if-return') continue
      const found = authorizingCondition(analyses, g, context, fn, guard.condition, !guard.negated)
      if (found) return found
    }
  }
  if (!at) return null
  let child: AST.BaseASTNode = at
  for (let parent = analyses.ir.info(at)?.parent ?? null; parent; parent = analyses.ir.info(parent)?.parent ?? null) {
    if (parent.type === 'IfStatement') {
      const branch = parent as AST.IfStatement
      const side = child === branch.trueBody ? true : child === branch.falseBody ? false : null
      if (side !== null) {
        const found = authorizingCondition(analyses, fn, context, fn, branch.condition, side)
        if (found) return found
      }
    }
    child = parent
  }
  return null
}

/**
 * Whether `fn` runs only for some callers or for authorised requests: a check on the caller
 * (`Analyses.isProtected`, or an `if` on the caller around `at` or around a modifier's `_`), or
 * a signature or approvals (see `authorizationOf`).
 */
export function isAuthorized(analyses: Analyses, fn: FunctionIr, context: DispatchContext = fn.contract, at?: AST.BaseASTNode): boolean {
  return analyses.access.isProtected(fn, context) || hasGatedPlaceholder(analyses, fn, context) || (at !== undefined && analyses.access.isSenderGated(at, fn)) || authorizationOf(analyses, fn, context, at) !== null
}

/**
 * Whether a modifier of `fn` (as `context` runs it) runs the function's body only in a branch a
 * check on the caller gates: `if (msg.sender == owner) _;` (0.4 code's silent modifier). Any
 * other caller runs nothing.
 */
export function hasGatedPlaceholder(analyses: Analyses, fn: FunctionIr, context: DispatchContext = fn.contract): boolean {
  for (const m of fn.modifierCalls) {
    const modifier = analyses.dispatch.modifierIn(m, fn, context)
    if (!modifier?.body) continue
    const placeholders = ((modifier.facts.nodes.get('Identifier') ?? []) as AST.Identifier[]).filter((p) => p.name === '_' && analyses.ir.info(p)?.parent?.type === 'ExpressionStatement')
    if (placeholders.length > 0 && placeholders.every((p) => analyses.access.isSenderGated(p, modifier))) return true
  }
  return false
}

/** A condition of `g` that, evaluating to `value`, means a signature or approvals authorised the request. */
function authorizingCondition(analyses: Analyses, g: FunctionIr, context: DispatchContext, entry: FunctionIr, condition: AST.BaseASTNode, value: boolean): Authorization | null {
  if (signatureCheck(analyses, g, condition, value)) return { kind: 'signature', node: condition, fn: g }
  if (value && approvalsCheck(analyses, g, context, entry, condition)) return { kind: 'approvals', node: condition, fn: g }
  return null
}

/**
 * Whether a condition evaluating to `value` admits only signatures of a signer the contract
 * keeps: the recovered address compared with (or looked up in) state, or a signature checker
 * asked about such a signer. A signer the caller names (a parameter) authorises nothing.
 */
function signatureCheck(analyses: Analyses, g: FunctionIr, condition: AST.BaseASTNode, value: boolean): boolean {
  const recovered = derivedLocals(g, new Set(), (e) => isRecoverCall(analyses, e))
  const isRecovered = (e: AST.BaseASTNode): boolean => {
    const n = unwrap(e)
    return isRecoverCall(analyses, n) || (n.type === 'Identifier' && recovered.has((n as AST.Identifier).name))
  }
  const parts = analyses.access.restrictingParts(condition, g, isRecovered, value)
  if (parts.some((part) => !comparesWithCallerInput(analyses, g, part, isRecovered))) return true
  if (!value) return false
  let checked = false
  walkNodes(condition, (n) => {
    if (checked) return false
    if (n.type !== 'FunctionCall') return true
    const call = n as AST.FunctionCall
    const callee = unwrap(call.expression)
    const name = callee.type === 'MemberAccess' ? (callee as AST.MemberAccess).memberName : callee.type === 'Identifier' ? (callee as AST.Identifier).name : ''
    if (!SIGNATURE_CHECK_NAME.test(name)) return true
    // `SignatureChecker.isValidSignatureNow(signer, hash, sig)`, or `IERC1271(signer).isValidSignature(hash, sig)`.
    const signer = name === 'isValidSignature' && callee.type === 'MemberAccess' ? (callee as AST.MemberAccess).expression : call.arguments[0]
    if (signer && !analyses.taint.dependsOnParameters(signer, g) && !analyses.access.isSender(unwrap(signer), g)) checked = true
    return !checked
  })
  return checked
}

function isRecoverCall(analyses: Analyses, node: AST.BaseASTNode): boolean {
  if (node.type !== 'FunctionCall') return false
  const call = analyses.dispatch.callOf(node)
  if (call) return RECOVER_NAME.test(call.name)
  const callee = unwrap((node as AST.FunctionCall).expression)
  return callee.type === 'Identifier' && (callee as AST.Identifier).name === 'ecrecover'
}

/** Whether a restricting part compares the recovered signer with something the caller passes (`signer == _signer`). */
function comparesWithCallerInput(analyses: Analyses, g: FunctionIr, part: AST.BaseASTNode, isSubject: (e: AST.BaseASTNode) => boolean): boolean {
  const n = unwrap(part)
  if (n.type === 'BinaryOperation') {
    const op = n as AST.BinaryOperation
    const other = isSubject(op.left) ? op.right : op.left
    return analyses.taint.dependsOnParameters(other, g)
  }
  if (n.type === 'IndexAccess') {
    // `isSigner[recovered]`: a lookup in state, unless the mapping is itself chosen by the caller.
    let base: AST.BaseASTNode = n
    while (base.type === 'IndexAccess') base = unwrap((base as AST.IndexAccess).base)
    return base.type === 'Identifier' && g.facts.locals.has((base as AST.Identifier).name)
  }
  return false
}

/**
 * Whether a condition reads approvals of a request (a mapping keyed by something that is not an
 * address: a transaction id or hash), directly or through a view function of the contract
 * (`isConfirmed(id)`), that only restricted entry points of `context` record. Writes the
 * authorised function itself makes (marking the request executed) do not count.
 */
function approvalsCheck(analyses: Analyses, g: FunctionIr, context: DispatchContext, entry: FunctionIr, condition: AST.BaseASTNode): boolean {
  if (!context) return false
  const variables: StateVariableIr[] = []
  for (const read of g.facts.stateReads) {
    if (read.variable.type.kind !== 'mapping' || !contains(condition, read.node)) continue
    if (requestKeyed(analyses, g, read.node)) variables.push(read.variable)
  }
  walkNodes(condition, (n) => {
    if (n.type !== 'FunctionCall') return true
    const call = analyses.dispatch.callOf(n)
    if (!call || call.kind !== 'internal') return true
    const callee = analyses.dispatch.calleeIn(call, g, context)
    if (!callee || (callee.mutability !== 'view' && callee.mutability !== 'pure')) return true
    if (!call.args.some((a) => isRequestValue(analyses, g, a))) return true
    for (const f of analyses.dispatch.reachableFunctions(callee, context)) for (const read of f.facts.stateReads) if (read.variable.type.kind === 'mapping') variables.push(read.variable)
    return true
  })
  return variables.some((v) => recordedOnlyByRestricted(analyses, v, context, entry))
}

/** Whether a mapping read `m[k]…` is keyed (first) by a request value: not an address. */
function requestKeyed(analyses: Analyses, g: FunctionIr, node: AST.BaseASTNode): boolean {
  const parent = analyses.ir.info(node)?.parent
  if (!parent || parent.type !== 'IndexAccess' || (parent as AST.IndexAccess).base !== node) return false
  const key = (parent as AST.IndexAccess).index
  return key !== null && key !== undefined && isRequestValue(analyses, g, key)
}

/** A value naming a request: anything but an address (a number, a hash, a struct field). */
function isRequestValue(analyses: Analyses, g: FunctionIr, node: AST.BaseASTNode): boolean {
  const type = analyses.dispatch.typeOf(node, g)
  if (type.kind === 'elementary') return !type.name.startsWith('address')
  return type.kind !== 'contract' && type.kind !== 'unknown'
}

/** Whether some entry point of `context` writes `variable` and every one that does (but `entry`) is restricted. */
function recordedOnlyByRestricted(analyses: Analyses, variable: StateVariableIr, context: NonNullable<DispatchContext>, entry: FunctionIr): boolean {
  let restrictedWriters = 0
  for (const g of analyses.dispatch.entryPoints(context)) {
    if (g === entry) continue
    if (!analyses.effects.flatEffects(g, context).some((e) => e.effect.kind === 'write' && e.effect.access.variable === variable)) continue
    if (!analyses.access.isProtected(g, context)) return false
    restrictedWriters++
  }
  return restrictedWriters > 0
}
