// The regression guard of the owner's reach: a fixed list of zoo tokens (each power the engine
// finds, and the look-alikes it must not call one) whose every code check — status, risk and
// comment — is compared with the committed snapshot of the last release, test/snapshots/
// owner-reach-guard.json. An experiment that loses a power, or finds one on a look-alike, or says it
// differently, fails here. After a deliberate change, regenerate it (`npx vitest run
// test/evm-regression-guard.test.ts -u`) and read its diff before committing it.
import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { zooToken } from '@tokenrisk/devworld/manifest'
import { OTHER_CHECKS, OWNERSHIP_CHECKS } from '../src/contract/checks.ts'
import { PROBE_ADDRESSES } from '../src/engines/evm/chain/probe.ts'
import { useZooReports } from './helpers/zoo-reports.ts'

/** The guarded tokens: every owner power of the zoo (and where it hides), and the twins that hold none. */
export const GUARDED_TOKENS = [
  'clean', 'tax-3-7-1', 'tax-modifiable', 'tax-per-address', 'tax-capped', 'honeypot', 'blacklist', 'pausable', 'mintable',
  'owner-change-balance', 'hidden-owner', 'self-credit', 'airdrop', 'vault-mint', 'fixed-minter', 'sell-hook-trap', 'sell-hook-safe',
  'quiet-list', 'fee-exempt', 'max-tx-adjustable', 'holder-sweep', 'holder-reward', 'reserve-credit', 'reserve-fund', 'sell-switch',
  'launch-once', 'guard-repointable', 'fee-oracle-repointable', 'packed-admins', 'packed-records', 'fee-stack', 'fee-stack-capped',
  'close-trade', 'freeze-reads', 'seize-all', 'one-shot-mint', 'display-balance', 'silent-take', 'display-promo', 'haircut',
  'fee-wallet-trap', 'fee-wallet-safe', 'pair-burn', 'pair-sync', 'blacklist-burn', 'reflect-include-bug', 'reflect-include',
  'devteam-mint', 'devteam-fee', 'three-step-drain', 'three-step-reward', 'allowance-grant', 'allowance-backdoor', 'role-minter',
  'role-quiet-minter', 'max-credit', 'max-trim', 'reflect-dust', 'reflect-skim', 'helper-drain', 'helper-reward', 'pair-gate',
  'pair-record', 'recipient-block', 'display-hundred', 'hidden-credit', 'hidden-liquidity',
  'keeper-fee', 'keeper-own-fee', 'keeper-exact-sell', 'keeper-own-sell', 'route-gate', 'route-record', 'display-multiplier',
  'multiplier-credit', 'hidden-credit-flag', 'hidden-liquidity-flag',
] as const

const zoo = useZooReports(GUARDED_TOKENS)

/**
 * A report's comments with the addresses that depend on where a token sits in the zoo (itself,
 * its pools, contracts deployed beside it) named by role, so that adding a token elsewhere in the
 * zoo does not move the snapshot; the world's accounts and the probe's are named as themselves;
 * amounts of twelve digits or more (raw units, which follow the world's history) as `<raw>`, and
 * the holders of record (which accounts, how many) as `<of record>`.
 */
function normalizer(key: string): (text: string) => string {
  const manifest = zoo.world.manifest
  const token = zooToken(manifest, key)
  const names = new Map<string, string>()
  const name = (address: string | undefined, as: string) => address && names.set(address.toLowerCase(), as)
  name(token.address, '<token>')
  token.pools.forEach((p, i) => name(p.pairAddress, `<pool ${i}>`))
  if (token.implementation) name(token.implementation, '<implementation>')
  const accounts = manifest.accounts
  if (accounts) {
    name(accounts.deployer, '<deployer>')
    name(accounts.hiddenAdmin, '<hiddenAdmin>')
    name(accounts.feeWallet, '<feeWallet>')
    name(accounts.lpProvider, '<lpProvider>')
    accounts.traders.forEach((a, i) => name(a, `<trader ${i}>`))
    accounts.receivers.forEach((a, i) => name(a, `<receiver ${i}>`))
  }
  for (const [role, a] of Object.entries(PROBE_ADDRESSES)) name(a, `<probe ${role}>`)
  let others = 0
  return (text) =>
    text
      .replace(/0x[0-9a-fA-F]{40}/g, (a) => {
        const lower = getAddress(a).toLowerCase()
        if (!names.has(lower)) names.set(lower, `<address ${others++}>`)
        return names.get(lower)!
      })
      // Amounts in raw units follow the world's random history (pool reserves, what holders
      // bought): the power and its words are guarded, not the figure of the day.
      .replace(/\b\d{12,}\b/g, '<raw>')
      // Which world accounts are the token's largest holders of record, and in what order, is history too.
      .replace(/the holder <(trader|receiver|lpProvider|feeWallet|hiddenAdmin)[^>]*>/g, 'the holder <of record>')
      .replace(/\b\d+ more watched account\(s\)/g, '<n> more watched account(s)')
}

describe('regression guard: the owner powers of the zoo', () => {
  it('every check and comment of the guarded tokens equals the last release\'s', async () => {
    const snapshot: Record<string, Record<string, string>> = {}
    for (const key of GUARDED_TOKENS) {
      const { report } = zoo.get(key)
      const all = { ...report.codeChecks.ownershipChecks, ...report.codeChecks.otherChecks } as Record<string, { status: string; risk: string; comment: string }>
      const normal = normalizer(key)
      snapshot[key] = Object.fromEntries([...OWNERSHIP_CHECKS, ...OTHER_CHECKS].map((c) => [c, `${all[c].status} | ${all[c].risk} | ${normal(all[c].comment)}`]))
    }
    await expect(`${JSON.stringify(snapshot, null, 1)}\n`).toMatchFileSnapshot('./snapshots/owner-reach-guard.json')
  })
})
