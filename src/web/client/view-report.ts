import { h, type Child } from './dom.ts'
import { formatAmount, formatDateTime, formatPercent, formatUsd, splitEvidence, unmeasuredReason } from './format.ts'
import { SOLANA_AUTHORITY_ROLES } from './labels.ts'
import type { CheckRow, Fact, LockedPool, PageModel, PoolRow, ScorePart } from './model.ts'
import { holdersChart, unlockTimeline } from './view-charts.ts'
import { addressView, factsView, measuredView, notMeasured, section, statusTag, tableView, textWithAddresses } from './view-parts.ts'
import type { Verdict } from './verdict.ts'
import { shortPoolId } from '../../report/pool-names.ts'

/**
 * The report page: the token, then — in this order — the verdict, the score, the taxes per pool,
 * every owner power with its evidence, the holders, the liquidity and its locks, for Solana the
 * authorities, extensions and metadata, and the token's facts.
 */
export function reportView(model: PageModel, verdict: Verdict, nowMs: number): HTMLElement {
  const link = model.addressLink
  return h(
    'article',
    { class: 'report', 'aria-labelledby': 'token-title' },
    h(
      'header',
      { class: 'token-head' },
      h('h1', { id: 'token-title' }, model.name || 'Unnamed token', model.symbol ? h('span', { class: 'symbol' }, ` ${model.symbol}`) : ''),
      h('p', { class: 'token-where' }, h('span', { class: 'chain' }, model.chainName), ' · ', h('span', { class: 'full-address' }, textWithAddresses(model.address, link))),
    ),
    verdictView(verdict),
    scoreView(model),
    taxesView(model.pools, link),
    powersView(model.checks, link),
    holdersView(model),
    liquidityView(model, nowMs),
    model.solana ? solanaView(model) : '',
    section('about', 'About the token', factsView(model.facts.map((f) => ({ label: f.label, value: factValue(f, link) })))),
  )
}

function verdictView(verdict: Verdict): HTMLElement {
  return h(
    'section',
    { class: `verdict verdict-${verdict.kind}`, id: 'verdict', 'aria-labelledby': 'verdict-title', 'data-verdict': verdict.kind },
    h('p', { class: 'verdict-label' }, verdict.label),
    h('h2', { id: 'verdict-title' }, verdict.headline),
    h('p', { class: 'verdict-detail' }, verdict.detail),
    verdict.market.length > 0
      ? h('ul', { class: 'verdict-market', 'aria-label': 'What the market also shows' }, verdict.market.map((m) => h('li', {}, h('strong', {}, m.label), ` — ${m.sentence}`)))
      : '',
    verdict.unmeasured.length > 0
      ? h(
          'ul',
          { class: 'verdict-unmeasured', 'aria-label': 'What could not be measured' },
          verdict.unmeasured.map((u) => h('li', {}, h('strong', {}, u.title), ` — not measured: ${u.reason || 'no reason given'}`)),
        )
      : '',
  )
}

function scoreBar(label: string, part: ScorePart, id: string): HTMLElement {
  const percent = Number(part.percent)
  const fill = h('span', { class: 'meter-fill' })
  fill.style.width = `${Number.isFinite(percent) ? Math.max(0, Math.min(100, percent)) : 0}%`
  const value =
    part.percent === ''
      ? notMeasured('')
      : h('span', {}, h('strong', {}, formatPercent(part.percent)), part.achieved !== '' && part.max !== '' ? ` (${part.achieved} of ${part.max} points)` : '')
  return h('div', { class: 'score-part' }, h('span', { class: 'score-name', id }, label), h('span', { class: 'meter', 'aria-hidden': 'true' }, fill), value)
}

function scoreView(model: PageModel): HTMLElement {
  const s = model.score
  return section(
    'score',
    'Score',
    h(
      'p',
      { class: 'score-total' },
      s.total === '' ? notMeasured('') : h('strong', { class: 'score-number' }, formatPercent(s.total)),
      ' ',
      h('span', { class: 'muted' }, `from ${s.checksPerformed} of ${s.checksTotal} checks decided; a check not measured counts in no score.`),
    ),
    scoreBar('Code', s.code, 'score-code'),
    scoreBar('Market', s.market, 'score-market'),
  )
}

function poolName(pool: PoolRow, link: string): Child[] {
  // A V4 pool's address is its PoolManager's: its id tells it from the token's other V4 pools.
  const id = pool.poolId ? [h('br', {}), h('code', { title: pool.poolId }, `pool ${shortPoolId(pool.poolId)}`)] : []
  return [h('strong', {}, pool.dex || 'pool'), pool.pair ? ` ${pool.pair}` : '', h('br', {}), addressView(pool.address, link), ...id]
}

