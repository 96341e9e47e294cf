/*
 * The fee ceiling of a token: the highest buy and sell tax a privileged account can reach (the
 * owner-power experiments' extremes and the searched reach of numeric setters), and where the
 * proceeds go. A pure reading of the collected facts, rendered per pool in the report
 * (`honeypotDetails[].feeCeiling`) so that a holder reads "the owner can take up to 99 % of every
 * sale, paid to a wallet it sets" as a figure, not only in a check's comment.
 */
import type { Address } from 'viem'
import type { EvmFacts, PowerFinding } from './facts.ts'
import { sameAddress } from './collect/context.ts'

/** Where the tax a privileged account sets is paid. */
export type FeeProceeds = 'owner-set wallet' | 'token contract' | 'burned' | 'fixed wallet' | ''

export interface FeeCeiling {
  /** Highest buy tax a privileged account can reach on the measured pool, percent (undefined: not measured). */
  buy: number | undefined
  /** Highest sell tax it can set while sales still go through, percent. */
  sell: number | undefined
  /** Whether some value it can set makes every sale fail. */
  sellsStopped: boolean
  /** The finding that reaches the highest sell tax (undefined when no privileged account changes the taxes). */
  finding: PowerFinding | undefined
  proceeds: FeeProceeds
  /** The accounts the tax was seen paid to. */
  paidTo: Address[]
  /** The pool the taxes were measured on; undefined when no account holds a power to try (every pool's taxes are then its ceiling). */
  pool: Address | undefined
}

/** Where a finding's tax is paid: a wallet a privileged call can replace, the token, a burn address, or a fixed wallet. */
function proceedsOf(facts: EvmFacts, f: PowerFinding | undefined): FeeProceeds {
  const reach = f?.reach
  if (!reach) return ''
  if (reach.walletSettable) return 'owner-set wallet'
  const paid = reach.paidTo ?? []
  if (paid.length === 0) return ''
  if (paid.some((a) => sameAddress(a, facts.token))) return 'token contract'
  if (paid.every((a) => facts.chain.burnAddresses.some((b) => sameAddress(a, b)))) return 'burned'
  return 'fixed wallet'
}

/**
 * The fee ceiling read from the owner-power findings: undefined when the owner powers were not
 * measured with a pool to trade on (no figure is known); with no tax finding, the pool's current
 * taxes are the ceiling (no privileged account was found changing them).
 */
export function feeCeiling(facts: EvmFacts): FeeCeiling | undefined {
  const powers = facts.powers
  // No privileged account, or nothing it could call: no one changes the taxes, each pool's are its ceiling.
  if (powers.status === 'tested' && powers.reason) return { buy: undefined, sell: undefined, sellsStopped: false, finding: undefined, proceeds: '', paidTo: [], pool: undefined }
  if (powers.status !== 'tested' || !powers.withPool || !powers.funded || powers.functionsFailed.length > 0) return undefined
  const pool = powers.measuredPool
  const fees = powers.findings.filter((f) => f.kind === 'feeAll' && f.reach)
  if (fees.length === 0) {
    const trade = facts.trades.find((t) => pool && sameAddress(t.pool.address, pool))
    return { buy: trade?.buyTax.percent, sell: trade?.sellTax.percent, sellsStopped: false, finding: undefined, proceeds: '', paidTo: [], pool }
  }
  const sellOf = (f: PowerFinding) => f.reach!.sell
  const top = fees.reduce((a, b) => (sellOf(b) > sellOf(a) || (sellOf(b) === sellOf(a) && (b.reach!.walletSettable ?? false) && !a.reach!.walletSettable) ? b : a))
  return {
    buy: Math.max(...fees.map((f) => f.reach!.buy)),
    sell: sellOf(top),
    sellsStopped: fees.some((f) => f.reach!.sellsStopped),
    finding: top,
    proceeds: proceedsOf(facts, top),
    paidTo: top.reach!.paidTo ?? [],
    pool,
  }
}

const pct = (x: number) => `${Math.round(x * 100) / 100} %`

const PROCEEDS_WORDS: Record<Exclude<FeeProceeds, ''>, string> = {
  'owner-set wallet': 'paid to a wallet it sets',
  'token contract': 'paid to the token contract',
  burned: 'burned',
  'fixed wallet': 'paid to a fixed wallet',
}

/** The ceiling in one sentence ("the owner can raise the sell tax to 99 %, paid to a wallet it sets"); '' when no one can change the taxes. */
export function feeCeilingSentence(c: FeeCeiling): string {
  const f = c.finding
  if (!f || c.sell === undefined) return ''
  const who = f.appointedBy ? 'an account a privileged call appoints' : f.candidate.source === 'owner()' || f.candidate.source === 'getOwner()' ? 'the owner' : `${f.candidate.address} (${f.candidate.source})`
  const what = `can raise the sell tax to ${pct(c.sell)}${c.sellsStopped ? ' and make every sale fail' : ''}`
  const buy = c.buy !== undefined && c.buy > 0 ? ` (the buy tax to ${pct(c.buy)})` : ''
  const paid = c.proceeds ? `, ${PROCEEDS_WORDS[c.proceeds]}` : ''
  return `${who} ${what}${buy}${paid}`
}
