import type { SolanaReport } from '../contract/solana-report.ts'
import { solanaVerdict } from '../report/verdict.ts'
import { RENOUNCED } from '../report/views/description-parts.ts'
import { launchCurveWords } from '../report/launch-curve.ts'
import { checksDecided, verdictSummary } from './verdict-summary.ts'

const ANSI = { red: '\x1b[31m', yellow: '\x1b[33m', green: '\x1b[32m', dim: '\x1b[2m', bold: '\x1b[1m', reset: '\x1b[0m' }

/**
 * A readable summary of a Solana report (`tokenrisk scan --chain solana`): the mint and its
 * authorities, the score, every code check by its heading (risks coloured), the pools' verdicts,
 * holders and liquidity.
 */
export function formatSolanaSummary(report: SolanaReport, options: { color: boolean }): string[] {
  const c = (name: Exclude<keyof typeof ANSI, 'reset'>, s: string) => (options.color ? `${ANSI[name]}${s}${ANSI.reset}` : s)
  const v = (s: string | number) => (s === '' ? c('dim', 'unknown') : String(s))
  // A figure that could not be measured says so, without a unit after it.
  const m = (s: string | number, unit: string) => (s === '' ? c('dim', 'not measured') : `${s} ${unit}`)
  const general = report.tokenInformation.generalInformation
  const supply = report.tokenInformation.tokenSupplyInformation
  const code = report.codeChecks
  const market = report.marketChecks
  const hp = report.honeypotDetails
  const holders = market.marketCheckDescription.holdersDescription
  const liquidity = market.marketCheckDescription.liquidityDescription.aggregatedInformation
  const a = general.authorities
  // An authority no one holds reads "Renounced"; "" is one that could not be read.
  const none = (s: string) => (s === RENOUNCED ? c('green', 'none') : v(s))
  const held = (s: string) => s !== '' && s !== RENOUNCED
  const lines: string[] = [...verdictSummary(solanaVerdict(report), options), '']
  lines.push(c('bold', `${general.tokenName || '(no name)'} (${general.tokenSymbol || 'no symbol'})  ${general.tokenAddress}`))
  lines.push(`  supply ${v(supply.totalSupply)}   created ${v(general.tokenCreationTime)} by ${v(general.creatorAddress)}`)
  lines.push(`  ${general.tokenProgramName} mint; mint authority ${held(a.mint) ? `${a.mint} (holds ${v(general.ownerBalance)})` : none(a.mint)}, freeze authority ${none(a.freeze)}, metadata update ${none(a.update)}`)
  if (held(a.permanentDelegate)) lines.push(`  ${c('red', 'permanent delegate')} ${a.permanentDelegate}`)
  if (general.extensions.length > 0) lines.push(`  extensions: ${general.extensions.join(', ')}`)
  lines.push(`  price ${m(supply.currentPriceUsd, 'USD')}   market cap ${m(supply.marketCapUsd, 'USD')}`)
  lines.push('')
  lines.push(c('bold', 'Score'))
  lines.push(`  total ${m(hp.overAllScorePercentage, '%')}   code ${m(code.codeCheckScorePercentage, '%')}   market ${m(market.marketCheckScorePercentage, '%')}`)
  lines.push(`  ${checksDecided(code.checksPerformed, code.availableChecks)}`)
  lines.push('')
  lines.push(c('bold', 'Code checks'))
  for (const item of Object.values(code.codeCheckDescription).flat()) {
    const mark = item.status === '1' ? c(item.risk === 0 ? 'red' : 'yellow', 'RISK') : item.status === '0' ? c('green', ' ok ') : c('dim', ' ?? ')
    lines.push(`  ${mark} ${item.check.padEnd(26)} ${item.heading}`)
    if (item.comment) lines.push(`       ${c('dim', item.comment)}`)
  }
  lines.push('')
  lines.push(c('bold', 'Pools'))
  for (const p of hp.pools) {
    // The token-level verdict (no pool) found nothing that stops a sale, but no sale was tried.
    const noPool = p.pairAddress === ''
    const verdict =
      p.isPairHoneypot === 1
        ? c('red', `HONEYPOT: ${p.honeypotReason}`)
        : p.isPairHoneypot === 0
          ? noPool
            ? c('dim', 'no pool: selling not measured')
            : c('green', 'sellable')
          : c('dim', `unknown: ${p.honeypotReason}`)
    lines.push(`  ${p.dex || '(no pool)'} ${p.pairAddress}  buy ${m(p.buyTax.number, '%')}  sell ${m(p.sellTax.number, '%')}  transfer ${m(p.transferTax.number, '%')}  ${verdict}`)
  }
  for (const dex of market.marketCheckDescription.liquidityDescription.pairByPairInformation) {
    for (const pair of dex.pairsInformation) lines.push(`    ${dex.dexName} ${pair.pairAddress} liquidity ${m(pair.lpSupplyInUsd, 'USD')}`)
  }
  lines.push('')
  lines.push(c('bold', 'Holders'))
  lines.push(`  ${m(holders.holdersCount.number, 'holders')}; top 10 hold ${m(holders.percentDistributed.topTen.percent, '%')}`)
  for (const h of holders.keyHolders.slice(0, 5)) {
    lines.push(`    ${h.address} ${h.percent} %${h.isContract === true ? ' (program)' : ''}${h.isLocked === true ? ' (burned)' : ''}`)
  }
  lines.push('')
  lines.push(c('bold', 'Liquidity'))
  lines.push(`  LP supply ${v(liquidity.totalLpSupply)}, locked or burned ${m(liquidity.percentDistributed.locked.percent, '%')}`)
  // Pools whose liquidity is locked (positions in a pool, LP tokens in a lock program), and the unlocks to come.
  const locks = liquidity.liquidityLockedDetails
  for (const l of locks.lockedPools) {
    lines.push(`    ${l.dexName || 'pool'} ${l.pool}: ${m(l.lockedPercent, '%')} of its liquidity locked (${m(l.permanentPercent, '%')} for ever, ${m(l.vestingPercent, '%')} until its unlocks)`)
  }
  for (const u of locks.upcomingUnlockDetails) lines.push(`    unlock ${u.percent} % of ${u.pool} at ${u.time || `slot ${u.slot}`}`)
  if (locks.reason) lines.push(`    ${c('dim', `locks not read: ${locks.reason}`)}`)
  // The launchpad curve it was created on: where it trades until it graduates, and where after.
  const curve = launchCurveWords(liquidity.launchCurve)
  if (curve.kind === 'unknown') lines.push(`  launch curve ${c('dim', `not measured: ${curve.words}`)}`)
  else if (curve.kind !== 'none') lines.push(`  launch curve: ${curve.words}`)
  return lines
}
