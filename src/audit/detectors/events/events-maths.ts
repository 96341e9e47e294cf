import { unwrap } from '../../analyses/syntax.ts'
import type { SourceNode, StateVariableIr } from '../../ir/types.ts'
import { unsignedBits } from '../../ir/typing.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

const SETUP_NAME = /^_*init/i

export const eventsMaths = defineDetector({
  id: 'events-maths',
  title: 'Parameter change without an event',
  category: 'events',
  severity: 'informational',
  confidence: 'medium',
  explanation:
    'A numeric parameter that takes part in calculations (a fee, rate, limit) changes without an event, so users cannot notice or react to a change that affects what they pay or receive.',
  recommendation: 'Emit an event with the old and new values when the parameter changes.',
  detect({ analyses, entryPoints, report }) {
    // Variables that feed multiplications or divisions somewhere.
    const inMaths = new Set<StateVariableIr>()
    for (const fn of analyses.dispatch.allFunctions()) {
      const operands = new Set<SourceNode>()
      for (const { operator, left, right } of fn.facts.arithmetic) {
        if (operator === '*' || operator === '/' || operator === '*=' || operator === '/=') operands.add(left.node).add(right.node)
      }
      for (const read of fn.facts.stateReads) if (operands.has(read.node)) inMaths.add(read.variable)
    }
    for (const { fn, context } of entryPoints) {
      if (fn.kind !== 'function' || SETUP_NAME.test(fn.name) || !fn.file.own) continue
      if (analyses.effects.flatEffects(fn, context).some((e) => e.effect.kind === 'emit')) continue
      for (const write of fn.facts.stateWrites) {
        if (!inMaths.has(write.variable) || unsignedBits(write.variable.type) === null) continue
        const { statement, assignment } = write
        if (!statement || assignment?.operator !== '=' || assignment.value === null) continue
        if (unwrap(assignment.target) !== write.node) continue
        if (!analyses.taint.dependsOnParameters(assignment.value, fn)) continue
        report(statement, fn.file, `${functionLabel(fn)} sets \`${write.variable.name}\` without emitting an event.`, { foundIn: [{ fn, context }] })
      }
    }
  },
})
