import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

export const storageReadInLoop = defineDetector({
  id: 'storage-read-in-loop',
  title: 'Storage variable read on every loop iteration',
  category: 'optimization',
  severity: 'optimization',
  confidence: 'high',
  explanation: 'A state variable that the function never changes is read from storage inside a loop, an SLOAD per iteration for the same value.',
  recommendation: 'Copy the variable into a local before the loop and read the local.',
  detect({ ir, functions, report }) {
    for (const fn of functions) {
      if (fn.facts.loops.length === 0) continue
      const written = new Set(fn.facts.stateWrites.map((w) => w.variable))
      const reported = new Set<string>()
      for (const read of fn.facts.stateReads) {
        const v = read.variable
        if (v.isConstant || v.isImmutable || v.type.kind !== 'elementary' || written.has(v)) continue
        const loop = ir.info(read.node)?.loop
        if (!loop) continue
        const key = `${loop.node.range?.[0]}:${v.name}`
        if (reported.has(key)) continue
        reported.add(key)
        report(read.node, fn.file, `${functionLabel(fn)} reads \`${v.name}\` from storage on every iteration of a loop.`)
      }
    }
  },
})
