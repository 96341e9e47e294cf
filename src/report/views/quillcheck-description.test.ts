import { Value } from '@sinclair/typebox/value'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { describe, expect, it } from 'vitest'
import { QuillcheckDescriptionReport } from '../../contract/quillcheck-description.ts'
import { TokenReport, type CodeCheck } from '../../contract/token-report.ts'
import { OTHER_CHECKS, OWNERSHIP_CHECKS } from '../../contract/checks.ts'
import { quillcheckDescriptionView } from './quillcheck-description.ts'
import { EVM_DESCRIPTION_SECTIONS, METADATA_ITEM } from './evm-description-headings.ts'

const checkShape = TypeCompiler.Compile(QuillcheckDescriptionReport)
const context = { chainId: 1, chainName: 'Ethereum' }

/** A contract report where nothing is known: every scalar "", every list empty. */
function unknownReport(): TokenReport {
  return Value.Create(TokenReport) as TokenReport
}

const decided = (status: '0' | '1', risk: string): CodeCheck => ({ description: 'd', risk, status, comment: 'simulated: x' })
const pool = (address: string, flag: '0' | '1' | '', taxes: [string, string, string]) => ({
  buyTax: { number: taxes[0], risk: taxes[0] === '' ? '' : 'Nice To Have' },
  sellTax: { number: taxes[1], risk: taxes[1] === '' ? '' : 'Medium Risk' },
  transferTax: { number: taxes[2], risk: taxes[2] === '' ? '' : 'Good To Have' },
  isPairHoneypot: flag,
  honeypotReason: flag === '1' ? 'TRANSFER_FAILED' : '',
  dex: 'Uniswap V2',
  pair: ['0xtoken', '0xquote'],
  pairAddress: address,
})

describe('the description view of an EVM report', () => {
  it('keeps every unknown unknown: "" for values, 3 (neutral) for risk numbers, "Unknown" headings', () => {
    const body = quillcheckDescriptionView(unknownReport(), context)
    expect(checkShape.Check(body), JSON.stringify([...checkShape.Errors(body)].slice(0, 3))).toBe(true)
    const g = body.tokenInformation.generalInformation
    expect([g.tokenCreationDate, g.ownerAddress, g.chainId, g.chainName]).toEqual(['', '', '1', 'Ethereum'])
    const items = Object.values(body.codeChecks.codeCheckDescription).flat()
    expect(items.length).toBe(17)
    for (const item of items) {
      expect(item.heading).toMatch(/ is Unknown$/)
      expect([item.risk, item.riskStatus, item.status]).toEqual([3, '', ''])
    }
    expect(body.honeypotDetails).toMatchObject({ isPairHoneypot: '', isTokenHoneypot: '', overAllScorePercentage: '', buyTax: { number: '', risk: 3 }, pools: [] })
    expect(body.marketChecks.marketCheckDescription.holdersDescription.holdersCount).toEqual({ number: '', risk: 3 })
    expect(body.tokenInformation.totalChecksInformation.checksPerformed).toBe(0)
    expect(body.riskCategories).toEqual({ critical: 0, risky: 0, medium: 0, neutral: 0 })
  })

  it('has every check of the contract\'s report as an item, once, and the metadata item', () => {
    const names = Object.values(EVM_DESCRIPTION_SECTIONS).flat()
    expect([...names].sort()).toEqual([...OWNERSHIP_CHECKS, ...OTHER_CHECKS, METADATA_ITEM].sort())
  })

  it('puts the four items clients read by index first, with the headings they compare', () => {
    const report = unknownReport()
    report.codeChecks.ownershipChecks.isMintable = decided('1', 'Critical')
    report.codeChecks.ownershipChecks.isBlacklisted = decided('0', 'Good To Have')
    report.codeChecks.otherChecks.isProxy = decided('1', 'Medium Risk')
    report.codeChecks.ownershipChecks.slippageModifiable = decided('1', 'RISKY')
    const own = quillcheckDescriptionView(report, context).codeChecks.codeCheckDescription.ownershipPermissionsDescription
    expect(own.slice(0, 4).map((i) => [i.check, i.heading, i.risk, i.riskStatus])).toEqual([
      ['isMintable', 'Token Minting Authority is Enabled', 0, 'Critical'],
      ['isBlacklisted', 'Token Freezing Authority is Disabled', 5, 'Good To Have'],
      // An upgradeable proxy's name and symbol change with its code.
      ['metadataMutable', 'Token Metadata is Mutable', 2, 'Medium Risk'],
      // The one client reading the fee item takes only `risk === 0` for "modifiable": its label stays in riskStatus.
      ['slippageModifiable', 'Transfer Fee is Modifiable', 0, 'RISKY'],
    ])
  })

  it('shows the trap when a pool traps sellers, taxes as measured, the total on its 0–100 scale', () => {
    const report = unknownReport()
    report.honeypotDetails = [pool('0xdeep', '0', ['3', '7', '1']), pool('0xtrap', '1', ['0', '', '0'])]
    report.tokenScore.totalScorePercentage = '-12.50'
    const body = quillcheckDescriptionView(report, context)
    expect(body.honeypotDetails).toMatchObject({
      pairAddress: '0xtrap',
      isPairHoneypot: 1,
      isTokenHoneypot: 1,
      buyTax: { number: 0, risk: 4 },
      sellTax: { number: '', risk: 3 },
      overAllScorePercentage: 0,
    })
    expect(body.honeypotDetails.pools.map((p) => [p.pairAddress, p.buyTax.number, p.sellTax.number, p.transferTax.number])).toEqual([
      ['0xdeep', 3, 7, 1],
      ['0xtrap', 0, '', 0],
    ])
    // The honeypot verdict counts as a Critical check.
    expect(body.tokenInformation.totalChecksInformation.aggregatedCount[0]).toEqual({ id: 0, name: 'Critical', count: 1 })
    expect(body.riskCategories.critical).toBe(1)
  })

  it('reads a renounced owner as "Renounced" and dates the token DD/MM/YYYY', () => {
    const report = unknownReport()
    report.tokenInformation.ownerAddress = '0x0000000000000000000000000000000000000000'
    report.tokenInformation.tokenCreationDate = '2024-03-09T23:59:59.000Z'
    const g = quillcheckDescriptionView(report, context).tokenInformation.generalInformation
    expect([g.ownerAddress, g.tokenCreationDate, g.tokenCreationTime]).toEqual(['Renounced', '09/03/2024', '2024-03-09T23:59:59.000Z'])
    report.tokenInformation.ownerAddress = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    expect(quillcheckDescriptionView(report, context).tokenInformation.generalInformation.ownerAddress).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
  })

  it('counts the LP that cannot be pulled: burned, and locked until a later unlock', () => {
    const report = unknownReport()
    const lp = report.marketChecks.liquidityChecks
    lp.percentDistributed.burnt = { percent: '10', balance: '1.5', risk: '' }
    lp.liquidityLockedDetails.upcomingUnlockDetails = [{ balance: '2.25', percent: '15', time: '2030-01-01T00:00:00.000Z', risk: 'Great To Have', tag: 'locker' }]
    lp.liquidityLockedDetails.totalLiquidityPercentageLocked = { number: '25', risk: 'Good To Have' }
    const locked = quillcheckDescriptionView(report, context).marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.percentDistributed.locked
    expect(locked).toEqual({ percent: 25, balance: 3.75, balanceFormatted: '3.75', risk: 5 })
  })
})
