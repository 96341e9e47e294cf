import { decodeProgramAccount, decodeProgramDataAuthority } from '../decode/loader.ts'
import { known, type HookProgramFacts, type Known } from './facts.ts'
import type { CollectContext } from './context.ts'

/**
 * Whether the transfer-hook program can change: a program under the upgradeable loader is
 * upgradeable while its program-data account names an upgrade authority; loader-v4 programs until
 * finalised; programs of the old loaders never.
 */
export async function readHookProgram(ctx: CollectContext, programId: string): Promise<Known<HookProgramFacts>> {
  const account = await ctx.loader.load(programId)
  if (!account) return known({ programId, exists: false, executable: false, loader: '', upgradeable: false, upgradeAuthority: null })
  const info = decodeProgramAccount(account.owner, account.executable, account.data)
  const base = { programId, exists: true, executable: account.executable, loader: account.owner }
  switch (info.kind) {
    case 'immutable':
      return known({ ...base, upgradeable: false, upgradeAuthority: null })
    case 'loader-v4':
      return known({ ...base, upgradeable: !info.finalized, upgradeAuthority: info.authority })
    case 'not-a-program':
      return known({ ...base, executable: false, upgradeable: false, upgradeAuthority: null })
    case 'upgradeable-loader': {
      const programData = await ctx.loader.load(info.programData)
      if (!programData) return known({ ...base, executable: false, upgradeable: false, upgradeAuthority: null })
      const authority = decodeProgramDataAuthority(programData.data)
      return known({ ...base, upgradeable: authority !== null, upgradeAuthority: authority })
    }
  }
}
