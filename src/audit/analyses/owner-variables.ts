import type { Analyses } from './analyses.ts'
import { contains, unwrap } from './syntax.ts'
import { isAddressType } from '../ir/typing.ts'
import type { ContractIr, FunctionIr, StateVariableIr, TypeRef } from '../ir/types.ts'
import type * as AST from '../parse/ast.ts'

/** Address variables whose name says they hold a privileged account. */
const OWNER_NAME = /^_?(owner|admin|administrator|creator|ceo|cfo|coo|governance|governor|controller|manager|operator|authority|guardian|beneficiary)$/i

/**
 * A state variable holding a privileged account of a contract: one its checks on the caller admit
 * (`require(msg.sender == owner)`, `if (msg.sender == creator) _;`), one its code sends ETH to
 * (`owner.transfer(fees)`), or an address named like one (`owner`, `admin`, …).
 */
export interface OwnerVariable {
  variable: StateVariableIr
  /** Functions and modifiers of the contract's hierarchy holding a check on the caller that reads it. */
  checkedIn: FunctionIr[]
  /** Functions of the hierarchy sending ETH to it. */
  paidIn: FunctionIr[]
}

const memo = new WeakMap<Analyses, Map<ContractIr, Map<StateVariableIr, OwnerVariable>>>()

/** The owner variables of `contract` and its bases (see `OwnerVariable`), memoised per analysis. */
export function ownerVariables(analyses: Analyses, contract: ContractIr): Map<StateVariableIr, OwnerVariable> {
  let perContract = memo.get(analyses)
  if (!perContract) {
    perContract = new Map()
    memo.set(analyses, perContract)
  }
  const known = perContract.get(contract)
  if (known) return known
  const result = new Map<StateVariableIr, OwnerVariable>()
  perContract.set(contract, result)
  const entry = (variable: StateVariableIr): OwnerVariable => {
    let found = result.get(variable)
    if (!found) {
      found = { variable, checkedIn: [], paidIn: [] }
      result.set(variable, found)
    }
    return found
  }
  for (const c of contract.linearization) {
    for (const v of c.stateVariables) if (!v.isConstant && !v.isImmutable && isAccount(v.type) && OWNER_NAME.test(v.name)) entry(v)
    for (const f of [...c.functions, ...c.modifiers]) {
      for (const variable of checkedReads(analyses, f)) {
        if (!isAccount(variable.type)) continue
        const owner = entry(variable)
        if (!owner.checkedIn.includes(f)) owner.checkedIn.push(f)
      }
      for (const call of f.facts.calls) {
        if ((call.kind !== 'send' && call.kind !== 'transfer' && !(call.kind === 'low-level' && call.lowLevel === 'call' && call.value !== null)) || !call.target) continue
        const target = stripConversion(call.target)
        const read = f.facts.stateReads.find((r) => r.node === target)
        if (!read || read.variable.isConstant || read.variable.isImmutable || !isAccount(read.variable.type)) continue
        const owner = entry(read.variable)
        if (!owner.paidIn.includes(f)) owner.paidIn.push(f)
      }
    }
  }
  return result
}

const checkedMemo = new WeakMap<Analyses, Map<ContractIr, Set<StateVariableIr>>>()

/**
 * Every state variable (of any type: an owner, an `isOwner` mapping, a list of owners) that a
 * check on the caller in `contract`'s hierarchy reads: the state deciding who may do what.
 */
export function checkedVariables(analyses: Analyses, contract: ContractIr): Set<StateVariableIr> {
  let perContract = checkedMemo.get(analyses)
  if (!perContract) {
    perContract = new Map()
    checkedMemo.set(analyses, perContract)
  }
  const known = perContract.get(contract)
  if (known) return known
  const result = new Set<StateVariableIr>()
  perContract.set(contract, result)
  for (const c of contract.linearization) for (const f of [...c.functions, ...c.modifiers]) for (const variable of checkedReads(analyses, f)) result.add(variable)
  return result
}

/**
 * A state variable that is not an account but decides who may act (a role mapping such as
 * `isAdmin`, read by checks on the caller), as an `OwnerVariable`: the functions and modifiers of
 * `contract`'s hierarchy whose checks read it.
 */
export function roleVariable(analyses: Analyses, contract: ContractIr, variable: StateVariableIr): OwnerVariable {
  const checkedIn: FunctionIr[] = []
  for (const c of contract.linearization) for (const f of [...c.functions, ...c.modifiers]) if (checkedReads(analyses, f).includes(variable)) checkedIn.push(f)
  return { variable, checkedIn, paidIn: [] }
}

