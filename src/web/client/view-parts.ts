import { h, type Child } from './dom.ts'
import { shortAddress, splitAddresses } from './format.ts'
import type { Measured, Status } from './model.ts'

/** Pieces every section draws with: addresses, unmeasured values, risk labels, statuses. */

/** The link an explorer template gives for `address`; "" when there is no template or it is not http(s). */
export function explorerUrl(template: string, address: string): string {
  if (!template) return ''
  const url = template.replace('{address}', encodeURIComponent(address))
  return /^https?:\/\//i.test(url) ? url : ''
}

/**
 * An address as a person compares it (both ends), linked to the explorer when one is configured,
 * whole in its title, and whole on paper (the print style sheet shows the full form).
 */
export function addressView(address: string, template: string): HTMLElement {
  const url = explorerUrl(template, address)
  const children = [h('span', { class: 'addr-short' }, shortAddress(address)), h('span', { class: 'addr-full', 'aria-hidden': 'true' }, address)]
  return url
    ? h('a', { class: 'addr', href: url, title: address, rel: 'noopener noreferrer', target: '_blank' }, ...children)
    : h('span', { class: 'addr', title: address }, ...children)
}

/** A sentence of the report with the addresses in it shortened and linked. */
export function textWithAddresses(text: string, template: string): Child[] {
  return splitAddresses(text).map((part) => ('address' in part ? addressView(part.address, template) : part.text))
}

/** "not measured", with the reason when there is one. */
export function notMeasured(reason: string): HTMLElement {
  return h('span', { class: 'unmeasured' }, h('strong', {}, 'not measured'), reason ? `: ${reason}` : '')
}

const RISK_CLASSES: Record<string, string> = {
  Critical: 'critical',
  RISKY: 'risky',
  'Medium Risk': 'medium',
  Neutral: 'neutral',
  'Nice To Have': 'good',
  'Good To Have': 'good',
  'Great To Have': 'good',
}

/** The report's risk label of a value, as a small tag; nothing when unrated. */
export function riskTag(risk: string): HTMLElement | undefined {
  if (!risk) return undefined
  return h('span', { class: `risk risk-${RISK_CLASSES[risk] ?? 'neutral'}` }, risk)
}

/** A measured value written by `format`, its risk label beside it; "not measured" and why otherwise. */
export function measuredView(m: Measured, format: (value: string) => string): HTMLElement {
  if (m.value === '') return notMeasured(m.reason)
  return h('span', { class: 'measured' }, h('span', { class: 'value' }, format(m.value)), ' ', riskTag(m.risk))
}

/** What a check's status means, in words (never in colour alone). */
export function statusTag(status: Status, words: { found: string; absent: string }): HTMLElement {
  if (status === '1') return h('span', { class: 'status status-found' }, words.found)
  if (status === '0') return h('span', { class: 'status status-absent' }, words.absent)
  return h('span', { class: 'status status-unknown' }, 'Not measured')
}

/** A section of the report with its heading (the heading names the section for screen readers). */
export function section(id: string, title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'card', id, 'aria-labelledby': `${id}-title` }, h('h2', { id: `${id}-title` }, title), ...children)
}

/** A table that scrolls sideways on its own on a narrow screen (and can be scrolled with the keyboard). */
export function tableView(caption: string, head: string[], rows: Child[][]): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap', role: 'region', 'aria-label': caption, tabindex: 0 },
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, head.map((t) => h('th', { scope: 'col' }, t)))),
      h(
        'tbody',
        {},
        // Each cell names its column: at phone width a row stands as a card of labelled lines.
        rows.map((cells) => h('tr', {}, cells.map((c, i) => (i === 0 ? h('th', { scope: 'row', 'data-label': head[i] }, h('div', {}, c)) : h('td', { 'data-label': head[i] ?? '' }, h('div', {}, c)))))),
      ),
    ),
  )
}

/** A list of label/value lines. */
export function factsView(lines: { label: string; value: Child }[]): HTMLElement {
  return h(
    'dl',
    { class: 'facts' },
    lines.map((l) => h('div', { class: 'fact' }, h('dt', {}, l.label), h('dd', {}, l.value))),
  )
}
