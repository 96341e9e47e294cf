import { defineCheck } from '../../../report/define-check.ts'
import type { EvmFacts } from '../facts.ts'

export const selfDestruct = defineCheck<EvmFacts>({
  id: 'selfDestruct',
  tier: 'Critical',
  describe: {
    present: 'The contract can self-destruct.',
    absent: 'The contract cannot self-destruct.',
    undetermined: 'Whether the contract can self-destruct could not be determined.',
  },
  method: 'bytecode: SELFDESTRUCT in a reachable basic block of the control-flow graph (evmole) of the token and its implementation',
  run(facts) {
    const { token, implementation, proxy } = facts.code
    if (token.reachable.selfDestruct) return { status: 'present', method: 'bytecode', evidence: 'SELFDESTRUCT is reachable in the token\'s code' }
    if (implementation?.reachable.selfDestruct) {
      return { status: 'present', method: 'bytecode', evidence: `SELFDESTRUCT is reachable in the implementation ${proxy?.implementation ?? ''}`.trim() }
    }
    if (proxy && !implementation) return { status: 'undetermined', method: 'not determinable', evidence: 'the proxy\'s implementation could not be read' }
    return { status: 'absent', method: 'bytecode', evidence: proxy ? 'no reachable SELFDESTRUCT in the proxy or its implementation' : 'no reachable SELFDESTRUCT' }
  },
})
