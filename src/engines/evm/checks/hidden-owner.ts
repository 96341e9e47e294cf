import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts, PowerCandidate } from '../facts.ts'

/** Where a candidate counts as the declared owner. */
const DECLARED = new Set(['owner()', 'getOwner()'])
/** The token's declared owner, or a contract's its pools run (a hook) declared by that contract's own getter. */
const isDeclared = (c: PowerCandidate) => DECLARED.has(c.source) || !!c.ownerOf

export const hiddenOwner = defineCheck<EvmFacts>({
  id: 'hiddenOwner',
  tier: 'Critical',
  describe: {
    present: 'A power over the token stays with an account other than the declared owner.',
    absent: 'No account other than the declared owner holds a power over the token.',
    undetermined: 'Whether an account other than the declared owner holds powers could not be determined.',
  },
  method:
    'simulation: every power found by the owner-power simulation is attributed to the account that used it; an account that is not the one owner()/getOwner() names (the token\'s, or for the functions of a contract its pools run beside it, such as a Uniswap V4 hook, that contract\'s own) (an account kept in storage, read at every byte offset of the first slots and tried when it has code, a balance, a nonce or appears in the token\'s Transfer logs; an address written into the code as a constant; an account granted a role in a RoleGranted log and not revoked since, or listed by the token\'s role getters (getRoleMember) for the default admin role, the role-like constants of its code and the usual role names; the creator; a proxy admin) holds it in hiding',
  run(facts) {
    const p = facts.powers
    const hidden = p.findings.filter((f) => !isDeclared(f.appointedBy ?? f.candidate))
    const declared = facts.owner.declared
    const renounced = declared === '0x0000000000000000000000000000000000000000'
    if (hidden.length > 0) {
      const who = [...new Set(hidden.map((f) => { const c = f.appointedBy ?? f.candidate; return `${c.address} (${c.source})` }))].join(', ')
      const what = [...new Set(hidden.map((f) => f.kind))].join(', ')
      return {
        status: 'present',
        method: 'simulated',
        evidence: `${renounced ? 'owner() is renounced, yet ' : declared ? `owner() is ${declared}, yet ` : 'no owner() is declared, yet '}${who} can still ${what}: ${hidden[0].evidence}`,
      }
    }
    if (p.status !== 'tested') return { status: 'undetermined', method: 'not determinable', evidence: p.reason || 'owner powers were not simulated' }
    if (p.functionsFailed.length > 0) {
      return { status: 'undetermined', method: 'not determinable', evidence: `the simulation of ${p.functionsFailed.length} function(s) failed` }
    }
    const others = p.candidates.filter((c) => !isDeclared(c))
    const tried = others.length > 0 ? `${others.map((c) => `${c.address} (${c.source})`).join(', ')} tried: no power found` : 'no account beside the declared owner was found to try'
    // The token lists its role holders and the list could not be read: one of them may hold a power.
    if (p.rolesUnread) return { status: 'undetermined', method: 'not determinable', evidence: `${tried}; ${p.rolesUnread}` }
    return { status: 'absent', method: 'simulated', evidence: p.rolesNote ? `${tried} (${p.rolesNote})` : tried }
  },
})
