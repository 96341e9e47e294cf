import { sendsEth, someNode } from '../../analyses/syntax.ts'
import type { OperandIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

const HASHES: ReadonlySet<string> = new Set(['keccak256', 'sha3', 'sha256'])

export const frontRunningReward = defineDetector({
  id: 'front-running-reward',
  title: 'Front-runnable reward for a secret',
  category: 'ordering',
  severity: 'medium',
  confidence: 'medium',
  explanation:
    'The function pays whoever submits a value whose hash matches a stored one. The answer travels in the clear in the pending transaction, so anyone watching the mempool can copy it with a higher gas price and take the reward.',
  recommendation: 'Use commit-reveal: first commit a hash that includes msg.sender, then reveal; or bind the solution to the submitter.',
  detect({ analyses, entryPoints, report }) {
    for (const { fn, context } of entryPoints) {
      if (analyses.access.isProtected(fn, context)) continue
      const pays = analyses.effects.flatEffects(fn, context).some((e) => e.effect.kind === 'call' && (sendsEth(e.effect.call) || (e.effect.call.kind === 'external' && (e.effect.call.name === 'transfer' || e.effect.call.name === 'safeTransfer'))))
      const paysViaLibrary = fn.facts.calls.some((c) => c.kind === 'library' && (c.name === 'safeTransfer' || c.name === 'sendValue'))
      if (!pays && !paysViaLibrary) continue
      // A hash of the caller's input, not bound to the caller, compared in a guard.
      const hashOfInput = (side: OperandIr): boolean => {
        const hash = analyses.dispatch.callOf(side.expression)
        if (hash?.kind !== 'builtin' || !HASHES.has(hash.name)) return false
        return analyses.taint.dependsOnParameters(hash.node, fn) && !someNode(hash.node, (m) => analyses.access.isSender(m, fn))
      }
      for (const guard of fn.facts.guards) {
        const condition = fn.facts.conditions.find((c) => c.node === guard.condition)
        const comparesPreimage = condition?.comparisons.some(({ operator, left, right }) => (operator === '==' || operator === '!=') && (hashOfInput(left) || hashOfInput(right)))
        if (!comparesPreimage) continue
        report(guard.condition, fn.file, `${functionLabel(fn)} pays whoever submits the preimage checked by ${code(fn.file, guard.condition)}.`, { foundIn: [{ fn, context }] })
      }
    }
  },
})
