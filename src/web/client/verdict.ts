import { CANNOT_SELL_CHECKS, MINTS, TAKES, VERDICT_LABELS, type Verdict as Judged, type VerdictKind } from '../../report/verdict.ts'
import type { CheckRow, PageModel } from './model.ts'

export type { VerdictKind }

/**
 * The verdict a person reads in one second. Which verdict it is comes from the report's one
 * verdict (src/report/verdict.ts, the one the MCP tools give an agent), so the page and an agent
 * never disagree; this module only words it for the page, from the page's model. Never "safe":
 * the best verdict says what was measured and found nothing.
 */
export interface Verdict {
  kind: VerdictKind
  /** One word or two, the verdict's class: "Honeypot", "Not measured". */
  label: string
  headline: string
  /** What it rests on, in a sentence or two. */
  detail: string
  /** What the verdict could not rest on: the checks' titles (or "Selling") and reasons. */
  unmeasured: { title: string; reason: string }[]
  /** The market's grades found besides the one the headline states: their label and sentence. */
  market: { label: string; sentence: string }[]
}

/** The verdict's class as the page shows it: the report's verdict word, in sentence case ("Honeypot", "Taxed"). */
const labelOf = (kind: VerdictKind | string): string => {
  const word = (VERDICT_LABELS as Record<string, string>)[kind] ?? kind
  return word.charAt(0) + word.slice(1).toLowerCase()
}

/** What the page calls the measurements of the market the report's verdict names. */
const MARKET_TITLES: Readonly<Record<string, string>> = { liquidity: 'Who can withdraw the liquidity', holders: 'Who holds the supply', taxes: 'Taxes' }

/** Who a market grade's sentence names first (src/report/verdict.ts words it so). */
const WHO = /^(the owner and creator|the owner|the creator|one account) /

/** The name the report's verdict gives the measurement of whether a holder can sell. */
const SALE = 'sale'

const list = (items: string[]): string => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`)
const lower = (title: string) => title.charAt(0).toLowerCase() + title.slice(1)
const reasonOf = (check: CheckRow) => check.comment.replace(/^not determinable:\s*/i, '')

/**
 * The page's wording of the report's verdict.
 *
 * @example
 * verdictOf(evmModel(report, chain, '1'), evmVerdict(report)).headline // 'Holders cannot sell this token'
 */
export function verdictOf(model: PageModel, judged: Judged): Verdict {
  const row = (name: string) => model.checks.find((c) => c.name === name)
  const rows = (names: string[]) => names.map(row).filter((c): c is CheckRow => c !== undefined)
  const found = rows(judged.found.map((f) => f.check))
  const unmeasured = judged.unknown.map((u) => {
    if (u.check === SALE) return { title: 'Selling', reason: model.tokenHoneypotReason || u.reason }
    const check = row(u.check)
    return { title: check?.title ?? MARKET_TITLES[u.check] ?? u.check, reason: check ? reasonOf(check) : u.reason }
  })
  const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
  const headlineGrade = judged.market.find((m) => m.check === judged.kind)
  const market = judged.market.filter((m) => m !== headlineGrade).map((m) => ({ label: labelOf(m.check), sentence: capital(m.sentence) }))
  const alsoNotMeasured = unmeasured.length > 0 ? ` ${unmeasured.length} of the checks could not be measured.` : ''
  const verdict = (headline: string, detail: string): Verdict => ({ kind: judged.kind, label: labelOf(judged.kind), headline, detail, unmeasured, market })
  const sentences = (checks: CheckRow[]) => checks.map((c) => c.description).join(' ')

  switch (judged.kind) {
    case 'honeypot': {
      const honeypotPools = model.pools.filter((p) => p.honeypot === '1')
      const where = honeypotPools.map((p) => `${p.dex}${p.pair ? ` ${p.pair}` : ''}${p.reason ? ` (${p.reason})` : ''}`)
      const sellable = model.pools.filter((p) => p.honeypot === '0').length
      const detail =
        where.length > 0
          ? `Selling fails on ${list(where)}${sellable > 0 ? `; it works on ${sellable} other pool${sellable === 1 ? '' : 's'}` : ''}.`
          : `Selling fails${model.tokenHoneypotReason ? `: ${model.tokenHoneypotReason}` : ''}.`
      return verdict('Holders cannot sell this token', detail + alsoNotMeasured)
    }
    case 'cannot-sell':
      return verdict('Holders cannot sell what they hold', sentences(found.filter((c) => CANNOT_SELL_CHECKS.has(c.name))) + alsoNotMeasured)
    case 'owner-can-take':
    case 'owner-can-mint': {
      const mint = found.some((c) => c.name === MINTS)
      const take = found.some((c) => c.name === TAKES)
      const headline = mint && take ? "The owner can take holders' tokens and mint new ones" : mint ? 'The owner can mint new tokens' : "The owner can take holders' tokens"
      const others = found.filter((c) => c.name !== MINTS && c.name !== TAKES)
      const also = others.length > 0 ? ` It can also ${list(others.map((c) => lower(c.title)))}.` : ''
      return verdict(headline, sentences(found.filter((c) => c.name === MINTS || c.name === TAKES)) + also + alsoNotMeasured)
    }
    case 'risky-power': {
      const powers = found.filter((c) => c.group === 'owner')
      const behaviour = found.filter((c) => c.group !== 'owner')
      const headline =
        powers.length > 0 ? `The owner can ${list(powers.map((c) => lower(c.title)))}` : `A risk in how the token trades: ${list(behaviour.map((c) => lower(c.title)))}`
      return verdict(headline, sentences(found) + alsoNotMeasured)
    }
    case 'liquidity-pullable': {
      const sentence = headlineGrade?.sentence ?? ''
      const who = WHO.exec(sentence)?.[1]
      return verdict(who ? `${capital(who)} can pull the liquidity` : 'The liquidity can be pulled soon', capital(sentence) + alsoNotMeasured)
    }
    case 'supply-concentrated': {
      const sentence = headlineGrade?.sentence ?? ''
      const who = WHO.exec(sentence)?.[1]
      const share = /holds ([\d.]+ %)/.exec(sentence)?.[1]
      return verdict(who && share ? `${capital(who)} holds ${share} of the supply` : 'The supply sits with one account', capital(sentence) + alsoNotMeasured)
    }
    case 'taxed': {
      const sentence = headlineGrade?.sentence ?? ''
      const taxes = sentence.replace(/ \(.*$/, '')
      return verdict(`Trades are taxed: ${taxes}`, `${capital(sentence)} The tax is taken from every trade: a buyer who sells at once gets back less than was paid.${alsoNotMeasured}`)
    }
    case 'not-measured':
      return verdict(
        'This token could not be fully measured',
        `Nothing risky was found, but ${list(unmeasured.map((u) => lower(u.title)))} could not be measured: the report cannot say the token is free of them.`,
      )
    case 'no-risky-power-found': {
      const sellable = model.pools.filter((p) => p.honeypot === '0').length
      return verdict(
        'No risky power found',
        `Selling was measured to work${sellable > 0 ? ` on ${sellable} pool${sellable === 1 ? '' : 's'}` : ''}, every owner power tried was absent, trades are not taxed, and no one account can pull the liquidity or holds much of the supply. This is what was measured on the chain, not a promise about the token.`,
      )
    }
  }
}