function taxesView(pools: PoolRow[], link: string): HTMLElement {
  if (pools.length === 0) return section('taxes', 'Taxes per pool', h('p', {}, notMeasured('no pool was found, so no trade could be tried')))
  const percent = (v: string) => formatPercent(v)
  const rows = pools.map((p) => [
    poolName(p, link),
    measuredView(p.buyTax, percent),
    measuredView(p.sellTax, percent),
    measuredView(p.transferTax, percent),
    p.honeypot === '1'
      ? h('span', { class: 'status status-found' }, 'No: honeypot', p.reason ? h('span', { class: 'reason' }, ` (${p.reason})`) : '')
      : p.honeypot === '0'
        ? h('span', { class: 'status status-absent' }, 'Yes')
        : notMeasured(p.reason),
  ])
  // Where each pool lives and what runs on its swaps (a V4 pool's hook and what it did, a curve's progress), under the table.
  const described = pools.filter((p) => p.venue !== '')
  return section(
    'taxes',
    'Taxes per pool',
    tableView('Buy, sell and transfer tax per pool', ['Pool', 'Buy tax', 'Sell tax', 'Transfer tax', 'Can sell'], rows),
    described.length > 0
      ? h('ul', { class: 'pool-venues', 'aria-label': 'What runs on each pool' }, described.map((p) => h('li', { class: 'evidence' }, h('strong', {}, p.dex || 'pool'), ': ', textWithAddresses(p.venue, link))))
      : '',
  )
}

function checkItem(check: CheckRow, link: string): HTMLElement {
  const { how, evidence } = splitEvidence(check.comment)
  const words = check.group === 'owner' ? { found: 'Found', absent: 'Not found' } : { found: 'Yes', absent: 'No' }
  return h(
    'li',
    { class: `check check-${check.status === '1' ? 'found' : check.status === '0' ? 'absent' : 'unknown'}`, 'data-check': check.name },
    h('div', { class: 'check-head' }, h('h4', {}, check.title), statusTag(check.status, words)),
    check.status === ''
      ? h('p', { class: 'evidence' }, notMeasured(''), ': ', textWithAddresses(unmeasuredReason(check.comment), link))
      : [
          h('p', { class: 'check-finding' }, check.description),
          evidence ? h('p', { class: 'evidence' }, how ? h('span', { class: 'how' }, `${how}: `) : '', textWithAddresses(evidence, link)) : '',
        ],
  )
}

/** Found first, then not measured, then absent: what matters is read first. */
const STATUS_ORDER = { '1': 0, '': 1, '0': 2 } as const

function powersView(checks: CheckRow[], link: string): HTMLElement {
  const group = (g: CheckRow['group']) => checks.filter((c) => c.group === g).sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status])
  return section(
    'powers',
    'Owner powers',
    h('p', { class: 'muted' }, 'Each power was tried on the chain; the evidence says how it was decided.'),
    h('ul', { class: 'checks', 'aria-label': 'Owner powers' }, group('owner').map((c) => checkItem(c, link))),
    h('h3', {}, 'How the token trades'),
    h('ul', { class: 'checks', 'aria-label': 'How the token trades' }, group('behaviour').map((c) => checkItem(c, link))),
  )
}

function holdersView(model: PageModel): HTMLElement {
  const count = model.holders.count
  return section(
    'holders',
    'Holders',
    h('p', {}, 'Holders: ', measuredView(count, formatAmount), ' · total supply ', model.holders.totalSupply ? formatAmount(model.holders.totalSupply) : notMeasured('')),
    model.holders.top.length > 0 ? holdersChart(model.holders.top, model.addressLink, 'The largest holders', 'the supply') : h('p', {}, notMeasured('the report lists no holders')),
  )
}

