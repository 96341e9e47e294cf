import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { poolName, simulatedTrades, noTradeEvidence } from './evidence.ts'

export const cannotSellAll = defineCheck<EvmFacts>({
  id: 'cannotSellAll',
  tier: 'RISKY',
  describe: {
    present: 'A holder cannot sell its whole balance.',
    absent: 'A holder can sell its whole balance.',
    undetermined: 'Whether a holder can sell its whole balance could not be determined.',
  },
  method: 'simulation: from the same state, a holder sells 100 %, 99 % and half of its balance',
  run(facts) {
    const tried = simulatedTrades(facts).filter((t) => t.sellAllOk !== undefined)
    const hit = tried.find((t) => t.sellAllOk === false)
    if (hit) {
      const how =
        hit.sell99Ok === true
          ? `selling 100% on ${poolName(hit)} reverted (${hit.sellAllReason}) while 99% sold`
          : `selling fails whatever the amount on ${poolName(hit)} (${hit.sellAllReason}): a honeypot`
      return { status: 'present', method: 'simulated', evidence: how }
    }
    if (tried.length === 0) return { status: 'undetermined', method: 'not determinable', evidence: noTradeEvidence(facts, 'no pool where the probe could try to sell') }
    return { status: 'absent', method: 'simulated', evidence: `sold a whole balance on ${tried.length} pool(s)` }
  },
})
