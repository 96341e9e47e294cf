import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'
import { accessControlVariables } from './access-variables.ts'

/** Setup functions, where events are not expected. */
const SETUP_NAME = /^_*init/i

export const eventsAccess = defineDetector({
  id: 'events-access',
  title: 'Access control change without an event',
  category: 'events',
  severity: 'informational',
  confidence: 'medium',
  explanation:
    'Changing who controls the contract (owner, admin, roles) without an event leaves users and monitoring blind to a takeover or a mistaken transfer of control.',
  recommendation: 'Emit an event with the old and new values whenever an access-control variable changes.',
  detect({ analyses, entryPoints, report }) {
    const access = accessControlVariables(analyses)
    if (access.size === 0) return
    for (const { fn, context } of entryPoints) {
      if (fn.kind !== 'function' || SETUP_NAME.test(fn.name)) continue
      const effects = analyses.effects.flatEffects(fn, context)
      if (effects.some((e) => e.effect.kind === 'emit')) continue
      const changed = [...new Set(effects.flatMap((e) => (e.effect.kind === 'write' && access.has(e.effect.access.variable) ? [e.effect.access.variable.name] : [])))]
      if (changed.length === 0) continue
      report(fn.node, fn.file, `${functionLabel(fn)} changes ${changed.map((n) => `\`${n}\``).join(', ')} without emitting an event.`, { header: true, foundIn: [{ fn, context }] })
    }
  },
})
