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

export interface HomeOptions {
  /** The chains the service serves; undefined while unknown, with `chainsProblem` saying why. */
  chains: ChainEntry[] | undefined
  chainsProblem?: string
  /** With a key (`key`), the page offers to forget it. */
  onForgetKey?: () => void
  open: (path: string) => void
}

/** The home page: one input (an address or a mint) and the chain it is on. */
export function homeView(options: HomeOptions): HTMLElement {
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
  const select = h(
    'select',
    { id: 'chain', name: 'chain' },
    (options.chains ?? []).map((c) => h('option', { value: c.chainId }, `${c.name} (${c.chainId})`)),
    h('option', { value: SOLANA_CHOICE }, 'Solana'),
  )
  const error = h('p', { class: 'field-error', id: 'token-error', role: 'alert' })
  // A mint pasted picks Solana; an EVM address moves away from it.
  input.addEventListener('input', () => {
    const text = input.value.trim()
    if (isSolanaAddress(text) && !isEvmAddress(text)) select.value = SOLANA_CHOICE
    else if (isEvmAddress(text) && select.value === SOLANA_CHOICE && options.chains?.[0]) select.value = options.chains[0].chainId
  })
  const form = h(
    'form',
    {
      class: 'card search',
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
      h('label', { for: 'token' }, 'Token address or Solana mint'),
      input,
      h('p', { class: 'hint', id: 'token-hint' }, 'An EVM token contract (0x and 40 hexadecimal characters) or a Solana mint (base58).'),
      error,
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'chain' }, 'Chain'),
      select,
      options.chainsProblem ? h('p', { class: 'field-error' }, `The list of EVM chains could not be read: ${options.chainsProblem}`) : '',
    ),
    h('button', { type: 'submit', class: 'button' }, 'Check the token'),
  )
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
    form,
    options.onForgetKey
      ? h('p', { class: 'muted key-note' }, 'Your API key is kept in this browser. ', h('button', { type: 'button', class: 'link-button', onclick: options.onForgetKey }, 'Forget the key'))
      : '',
  )
}
