import { contains, unwrap, walkNodes } from '../../analyses/syntax.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

export const cacheArrayLength = defineDetector({
  id: 'cache-array-length',
  title: 'Storage array length read on every iteration',
  category: 'optimization',
  severity: 'optimization',
  confidence: 'high',
  explanation: 'The loop condition reads the length of a storage array on every iteration (an SLOAD each time) although the loop does not change the array.',
  recommendation: 'Read the length once into a local variable before the loop.',
  detect({ functions, report }) {
    for (const fn of functions) {
      for (const loop of fn.facts.loops) {
        if (!loop.condition) continue
        walkNodes(loop.condition, (n) => {
          if (n.type !== 'MemberAccess' || (n as AST.MemberAccess).memberName !== 'length') return true
          const base = unwrap((n as AST.MemberAccess).expression)
          const read = fn.facts.stateReads.find((r) => r.node === base)
          if (!read || read.variable.type.kind !== 'array' || !read.variable.type.dynamic) return false
          const changed = fn.facts.stateWrites.some((w) => w.variable === read.variable && contains(loop.node, w.node))
          if (changed) return false
          report(loop.node, fn.file, `${functionLabel(fn)} reads \`${read.variable.name}.length\` from storage on every iteration.`, { header: true })
          return false
        })
      }
    }
  },
})
