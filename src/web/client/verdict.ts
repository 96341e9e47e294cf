import type { CheckRow, PageModel } from './model.ts'

/**
 * The verdict a person reads in one second, from what the report measured. Worst first: a
 * honeypot, then a token whose holders cannot sell all they hold, then an owner who can take or
 * mint, then other powers over holders. Only when every power was measured absent and selling was
 * measured to work does it say "no risky power found" — never "safe"; anything not measured makes
 * it "could not be measured" instead.
 */
export type VerdictKind = 'honeypot' | 'cannot-sell' | 'owner-takes' | 'owner-power' | 'not-measured' | 'no-risky-power'

export interface Verdict {
  kind: VerdictKind
  /** One word or two, the verdict's class: "Honeypot", "Not measured". */
  label: string
  headline: string
  /** What it rests on, in a sentence or two. */
  detail: string
  /** Checks the verdict could not rest on: their titles and reasons. */
  unmeasured: { title: string; reason: string }[]
}

/** The checks that mean an owner can take holders' tokens or mint new ones (EVM and Solana names alike). */
const TAKE_OR_MINT = new Set(['ownerChangeBalance', 'isMintable'])
/** Checks that mean a holder cannot sell, beside the pools' honeypot flags. */
const CANNOT_SELL = new Set(['cannotSellAll', 'nonTransferable', 'isPaused'])

const list = (items: string[]): string => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`)
const lower = (title: string) => title.charAt(0).toLowerCase() + title.slice(1)
const reasonOf = (check: CheckRow) => check.comment.replace(/^not determinable:\s*/i, '')

/**
 * The verdict of a report's model.
 *
 * @example
 * verdictOf(evmModel(report, chain, '1')).headline // 'Holders cannot sell this token'
 */
export function verdictOf(model: PageModel): Verdict {
  const found = (c: CheckRow) => c.status === '1'
  const owner = model.checks.filter((c) => c.group === 'owner')
  const takes = owner.filter((c) => TAKE_OR_MINT.has(c.name) && found(c))
  const otherPowers = owner.filter((c) => !TAKE_OR_MINT.has(c.name) && found(c))
  const cannotSell = model.checks.filter((c) => CANNOT_SELL.has(c.name) && found(c))
  const unmeasuredChecks = model.checks.filter((c) => c.status === '' && (c.group === 'owner' || CANNOT_SELL.has(c.name)))
  const unmeasured = unmeasuredChecks.map((c) => ({ title: c.title, reason: reasonOf(c) }))
  if (model.tokenHoneypot === '') unmeasured.unshift({ title: 'Selling', reason: model.tokenHoneypotReason })
  const alsoNotMeasured = unmeasured.length > 0 ? ` ${unmeasured.length} of the checks could not be measured.` : ''

  const honeypotPools = model.pools.filter((p) => p.honeypot === '1')
  if (model.tokenHoneypot === '1' || honeypotPools.length > 0) {
    const where = honeypotPools.map((p) => `${p.dex}${p.pair ? ` ${p.pair}` : ''}${p.reason ? ` (${p.reason})` : ''}`)
    const sellable = model.pools.filter((p) => p.honeypot === '0').length
    const detail =
      where.length > 0
        ? `Selling fails on ${list(where)}${sellable > 0 ? `; it works on ${sellable} other pool${sellable === 1 ? '' : 's'}` : ''}.`
        : `Selling fails${model.tokenHoneypotReason ? `: ${model.tokenHoneypotReason}` : ''}.`
    return { kind: 'honeypot', label: 'Honeypot', headline: 'Holders cannot sell this token', detail: detail + alsoNotMeasured, unmeasured }
  }
  if (cannotSell.length > 0) {
    return {
      kind: 'cannot-sell',
      label: 'Cannot sell',
      headline: 'Holders cannot sell what they hold',
      detail: cannotSell.map((c) => c.description).join(' ') + alsoNotMeasured,
      unmeasured,
    }
  }
  if (takes.length > 0) {
    const mint = takes.some((c) => c.name === 'isMintable')
    const take = takes.some((c) => c.name === 'ownerChangeBalance')
    const headline = mint && take ? "The owner can take holders' tokens and mint new ones" : mint ? 'The owner can mint new tokens' : "The owner can take holders' tokens"
    const others = otherPowers.length > 0 ? ` It can also ${list(otherPowers.map((c) => lower(c.title)))}.` : ''
    return { kind: 'owner-takes', label: 'Owner can take or mint', headline, detail: takes.map((c) => c.description).join(' ') + others + alsoNotMeasured, unmeasured }
  }
  if (otherPowers.length > 0) {
    return {
      kind: 'owner-power',
      label: 'Owner holds powers',
      headline: `The owner can ${list(otherPowers.map((c) => lower(c.title)))}`,
      detail: otherPowers.map((c) => c.description).join(' ') + alsoNotMeasured,
      unmeasured,
    }
  }
  if (unmeasured.length > 0) {
    return {
      kind: 'not-measured',
      label: 'Not measured',
      headline: 'This token could not be fully measured',
      detail: `No risky power was found, but ${list(unmeasured.map((u) => lower(u.title)))} could not be measured: the report cannot say the token is free of them.`,
      unmeasured,
    }
  }
  const sellable = model.pools.filter((p) => p.honeypot === '0').length
  return {
    kind: 'no-risky-power',
    label: 'No risky power found',
    headline: 'No risky power found',
    detail: `Selling was measured to work${sellable > 0 ? ` on ${sellable} pool${sellable === 1 ? '' : 's'}` : ''}, and every owner power tried was absent. This is what was measured on the chain, not a promise about the token.`,
    unmeasured,
  }
}
