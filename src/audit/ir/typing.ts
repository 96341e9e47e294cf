import type * as AST from '../parse/ast.ts'
import { canonicalElementary, type ProjectScope } from './scope.ts'
import type { FunctionIr, LocalVariable, TypeRef } from './types.ts'

const UNKNOWN: TypeRef = { kind: 'unknown' }
const ADDRESS: TypeRef = { kind: 'elementary', name: 'address' }
const ADDRESS_PAYABLE: TypeRef = { kind: 'elementary', name: 'address payable' }
const UINT256: TypeRef = { kind: 'elementary', name: 'uint256' }
const BOOL: TypeRef = { kind: 'elementary', name: 'bool' }
const BYTES32: TypeRef = { kind: 'elementary', name: 'bytes32' }
const BYTES: TypeRef = { kind: 'elementary', name: 'bytes' }

const MAGIC_OBJECTS: ReadonlySet<string> = new Set(['abi', 'block', 'msg', 'tx', 'bytes', 'string'])

export interface TypingEnvironment {
  fn: FunctionIr
  scope: ProjectScope
  locals: ReadonlyMap<string, LocalVariable>
  /** The function a call expression reaches, when known. */
  resolveCallee(call: AST.FunctionCall): FunctionIr | null
}

/** The static type of an expression, as far as a syntax-level analysis can tell. */
export function typeOf(node: AST.BaseASTNode, env: TypingEnvironment): TypeRef {
  const { scope, fn, locals } = env
  const stateVariable = (name: string) => (locals.has(name) || !fn.contract ? null : scope.stateVariable(fn.contract, name))
  switch (node.type) {
    case 'Identifier': {
      const name = (node as AST.Identifier).name
      const local = locals.get(name)
      if (local) return local.type
      if (name === 'this' && fn.contract) return { kind: 'contract', name: fn.contract.name, contract: fn.contract }
      if (name === 'now') return UINT256
      const variable = stateVariable(name)
      if (variable) return variable.type
      if (MAGIC_OBJECTS.has(name)) return UNKNOWN
      const type = scope.resolveUserType(name, fn.contract, fn.file)
      if (type.kind === 'contract' && type.contract === null) return UNKNOWN
      return { kind: 'type', of: type }
    }
    case 'MemberAccess': {
      const member = node as AST.MemberAccess
      const base = member.expression
      if (base.type === 'Identifier' && !locals.has(base.name) && !stateVariable(base.name)) {
        if (base.name === 'msg') return member.memberName === 'sender' ? ADDRESS : member.memberName === 'value' ? UINT256 : member.memberName === 'data' ? BYTES : UNKNOWN
        if (base.name === 'tx') return member.memberName === 'origin' ? ADDRESS : UINT256
        if (base.name === 'block') return member.memberName === 'coinbase' ? ADDRESS_PAYABLE : UINT256
      }
      if (member.memberName === 'balance' || member.memberName === 'length') return UINT256
      const baseType = typeOf(base, env)
      if (baseType.kind === 'struct' && baseType.definition) {
        const field = baseType.definition.members.find((m) => m.name === member.memberName)
        if (field) return scope.resolveTypeName(field.typeName, baseType.owner ?? fn.contract, baseType.owner?.file ?? fn.file)
      }
      if (baseType.kind === 'contract') return { kind: 'function' }
      return UNKNOWN
    }
    case 'IndexAccess': {
      const baseType = typeOf((node as AST.IndexAccess).base, env)
      if (baseType.kind === 'mapping') return baseType.value
      if (baseType.kind === 'array') return baseType.base
      if (baseType.kind === 'elementary' && baseType.name.startsWith('bytes')) return { kind: 'elementary', name: 'bytes1' }
      return UNKNOWN
    }
    case 'FunctionCall': {
      const call = node as AST.FunctionCall
      const callee = call.expression
      if (callee.type === 'ElementaryTypeName') return { kind: 'elementary', name: canonicalElementary(callee.name, callee.stateMutability) }
      if (callee.type === 'Identifier') {
        if (callee.name === 'payable') return ADDRESS_PAYABLE
        if (callee.name === 'address') return ADDRESS
        if (['keccak256', 'sha3', 'sha256', 'blockhash'].includes(callee.name)) return BYTES32
        if (callee.name === 'ecrecover') return ADDRESS
        if (callee.name === 'gasleft') return UINT256
        const calleeType = typeOf(callee, env)
        if (calleeType.kind === 'type') return calleeType.of
      }
      if (callee.type === 'MemberAccess' && callee.expression.type === 'Identifier' && callee.expression.name === 'abi') return BYTES
      const target = env.resolveCallee(call)
      if (target && target.returns[0]) return scope.resolveTypeName(target.returns[0].typeName, target.contract, target.file)
      return UNKNOWN
    }
    case 'TupleExpression': {
      const tuple = node as AST.TupleExpression
      return tuple.components.length === 1 && tuple.components[0] ? typeOf(tuple.components[0], env) : UNKNOWN
    }
    case 'Conditional':
      return typeOf((node as AST.Conditional).trueExpression, env)
    case 'NumberLiteral':
      return UINT256
    case 'BooleanLiteral':
      return BOOL
    case 'StringLiteral':
      return { kind: 'elementary', name: 'string' }
    case 'BinaryOperation': {
      const op = (node as AST.BinaryOperation).operator
      if (['==', '!=', '<', '>', '<=', '>=', '&&', '||'].includes(op)) return BOOL
      return typeOf((node as AST.BinaryOperation).left, env)
    }
    case 'UnaryOperation':
      return (node as AST.UnaryOperation).operator === '!' ? BOOL : typeOf((node as AST.UnaryOperation).subExpression, env)
    case 'NewExpression':
      return scope.resolveTypeName((node as AST.NewExpression).typeName, fn.contract, fn.file)
    default:
      return UNKNOWN
  }
}

/** Whether a type is an address (payable or not). */
export function isAddressType(type: TypeRef): boolean {
  return type.kind === 'elementary' && (type.name === 'address' || type.name === 'address payable')
}

/** The bit width of an unsigned integer type, or null. */
export function unsignedBits(type: TypeRef): number | null {
  if (type.kind !== 'elementary') return null
  const match = /^uint(\d*)$/.exec(type.name)
  if (!match) return null
  return match[1] ? Number(match[1]) : 256
}
