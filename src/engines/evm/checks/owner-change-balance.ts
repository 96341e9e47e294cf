import { defineCheck } from '../../../report/define-check.ts'
import { DUST_RULE } from '../collect/effect-floor.ts'
import type { EvmFacts } from '../facts.ts'
import { fromPowers } from './evidence.ts'
import { hostileDependency, unmeasuredDependencies } from './trade-evidence.ts'

export const ownerChangeBalance = defineCheck<EvmFacts>({
  id: 'ownerChangeBalance',
  tier: 'Critical',
  describe: {
    present: 'A privileged account can change the balance of any holder.',
    absent: 'No privileged account can change the balance of a holder.',
    undetermined: 'Whether a privileged account can change holders\' balances could not be determined.',
  },
  method:
    `simulation: every state-changing function of the (implementation) bytecode is called as each privileged-account candidate, and the balances of holders that neither called nor approved (test holders, the token\'s largest holders of record from its Transfer logs, and the pools, and, where the node traces calls, every account the calls\' Transfer events name, measured in the storage diff of the balance mapping) are compared before and after; tokens moved out of the caller\'s own balance or the token contract\'s (an airdrop, a rescue) are not a power over holders; a balance that falls with nothing moving (no account credited, the supply unchanged) is asked whether it was held: it is not taken only if, before the call, the holder could not send one unit more than it is shown after it, and after the call it sends all it is shown (a balance shown and not held, brought down to what is held). The test holders are asked in every experiment; the holders of record, only when a call lowered theirs with nothing moving and no test holder was found taken from, in a second run where they act for themselves (one more round trip then), and a fall that run does not measure the same stays taken. A contract transfers call that decides what they deliver (with extreme answers, trades deliver other amounts) and that someone can change (a proxy\'s admin, or a privileged account measured pointing the token elsewhere: its call naming a fresh contract answering extreme values changes what trades deliver, and the same call naming the dependency itself does not) gives that someone the same power. Where the node cannot trace calls, the contracts the token names in its code and first storage slots are made hostile instead (a "1" found there stands). Where the contracts transfers call were not all measured (untraced while the code can call out, no pool to trade on, a simulation the node failed), no "0" is given; ${DUST_RULE}`,
  run(facts) {
    const result = fromPowers(facts, 'changeBalance', 'took tokens from a holder or set its balance', true)
    const dependency = result.status === 'present' ? undefined : hostileDependency(facts, 'amounts')
    if (dependency) return { status: 'present', method: 'simulated', evidence: dependency }
    // A "0" needs the contracts transfers call measured too: unmeasured, they may decide what holders get.
    const unmeasured = result.status === 'absent' ? unmeasuredDependencies(facts) : undefined
    if (unmeasured) return { status: 'undetermined', method: 'not determinable', evidence: `${result.evidence}; ${unmeasured}` }
    const own = facts.powers.ownMoves ?? []
    if (result.status !== 'absent' || own.length === 0) return result
    return { ...result, evidence: `${result.evidence}; seen, and not a power over holders: ${own.slice(0, 2).join('; ')}` }
  },
})
