import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { fromPowers } from './evidence.ts'
import { blockedHolders } from './trade-evidence.ts'

export const isBlacklisted = defineCheck<EvmFacts>({
  id: 'isBlacklisted',
  tier: 'RISKY',
  describe: {
    present: 'A privileged account can stop chosen addresses from transferring or selling.',
    absent: 'No privileged account can stop a chosen address from transferring or selling.',
    undetermined: 'Whether a privileged account can block chosen addresses could not be determined.',
  },
  method:
    'simulation: candidate functions are called as each privileged account with a holder\'s address; that holder\'s transfer and sell are tried afterwards, beside a bystander\'s that must still work. The largest holders of record (up to 20) also sell their whole balance from their real state, as wallets do: one that cannot sell any of it where a fresh wallet sells is blocked already',
  run(facts) {
    const measured = fromPowers(facts, 'blacklist', 'stopped the address it was given from trading', true)
    if (measured.status === 'present') return measured
    const blocked = blockedHolders(facts)
    return blocked ? { status: 'present', method: 'simulated', evidence: blocked } : measured
  },
})
