import { walkNodes } from '../../analyses/syntax.ts'
import type { ContractIr, SourceNode } from '../../ir/types.ts'

/** Calls whose result is known at compile time when their arguments are. */
const PURE_BUILTINS: ReadonlySet<string> = new Set(['keccak256', 'sha256', 'ripemd160', 'type', 'uint256', 'bytes32', 'address'])

/** Whether an initial value is a compile-time constant (literals, constants, pure built-ins of those). */
export function isCompileTimeConstant(node: SourceNode, contract: ContractIr): boolean {
  let constant = true
  walkNodes(node, (n) => {
    if (!constant) return false
    switch (n.type) {
      case 'Identifier': {
        const name = n.name
        const variable = contract.linearization.flatMap((c) => c.stateVariables).find((v) => v.name === name)
        if (!variable?.isConstant) constant = false
        return false
      }
      case 'FunctionCall': {
        const callee = n.expression
        const name = callee.type === 'Identifier' || callee.type === 'ElementaryTypeName' ? callee.name : ''
        if (!PURE_BUILTINS.has(name) && callee.type !== 'ElementaryTypeName') constant = false
        for (const arg of n.arguments) if (!isCompileTimeConstant(arg, contract)) constant = false
        return false
      }
      case 'MemberAccess': {
        // type(uint256).max
        const base = n.expression
        if (!(base.type === 'FunctionCall' && base.expression.type === 'Identifier' && base.expression.name === 'type')) constant = false
        return false
      }
      case 'IndexAccess':
      case 'NewExpression':
      case 'TupleExpression':
        if (n.type !== 'TupleExpression' || n.isArray) constant = false
        return constant
      default:
        return true
    }
  })
  return constant
}
