import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { poolName, simulatedTrades, noTradeEvidence } from './evidence.ts'

export const isAntiWhale = defineCheck<EvmFacts>({
  id: 'isAntiWhale',
  tier: 'Neutral',
  describe: {
    present: 'A maximum transaction or wallet size is enforced.',
    absent: 'No maximum transaction or wallet size is enforced.',
    undetermined: 'Whether a maximum transaction or wallet size is enforced could not be determined.',
  },
  method: 'simulation: a fresh address buys half of a pool\'s tokens after a small buy worked',
  run(facts) {
    const tried = simulatedTrades(facts).filter((t) => t.buyOk && t.bigBuyOk !== undefined)
    const hit = tried.find((t) => t.bigBuyOk === false)
    if (hit) return { status: 'present', method: 'simulated', evidence: `buying ${hit.bigBuyPercentOfPool}% of ${poolName(hit)} reverted (${hit.bigBuyReason}); a small buy worked` }
    if (tried.length === 0) return { status: 'undetermined', method: 'not determinable', evidence: noTradeEvidence(facts, 'no pool where the probe could buy') }
    return { status: 'absent', method: 'simulated', evidence: `bought ${tried[0].bigBuyPercentOfPool}% of the pool's tokens in one transaction on ${tried.length} pool(s)` }
  },
})
