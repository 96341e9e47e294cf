import { h } from './dom.ts'
import type { Problem } from './problems.ts'

/** What the page shows while it waits, when something went wrong, and when it needs a key. */

/** Waiting for a report: a cold one is measured on the chain and takes a moment. */
export function loadingView(what: string): { element: HTMLElement; stop: () => void } {
  const seconds = h('span', {}, '0')
  const started = Date.now()
  const timer = setInterval(() => {
    seconds.textContent = String(Math.round((Date.now() - started) / 1000))
  }, 1000)
  const element = h(
    'section',
    { class: 'card loading', 'aria-labelledby': 'loading-title', 'aria-busy': 'true' },
    h('h2', { id: 'loading-title' }, `Measuring ${what}…`),
    h('progress', { 'aria-labelledby': 'loading-title' }),
    h(
      'p',
      {},
      'tokenrisk reads the token on its chain and simulates buys, sells, transfers and every owner power. A first report takes a few seconds; one asked for lately comes at once.',
    ),
    h('p', { class: 'muted', 'aria-hidden': 'true' }, 'Waiting for ', seconds, ' s'),
  )
  return { element, stop: () => clearInterval(timer) }
}

/**
 * A problem and what to do about it, with a button to try again (held back until the service's
 * `Retry-After` has passed).
 */
export function problemView(problem: Problem, actions: { retry?: () => void; homeHref: string }): HTMLElement {
  const buttons: HTMLElement[] = []
  if (actions.retry) {
    const retry = actions.retry
    const button = h('button', { type: 'button', class: 'button', onclick: () => retry() }, 'Try again')
    buttons.push(button)
    if (problem.waitSeconds && problem.waitSeconds > 0) {
      let left = problem.waitSeconds
      const label = () => `Try again in ${left} s`
      button.setAttribute('disabled', '')
      button.textContent = label()
      const timer = setInterval(() => {
        left -= 1
        if (left > 0) {
          button.textContent = label()
          return
        }
        clearInterval(timer)
        button.removeAttribute('disabled')
        button.textContent = 'Try again'
      }, 1000)
    }
  }
  if (problem.kind === 'session') buttons.push(h('button', { type: 'button', class: 'button', onclick: () => location.reload() }, 'Reload the page'))
  buttons.push(h('a', { class: 'button button-quiet', href: actions.homeHref }, 'Check another token'))
  return h(
    'section',
    { class: `card problem problem-${problem.kind}`, role: 'alert', 'aria-labelledby': 'problem-title', 'data-problem': problem.kind },
    h('h2', { id: 'problem-title' }, problem.title),
    h('p', {}, problem.text),
    h('p', { class: 'advice' }, h('strong', {}, 'What to do: '), problem.advice),
    h('div', { class: 'actions' }, buttons),
  )
}

/**
 * Asks for the API key once (`PUBLIC_PAGES=off`); `onSave` gets it. `refused` says why the last
 * one did not work.
 */
export function keyView(onSave: (key: string) => void, refused?: string): HTMLElement {
  const input = h('input', { id: 'api-key', name: 'api-key', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true, 'aria-describedby': 'api-key-help' })
  const error = h('p', { class: 'field-error', id: 'api-key-error', role: 'alert' }, refused ? `The last key was refused: ${refused}` : '')
  if (refused) input.setAttribute('aria-invalid', 'true')
  const form = h(
    'form',
    {
      class: 'key-form',
      onsubmit: (event: Event) => {
        event.preventDefault()
        const key = input.value.trim()
        if (!key) {
          error.textContent = 'Paste an API key first.'
          input.setAttribute('aria-invalid', 'true')
          input.focus()
          return
        }
        onSave(key)
      },
    },
    h('div', { class: 'field' }, h('label', { for: 'api-key' }, 'API key'), input, error),
    h('button', { type: 'submit', class: 'button' }, 'Save the key'),
  )
  return h(
    'section',
    { class: 'card key-card', 'aria-labelledby': 'key-title' },
    h('h2', { id: 'key-title' }, 'Your API key'),
    h(
      'p',
      { id: 'api-key-help' },
      'This tokenrisk answers people who have an API key. Paste yours once: it stays in this browser (its local storage) and is sent only to this service, with each report the page asks for.',
    ),
    form,
    h('p', { class: 'muted' }, 'No key? Whoever runs this service makes them: ', h('code', {}, 'npx tokenrisk keys create --user <you>'), '.'),
  )
}
