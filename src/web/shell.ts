import { escapeHtml } from '../audit/report/escape.ts'
import type { WebAssets } from './assets.ts'

/** How the token pages reach the JSON API. */
export type PageAccess =
  /** The person pastes an API key once; the page keeps it in the browser. */
  | 'key'
  /** Open pages: the page's own session (a cookie the HTML sets) stands in for a key. */
  | 'open'

export interface ShellOptions {
  /** The document's title until the page names the token. */
  title: string
  access: PageAccess
  /** From this page's path back to the service's root: `./` for `/`, `../../` for `/t/1/0x…`. */
  root: string
  assets: WebAssets
  /** Tokens the home page offers to try. */
  examples?: PageExample[]
}

/** A token the home page offers to try: what it is, its chain (`31337`, `solana`) and address. */
export interface PageExample {
  label: string
  chain: string
  address: string
}

/**
 * The HTML every token page starts as: the same shell for the home page and every report, which
 * the page's script fills from the JSON API. It holds no data of a token (the script reads the
 * report), so it can be served, cached and shared without a key. Links are relative to the page,
 * so that the service works behind a proxy that serves it under a path.
 */
export function renderShell(options: ShellOptions): string {
  const { root, assets } = options
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(options.title)}</title>
<link rel="stylesheet" href="${root}assets/${assets.style.name}">
<script defer src="${root}assets/${assets.script.name}"></script>
</head>
<body data-access="${options.access}" data-root="${root}"${options.examples?.length ? ` data-examples="${escapeHtml(JSON.stringify(options.examples))}"` : ''}>
<a class="skip" href="#main">Skip to the content</a>
<header class="top" role="banner"><a class="brand" href="${root}">tokenrisk</a><span class="tagline">token risk reports</span></header>
<main id="main" tabindex="-1">
<noscript><p class="notice">This page reads its report from tokenrisk's JSON API with a script: turn JavaScript on, or call the API (<code>/api/v1/tokens/…</code>, see <a href="${root}docs">the API documentation</a>).</p></noscript>
<div id="app"></div>
</main>
<footer class="foot" role="contentinfo"><p>A report says what tokenrisk measured on the chain. "Not measured" is never a pass. <a href="${root}docs">API documentation</a></p></footer>
</body>
</html>
`
}
