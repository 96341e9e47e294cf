import { escapeHtml } from '../audit/report/escape.ts'

/** Characters of a path an error page quotes. */
const MAX_QUOTED_CHARS = 120

/** What an error page says: its status, a heading naming the problem, and the service's message. */
export interface ErrorPage {
  status: number
  title: string
  message: string
  /** From the page's path back to the service's root (`./`, `../`), so that links work behind a proxy's path. */
  root: string
}

/** From a request's path back to the service's root: `./` for `/x`, `../` for `/t/` or `/reports/x`. */
export function rootOf(url: string): string {
  const depth = url.split('?')[0].split('/').length - 2
  return depth > 0 ? '../'.repeat(depth) : './'
}

/** A path as an error page quotes it: cut past `MAX_QUOTED_CHARS`. */
export function quoted(url: string): string {
  const path = url.split('?')[0]
  return path.length > MAX_QUOTED_CHARS ? `${path.slice(0, MAX_QUOTED_CHARS)}…` : path
}

/**
 * The HTML a browser gets for a path that is not a page, or a page that failed (an audit report
 * not found): the problem in a heading, the message, a way back to the home page and a search box
 * (a plain form: it works without a script). No script, no style from elsewhere: it holds at any
 * width by itself.
 *
 * @example
 * renderErrorPage({ status: 404, title: 'No page here', message: 'There is no page at /x.', root: './' })
 */
export function renderErrorPage(page: ErrorPage): string {
  const { root } = page
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(page.title)} — tokenrisk</title>
</head>
<body data-state="problem" data-status="${page.status}" style="font-family: system-ui, sans-serif; margin: 0 auto; max-width: 40rem; padding: 1rem; line-height: 1.5; overflow-wrap: anywhere">
<header><a href="${root}">tokenrisk</a></header>
<main>
<h1>${escapeHtml(page.title)}</h1>
<p>${escapeHtml(page.message)}</p>
<p><a href="${root}" class="back">Back to the home page</a></p>
<form action="${root}search" method="get" role="search" aria-label="Check a token">
<p><label for="token">Token address or Solana mint</label><br>
<input id="token" name="token" type="text" autocomplete="off" spellcheck="false" required style="width: 100%; max-width: 100%; box-sizing: border-box; font: inherit" placeholder="0x… or a Solana mint"></p>
<p><label for="chain">Chain id (1 Ethereum, 56 BNB Chain, …; empty for Solana)</label><br>
<input id="chain" name="chain" type="text" inputmode="numeric" autocomplete="off" style="width: 8rem; font: inherit"></p>
<p><button type="submit" style="font: inherit">Check the token</button></p>
</form>
</main>
</body>
</html>
`
}
