import { isStringLiteral, unwrap } from '../../analyses/syntax.ts'
import type { TypeRef } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

const HASHES: ReadonlySet<string> = new Set(['keccak256', 'sha256', 'ripemd160'])

function isDynamic(type: TypeRef): boolean {
  return (type.kind === 'elementary' && (type.name === 'string' || type.name === 'bytes')) || (type.kind === 'array' && type.dynamic)
}

export const encodePackedCollision = defineDetector({
  id: 'encode-packed-collision',
  title: 'Hash collision with abi.encodePacked',
  category: 'cryptography',
  severity: 'medium',
  confidence: 'high',
  explanation:
    '`abi.encodePacked` concatenates dynamic values without their lengths, so ("ab", "c") and ("a", "bc") encode the same; a hash of two such values used as a key or signed message can be forged by moving bytes between them.',
  recommendation: 'Hash `abi.encode(...)` instead, or make sure at most one argument has a dynamic type.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      for (const call of fn.facts.calls) {
        if (call.kind !== 'builtin' || !HASHES.has(call.name) || call.args.length !== 1) continue
        const packed = analyses.dispatch.callOf(unwrap(call.args[0]))
        if (packed?.kind !== 'builtin' || packed.name !== 'abi.encodePacked') continue
        // Two variable-length values side by side can trade bytes; a fixed value between them pins the boundary.
        const dynamic = packed.args.map((a) => !isStringLiteral(a) && isDynamic(analyses.dispatch.typeOf(a, fn)))
        const adjacent = dynamic.findIndex((d, i) => d && dynamic[i + 1] === true)
        if (adjacent < 0) continue
        report(call.node, fn.file, `${functionLabel(fn)} hashes ${code(fn.file, packed.args[adjacent], 30)} and ${code(fn.file, packed.args[adjacent + 1], 30)} packed side by side: ${code(fn.file, call.node)}.`)
      }
    }
  },
})
