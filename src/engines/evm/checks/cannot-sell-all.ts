import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { poolName, simulatedTrades } from './evidence.ts'

export const cannotSellAll = defineCheck<EvmFacts>({
  id: 'cannotSellAll',
  tier: 'Great To Have',
  describe: {
    present: 'A holder cannot sell its whole balance.',
    absent: 'A holder can sell its whole balance.',
    undetermined: 'Whether a holder can sell its whole balance could not be determined.',
  },
  method: 'simulation: from the same state, a holder sells 100 % and, separately, 99 % of its balance',
  run(facts) {
    const tried = simulatedTrades(facts).filter((t) => t.sellAllOk !== undefined)
    const hit = tried.find((t) => t.sellAllOk === false && t.sell99Ok === true)
    if (hit) return { status: 'present', method: 'simulated', evidence: `selling 100% on ${poolName(hit)} reverted (${hit.sellAllReason}); 99% sold` }
    if (tried.length === 0) return { status: 'undetermined', method: 'not determinable', evidence: 'no pool where the probe could sell' }
    const all = tried.filter((t) => t.sellAllOk === true)
    if (all.length > 0) return { status: 'absent', method: 'simulated', evidence: `sold a whole balance on ${all.length} pool(s)` }
    return { status: 'absent', method: 'simulated', evidence: 'selling fails whatever the amount (see honeypotDetails)' }
  },
})
