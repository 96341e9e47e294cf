import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'
import { dependencySummary } from './trade-evidence.ts'

export const externalCall = defineCheck<EvmFacts>({
  id: 'externalCall',
  tier: 'Medium Risk',
  describe: {
    present: 'Transfers call other contracts.',
    absent: 'Transfers do not call other contracts.',
    undetermined: 'Whether transfers call other contracts could not be determined.',
  },
  method:
    'simulation traced with debug_traceCall (callTracer) over buys, transfers and sells: calls made by the token itself (CALL, and STATICCALL: a contract asked for an answer is a dependency too), each then given reverting and extreme-answering code to see what it could do to holders, with who can change it (a proxy\'s admin, or a privileged account measured pointing the token elsewhere: a setter naming a fresh reverting contract stops trades that the same setter naming the dependency leaves working) and whether the configured explorer publishes its source; bytecode where the node cannot trace (a reachable CALL; a reachable STATICCALL alone leaves it undetermined, as it may only reach a precompile, unless a contract the token names, given hostile code, changed what trades did)',
  run(facts) {
    const x = facts.externalCalls
    if (x.method === 'trace') {
      if (x.calls.length === 0) return { status: 'absent', method: 'simulated', evidence: `${x.note}: the token called no other contract` }
      const list = x.calls.slice(0, 4).map((c) => `${c.to} (${c.selector})`).join(', ')
      return { status: 'present', method: 'simulated', evidence: `${x.note}: the token called ${list}${dependencySummary(facts)}` }
    }
    if (x.method === 'bytecode') {
      const r = facts.code.logic?.reachable
      if (r?.call || r?.callCode) return { status: 'present', method: 'bytecode', evidence: `${x.note}${dependencySummary(facts)}` }
      // A contract the token names whose hostile code changed what trades did is called by them.
      const called = (facts.dependencies?.list ?? []).find((d) => d.named && (d.stops || d.changesAmounts))
      if (called) return { status: 'present', method: 'simulated', evidence: `${x.note}; with ${called.address} (${called.named}) hostile, ${called.stops || called.changesAmounts}: transfers call it${dependencySummary(facts)}` }
      // A STATICCALL alone may only reach a precompile: without a trace, neither answer is measured.
      if (r?.staticCall) return { status: 'undetermined', method: 'not determinable', evidence: x.note }
      return { status: 'absent', method: 'bytecode', evidence: x.note }
    }
    return { status: 'undetermined', method: 'not determinable', evidence: x.note }
  },
})
