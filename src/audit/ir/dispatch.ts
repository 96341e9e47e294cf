import type * as AST from '../parse/ast.ts'
import { canonicalElementary, type ProjectScope } from './scope.ts'
import type { CallIr, ContractIr, FunctionIr, ModifierCallIr } from './types.ts'

/**
 * Virtual dispatch: which function an internal call or a modifier runs when the code holding it
 * is part of the deployed contract `context`. The IR resolves every call once, in the linearisation
 * of the contract that declares the caller; a deployed contract that overrides the callee (or the
 * modifier) runs its own override instead, and `super` moves along the deployed contract's
 * linearisation, not the declaring one's. Library calls, free functions and `Base.f()` are static.
 *
 * A `null` context, a caller outside the context's hierarchy (a library, a free function) or a
 * caller declared in the context itself gives the IR's own resolution.
 */
export class Dispatch {
  private readonly overrides = new Map<ContractIr, Map<FunctionIr, FunctionIr>>()
  private readonly modifiers = new Map<ContractIr, Map<string, FunctionIr | null>>()

  constructor(private readonly scope: ProjectScope) {}

  /** The function `call`, made in `caller`, runs inside `context`. */
  callee(call: CallIr, caller: FunctionIr, context: ContractIr | null): FunctionIr | null {
    if (call.dispatch === 'static' || !context || !inHierarchy(caller, context)) return call.callee
    if (call.dispatch === 'super') {
      const declaring = caller.contract as ContractIr
      return this.scope.resolveSuper(context, declaring, call.name, call.args.length) ?? call.callee
    }
    return call.callee ? this.implementation(call.callee, context) : null
  }

  /** The modifier invocation `m` of `fn` runs inside `context` (null for base-constructor calls). */
  modifier(m: ModifierCallIr, fn: FunctionIr, context: ContractIr | null): FunctionIr | null {
    if (!m.modifier || !context || !inHierarchy(fn, context)) return m.modifier
    let byName = this.modifiers.get(context)
    if (!byName) {
      byName = new Map()
      this.modifiers.set(context, byName)
    }
    if (!byName.has(m.name)) byName.set(m.name, this.scope.modifier(context, m.name))
    return byName.get(m.name) ?? m.modifier
  }

  /**
   * The implementation of `fn` that `context` runs: the most derived function of its
   * linearisation with the same name and parameter types and a body; `fn` itself when nothing
   * overrides it (or it cannot be overridden: private functions, library functions).
   */
  implementation(fn: FunctionIr, context: ContractIr): FunctionIr {
    if (fn.kind !== 'function' || fn.visibility === 'private' || !fn.contract || fn.contract.kind === 'library') return fn
    let byFunction = this.overrides.get(context)
    if (!byFunction) {
      byFunction = new Map()
      this.overrides.set(context, byFunction)
    }
    const known = byFunction.get(fn)
    if (known) return known
    let found = fn
    if (context.linearization.includes(fn.contract)) {
      const signature = signatureOf(fn)
      search: for (const c of context.linearization) {
        for (const candidate of c.functions) {
          if (candidate.kind !== 'function' || candidate.name !== fn.name || candidate.body === null) continue
          if (candidate === fn || signatureOf(candidate) === signature) {
            found = candidate
            break search
          }
        }
        if (c === fn.contract) break
      }
    }
    byFunction.set(fn, found)
    return found
  }
}

/** Whether `fn` is declared in a base of `context` (not in `context` itself, where nothing changes). */
function inHierarchy(fn: FunctionIr, context: ContractIr): boolean {
  return fn.contract !== null && fn.contract !== context && context.linearization.includes(fn.contract)
}

const signatures = new WeakMap<FunctionIr, string>()

/** `name(uint256,address[],S)`: what an override must repeat. */
function signatureOf(fn: FunctionIr): string {
  const known = signatures.get(fn)
  if (known !== undefined) return known
  const signature = `${fn.name}(${fn.params.map((p) => typeKey(p.typeName)).join(',')})`
  signatures.set(fn, signature)
  return signature
}

function typeKey(typeName: AST.TypeName | null | undefined): string {
  if (!typeName) return '?'
  switch (typeName.type) {
    case 'ElementaryTypeName':
      return canonicalElementary(typeName.name, typeName.stateMutability)
    case 'UserDefinedTypeName':
      return typeName.namePath.slice(typeName.namePath.lastIndexOf('.') + 1)
    case 'ArrayTypeName':
      return `${typeKey(typeName.baseTypeName)}[]`
    case 'Mapping':
      return `mapping(${typeKey(typeName.keyType)}=>${typeKey(typeName.valueType)})`
    default:
      return 'function'
  }
}
