import { h } from './dom.ts'
import { formatAmount, formatDate, formatPercent, relativeTime } from './format.ts'
import { TOP_HOLDERS, type HolderRole, type HolderRow, type Unlock } from './model.ts'
import { addressView, riskTag, tableView } from './view-parts.ts'

/**
 * The two charts: who holds the supply (the ten largest holders against the rest, coloured by
 * what they are) and when locked liquidity unlocks. Each is drawn for the eye and told in a table
 * or list beside it for screen readers and for paper; a colour always comes with its word.
 */

/** A holder's role as the legend words it. */
const ROLE_WORDS: Record<HolderRole | 'holder', string> = {
  owner: 'owner',
  creator: 'creator',
  pool: 'pool',
  locked: 'locked',
  burned: 'burned',
  contract: 'contract',
  holder: 'holder',
}
/** The role that colours a holder: the one that matters most to a buyer. */
const ROLE_ORDER: HolderRole[] = ['owner', 'creator', 'pool', 'locked', 'burned', 'contract']
const primaryRole = (holder: HolderRow): HolderRole | 'holder' => ROLE_ORDER.find((r) => holder.roles.includes(r)) ?? 'holder'

function roleTags(holder: HolderRow): HTMLElement[] {
  const roles: (HolderRole | 'holder')[] = holder.roles.length > 0 ? holder.roles : ['holder']
  const tags = roles.map((r) => h('span', { class: `role role-${r}` }, ROLE_WORDS[r]))
  if (holder.tag && !holder.roles.includes('pool')) tags.push(h('span', { class: 'role role-note' }, holder.tag))
  else if (holder.tag.startsWith('pool vault')) tags.push(h('span', { class: 'role role-note' }, holder.tag.replace(/^pool vault /, '')))
  return tags
}

function segment(percent: number, role: string, title: string): HTMLElement {
  const element = h('span', { class: `seg seg-${role}`, title })
  // Style properties set through the DOM (not a style attribute): allowed by the page's CSP.
  element.style.width = `${Math.max(0, Math.min(100, percent))}%`
  return element
}

/**
 * The ten largest holders against the rest: one bar of the whole (`of`: "the supply", "the LP
 * tokens"), and the table of who they are.
 */
export function holdersChart(holders: HolderRow[], addressLink: string, caption: string, of: string): HTMLElement {
  const top = holders.filter((x) => Number.isFinite(x.percent)).slice(0, TOP_HOLDERS)
  const topShare = top.reduce((sum, x) => sum + x.percent, 0)
  const rest = Math.max(0, 100 - topShare)
  const shareOf = (role: HolderRole) => top.filter((x) => x.roles.includes(role)).reduce((sum, x) => sum + x.percent, 0)
  const largest = top.length === 1 ? 'The largest holder holds' : `The ${top.length} largest holders hold`
  const told = [
    `${largest} ${formatPercent(topShare)} of ${of}; the rest hold ${formatPercent(rest)}.`,
    ...ROLE_ORDER.filter((r) => r !== 'contract' && shareOf(r) > 0).map((r) => `${ROLE_WORDS[r]}: ${formatPercent(shareOf(r))}`),
  ].join(' ')
  const bar = h(
    'div',
    { class: 'stack', role: 'img', 'aria-label': told },
    top.map((x, i) => segment(x.percent, primaryRole(x), `#${i + 1} ${x.address}: ${formatPercent(x.percent)}`)),
    segment(rest, 'rest', `the rest: ${formatPercent(rest)}`),
  )
  const legend = h(
    'ul',
    { class: 'legend', 'aria-hidden': 'true' },
    (['owner', 'creator', 'pool', 'locked', 'burned', 'contract', 'holder'] as const).map((r) => h('li', {}, h('span', { class: `swatch seg-${r}` }), ROLE_WORDS[r])),
    h('li', {}, h('span', { class: 'swatch seg-rest' }), 'the rest'),
  )
  const rows = top.map((x, i) => [
    String(i + 1),
    h('span', { class: 'holder' }, addressView(x.address, addressLink), ' ', roleTags(x)),
    h('span', { class: 'share' }, h('span', { class: 'minibar' }, segment(x.percent, primaryRole(x), '')), formatPercent(x.percent)),
    formatAmount(x.balance),
  ])
  rows.push(['', 'The rest', formatPercent(rest), ''])
  return h('div', { class: 'holders-chart' }, h('p', { class: 'chart-summary' }, told), bar, legend, tableView(caption, ['#', 'Holder', 'Share', 'Balance'], rows))
}

/** Days the timeline reaches past now at least, so that near unlocks do not crowd its start. */
const TIMELINE_MIN_DAYS = 30
const DAY_MS = 86_400_000

/** Locked liquidity's unlocks on a line from now to the last of them, and listed in date order. */
export function unlockTimeline(unlocks: Unlock[], nowMs: number, of = 'the LP tokens'): HTMLElement {
  const sorted = [...unlocks].sort((a, b) => a.time.localeCompare(b.time))
  const times = sorted.map((u) => new Date(u.time).getTime()).filter(Number.isFinite)
  const end = Math.max(nowMs + TIMELINE_MIN_DAYS * DAY_MS, ...times)
  const at = (t: number) => ((Math.max(t, nowMs) - nowMs) / (end - nowMs)) * 100
  const line = h(
    'div',
    { class: 'timeline', 'aria-hidden': 'true' },
    h('span', { class: 'tl-axis' }),
    h('span', { class: 'tl-now' }, 'now'),
    sorted.map((u, i) => {
      const mark = h('span', { class: 'tl-mark', title: `${formatDate(u.time)}: ${u.percent} %` }, String(i + 1))
      mark.style.left = `${at(new Date(u.time).getTime())}%`
      return mark
    }),
    h('span', { class: 'tl-end' }, formatDate(new Date(end).toISOString())),
  )
  const list = h(
    'ol',
    { class: 'unlocks' },
    sorted.map((u) =>
      h(
        'li',
        {},
        h('time', { datetime: u.time }, formatDate(u.time)),
        ` (${relativeTime(u.time, nowMs)}): `,
        h('strong', {}, u.percent === '' ? 'an unmeasured share' : formatPercent(u.percent)),
        ` of ${of}`,
        u.balance ? ` (${formatAmount(u.balance)})` : '',
        u.locker ? `, locked in ${u.locker}` : '',
        ' ',
        riskTag(u.risk),
      ),
    ),
  )
  return h('div', { class: 'unlock-timeline' }, line, list)
}
