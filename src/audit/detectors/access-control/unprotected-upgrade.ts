import { isAddressType } from '../../ir/typing.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel, reachableFunctions } from '../helpers.ts'

/** State that names an implementation contract. */
const IMPLEMENTATION_VARIABLE = /implementation|logic|^_?impl$/i
/** Functions that switch implementation (OpenZeppelin ERC1967 and common hand-written names). */
const UPGRADE_FUNCTION = /^_?(upgradeTo|upgradeToAndCall|setImplementation|upgradeToAndCallUUPS)$/

export const unprotectedUpgrade = defineDetector({
  id: 'unprotected-upgrade',
  title: 'Unprotected upgrade',
  category: 'access-control',
  severity: 'high',
  confidence: 'medium',
  explanation:
    'Whoever controls the implementation of an upgradeable contract controls all of its state and funds. Here the upgrade path has no access control, so anyone can replace the code.',
  recommendation: 'Restrict upgrades to an owner, multisig or governance: put access control in `_authorizeUpgrade` (UUPS) or in the function that sets the implementation.',
  detect({ queries, functions, report }) {
    for (const fn of functions) {
      if (fn.name === '_authorizeUpgrade' && fn.body !== null && fn.contract?.kind !== 'interface') {
        if (!queries.isProtected(fn)) report(fn.node, fn.file, `${functionLabel(fn)} lets every caller upgrade the contract.`, { header: true })
        continue
      }
      if (!queries.isEntryPoint(fn) || queries.isProtected(fn)) continue
      const writesImplementation = queries
        .flatEffects(fn)
        .some((e) => e.effect.kind === 'write' && IMPLEMENTATION_VARIABLE.test(e.effect.access.variable.name) && (isAddressType(e.effect.access.variable.type) || e.effect.access.variable.type.kind === 'contract'))
      const callsUpgrade = reachableFunctions(fn).some((f) => f !== fn && UPGRADE_FUNCTION.test(f.name))
      if (!writesImplementation && !callsUpgrade) continue
      report(fn.node, fn.file, `${functionLabel(fn)} changes the implementation and any caller can run it.`, { header: true })
    }
  },
})
