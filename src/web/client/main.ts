import './page.css'
import type { SolanaReport } from '../../contract/solana-report.ts'
import type { TokenReport } from '../../contract/token-report.ts'
import { ApiError, createApi, storedKey, storeKey, type ChainEntry } from './api.ts'
import { h, replaceChildren } from './dom.ts'
import { shortAddress } from './format.ts'
import { evmModel, solanaModel, type PageModel } from './model.ts'
import { describeProblem } from './problems.ts'
import { evmVerdict, solanaVerdict, type Verdict as Judged } from '../../report/verdict.ts'
import { verdictOf } from './verdict.ts'
import { homeView, searchForm, SOLANA_CHOICE } from './view-home.ts'
import { reportView } from './view-report.ts'
import { keyView, loadingView, problemView } from './view-states.ts'

/**
 * The token pages in the browser: reads which page this is from its address, asks the JSON API
 * for what it shows, and draws it. `body[data-state]` says where it stands (home, key, loading,
 * report, problem); the marks `tokenrisk:answered` (the API's answers are in) and
 * `tokenrisk:rendered` (the report is drawn) time a first render.
 */

type Route = { page: 'home' } | { page: 'evm'; chainId: string; address: string } | { page: 'solana'; mint: string }

/** The page's route, from its path below the service's root. */
function routeOf(pathname: string, rootPath: string): Route {
  const rest = pathname.startsWith(rootPath) ? pathname.slice(rootPath.length) : pathname.replace(/^\//, '')
  const parts = rest.split('/').filter(Boolean).map(decodeURIComponent)
  if (parts[0] === 't' && parts.length === 3) {
    return parts[1] === SOLANA_CHOICE ? { page: 'solana', mint: parts[2] } : { page: 'evm', chainId: parts[1], address: parts[2] }
  }
  return { page: 'home' }
}

const body = document.body
const access = body.dataset.access === 'open' ? 'open' : 'key'
const root = new URL(body.dataset.root ?? './', location.href)
const app = document.getElementById('app') as HTMLElement
const api = createApi(root, () => (access === 'key' ? storedKey() : undefined))
/** Says a new state to screen readers without moving their focus. */
const announcer = h('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' })
document.body.appendChild(announcer)

function show(state: string, ...children: HTMLElement[]): void {
  body.dataset.state = state
  replaceChildren(app, ...children)
}

const homeHref = root.href
/** Tokens the service offers to try (the local worlds'), from the page's HTML. */
const examples = (() => {
  try {
    return JSON.parse(body.dataset.examples ?? '[]') as { label: string; chain: string; address: string }[]
  } catch {
    return []
  }
})()
const openPath = (path: string) => location.assign(new URL(path, root).href)
/** The search box above a report or a problem: the chains are asked for only when a person uses it. */
const compactSearch = (chain: string) => searchForm({ chains: undefined, loadChains: () => chainsOf().catch(() => undefined), chain, compact: true, open: openPath })
/** Where the chain list is kept in this browser, and for how long. */
const CHAINS_STORAGE = 'tokenrisk.chains'
const CHAINS_KEPT_MS = 10 * 60_000

/**
 * The chains the service serves: asked once, then kept for a while in this browser, so that a
 * report page costs one call of a key's (or an open page's) rate limit, not two.
 */
async function chainsOf(): Promise<ChainEntry[]> {
  try {
    const kept = JSON.parse(localStorage.getItem(CHAINS_STORAGE) ?? 'null') as { at: number; chains: ChainEntry[] } | null
    if (kept && Date.now() - kept.at < CHAINS_KEPT_MS) return kept.chains
  } catch {
    // Nothing kept, or storage refused: ask.
  }
  const { chains } = await api.get<{ chains: ChainEntry[] }>('api/v1/chains')
  try {
    localStorage.setItem(CHAINS_STORAGE, JSON.stringify({ at: Date.now(), chains }))
  } catch {
    // Storage refused: asked again next time.
  }
  return chains
}

