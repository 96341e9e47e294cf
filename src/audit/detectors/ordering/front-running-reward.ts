import { sendsEth, unwrap, walkNodes } from '../../analyses/syntax.ts'
import type * as AST from '../../parse/ast.ts'
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
      for (const guard of fn.facts.guards) {
        let hashOfInput: AST.FunctionCall | null = null
        walkNodes(guard.condition, (n) => {
          if (n.type !== 'BinaryOperation' || !['==', '!='].includes(n.operator)) return true
          for (const side of [n.left, n.right]) {
            const s = unwrap(side)
            if (s.type !== 'FunctionCall') continue
            const callee = s.expression
            if (callee.type !== 'Identifier' || !HASHES.has(callee.name)) continue
            if (!analyses.taint.dependsOnParameters(s, fn)) continue
            let bindsSender = false
            walkNodes(s, (m) => {
              if (analyses.access.isSender(m, fn)) bindsSender = true
              return !bindsSender
            })
            if (!bindsSender) hashOfInput = s
          }
          return hashOfInput === null
        })
        if (!hashOfInput) continue
        report(guard.condition, fn.file, `${functionLabel(fn)} pays whoever submits the preimage checked by ${code(fn.file, guard.condition)}.`, { foundIn: [{ fn, context }] })
      }
    }
  },
})