const readsMemo = new WeakMap<Analyses, Map<FunctionIr, StateVariableIr[]>>()

/** The state variables (not constants) a check on the caller in `f` reads, memoised per function. */
function checkedReads(analyses: Analyses, f: FunctionIr): StateVariableIr[] {
  let perFunction = readsMemo.get(analyses)
  if (!perFunction) {
    perFunction = new Map()
    readsMemo.set(analyses, perFunction)
  }
  const known = perFunction.get(f)
  if (known) return known
  const result: StateVariableIr[] = []
  perFunction.set(f, result)
  if (f.facts.stateReads.length === 0) return result
  const isSubject = (e: AST.BaseASTNode): boolean => analyses.access.isSender(e, f)
  for (const [condition, value] of conditionsOf(f)) {
    for (const part of analyses.access.restrictingParts(condition, f, isSubject, value)) {
      for (const read of f.facts.stateReads) if (!read.variable.isConstant && !read.variable.isImmutable && contains(part, read.node) && !result.includes(read.variable)) result.push(read.variable)
    }
  }
  return result
}

/** The guard conditions of `f` with the value that lets execution continue, and its `if` conditions both ways. */
function conditionsOf(f: FunctionIr): [AST.BaseASTNode, boolean][] {
  const conditions: [AST.BaseASTNode, boolean][] = f.facts.guards.map((g) => [g.condition, !g.negated])
  for (const branch of (f.facts.nodes.get('IfStatement') ?? []) as AST.IfStatement[]) conditions.push([branch.condition, true], [branch.condition, false])
  return conditions
}

/** An address or a contract reference. */
function isAccount(type: TypeRef): boolean {
  return isAddressType(type) || type.kind === 'contract'
}

/** An address without its conversions: `owner` in `payable(owner)` and `address(owner)`. */
export function stripConversion(node: AST.BaseASTNode): AST.BaseASTNode {
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

/** External calls that move tokens. */
const TOKEN_MOVES = /^(safe)?(transfer|transferFrom)$|^(mint|burn|withdraw)$/

/**
 * What the account in `owner` can do with funds in `context`: the entry points it admits (through
 * the checks that read it) that send ETH, move tokens, self-destruct or delegatecall, and whether
 * the contract pays it; empty when it controls no funds.
 */
export function fundsControlled(analyses: Analyses, owner: OwnerVariable, context: ContractIr): { entryPoints: FunctionIr[]; paid: boolean } {
  const entryPoints: FunctionIr[] = []
  if (owner.checkedIn.length > 0) {
    for (const g of analyses.dispatch.entryPoints(context)) {
      if (!analyses.dispatch.reachableFunctions(g, context).some((f) => owner.checkedIn.includes(f))) continue
      if (movesFunds(analyses, g, context)) entryPoints.push(g)
    }
  }
  return { entryPoints, paid: owner.paidIn.length > 0 }
}

/** Whether `fn` (as `context` runs it) sends ETH, moves tokens, self-destructs or delegatecalls. */
function movesFunds(analyses: Analyses, fn: FunctionIr, context: ContractIr): boolean {
  return fundsMoveIn(analyses, fn, context) !== null
}

/** Where `fn` (as `context` runs it) first sends ETH, moves tokens, self-destructs or delegatecalls; null when it does not. */
export function fundsMoveIn(analyses: Analyses, fn: FunctionIr, context: ContractIr | null): { node: AST.BaseASTNode; file: FunctionIr['file'] } | null {
  const move = analyses.effects.flatEffects(fn, context).find((e) => {
    if (e.effect.kind !== 'call') return false
    const call = e.effect.call
    if (call.kind === 'send' || call.kind === 'transfer') return true
    if (call.kind === 'low-level') return call.lowLevel === 'delegatecall' || call.lowLevel === 'callcode' || (call.value !== null && call.lowLevel === 'call')
    if (call.kind === 'external' || call.kind === 'library') return TOKEN_MOVES.test(call.name)
    return false
  })
  if (move && move.effect.kind === 'call') return { node: move.effect.call.node, file: move.owner.file }
  for (const f of analyses.dispatch.reachableFunctions(fn, context)) {
    const kill = f.facts.calls.find((c) => c.kind === 'builtin' && (c.name === 'selfdestruct' || c.name === 'suicide'))
    if (kill) return { node: kill.node, file: f.file }
  }
  return null
}
