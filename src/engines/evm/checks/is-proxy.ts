import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'

const KIND_NAMES: Record<string, string> = {
  eip1967: 'EIP-1967 proxy',
  'eip1967-beacon': 'EIP-1967 beacon proxy',
  eip1822: 'EIP-1822 (UUPS) proxy',
  eip1167: 'EIP-1167 minimal proxy (clone)',
  zeppelinos: 'OpenZeppelin legacy proxy',
  delegatecall: 'delegating proxy',
  safe: 'Safe proxy',
  diamond: 'diamond proxy (EIP-2535)',
  eip7702: 'EIP-7702 delegated account',
}

export const isProxy = defineCheck<EvmFacts>({
  id: 'isProxy',
  tier: 'Medium Risk',
  describe: {
    present: 'The token is a proxy: its logic lives in another contract.',
    absent: 'The token is not a proxy.',
    undetermined: 'Whether the token is a proxy could not be determined.',
  },
  method: 'bytecode (whatsabi proxy patterns, EIP-1167 code) and the proxy storage slots (EIP-1967, EIP-1822, OpenZeppelin legacy)',
  run(facts) {
    const p = facts.code.proxy
    if (!p) return { status: 'absent', method: 'bytecode', evidence: 'no proxy pattern in the code and no implementation slot set' }
    const parts = [KIND_NAMES[p.kind] ?? p.kind, p.implementation ? `implementation ${p.implementation}` : 'implementation unknown']
    if (facts.code.upgradeNote) parts.push(facts.code.upgradeNote)
    return { status: 'present', method: 'bytecode', evidence: parts.join('; ') }
  },
})