function liquidityView(model: PageModel, nowMs: number): HTMLElement {
  const link = model.addressLink
  const pools = model.pools.map((p) => [
    poolName(p, link),
    p.liquidityUsd ? formatUsd(p.liquidityUsd) : notMeasured('the pool is not priced'),
    p.reserves.length > 0 ? p.reserves.map((r, i) => [i > 0 ? h('br', {}) : '', `${formatAmount(r.amount)} ${r.symbol}`]) : notMeasured(''),
    p.link ? h('a', { href: p.link, rel: 'noopener noreferrer', target: '_blank' }, 'pool page') : '—',
  ])
  const lp = model.lp
  const unlocks = lp.unlocks.length > 0 ? unlockTimeline(lp.unlocks, nowMs, lp.unlocksOf) : h('p', {}, 'No lock with an unlock date holds this liquidity.')
  // Pools whose liquidity is locked (positions in a pool, LP tokens in a lock program), each with its share.
  const lockedPools: Child =
    lp.lockedPools.length > 0
      ? h('ul', { class: 'locked-pools', 'aria-label': 'Locked liquidity per pool' }, lp.lockedPools.map((l) => h('li', {}, h('strong', {}, l.dex || 'pool'), ' ', addressView(l.pool, link), ': ', lockedWords(l))))
      : ''
  const locksUnread: Child = lp.locksReason ? h('p', {}, notMeasured(`some locks were not read: ${lp.locksReason}`)) : ''
  const lpPart: Child[] = lp.pool
    ? [
        h('h3', {}, 'Locked liquidity'),
        h(
          'p',
          {},
          'LP tokens of ',
          addressView(lp.pool, link),
          lp.totalSupply ? ` (${formatAmount(lp.totalSupply)} in all)` : '',
          ': locked ',
          measuredView(lp.lockedPercent, formatPercent),
        ),
        lp.note ? h('p', { class: 'muted' }, lp.note) : '',
        lockedPools,
        locksUnread,
        unlocks,
        lp.holders.length > 0 ? holdersChart(lp.holders, link, 'The largest holders of the LP token', 'the LP tokens') : '',
      ]
    : lp.lockedPools.length > 0
      ? [h('h3', {}, 'Locked liquidity'), lockedPools, locksUnread, unlocks]
      : [h('p', {}, lp.locksReason ? notMeasured(`locked liquidity: ${lp.locksReason}`) : 'No pool with an LP token was found: locked liquidity is not measured.')]
  return section(
    'liquidity',
    'Liquidity',
    model.pools.length > 0 ? tableView('Liquidity per pool', ['Pool', 'Liquidity', 'Reserves', 'Link'], pools) : h('p', {}, notMeasured('no pool was found')),
    lpPart,
  )
}

/** How much of a pool's liquidity is locked, and for how long. */
function lockedWords(l: LockedPool): Child[] {
  if (l.lockedPercent === '') return [notMeasured('')]
  const split = l.permanentPercent !== '' && l.vestingPercent !== '' ? ` (${formatPercent(l.permanentPercent)} for ever, ${formatPercent(l.vestingPercent)} until its unlocks)` : ''
  return [h('strong', {}, formatPercent(l.lockedPercent)), ` of its liquidity locked${split}`]
}

function factValue(fact: Fact, link: string): Child {
  if (fact.value === '') return fact.empty ?? notMeasured(fact.reason ?? '')
  if (fact.address) return addressView(fact.value, link)
  if (/^\d{4}-\d\d-\d\dT/.test(fact.value)) return formatDateTime(fact.value)
  if (/^\$?\d+(\.\d+)?$/.test(fact.value)) return fact.value.startsWith('$') ? formatUsd(fact.value.slice(1)) : formatAmount(fact.value)
  return textWithAddresses(fact.value, link)
}

function solanaView(model: PageModel): HTMLElement {
  const solana = model.solana!
  const link = model.addressLink
  const roles = SOLANA_AUTHORITY_ROLES as Record<string, string>
  return section(
    'solana',
    'Authorities, extensions and metadata',
    h('h3', {}, 'Authorities'),
    tableView(
      'Authorities of the mint',
      ['Role', 'Held by'],
      solana.authorities.map((a) => [
        roles[a.role] ?? a.role,
        a.state === 'held' ? addressView(a.holder, link) : a.state === 'none' ? h('span', { class: 'none' }, 'none (renounced)') : notMeasured('the account holding it could not be read'),
      ]),
    ),
    h('h3', {}, 'Extensions'),
    solana.extensions.length > 0
      ? h('ul', { class: 'extensions' }, solana.extensions.map((e) => h('li', {}, h('code', {}, e))))
      : h('p', {}, solana.program === 'spl-token' ? 'None: an SPL Token mint has no extensions.' : 'None.'),
    factsView(solana.extensionFacts.map((f) => ({ label: f.label, value: factValue(f, link) }))),
    h('h3', {}, 'Metadata'),
    factsView(solana.metadata.map((f) => ({ label: f.label, value: factValue(f, link) }))),
  )
}
