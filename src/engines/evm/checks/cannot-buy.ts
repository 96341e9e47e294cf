import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { poolName, simulatedTrades, noTradeEvidence, withSearchNote } from './evidence.ts'

export const cannotBuy = defineCheck<EvmFacts>({
  id: 'cannotBuy',
  tier: 'Critical',
  describe: {
    present: 'Buying the token from its pool reverts.',
    absent: 'The token can be bought.',
    undetermined: 'Whether the token can be bought could not be determined.',
  },
  method: 'simulation: a fresh address buys a small amount from each pool with the pool\'s quote asset',
  run(facts) {
    const tried = simulatedTrades(facts).filter((t) => t.buyOk !== undefined)
    const failed = tried.find((t) => t.buyOk === false)
    if (failed) return { status: 'present', method: 'simulated', evidence: `buy on ${poolName(failed)} failed: ${failed.buyReason}` }
    if (tried.length === 0) {
      return { status: 'undetermined', method: 'not determinable', evidence: facts.trades.length === 0 ? withSearchNote(facts, 'no pool of the token was found') : noTradeEvidence(facts, 'no pool could be simulated') }
    }
    return { status: 'absent', method: 'simulated', evidence: `bought on ${tried.length} pool(s)` }
  },
})