/** Asks for a key, then goes on with `next`. */
function askForKey(next: () => void, refused?: string): void {
  show(
    'key',
    keyView((key) => {
      storeKey(key)
      next()
    }, refused),
  )
  // After a refused key, back to the field; on a first visit the focus stays at the page's start.
  if (refused) document.getElementById('api-key')?.focus()
}

async function showHome(): Promise<void> {
  if (access === 'key' && !storedKey()) return askForKey(() => void showHome())
  let chains: ChainEntry[] | undefined
  let chainsProblem: string | undefined
  try {
    chains = await chainsOf()
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && access === 'key') return askForKey(() => void showHome(), error.message)
    chainsProblem = error instanceof Error ? error.message : String(error)
  }
  const forget = access === 'key' ? () => (storeKey(''), void showHome()) : undefined
  const initial = new URLSearchParams(location.search).get('token') ?? undefined
  show('home', homeView({ chains, chainsProblem, onForgetKey: forget, open: openPath, examples, initial }))
}

async function showReport(route: Exclude<Route, { page: 'home' }>): Promise<void> {
  if (access === 'key' && !storedKey()) return askForKey(() => void showReport(route))
  const address = route.page === 'evm' ? route.address : route.mint
  const where = route.page === 'evm' ? `on chain ${route.chainId}` : 'on Solana'
  const loading = loadingView(`${shortAddress(address)} ${where}`)
  show('loading', loading.element)
  announcer.textContent = `Measuring the token ${where}.`
  // The chain list names the chain and its explorer, asked after the report (never in the same
  // instant, where a limit of one call a second would refuse one); without it, the report is
  // drawn without them.
  const chains = () => (route.page === 'evm' ? chainsOf().catch(() => undefined) : Promise.resolve(undefined))
  try {
    let model: PageModel
    let judged: Judged
    if (route.page === 'evm') {
      // The contract's view, whatever the key's own format: the page reads that shape (and a
      // token that is not one answers 404, not the hosted service's 200 with `errorStatus`).
      const report = await api.get<TokenReport>(`api/v1/tokens/information/${encodeURIComponent(route.address)}`, { chainId: route.chainId, format: 'v1' })
      const chain = (await chains())?.find((c) => c.chainId === route.chainId)
      performance.mark('tokenrisk:answered')
      model = evmModel(report, chain, route.chainId)
      judged = evmVerdict(report)
    } else {
      const report = await api.get<SolanaReport>(`api/v1/tokens/solana/${encodeURIComponent(route.mint)}`, { format: 'v1' })
      performance.mark('tokenrisk:answered')
      model = solanaModel(report)
      judged = solanaVerdict(report)
    }
    const verdict = verdictOf(model, judged)
    show('report', compactSearch(route.page === 'evm' ? route.chainId : SOLANA_CHOICE), reportView(model, verdict, Date.now()))
    document.title = `${model.name || shortAddress(model.address)}${model.symbol ? ` (${model.symbol})` : ''}: ${verdict.label} — tokenrisk`
    announcer.textContent = `Report ready. ${verdict.label}: ${verdict.headline}.`
    performance.mark('tokenrisk:rendered')
  } catch (error) {
    const apiError = error instanceof ApiError ? error : new ApiError(0, error instanceof Error ? error.message : String(error), undefined)
    if (apiError.status === 401 && access === 'key') return askForKey(() => void showReport(route), apiError.message)
    const unknownChain = apiError.status === 400 && route.page === 'evm'
    const problem = describeProblem(apiError, { access, chainId: route.page === 'evm' ? route.chainId : undefined, chains: unknownChain ? await chains() : undefined })
    // The problem is an alert: screen readers say it as it appears.
    show('problem', problemView(problem, { retry: () => void showReport(route), homeHref }), compactSearch(route.page === 'evm' ? route.chainId : SOLANA_CHOICE))
  } finally {
    loading.stop()
  }
}

const route = routeOf(location.pathname, root.pathname)
void (route.page === 'home' ? showHome() : showReport(route))
