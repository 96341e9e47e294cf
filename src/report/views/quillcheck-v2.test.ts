import { Value } from '@sinclair/typebox/value'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { describe, expect, it } from 'vitest'
import { QuillcheckV2Report } from '../../contract/quillcheck-v2.ts'
import { TokenReport, type CodeCheck } from '../../contract/token-report.ts'
import { quillcheckV2View, riskObject } from './quillcheck-v2.ts'

const checkV2 = TypeCompiler.Compile(QuillcheckV2Report)

/** A contract report where nothing is known: every scalar "", every list empty. */
function unknownReport(): TokenReport {
  return Value.Create(TokenReport) as TokenReport
}

const decided = (status: '0' | '1', risk: string): CodeCheck => ({ description: 'd', risk, status, comment: 'simulated: x' })

describe('the quillcheck-v2 view', () => {
  it('keeps every unknown unknown: no 0, no false, no rating', () => {
    const report = unknownReport()
    report.marketChecks.holdersChecks.keyHolders = [{ address: '0xa', percent: '', isContract: '', isLocked: '', balance: '' }]
    report.honeypotDetails = [
      { buyTax: { number: '', risk: '' }, sellTax: { number: '', risk: '' }, transferTax: { number: '', risk: '' }, isPairHoneypot: '', honeypotReason: 'not determinable: x', dex: 'D', pair: ['0x1', '0x2'], pairAddress: '0xp' },
    ]
    const v2 = quillcheckV2View(report)
    expect(checkV2.Check(v2), JSON.stringify([...checkV2.Errors(v2)].slice(0, 3))).toBe(true)
    const unknownTax = { number: '', risk: { riskRating: '', riskStatus: '' } }
    expect(v2.honeypotDetails).toEqual({
      isTokenHoneypot: '',
      honeypotFound: { poolsSimulated: 0, totalPools: 1, honeypotPools: 0 },
      honeypotPairs: [],
      0: { buyTax: unknownTax, sellTax: unknownTax, transferTax: unknownTax, isPairHoneypot: '', honeypotReason: 'not determinable: x', dex: 'D', pair: ['0x1', '0x2'], pairAddress: '0xp' },
      length: 1,
    })
    expect(v2.marketChecks.holdersChecks.keyHolders[0]).toMatchObject({ percent: '', isContract: '', isLocked: '' })
    expect(v2.marketChecks.holdersChecks.holdersCount).toEqual({ number: '', risk: { riskRating: '', riskStatus: '' } })
    expect(v2.tokenScore.totalScore).toEqual({ percent: '', achievedScore: '', maxScore: '', minScore: '' })
    for (const c of [...Object.values(v2.codeChecks.ownershipChecks), ...Object.values(v2.codeChecks.otherChecks)]) {
      expect(c.status).toBe('')
      expect(c.risk).toEqual({ riskRating: '', riskStatus: '' })
    }
    expect(v2.tokenInformation.totalChecksInformation.checksPerformed).toBe(0)
    expect(v2.tokenInformation.totalChecksInformation.totalChecks).toBe(18)
    expect(v2.marketChecks.holdersChecks.percentDistributed.other).toEqual({ percent: '', balance: '', risk: { riskRating: '', riskStatus: '' } })
  })

  it('maps flags, labels and scores to the types clients compute with', () => {
    const report = unknownReport()
    report.codeChecks.ownershipChecks.isMintable = decided('1', 'Critical')
    report.codeChecks.ownershipChecks.ownerChangeBalance = decided('0', 'Great To Have')
    report.codeChecks.otherChecks.tradingCooldown = decided('0', 'Nice To Have')
    report.tokenScore = {
      checksPerformed: '3', checksTotal: '16',
      totalScorePercentage: '73.61', codeScorePercentage: '-37.50', marketScorePercentage: '20.00',
      codeScore: { achievedScore: '-30.00', maxScore: '80.00', minScore: '-320.00' },
      marketScore: { achievedScore: '4.00', maxScore: '20.00', minScore: '-20.00' },
    }
    const v2 = quillcheckV2View(report)
    expect(v2.codeChecks.ownershipChecks.isMintable).toMatchObject({ status: true, risk: { riskRating: 0, riskStatus: 'Critical' } })
    expect(v2.codeChecks.ownershipChecks.ownerChangeBalance).toMatchObject({ status: false, risk: { riskRating: 6, riskStatus: 'Great To Have' } })
    expect(v2.codeChecks.ownershipChecks.ownerCanChangeBalance).toEqual(v2.codeChecks.ownershipChecks.ownerChangeBalance)
    expect(v2.tokenScore.codeScore).toEqual({ percent: -37.5, achievedScore: -30, maxScore: 80, minScore: -320 })
    expect(v2.tokenScore.totalScore).toEqual({ percent: 73.61, achievedScore: -26, maxScore: 100, minScore: -340 })
    expect(v2.tokenScore.checksPerformed).toBe(3)
    const counts = v2.tokenInformation.totalChecksInformation.aggregatedCount
    expect(counts.map((c) => c.name)).toEqual(['Critical', 'RISKY', 'Medium Risk', 'Neutral', 'Nice To Have', 'Good To Have', 'Great To Have'])
    expect(counts.map((c) => c.id)).toEqual([0, 1, 2, 3, 4, 5, 6])
    // ownerCanChangeBalance repeats ownerChangeBalance: counted once.
    expect(counts.map((c) => c.count)).toEqual([1, 0, 0, 0, 1, 0, 1])
  })

  it('summarises the pools: a honeypot on any pair makes the token one; the total of a trap is capped', () => {
    const report = unknownReport()
    const pool = (address: string, flag: '0' | '1' | '', reason: string) => ({
      buyTax: { number: '0', risk: 'Great To Have' }, sellTax: { number: flag === '1' ? '' : '0', risk: flag === '1' ? '' : 'Great To Have' },
      transferTax: { number: '0', risk: 'Great To Have' }, isPairHoneypot: flag, honeypotReason: reason, dex: 'Uniswap V2', pair: ['0xt', '0xq'], pairAddress: address,
    })
    report.honeypotDetails = [pool('0xa', '0', ''), pool('0xb', '1', 'TRANSFER_FAILED'), pool('0xc', '', 'not determinable: no sell')]
    report.marketChecks.exchangabilityChecks.availableDex = ['0xa', '0xb'].map((pair) => ({
      name: 'Uniswap V2', link: `https://pools/${pair}`, liquidity: '1000', pair, token0Symbol: 'TOK', token1Symbol: 'WETH',
      token0Balance: '10', token1Balance: '1', lpTotalSupply: '3', explorerLink: '',
    }))
    report.tokenScore.totalScorePercentage = '0.00'
    report.tokenScore.codeScore = { achievedScore: '10.00', maxScore: '20.00', minScore: '-80.00' }
    report.tokenScore.marketScore = { achievedScore: '5.00', maxScore: '10.00', minScore: '-10.00' }
    const v2 = quillcheckV2View(report)
    const { 0: shown, length, ...typed } = v2.honeypotDetails
    expect(typed).toEqual({
      isTokenHoneypot: 1,
      honeypotFound: { poolsSimulated: 2, totalPools: 3, honeypotPools: 1 },
      honeypotPairs: [{ pairAddress: '0xb', dex: 'Uniswap V2', honeypotReason: 'TRANSFER_FAILED' }],
    })
    // Read as the older array (`honeypotDetails[0]` once `length > 0`): the trap, not the deeper sellable pool.
    expect(length).toBe(1)
    expect(shown).toMatchObject({ pairAddress: '0xb', isPairHoneypot: 1, buyTax: { number: 0, risk: { riskRating: 6, riskStatus: 'Great To Have' } }, sellTax: { number: '' } })
    expect(v2.tokenScore.totalScore.achievedScore).toBe(0)
    const pairs = v2.marketChecks.liquidityChecks.pairByPairInformation
    expect(pairs.map((p) => [p.pairAddress, p.isPairHoneypot, p.pairExplorerLink])).toEqual([['0xa', 0, 'https://pools/0xa'], ['0xb', 1, 'https://pools/0xb']])
    expect(pairs[1].sellTax).toEqual({ number: '', risk: { riskRating: '', riskStatus: '' } })
    expect(v2.marketChecks.pairByPairInformation).toEqual(pairs)
  })

  it('computes the supply outside the top ten exactly, in whole tokens', () => {
    const report = unknownReport()
    report.tokenInformation.totalSupply = '1000000'
    report.marketChecks.holdersChecks.percentDistributed.topTen = { percent: '95.972', balance: '959719.516921683803911355', risk: 'Critical' }
    const other = quillcheckV2View(report).marketChecks.holdersChecks.percentDistributed.other
    expect(other.balance).toBe('40280.483078316196088645')
    expect(other.percent).toBe(4.028)
  })

  it('carries the holders of record\'s sells from the pair they sold on, as numbers and booleans; an untried holder stays unknown', () => {
    const report = unknownReport()
    const row = { buyTax: { number: '0', risk: '' }, sellTax: { number: '0', risk: '' }, transferTax: { number: '0', risk: '' }, isPairHoneypot: '0' as const, honeypotReason: '', dex: 'D', pair: ['0x1', '0x2'] }
    report.honeypotDetails = [
      { ...row, pairAddress: '0xother' },
      {
        ...row,
        pairAddress: '0xp',
        holderSells: {
          path: 'router',
          holdersTried: '3',
          canSell: '1',
          cannotSell: '1',
          holders: [
            { address: '0xa', balance: '10', outcome: 'sold', sellTax: '7', leftPercent: '', reason: '' },
            { address: '0xb', balance: '5', outcome: 'blocked', sellTax: '', leftPercent: '', reason: 'frozen' },
            { address: '0xc', balance: '1', outcome: '', sellTax: '', leftPercent: '', reason: 'no balance to sell' },
          ],
          note: 'n',
        },
      },
    ]
    const v2 = quillcheckV2View(report)
    expect(checkV2.Check(v2), JSON.stringify([...checkV2.Errors(v2)].slice(0, 3))).toBe(true)
    expect(v2.honeypotDetails.holderSells).toEqual({
      pairAddress: '0xp',
      path: 'router',
      holdersTried: 3,
      canSell: 1,
      cannotSell: 1,
      holders: [
        { address: '0xa', balance: '10', canSell: true, outcome: 'sold', sellTax: 7, reason: '' },
        { address: '0xb', balance: '5', canSell: false, outcome: 'blocked', sellTax: '', reason: 'frozen' },
        { address: '0xc', balance: '1', canSell: '', outcome: '', sellTax: '', reason: 'no balance to sell' },
      ],
    })
    expect(quillcheckV2View(unknownReport()).honeypotDetails.holderSells).toBeUndefined()
  })

  it('has no element 0 and a length of 0 without pools', () => {
    const details = quillcheckV2View(unknownReport()).honeypotDetails
    expect(details.length).toBe(0)
    expect('0' in details).toBe(false)
  })

  it('writes a label as {riskRating, riskStatus}, an unknown or foreign one as unrated', () => {
    expect(riskObject('Medium Risk')).toEqual({ riskRating: 2, riskStatus: 'Medium Risk' })
    expect(riskObject('')).toEqual({ riskRating: '', riskStatus: '' })
    expect(riskObject('Low')).toEqual({ riskRating: '', riskStatus: '' })
  })
})
