import { placeholderSkips } from '../../analyses/control-flow.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

export const incorrectModifier = defineDetector({
  id: 'incorrect-modifier',
  title: 'Modifier that can skip the function silently',
  category: 'access-control',
  severity: 'low',
  confidence: 'high',
  explanation:
    'A modifier that neither executes `_` nor reverts on some path makes the function return default values without running, so callers believe it succeeded (a failed check that does not revert).',
  recommendation: 'Make every path of the modifier either execute `_` or revert.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      if (fn.kind !== 'modifier' || !fn.body) continue
      if (!fn.facts.hasPlaceholder) {
        report(fn.node, fn.file, `${functionLabel(fn)} never executes \`_\`, so functions using it never run.`, { header: true })
        continue
      }
      for (const skippable of placeholderSkips(analyses, fn)) {
        report(skippable, fn.file, `${functionLabel(fn)} executes \`_\` only when its condition holds and returns silently otherwise.`, { header: false })
      }
    }
  },
})
