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
  ['display-hundred', 'display-promo'],
  ['hidden-credit', 'hidden-liquidity'],
  ['keeper-fee', 'keeper-own-fee'],
  ['keeper-exact-sell', 'keeper-own-sell'],
  ['route-gate', 'route-record'],
  ['display-multiplier', 'multiplier-credit'],
  ['hidden-credit-flag', 'hidden-liquidity-flag'],
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

  it('display-hundred: balances shown a hundred times over, brought down to what is held, are never a take', () => {
    const c = checks(zoo.get('display-hundred').report)
    expect(c.ownerChangeBalance.status).toBe('0')
    expect(c.ownerChangeBalance.comment).toContain(`function ${toFunctionSelector('setBoost(bool)')}(bool) lowered the balance shown of`)
    expect(c.ownerChangeBalance.comment).toContain('a balance shown and not held')
    expect(c.isMintable.status).toBe('0')
  })

  it('hidden-credit: a manager written into the code at construction (an immutable) is tried as a caller, and its addLiquidity credits balances; hidden-liquidity\'s moves its own', () => {
    const manager = zoo.world.manifest.accounts!.hiddenAdmin
    const c = checks(zoo.get('hidden-credit').report)
    expect(c.isMintable.comment).toContain(`as ${manager} (a constant in its code), function ${toFunctionSelector('addLiquidity(address,uint256)')}(address,uint256) created`)
    expect(c.hiddenOwner.comment).toContain(`owner() is renounced, yet ${manager} (a constant in its code) can still mint`)
    const twin = checks(zoo.get('hidden-liquidity').report)
    expect(twin.hiddenOwner.comment).toContain(`${manager} (a constant in its code) tried: no power found`)
    expect(twin.ownerChangeBalance.comment).toContain('seen, and not a power over holders')
  })

  it('keeper-fee: the keeper written into storage sets one holder\'s sell fee, up to a block; keeper-own-fee\'s touches only its own', () => {
    const keeper = zoo.world.manifest.accounts!.hiddenAdmin
    const c = checks(zoo.get('keeper-fee').report)
    expect(c.personalSlippageModifiable.comment).toMatch(new RegExp(`^simulated: as ${keeper} \\(storage slot \\d+\\), function ${toFunctionSelector('setHolderFee(address,uint256)')}\\(address,uint256\\) changed one address's sell tax`))
    expect(c.isBlacklisted.comment).toContain('stopped the address it was given from transferring or selling, while others still could')
    expect(c.hiddenOwner.comment).toContain(`owner() is renounced, yet ${keeper}`)
    expect(checks(zoo.get('keeper-own-fee').report).hiddenOwner.comment).toContain('tried: no power found')
  })

  it('keeper-exact-sell: the keeper written into storage sets the one amount a sale may be, and every other sale fails; no tax is said to move; keeper-own-sell rules only its own', () => {
    const keeper = zoo.world.manifest.accounts!.hiddenAdmin
    const c = checks(zoo.get('keeper-exact-sell').report)
    const setter = `function ${toFunctionSelector('setSellAmount(uint256)')}(uint256)`
    expect(c.transferPausable.comment).toMatch(new RegExp(`^simulated: as ${keeper} \\(storage slot \\d+\\), ${setter.replace(/[()]/g, '\\$&')} can be set so low that every sale fails`))
    expect(c.antiwhaleModifiable.comment).toContain('at some values a holder it was not given can no longer sell or transfer at all')
    expect(c.hiddenOwner.comment).toContain(`owner() is renounced, yet ${keeper}`)
    // Sales fail from the smallest amount on, with no tax between: a rule, not a fee.
    expect(c.slippageModifiable.status).toBe('0')
    expect(zoo.get('keeper-exact-sell').report.honeypotDetails[0].feeCeiling?.sellTax).toBe('0')
    const twin = checks(zoo.get('keeper-own-sell').report)
    expect(twin.transferPausable.status).toBe('0')
    expect(twin.hiddenOwner.comment).toContain(`${keeper} (storage slot`)
    expect(twin.hiddenOwner.comment).toContain('tried: no power found')
  })

  it('route-gate: a setter whose second address is the pool stops every sale, and says so; route-record given the pool in either place changes nothing', () => {
    const pool = zoo.get('route-gate').report.honeypotDetails[0].pairAddress
    const pause = checks(zoo.get('route-gate').report).transferPausable
    expect(pause.status).toBe('1')
    expect(pause.comment).toContain(`function ${toFunctionSelector('setRoute(address,address)')}(address,address) made every holder's sale into the pool fail`)
    expect(pause.comment).toContain(`(given the pool ${pool} as its second address argument)`)
    expect(checks(zoo.get('route-record').report).transferPausable.status).toBe('0')
  })

  it('display-multiplier: balances shown many times over, held as they were, are a display: no mint, no take, no pause; multiplier-credit\'s look-alike mints', () => {
    const c = checks(zoo.get('display-multiplier').report)
    expect(c.isMintable.status).toBe('0')
    expect(c.ownerChangeBalance.status).toBe('0')
    expect(c.transferPausable.status).toBe('0')
    expect(c.ownerChangeBalance.comment).toContain(`function ${toFunctionSelector('setMultiplier(uint256)')}(uint256) raised the balance shown of a holder by`)
    expect(c.ownerChangeBalance.comment).toContain('a display: nothing created, nothing taken')
    // The holders of record, whom the probe does not act for at first, were asked again, and hold no more.
    expect(zoo.get('display-multiplier').facts.powers.askedAgain).toEqual([toFunctionSelector('setMultiplier(uint256)')])
    const credit = checks(zoo.get('multiplier-credit').report).isMintable
    expect(credit.status).toBe('1')
    expect(credit.comment).toContain(`function ${toFunctionSelector('setMultiplier(uint256)')}(uint256) raised the total supply by`)
  })

  it('hidden-credit-flag: the code-written manager\'s three-argument addLiquidity is measured whole and found crediting balances; hidden-liquidity-flag\'s moves its own', () => {
    const manager = zoo.world.manifest.accounts!.hiddenAdmin
    const selector = toFunctionSelector('addLiquidity(address,uint256,bool)')
    const credit = zoo.get('hidden-credit-flag')
    expect(credit.facts.powers.functionsFailed).toEqual([])
    expect(credit.facts.powers.functionsTried).toEqual([selector])
    const c = checks(credit.report)
    expect(c.isMintable.comment).toContain(`as ${manager} (a constant in its code), function ${selector}(address,uint256,bool) created`)
    expect(c.hiddenOwner.comment).toContain(`owner() is renounced, yet ${manager} (a constant in its code) can still mint`)
    const twin = zoo.get('hidden-liquidity-flag')
    expect(twin.facts.powers.functionsFailed).toEqual([])
    expect(checks(twin.report).hiddenOwner.comment).toContain(`${manager} (a constant in its code) tried: no power found`)
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
