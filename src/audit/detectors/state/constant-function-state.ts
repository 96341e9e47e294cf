import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

/** 0.5.0 started enforcing view/pure with STATICCALL. */
const VIEW_ENFORCED_SINCE = 5_000

export const constantFunctionState = defineDetector({
  id: 'constant-function-state',
  title: 'View or constant function that changes state',
  category: 'state',
  severity: 'low',
  confidence: 'medium',
  explanation:
    'Before Solidity 0.5 `constant`/`view`/`pure` were not enforced. This function is declared as not modifying state but writes storage, so callers and tools that trust the declaration (and later compilers using STATICCALL) get it wrong.',
  recommendation: 'Remove the state changes or drop the view/constant declaration, and upgrade the compiler.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      if (fn.mutability !== 'view' && fn.mutability !== 'pure') continue
      const compiler = fn.file.versions
      if (compiler === null || compiler.min >= VIEW_ENFORCED_SINCE) continue
      const foundIn = analyses.dispatch.contextsOf(fn).filter((context) => analyses.effects.flatEffects(fn, context).some((e) => e.effect.kind === 'write'))
      const writes = foundIn.flatMap((context) => analyses.effects.flatEffects(fn, context)).filter((e) => e.effect.kind === 'write')
      if (writes.length === 0) continue
      const names = [...new Set(writes.map((w) => (w.effect.kind === 'write' ? `\`${w.effect.access.variable.name}\`` : '')))].join(', ')
      report(fn.node, fn.file, `${functionLabel(fn)} is declared \`${(fn.node as { stateMutability?: string }).stateMutability}\` but writes ${names}.`, { header: true, foundIn: foundIn.map((context) => ({ fn, context })) })
    }
  },
})
