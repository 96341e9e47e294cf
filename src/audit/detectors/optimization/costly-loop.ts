import { unwrap } from '../../analyses/syntax.ts'
import type { StateVariableIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

export const costlyLoop = defineDetector({
  id: 'costly-loop',
  title: 'State variable written on every loop iteration',
  category: 'optimization',
  severity: 'optimization',
  confidence: 'high',
  explanation: 'A state variable is updated inside a loop, paying an SSTORE per iteration where one write after the loop would do.',
  recommendation: 'Accumulate in a local variable and write the state variable once after the loop.',
  detect({ ir, functions, report }) {
    for (const fn of functions) {
      if (fn.facts.loops.length === 0) continue
      const reported = new Set<string>()
      for (const write of fn.facts.stateWrites) {
        const loop = ir.info(write.node)?.loop
        if (!loop || write.variable.type.kind !== 'elementary') continue
        // Only writes to the variable itself, not to elements of a mapping or array.
        const { statement, assignment } = write
        if (!statement || !assignment || unwrap(assignment.target) !== write.node) continue
        const key = `${loop.node.range?.[0]}:${write.variable.name}`
        if (reported.has(key)) continue
        reported.add(key)
        report(statement, fn.file, `${functionLabel(fn)} writes ${label(write.variable)} on every iteration of a loop.`)
      }
    }
  },
})

function label(variable: StateVariableIr): string {
  return `\`${variable.name}\``
}
