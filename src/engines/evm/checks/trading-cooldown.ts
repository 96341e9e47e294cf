import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { poolName, simulatedTrades, noTradeEvidence } from './evidence.ts'

export const tradingCooldown = defineCheck<EvmFacts>({
  id: 'tradingCooldown',
  tier: 'Neutral',
  describe: {
    present: 'An address must wait between trades.',
    absent: 'There is no waiting time between trades.',
    undetermined: 'Whether there is a waiting time between trades could not be determined.',
  },
  method: 'simulation: the same fresh address buys a small amount twice in a row in the same block',
  run(facts) {
    const tried = simulatedTrades(facts).filter((t) => t.buyOk && t.buyAgainOk !== undefined)
    const blocked = tried.find((t) => t.buyAgainOk === false)
    if (blocked) return { status: 'present', method: 'simulated', evidence: `second buy on ${poolName(blocked)} reverted: ${blocked.buyAgainReason}` }
    if (tried.length === 0) return { status: 'undetermined', method: 'not determinable', evidence: noTradeEvidence(facts, 'no pool where the probe could buy') }
    return { status: 'absent', method: 'simulated', evidence: `a second buy right after the first worked on ${tried.length} pool(s)` }
  },
})
