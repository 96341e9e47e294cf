import type { Verdict, VerdictKind } from '../report/verdict.ts'

const COLORS = { red: '\x1b[31m', yellow: '\x1b[33m', green: '\x1b[32m', dim: '\x1b[2m', bold: '\x1b[1m', reset: '\x1b[0m' }

/** The colour of a verdict's line: red for what traps or takes, yellow for other risks, dim for the unmeasured. */
const VERDICT_COLORS: Readonly<Record<VerdictKind, keyof typeof COLORS>> = {
  honeypot: 'red',
  'cannot-sell': 'red',
  'owner-can-take': 'red',
  'owner-can-mint': 'red',
  'risky-power': 'yellow',
  'liquidity-pullable': 'yellow',
  'supply-concentrated': 'yellow',
  taxed: 'yellow',
  'not-measured': 'dim',
  'no-risky-power-found': 'green',
}

/**
 * The report's one verdict as a summary's first lines: the headline (coloured by its kind), then
 * the market's other grades and what could not be measured.
 */
export function verdictSummary(verdict: Verdict, options: { color: boolean }): string[] {
  const c = (name: keyof typeof COLORS, s: string) => (options.color ? `${COLORS[name]}${COLORS.bold}${s}${COLORS.reset}` : s)
  const lines = [c(VERDICT_COLORS[verdict.kind], verdict.headline)]
  for (const m of verdict.market.filter((g) => g.check !== verdict.kind)) lines.push(`  also ${m.check}: ${m.sentence}`)
  for (const u of verdict.unknown) lines.push(`  not measured: ${u.check === 'sale' ? 'whether a holder can sell' : u.check}: ${u.reason}`)
  return lines
}

/** "all 16 code checks decided", or "14 of 16 code checks decided; the others are unknown and count in no score". */
export function checksDecided(performed: string | number, total: string | number): string {
  return String(performed) === String(total)
    ? `all ${total} code checks decided`
    : `${performed} of ${total} code checks decided; the others are unknown and count in no score`
}
