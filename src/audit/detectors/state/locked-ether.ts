import { sendsEth } from '../../analyses/syntax.ts'
import { defineDetector } from '../define-detector.ts'

export const lockedEther = defineDetector({
  id: 'locked-ether',
  title: 'Contract locks ETH',
  category: 'state',
  severity: 'medium',
  confidence: 'high',
  explanation:
    'The contract can receive ETH (it has payable functions) but no code path ever sends ETH out, so everything sent to it is locked forever.',
  recommendation: 'Add a (protected) withdrawal function, or remove `payable` if the contract is not meant to hold ETH.',
  detect({ analyses, contracts, report }) {
    for (const contract of contracts) {
      if (contract.kind !== 'contract') continue
      const functions = contract.linearization.flatMap((c) => [...c.functions, ...c.modifiers])
      const payable = functions.filter((f) => f.mutability === 'payable' && f.body !== null)
      if (payable.length === 0) continue
      // What the contract runs: its overrides replace the functions of its bases they override
      // (which then only run when reached through `super`) and what those bases call.
      const roots = functions.filter((f) => analyses.dispatch.implementationIn(f, contract) === f)
      const all = new Set(roots.flatMap((f) => analyses.dispatch.reachableFunctions(f, contract)))
      let canSend = false
      for (const fn of all) {
        for (const call of fn.facts.calls) {
          if (call.kind === 'transfer' || call.kind === 'send') canSend = true
          else if (call.kind === 'low-level' && (call.lowLevel === 'delegatecall' || call.lowLevel === 'callcode' || sendsEth(call))) canSend = true
          else if ((call.kind === 'external' || call.kind === 'creation') && sendsEth(call)) canSend = true
          else if (call.kind === 'builtin' && (call.name === 'selfdestruct' || call.name === 'suicide')) canSend = true
          if (canSend) break
        }
        if (canSend) break
      }
      if (canSend) continue
      const names = payable.map((f) => (f.kind === 'function' ? `\`${f.name}()\`` : f.kind)).join(', ')
      report(contract.node, contract.file, `\`${contract.name}\` receives ETH through ${names} but has no way to send it out.`, { header: true })
    }
  },
})
