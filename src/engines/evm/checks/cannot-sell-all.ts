import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts, TradeFact } from '../facts.ts'
import { noTradeEvidence, poolName, simulatedTrades } from './evidence.ts'
import { clampedHolders, ownPairUnrun } from './trade-evidence.ts'

/**
 * Whether no amount at all can be sold into the pool: selling part of a balance failed or lost
 * nearly everything too (the pool's honeypot verdict), not only selling the whole of it.
 */
const sellsNothing = (t: TradeFact): boolean => t.honeypot === true

export const cannotSellAll = defineCheck<EvmFacts>({
  id: 'cannotSellAll',
  tier: 'RISKY',
  describe: {
    present: 'A holder cannot sell its whole balance.',
    absent: 'A holder can sell its whole balance.',
    undetermined: 'Whether a holder can sell its whole balance could not be determined.',
  },
  method:
    'simulation: from the same state, a holder sells 100 %, 99 % and half of its balance, by a transfer to the pair and through the router (approve, then transferFrom), on every pool and on the pair the token records as its own; when no amount can be sold (a honeypot), the finding is Critical. A sale of 100 % that goes through is checked for what reached the pool, against the sale of half. The largest holders of record (up to 20) also sell their whole balance from their real state: one whose sell goes through and leaves more of its balance than the sell tax explains is clamped. When the token\'s own pair cannot be traded, sells elsewhere do not answer it',
  run(facts) {
    const tried = simulatedTrades(facts).filter((t) => t.sellAllOk !== undefined)
    const hits = tried.filter((t) => t.sellAllOk === false)
    // The gravest pool speaks: one where nothing sells outranks one that only keeps the last token.
    const trap = hits.find(sellsNothing)
    if (trap) {
      return {
        status: 'present',
        method: 'simulated',
        evidence: `no amount can be sold on ${poolName(trap)} (${trap.honeypotReason || trap.sellAllReason}): a honeypot`,
        tier: 'Critical',
      }
    }
    const hit = hits[0]
    if (hit) {
      const how =
        hit.sell99Ok === true
          ? `selling 100% on ${poolName(hit)} reverted (${hit.sellAllReason}) while 99% sold`
          : `selling 100% on ${poolName(hit)} reverted (${hit.sellAllReason}); selling part of it worked`
      return { status: 'present', method: 'simulated', evidence: how }
    }
    // A sale of everything that "worked" but delivered less than it sent: a silent clamp or a fee on whole sales.
    const short = tried.find((t) => t.sellAllShortfall)
    if (short?.sellAllShortfall) {
      const { percent, partPercent } = short.sellAllShortfall
      return {
        status: 'present',
        method: 'simulated',
        evidence: `selling 100% on ${poolName(short)} did not revert, but ${percent}% of the tokens sent never reached the pool (half a balance lost ${partPercent}%): a holder cannot sell its whole balance at the rate of a smaller sale (a clamp that holds part back, or a fee on whole sales)`,
      }
    }
    // Holders of record selling from their real state: a clamp that only they meet.
    const clamped = clampedHolders(facts)
    if (clamped) return { status: 'present', method: 'simulated', evidence: clamped }
    if (tried.length === 0) return { status: 'undetermined', method: 'not determinable', evidence: noTradeEvidence(facts, 'no pool where the probe could try to sell') }
    const unrun = ownPairUnrun(facts)
    if (unrun) return { status: 'undetermined', method: 'not determinable', evidence: unrun }
    return { status: 'absent', method: 'simulated', evidence: `sold a whole balance on ${tried.length} pool(s)` }
  },
})
