import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { fromPowers } from './evidence.ts'
import { hostileDependency, unmeasuredDependencies } from './trade-evidence.ts'

export const transferPausable = defineCheck<EvmFacts>({
  id: 'transferPausable',
  tier: 'Critical',
  describe: {
    present: 'A privileged account can stop transfers for everyone.',
    absent: 'No privileged account can stop transfers.',
    undetermined: 'Whether transfers can be paused could not be determined.',
  },
  method:
    'simulation: after each candidate function call as a privileged account, a holder the call did not name tries to transfer and sell; a function with a numeric argument counts if every value blocks, or if it can stop every sale by what it sets: a tax pushed to 99 % or more, fees summed past 100 % (searched by bisection, see slippageModifiable), a limit set so low that no sale passes. A function taking an address is also given the token\'s own pools, in each of its first three address arguments: one after which holders\' sales into the pool fail while transfers between holders still go (a list of recipients, a gated pair, filled with the pool) stops every sale, unless the same function given a holder blacklists that holder (then it is the blacklist, isBlacklisted). Every contract a transfer calls is also given reverting and extreme-answering code: if trades stop and someone can change that contract (a proxy\'s admin, or a privileged account measured pointing the token elsewhere: its call naming a fresh reverting contract stops trades that the same call naming the dependency itself leaves working; an address merely kept in storage is not enough), that someone can stop transfers. Where the node cannot trace calls, the contracts the token names in its code and first storage slots are made hostile instead (a "1" found there stands). Where the contracts transfers call were not all measured (untraced while the code can call out, no pool to trade on, a simulation the node failed), no "0" is given. The functions of a contract the token\'s pools run on every trade (a Uniswap V4 pool\'s hook: a pause, a list, a fee) are tried the same way, by that contract\'s owner and the token\'s privileged accounts; a call after which holders\' sales into the pool fail counts, and the evidence names the contract. Such a contract whose code can be replaced (an EIP-1967 proxy: its admin, or its implementation, upgrades it) is given reverting code for one more sale: if that sale fails where the plain one went through, whoever replaces its code can stop trading; the functions of a proxy\'s implementation are not read within a report\'s round trips, so the checks of powers over trading (this one aside when so found) are then "" rather than "0"',
  run(facts) {
    const measured = fromPowers(facts, 'pause', 'stopped the transfers of a holder it did not name', true)
    const dependency = hostileDependency(facts, 'stops')
    // Both: the dependency that can be turned against holders is said beside the owner's call.
    if (measured.status === 'present') return dependency ? { ...measured, evidence: `${measured.evidence}; ${dependency}` } : measured
    if (dependency) return { status: 'present', method: 'simulated', evidence: dependency }
    // A "0" needs the contracts transfers call measured too: unmeasured, they may stop them.
    const unmeasured = measured.status === 'absent' ? unmeasuredDependencies(facts) : undefined
    return unmeasured ? { status: 'undetermined', method: 'not determinable', evidence: `${measured.evidence}; ${unmeasured}` } : measured
  },
})
