import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

export const delegatecallLoop = defineDetector({
  id: 'delegatecall-loop',
  title: 'delegatecall in a loop of a payable function',
  category: 'calls',
  severity: 'high',
  confidence: 'medium',
  explanation:
    'Each delegatecall runs with the same msg.value, so a payable function that delegatecalls in a loop (a payable multicall) lets one payment be spent once per iteration.',
  recommendation: 'Do not make batching functions payable, or account for msg.value once outside the loop.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      if (fn.mutability !== 'payable') continue
      for (const call of fn.facts.calls) {
        if (!call.inLoop) continue
        const direct = call.kind === 'low-level' && call.lowLevel === 'delegatecall'
        // Through helpers, as the contracts deploying this code run them.
        const foundIn =
          direct || (call.kind !== 'internal' && call.kind !== 'library')
            ? []
            : analyses.dispatch.contextsOf(fn).filter((context) => {
                const callee = analyses.dispatch.calleeIn(call, fn, context)
                return callee !== null && analyses.effects.flatEffects(callee, context).some((e) => e.effect.kind === 'call' && e.effect.call.lowLevel === 'delegatecall')
              })
        if (!direct && foundIn.length === 0) continue
        report(call.node, fn.file, `${functionLabel(fn)} is payable and delegatecalls in a loop: ${code(fn.file, call.node)}.`, { foundIn: foundIn.map((context) => ({ fn, context })) })
      }
    }
  },
})
