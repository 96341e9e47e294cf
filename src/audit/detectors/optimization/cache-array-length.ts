import { contains } from '../../analyses/syntax.ts'
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
      for (const condition of fn.facts.conditions) {
        const loop = condition.owner
        if (condition.kind !== 'for' && condition.kind !== 'while' && condition.kind !== 'do-while') continue
        for (const array of condition.reads.lengths) {
          if (array.type.kind !== 'array' || !array.type.dynamic) continue
          const changed = fn.facts.stateWrites.some((w) => w.variable === array && contains(loop, w.node))
          if (changed) continue
          report(loop, fn.file, `${functionLabel(fn)} reads \`${array.name}.length\` from storage on every iteration.`, { header: true })
        }
      }
    }
  },
})
