import { defineCheck } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { absent, present, undetermined } from './helpers.ts'

export const transferHookUpgradeable = defineCheck<SolanaFacts>({
  id: 'transferHookUpgradeable',
  tier: 'RISKY',
  describe: {
    present: 'The transfer-hook program’s code can be replaced, so what runs on every transfer can change at any time.',
    absent: 'No transfer-hook program, or its code can no longer change.',
    undetermined: 'Whether the transfer-hook program can be upgraded could not be determined.',
  },
  method: "the hook program's account and, under the upgradeable loader, its program-data account",
  run: ({ hookProgram }) => {
    if (hookProgram === null) return absent('no transfer hook program')
    if (!hookProgram.ok) return undetermined(hookProgram.reason)
    const p = hookProgram.value
    if (!p.exists) return present(`no program is deployed at ${p.programId}: whoever holds that key can deploy one`)
    if (!p.executable) return present(`${p.programId} is not an executable program (owner ${p.loader}); transfers fail until one is deployed`)
    if (p.upgradeable) return present(`${p.programId} is upgradeable${p.upgradeAuthority ? ` by ${p.upgradeAuthority}` : ''}`)
    return absent(`${p.programId} is immutable (loader ${p.loader})`)
  },
})
