// The owner's reach as real tokens shape it, against the local world: no value a token can answer
// stands for "unknown" (a keeper's balance written to 2^256 - 1 is a mint), a change below the
// token's own rounding is no power (a reflection re-rating that moves dust) while a real share is,
// a helper the owner appoints drains the pool in a second step, and setters act when given the pool.
import { toFunctionSelector } from 'viem'
import { describe, expect, it } from 'vitest'
import { zooToken } from '@tokenrisk/devworld/manifest'
import { OTHER_CHECKS, OWNERSHIP_CHECKS, type EvmCheckName } from '../src/contract/checks.ts'
import type { TokenReport } from '../src/contract/token-report.ts'
import { useZooReports } from './helpers/zoo-reports.ts'

/** The zoo tokens of this file: each abusive one and its legitimate twin. */
const PAIRS = [
  ['max-credit', 'max-trim'],
  ['reflect-skim', 'reflect-dust'],
  ['helper-drain', 'helper-reward'],
  ['pair-gate', 'pair-record'],
  ['recipient-block', 'pair-record'],
] as const
/** Tokens whose fee ceiling is read: uncapped to an owner-set wallet, capped, a switch, fixed taxes, none. */
const FEES = ['fee-stack', 'fee-stack-capped', 'close-trade', 'tax-3-7-1', 'clean']
const KEYS = [...new Set([...PAIRS.flat(), 'reflect-include', ...FEES])]

const zoo = useZooReports(KEYS)

function checks(report: TokenReport): Record<EvmCheckName, { status: string; risk: string; comment: string }> {
  return { ...report.codeChecks.ownershipChecks, ...report.codeChecks.otherChecks } as never
}

describe('the zoo of the owner\'s reach on real shapes', () => {
  it('every code check of each token and its twin equals the manifest', () => {
    const mismatches: string[] = []
    for (const key of KEYS) {
      const want = zooToken(zoo.world.manifest, key).codeChecks
      const got = checks(zoo.get(key).report)
      for (const name of [...OWNERSHIP_CHECKS, ...OTHER_CHECKS]) {
        if (got[name].status !== want[name]) mismatches.push(`${key}.${name}: got ${got[name].status} want ${want[name]} (${got[name].comment})`)
      }
    }
    expect(mismatches).toEqual([])
  })

  it('max-credit: the keeper\'s balance written to exactly 2^256 - 1 is counted as created, by the keeper written into storage', () => {
    const c = checks(zoo.get('max-credit').report)
    expect(c.isMintable.comment).toContain(`function ${toFunctionSelector('rebase(uint256)')}(uint256) created`)
    const created = /created (\d+) \(raw units\) in balances without raising the total supply/.exec(c.isMintable.comment)
    expect(BigInt(created?.[1] ?? 0)).toBeGreaterThan((1n << 256n) - 1n - 1_000_000n * 10n ** 18n)
    expect(c.hiddenOwner.comment).toMatch(/owner\(\) is renounced, yet 0x[0-9a-fA-F]{40} \(storage slot \d+\) can still mint/)
    expect(checks(zoo.get('max-trim').report).isMintable.status).toBe('0')
  })

  it('reflect-dust: a re-rating that moves less than the token\'s rounding is no power; reflect-skim: a real share is taken', () => {
    const dust = checks(zoo.get('reflect-dust').report)
    expect(dust.ownerChangeBalance.status).toBe('0')
    expect(dust.isMintable.status).toBe('0')
    const skim = checks(zoo.get('reflect-skim').report).ownerChangeBalance
    expect(skim.status).toBe('1')
    expect(skim.comment).toContain(`function ${toFunctionSelector('rerate(address)')}(address) took`)
    expect(skim.comment).toMatch(/took \d{21,} \(raw units\) from a holder, which never sent or approved them$/)
  })

  it('helper-drain: the appointed helper moves tokens out of the pool in the second step; helper-reward pays from the contract\'s own reserve', () => {
    const drain = checks(zoo.get('helper-drain').report).ownerChangeBalance
    expect(drain.status).toBe('1')
    expect(drain.comment).toContain(`in two steps (${zooToken(zoo.world.manifest, 'helper-drain').owner}`)
    expect(drain.comment).toContain(`called ${toFunctionSelector('setMasterChef(address)')} naming a fresh account; then that account called it): function ${toFunctionSelector('harvest(uint256)')}(uint256) took`)
    expect(drain.comment).toMatch(/from the pool 0x[0-9a-fA-F]{40}, which never sent or approved them/)
    expect(checks(zoo.get('helper-reward').report).ownerChangeBalance.status).toBe('0')
  })

  it('pair-gate and recipient-block: given the pool, every sale fails while holders still transfer; pair-record given the pool changes nothing', () => {
    for (const key of ['pair-gate', 'recipient-block']) {
      const pause = checks(zoo.get(key).report).transferPausable
      expect(pause.status, key).toBe('1')
      expect(pause.comment, key).toContain("made every holder's sale into the pool fail")
      expect(pause.comment, key).toContain('given the pool')
    }
    expect(checks(zoo.get('pair-record').report).transferPausable.status).toBe('0')
  })

  it('the fee ceiling: the highest taxes a privileged account reaches, on the pool it was measured on, and where they go', () => {
    const ceiling = (key: string) => zoo.get(key).report.honeypotDetails[0].feeCeiling
    const owner = zooToken(zoo.world.manifest, 'fee-stack').owner
    // Five uncapped fees paid to a marketing wallet the owner can replace.
    expect(ceiling('fee-stack')).toMatchObject({
      buyTax: '99', sellTax: '99', sellsStopped: '1', account: owner, proceedsTo: 'owner-set wallet',
      proceedsAccounts: [zoo.world.manifest.accounts!.feeWallet], measuredOn: zoo.get('fee-stack').report.honeypotDetails[0].pairAddress,
      summary: 'the owner can raise the sell tax to 99 % and make every sale fail (the buy tax to 99 %), paid to a wallet it sets',
    })
    // Capped at 5 % each: 25 % together, sales never stopped.
    expect(ceiling('fee-stack-capped')).toMatchObject({ sellTax: '25', sellsStopped: '0', proceedsTo: 'owner-set wallet' })
    expect(ceiling('fee-stack-capped')?.summary).toMatch(/^the owner can raise the sell tax to 25 %/)
    // A switch (no numeric setter to search): its reach is measured, where the tax goes is not seen.
    expect(ceiling('close-trade')).toMatchObject({ sellTax: '99', proceedsTo: '', function: toFunctionSelector('closeTrade()') })
    // No privileged account changes the taxes: the pool's own are its ceiling, and nothing is said.
    expect(ceiling('tax-3-7-1')).toMatchObject({ buyTax: '3', sellTax: '7', sellsStopped: '0', account: '', summary: '' })
    for (const pool of zoo.get('clean').report.honeypotDetails) expect(pool.feeCeiling).toMatchObject({ buyTax: '0', sellTax: '0', summary: '' })
  })
})
