import { nodesOf } from '../../analyses/syntax.ts'
import type { TypeRef } from '../../ir/types.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

/** 0.5.0 made uninitialized storage pointers a compile error. */
const STORAGE_POINTERS_REJECTED_SINCE = 5_000

function isReference(type: TypeRef): boolean {
  return type.kind === 'struct' || type.kind === 'mapping' || (type.kind === 'array' && type.dynamic)
}

export const uninitializedStorage = defineDetector({
  id: 'uninitialized-storage',
  title: 'Uninitialized storage pointer',
  category: 'state',
  severity: 'high',
  confidence: 'high',
  explanation:
    'Before Solidity 0.5 a local struct or array without a data location is a storage pointer; left uninitialized it points at slot 0, so writing through it overwrites the first state variables (often the owner).',
  recommendation: 'Declare the variable `memory`, or initialise the storage pointer from a state variable; upgrade to Solidity 0.5 or later, which rejects this.',
  detect({ functions, report }) {
    for (const fn of functions) {
      const compiler = fn.file.versions
      if (compiler === null || compiler.min >= STORAGE_POINTERS_REJECTED_SINCE) continue
      for (const statement of nodesOf(fn, 'VariableDeclarationStatement')) {
        if (statement.initialValue) continue
        for (const variable of statement.variables) {
          const declaration = variable as AST.VariableDeclaration | null
          if (!declaration?.name) continue
          const local = fn.facts.locals.get(declaration.name)
          if (!local || local.node !== declaration) continue
          const pointer = declaration.storageLocation === 'storage' || (declaration.storageLocation === null && isReference(local.type))
          if (!pointer) continue
          report(statement, fn.file, `${functionLabel(fn)} declares \`${declaration.name}\` as an uninitialized storage pointer.`)
        }
      }
    }
  },
})
