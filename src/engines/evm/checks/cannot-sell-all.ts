import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { poolName, simulatedTrades } from './evidence.ts'
import { clampedHolders, ownPairUnrun } from './trade-evidence.ts'

export const cannotSellAll = defineCheck<EvmFacts>({
  id: 'cannotSellAll',
  tier: 'RISKY',
  describe: {
    present: 'A holder cannot sell its whole balance.',
    absent: 'A holder can sell its whole balance.',
    undetermined: 'Whether a holder can sell its whole balance could not be determined.',
  },
  method:
    'simulation: from the same state, a holder sells 100 %, 99 % and half of its balance, by a transfer to the pair and through the router (approve, then transferFrom), on every pool and on the pair the token records as its own; the largest holders of record sell their whole balance (a sell that goes through and leaves part of it is a clamp). When the token\'s own pair cannot be traded, sells elsewhere do not answer it',
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
    const clamp = clampedHolders(facts)
    if (clamp) return { status: 'present', method: 'simulated', evidence: clamp }
    if (tried.length === 0) return { status: 'undetermined', method: 'not determinable', evidence: 'no pool where the probe could try to sell' }
    const unrun = ownPairUnrun(facts)
    if (unrun) return { status: 'undetermined', method: 'not determinable', evidence: unrun }
    return { status: 'absent', method: 'simulated', evidence: `sold a whole balance on ${tried.length} pool(s)` }
  },
})
