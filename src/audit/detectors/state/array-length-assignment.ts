import type { Analyses } from '../../analyses/analyses.ts'
import { indexOf, isLiteral, lengthOf } from '../../analyses/syntax.ts'
import type { FunctionIr, SourceNode, StateVariableIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

/** Solidity 0.6.0 made `.length` of storage arrays read-only. */
const LENGTH_READ_ONLY_SINCE = 6_000

/** Assignments and updates that can change an array's length when applied to `.length`. */
const LENGTH_CHANGES: ReadonlySet<string> = new Set(['=', '-=', '+=', '--', '++'])

export const arrayLengthAssignment = defineDetector({
  id: 'array-length-assignment',
  title: 'Storage array length changed directly',
  category: 'state',
  severity: 'high',
  lowered: 'High when anyone can shrink or set the length and anyone can write the array at an index they choose (every storage slot is then theirs to write: the finding names both); medium when the length can be shrunk or set otherwise; low when it only grows by a fixed step.',
  confidence: 'medium',
  explanation:
    'Before Solidity 0.6 a storage array length could be assigned or decremented. Decrementing an empty array wraps its length to 2^256-1, after which indexing the array reaches every storage slot, including the owner.',
  recommendation: 'Use push() and pop() (Solidity 0.6 and later), check the length before shrinking, and restrict who can change it.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      const candidates = fn.facts.assignments.filter((a) => LENGTH_CHANGES.has(a.operator))
      const compiler = fn.file.versions
      if (compiler !== null && compiler.min >= LENGTH_READ_ONLY_SINCE) continue
      for (const { node, operator, target, value } of candidates) {
        const array = lengthOf(target)
        if (!array) continue
        // A struct field named `length` is not an array length.
        const baseType = analyses.dispatch.typeOf(array, fn)
        if (baseType.kind !== 'array' && !(baseType.kind === 'elementary' && baseType.name === 'bytes')) continue
        const written = fn.facts.stateWrites.find((w) => w.statement === node)
        if (!written) continue
        const isProtected = analyses.access.isProtected(fn)
        const restricted = isProtected ? ' (restricted to some callers)' : ''
        const grows = operator === '++' || (operator === '+=' && value !== null && isLiteral(value))
        const anyIndex = !grows && !isProtected && analyses.dispatch.isEntryPoint(fn) ? callerIndexedWrite(analyses, written.variable) : null
        report(node, fn.file, `${functionLabel(fn)} changes the length of \`${written.variable.name}\` directly${restricted}: ${code(fn.file, node)}.${anyIndex ? ` ${functionLabel(anyIndex.fn)} lets any caller write it at an index they choose (${code(anyIndex.fn.file, anyIndex.node)}).` : ''}`, {
          severity: grows ? 'low' : anyIndex ? 'high' : 'medium',
          evidence: anyIndex ? [{ node: anyIndex.node, file: anyIndex.fn.file }] : [],
        })
      }
    }
  },
})

/** An assignment `array[i] = …` in an entry point anyone can call, where the caller chooses `i`. */
function callerIndexedWrite(analyses: Analyses, array: StateVariableIr): { fn: FunctionIr; node: SourceNode } | null {
  for (const fn of analyses.dispatch.allFunctions()) {
    if (!analyses.dispatch.isEntryPoint(fn) || analyses.access.isProtected(fn)) continue
    for (const w of fn.facts.stateWrites) {
      if (w.variable !== array || !w.statement || !w.assignment?.value) continue
      const index = indexOf(w.assignment.target)
      if (index && analyses.taint.dependsOnParameters(index, fn)) return { fn, node: w.statement }
    }
  }
  return null
}
