import { accessedName } from '../../analyses/syntax.ts'
import type { FunctionIr, SourceNode, TypeRef } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

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
  lowered: 'High when a function anyone can call writes through the pointer (the finding names the write and the state variable in slot 0 it overwrites); medium otherwise.',
  confidence: 'high',
  explanation:
    'Before Solidity 0.5 a local struct or array without a data location is a storage pointer; left uninitialized it points at slot 0, so writing through it overwrites the first state variables (often the owner).',
  recommendation: 'Declare the variable `memory`, or initialise the storage pointer from a state variable; upgrade to Solidity 0.5 or later, which rejects this.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      const compiler = fn.file.versions
      if (compiler === null || compiler.min >= STORAGE_POINTERS_REJECTED_SINCE) continue
      for (const local of fn.facts.locals.values()) {
        const { statement, node: declaration } = local
        if (!statement || statement.initialValue) continue
        const pointer = declaration.storageLocation === 'storage' || (declaration.storageLocation === null && isReference(local.type))
        if (!pointer) continue
        const write = writeThrough(fn, local.name)
        const open = write !== null && analyses.dispatch.isEntryPoint(fn) && !analyses.access.isProtected(fn)
        const first = fn.contract ? [...fn.contract.linearization].reverse().flatMap((c) => c.stateVariables).find((v) => !v.isConstant && !v.isImmutable) : undefined
        const overwrites = open && first ? ` Any caller writes through it (${code(fn.file, write)}), over slot 0: \`${first.name}\`.` : ''
        report(statement, fn.file, `${functionLabel(fn)} declares \`${declaration.name}\` as an uninitialized storage pointer.${overwrites}`, {
          severity: overwrites ? 'high' : 'medium',
          evidence: overwrites && write ? [{ node: write, file: fn.file }] : [],
        })
      }
    }
  },
})

/** The first assignment of `fn` through the local `name` (`p.owner = x`, `p[0] = x`). */
function writeThrough(fn: FunctionIr, name: string): SourceNode | null {
  const write = fn.facts.assignments.find((a) => a.value !== null && accessedName(a.target) === name)
  return write?.node ?? null
}
