import type { ChainEntry } from './api.ts'
import { h } from './dom.ts'
import { isEvmAddress, isSolanaAddress } from './format.ts'

/** The value of the chain picker that stands for Solana. */
export const SOLANA_CHOICE = 'solana'

/** Where a token's report page is, from the service's root: `t/1/0x…`, `t/solana/<mint>`. */
export function reportPath(chain: string, address: string): string {
  return `t/${encodeURIComponent(chain)}/${encodeURIComponent(address)}`
}

/**
 * What the form's input asks for: the report page to open, or why it cannot be opened. An EVM
 * address needs an EVM chain; a Solana mint goes to Solana whatever chain is picked.
 */
export function readTokenInput(address: string, chain: string): { path: string } | { problem: string } {
  const text = address.trim()
  if (!text) return { problem: 'Paste a token address first.' }
  if (isEvmAddress(text)) {
    if (chain === SOLANA_CHOICE || !chain) return { problem: 'This is an EVM address: pick its chain in the list.' }
    return { path: reportPath(chain, text) }
  }
  if (isSolanaAddress(text)) return { path: reportPath(SOLANA_CHOICE, text) }
  if (/^0x/i.test(text)) return { problem: `An EVM address is 0x followed by 40 hexadecimal characters; this one has ${text.length - 2}.` }
  return { problem: 'This is neither an EVM address (0x followed by 40 hexadecimal characters) nor a Solana mint (base58, 32 to 44 characters).' }
}

export interface SearchOptions {
  /** The chains the service serves; undefined while unknown, with `chainsProblem` saying why. */
  chains: ChainEntry[] | undefined
  chainsProblem?: string
  /** Asked for the chains on the first focus, when `chains` is not given (a report page asks only when a person searches). */
  loadChains?: () => Promise<ChainEntry[] | undefined>
  /** Text already in the box (`?token=` of the home page). */
  initial?: string
  /** The chain picked first (a report page's own). */
  chain?: string
  /** A slim form above a report, rather than the home page's card. */
  compact?: boolean
  open: (path: string) => void
}

export interface HomeOptions extends SearchOptions {
  /** With a key (`key`), the page offers to forget it. */
  onForgetKey?: () => void
  /** Tokens to try (the local worlds'), when the service offers them. */
  examples?: { label: string; chain: string; address: string }[]
}

/** The search box: one input (an address or a mint) and the chain it is on. On every page. */
export function searchForm(options: SearchOptions): HTMLElement {
  const input = h('input', {
    id: 'token',
    name: 'token',
    type: 'text',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    required: true,
    'aria-describedby': 'token-hint token-error',
    placeholder: '0x… or a Solana mint',
  })
  if (options.initial) input.value = options.initial
  const chainOptions = (chains: ChainEntry[]) => chains.map((c) => h('option', { value: c.chainId }, `${c.name} (${c.chainId})`))
  const solanaOption = h('option', { value: SOLANA_CHOICE }, 'Solana')
  const select = h('select', { id: 'chain', name: 'chain' }, chainOptions(options.chains ?? []), solanaOption)
  let known = options.chains
  if (options.chain && [...select.options].every((o) => o.value !== options.chain)) select.prepend(h('option', { value: options.chain }, `chain ${options.chain}`))
  if (options.chain) select.value = options.chain
  if (!known && options.loadChains) {
    const load = options.loadChains
    input.addEventListener(
      'focus',
      () =>
        void load().then((chains) => {
          if (!chains) return
          known = chains
          const picked = select.value
          select.replaceChildren(...chainOptions(chains), solanaOption)
          if ([...select.options].some((o) => o.value === picked)) select.value = picked
        }),
      { once: true },
    )
  }
  const error = h('p', { class: 'field-error', id: 'token-error', role: 'alert' })
  // A mint pasted picks Solana; an EVM address moves away from it.
  input.addEventListener('input', () => {
    const text = input.value.trim()
    if (isSolanaAddress(text) && !isEvmAddress(text)) select.value = SOLANA_CHOICE
    else if (isEvmAddress(text) && select.value === SOLANA_CHOICE && known?.[0]) select.value = known[0].chainId
  })
  return h(
    'form',
    {
      class: options.compact ? 'search search-compact' : 'card search',
      role: 'search',
      'aria-labelledby': 'search-title',
      novalidate: true,
      onsubmit: (event: Event) => {
        event.preventDefault()
        const read = readTokenInput(input.value, select.value)
        if ('problem' in read) {
          error.textContent = read.problem
          input.setAttribute('aria-invalid', 'true')
          input.focus()
          return
        }
        options.open(read.path)
      },
    },
    h('h2', { id: 'search-title', class: 'visually-hidden' }, 'Check a token'),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'token' }, options.compact ? 'Check another token' : 'Token address or Solana mint'),
      input,
      options.compact ? '' : h('p', { class: 'hint', id: 'token-hint' }, 'An EVM token contract (0x and 40 hexadecimal characters) or a Solana mint (base58).'),
      error,
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'chain' }, 'Chain'),
      select,
      options.chainsProblem ? h('p', { class: 'field-error' }, `The list of EVM chains could not be read: ${options.chainsProblem}`) : '',
    ),
    h('button', { type: 'submit', class: 'button' }, options.compact ? 'Check' : 'Check the token'),
  )
}

/** The home page: the search box, and the local worlds' tokens to try when the service offers them. */
export function homeView(options: HomeOptions): HTMLElement {
  const examples = options.examples ?? []
  return h(
    'div',
    { class: 'home' },
    h(
      'section',
      { class: 'hero', 'aria-labelledby': 'home-title' },
      h('h1', { id: 'home-title' }, 'Can this token hurt me?'),
      h(
        'p',
        {},
        'Paste a token: tokenrisk reads it on its chain and simulates buying, selling and every power its owner holds, then says what it found — and what it could not measure.',
      ),
    ),
    searchForm(options),
    examples.length > 0
      ? h(
          'section',
          { class: 'card examples', 'aria-labelledby': 'examples-title' },
          h('h2', { id: 'examples-title' }, 'Tokens of the local world to try'),
          h('ul', {}, examples.map((e) => h('li', {}, h('a', { href: reportPath(e.chain, e.address) }, e.label)))),
        )
      : '',
    options.onForgetKey
      ? h('p', { class: 'muted key-note' }, 'Your API key is kept in this browser. ', h('button', { type: 'button', class: 'link-button', onclick: options.onForgetKey }, 'Forget the key'))
      : '',
  )
}
