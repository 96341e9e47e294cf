import { isThis, unwrap } from '../../analyses/syntax.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

export const arbitrarySendErc20 = defineDetector({
  id: 'arbitrary-send-erc20',
  title: 'Tokens pulled from an arbitrary address',
  category: 'calls',
  severity: 'high',
  confidence: 'medium',
  explanation:
    "`transferFrom` moves tokens from any account that approved this contract. When an unrestricted caller chooses the `from` address, they can move other users' approved tokens.",
  recommendation: 'Use msg.sender as `from`, or restrict the function to authorised callers.',
  detect({ analyses, entryPoints, report }) {
    for (const { fn, context } of entryPoints) {
      if (analyses.access.isProtected(fn, context)) continue
      for (const call of fn.facts.calls) {
        let from = null
        if ((call.kind === 'external' || call.kind === 'library') && (call.name === 'transferFrom' || call.name === 'safeTransferFrom') && call.args.length >= 3) {
          // `token.safeTransferFrom(from, to, v)` through `using SafeERC20`, or `SafeERC20.safeTransferFrom(token, from, to, v)`.
          from = call.kind === 'library' && call.target === null ? call.args[1] : call.args[0]
        }
        if (!from) continue
        if (analyses.access.isSender(unwrap(from), fn) || isThis(from)) continue
        if (!analyses.taint.dependsOnParameters(from, fn)) continue
        report(call.node, fn.file, `${functionLabel(fn)} lets any caller move tokens from ${code(fn.file, from)} with ${code(fn.file, call.node)}.`, { foundIn: [{ fn, context }] })
      }
    }
  },
})
