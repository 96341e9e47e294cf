// Every public client of the hosted service, reading tokenrisk's answers the way it reads the
// hosted ones (quillcheck-compat.md, clients C2–C7): small readers below read only the paths each
// client reads, with its semantics (`parseFloat`, `=== 1`, Python's `float()` and
// `get('isTokenHoneypot', 1) == 0`, headings read by index and by substring, the widgets' icon
// switch and `errorStatus === 420`). On the real local worlds — the zoo's honeypot, clean and taxed
// tokens, the Solana world's paused mint, and addresses that hold no token — what each client
// would show must be what a person must see. Also: the Content-Type of every JSON answer of every
// route and view, the one `format` rule of every token route, DEFAULT_FORMAT, the OpenAPI document.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { zooToken } from '@tokenrisk/devworld/manifest'
import { solanaMint } from '@tokenrisk/devworld/solana/manifest'
import { startSolanaWorld, type StartedSolanaWorld } from '@tokenrisk/devworld/solana/world'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine } from '../src/cli/engines.ts'
import { loadConfig } from '../src/config/settings.ts'
import { NotSupportedBody } from '../src/contract/common.ts'
import { QuillcheckDescriptionReport } from '../src/contract/quillcheck-description.ts'
import { QuillcheckV2Report } from '../src/contract/quillcheck-v2.ts'
import { SolanaReport } from '../src/contract/solana-report.ts'
import { TokenReport } from '../src/contract/token-report.ts'
import { silentLogger } from '../src/engines/solana/logger.ts'
import { createSolanaReportService } from '../src/engines/solana/service.ts'
import { createMetrics } from '../src/http/metrics.ts'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

/** A JSON value read by path, as a client's property access reads it. */
type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any

const DATA_DIR = TEST_DEVNET_DIR
const JSON_TYPE = 'application/json; charset=utf-8'
const CHAIN = 31337
/** An address without code on the local chain. */
const NO_TOKEN = '0x000000000000000000000000000000000000bEEF'
/** The widgets' query: chainId, their analytics id, and their two flags. */
const WIDGET_QUERY = `chainId=${CHAIN}&distinctId=$device:1921f267d7f65c-test&generateGptInput=true&generateChecksDescription=true`
const check = {
  v1: TypeCompiler.Compile(TokenReport),
  v2: TypeCompiler.Compile(QuillcheckV2Report),
  description: TypeCompiler.Compile(QuillcheckDescriptionReport),
  solana: TypeCompiler.Compile(SolanaReport),
  notSupported: TypeCompiler.Compile(NotSupportedBody),
}

let world: World
let solanaWorld: StartedSolanaWorld
let solanaDir: string
let t: TestStore
let api: TestApp
/** The same instance with DEFAULT_FORMAT=quillcheck-v2. */
let hosted: TestApp
const keys = { v1: '', v2: '', plain: '' }

// Started while the tests are collected, so that the zoo's tokens name tests of their own.
world = await startWorld({ dataDir: DATA_DIR })

beforeAll(async () => {
  solanaDir = await mkdtemp(join(tmpdir(), 'tokenrisk-compat-clients-'))
  solanaWorld = await startSolanaWorld({ dataDir: solanaDir })
  const config = { ...loadConfig({ DATA_DIR, REQUEST_TIMEOUT_MS: '60000' }), devnet: 'on' as const }
  t = await embeddedStore()
  const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
  const metrics = createMetrics({ defaultMetrics: false })
  const evm = createEvmEngine({ config, env: {}, cache: createMemoryCache(), store: t.store, logger: silent, metrics, chains: localChains(world.manifest) })
  const solana = createSolanaReportService({ rpcUrls: [solanaWorld.rpcUrl], cache: createMemoryCache(), logger: silentLogger, options: { pricing: solanaWorld.manifest.pricing } })
  const tokens = { evm: evm.service, solana }
  api = await buildTestApp(t.store, { tokens, options: { requestTimeoutMs: 60_000 } })
  hosted = await buildTestApp(t.store, { tokens, options: { requestTimeoutMs: 60_000, defaultFormat: 'quillcheck-v2' } })
  keys.v1 = (await api.keys.create({ userId: 'client', format: 'v1' })).key
  keys.v2 = (await api.keys.create({ userId: 'client', format: 'quillcheck-v2' })).key
  keys.plain = (await api.keys.create({ userId: 'client' })).key
}, 300_000)

afterAll(async () => {
  await api?.app.close()
  await hosted?.app.close()
  await t?.cleanup()
  await world?.stop()
  await solanaWorld?.stop()
  if (solanaDir) await rm(solanaDir, { recursive: true, force: true })
})

const evmToken = (key: string) => zooToken(world.manifest, key)
const mint = (key: string) => solanaMint(solanaWorld.manifest, key)

interface Answer {
  status: number
  type: string | undefined
  body: Json
  text: string
}
const answers = new Map<string, Answer>()
/** GET once per URL and key (reports are reused anyway): status, Content-Type, parsed body. */
async function get(url: string, key = keys.v1, app: TestApp = api): Promise<Answer> {
  const id = `${app === api ? '' : 'hosted '}${key} ${url}`
  const seen = answers.get(id)
  if (seen) return seen
  const res = await app.app.inject({ url, headers: key ? { 'x-api-key': key } : {} })
  let body: Json
  try {
    body = JSON.parse(res.body)
  } catch {
    body = undefined
  }
  const answer = { status: res.statusCode, type: res.headers['content-type'] as string | undefined, body, text: res.body }
  answers.set(id, answer)
  return answer
}

// The paths and views of the token routes.
const information = (address: string, query = '') => `/api/v1/tokens/information/${address}?chainId=${CHAIN}${query}`
const frontend = (address: string) => `/api/v1/tokens/frontend/information/${address}?${WIDGET_QUERY}`
const ui = (address: string) => `/api/v1/tokens/ui/information/${address}?${WIDGET_QUERY}`
const solanaUrl = (address: string, query = '') => `/api/v1/tokens/solana/${address}${query}`

// ——— The clients, as quillcheck-compat.md describes them: each reads only its paths, its way. ———

/** JavaScript's parseFloat, as the JS clients apply it. */
const parseFloatJs = (v: unknown) => Number.parseFloat(String(v))
/** Python's float(): raises on "" and on what is not a number (the agent then fails). */
function floatPy(v: unknown): number {
  if (typeof v === 'number') return v
  if (typeof v !== 'string' || v.trim() === '' || Number.isNaN(Number(v))) throw new Error(`ValueError: could not convert ${JSON.stringify(v)} to float`)
  return Number(v)
}

/** C2, the agent's formatter: EVM newer shape, and the Solana body by heading substrings. */
function c2(body: Json, kind: 'evm' | 'solana') {
  if (kind === 'evm') {
    const own = body.codeChecks?.ownershipChecks ?? {}
    return {
      honeypot: body.honeypotDetails?.isTokenHoneypot === 1 ? 'Yes' : 'No',
      mintable: own.isMintable?.status === true ? 'Yes' : 'No',
      score: body.tokenScore?.totalScore?.percent,
    }
  }
  const items = Object.values(body.codeChecks?.codeCheckDescription ?? {}).flat() as Json[]
  const has = (...words: string[]) => items.some((i) => words.every((w) => String(i.heading).includes(w)))
  return {
    honeypot: body.honeypotDetails?.isPairHoneypot === 1 ? 'Yes' : 'No',
    mintable: has('Minting Authority', 'Disabled') ? 'No' : 'Yes',
    feeModifiable: has('Transfer Fee', 'not Modifiable') ? 'No' : 'Possibly',
    score: body.honeypotDetails?.overAllScorePercentage,
    holders: body.marketChecks?.marketCheckDescription?.holdersDescription?.holdersCount?.number,
  }
}

/** C3, the AgentKit tool (Python): `float()` of the scores and figures, `get('isTokenHoneypot', 1) == 0`. */
function c3(body: Json) {
  const agg = body.marketChecks.liquidityChecks.aggregatedInformation
  return {
    score: floatPy(body.tokenScore.totalScore.percent),
    liquidityUsd: floatPy(agg.totalLpSupplyInUsd.number),
    pairs: floatPy(agg.tradingPairCount.number),
    notHoneypot: (body.honeypotDetails?.isTokenHoneypot ?? 1) == 0, // eslint-disable-line eqeqeq
    pools: (body.marketChecks.pairByPairInformation as Json[]).map((p) => p.dexName),
  }
}

/** C4, the Base trust scanner: numbers and flags of its partial interface. */
function c4(body: Json) {
  const own = body.codeChecks.ownershipChecks
  return {
    honeypot: body.honeypotDetails.isTokenHoneypot === 1,
    honeypotPools: body.honeypotDetails.honeypotFound.honeypotPools,
    score: body.tokenScore.totalScore.percent,
    mintable: own.isMintable.status === true,
    blacklist: own.isBlacklisted.status === true,
  }
}

/** The taxes of `honeypotDetails` read as the older array: `[0].buyTax.number` once `length > 0`, else 0 (C5, and an older widget on the widget paths). */
function arrayTaxes(details: Json): number[] {
  let buyTax = 0
  let sellTax = 0
  let transferTax = 0
  if (details?.length > 0) {
    buyTax = parseFloatJs(details[0]?.buyTax?.number || '0')
    sellTax = parseFloatJs(details[0]?.sellTax?.number || '0')
    transferTax = parseFloatJs(details[0]?.transferTax?.number || '0')
  }
  return [buyTax, sellTax, transferTax]
}

/**
 * C5, the first widget on `/tokens/information`: counts by name, taxes from the older array form,
 * the honeypot from the object form; its Critical / RISKY / Medium / Neutral counters from
 * `riskCategories`; the report's time from `lastUpdated`.
 */
function c5(body: Json) {
  const details = body.honeypotDetails
  const counts = body.tokenInformation?.totalChecksInformation?.aggregatedCount as Json[]
  const count = (name: string) => counts.find((c) => c.name === name)?.count || 0
  return {
    score: parseFloatJs(body.tokenScore?.totalScore?.percent),
    honeypot: details?.isTokenHoneypot === 1,
    taxes: arrayTaxes(details),
    critical: count('Critical'),
    risky: count('RISKY'),
    counters: [body.riskCategories?.critical || 0, body.riskCategories?.risky || 0, body.riskCategories?.medium || 0, body.riskCategories?.neutral || 0],
    holders: parseFloatJs(body.marketChecks?.holdersChecks?.holdersCount?.number),
    updated: new Date(body.tokenInformation?.lastUpdated),
  }
}

/** The widgets' icon for a risk number: a switch over 0–7, anything else falls to the Critical icon. */
function icon(risk: unknown): string {
  const icons = ['Critical', 'RISKY', 'Medium Risk', 'Neutral', 'Nice To Have', 'Good To Have', 'Great To Have', 'outline dot']
  return typeof risk === 'number' && Number.isInteger(risk) && risk >= 0 && risk <= 7 ? icons[risk] : 'Critical'
}

/** The widgets' score cell: integer part, two decimals, "%" (`Math.floor(Number(x) || 0)`…). */
const scoreCell = (x: unknown) => `${Math.floor(Number(x) || 0)}.${(Number(x) || 0).toFixed(2).split('.')[1]}%`

/** A count of `aggregatedCount` by name. */
const count = (body: Json, name: string): number => (body.tokenInformation.totalChecksInformation.aggregatedCount as Json[]).find((c) => c.name === name)?.count ?? 0

/** C6, the report widgets: the description shape on the EVM widget paths, the Solana body on the Solana path. */
function c6(body: Json) {
  if (body?.errorStatus === 420) return { notSupported: true as const }
  const g = body.tokenInformation.generalInformation
  const [day, month, year] = String(g.tokenCreationDate).split('/').map(Number)
  const created = new Date(year, month - 1, day)
  const holders = body.marketChecks.marketCheckDescription.holdersDescription
  const agg = body.marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation
  const counts = body.tokenInformation.totalChecksInformation.aggregatedCount as Json[]
  const hp = body.honeypotDetails
  const own = body.codeChecks.codeCheckDescription.ownershipPermissionsDescription as Json[]
  const owner = g.ownerAddress
  return {
    notSupported: false as const,
    status: hp.isPairHoneypot === 1 ? 'Is a Honeypot' : 'Not a Honeypot',
    score: scoreCell(parseFloatJs(hp.overAllScorePercentage)),
    ageDays: Math.floor((Date.now() - created.getTime()) / 86_400_000),
    ownership: owner !== '' && owner !== 'Renounced' ? `${owner.slice(0, 4)}...${owner.slice(-4)}` : owner === 'Renounced' ? 'Renounced' : '(unknown mark)',
    critical: counts[0].count || 0,
    risky: counts.find((c) => c.name === 'RISKY')?.count || 0,
    categories: body.riskCategories,
    holders: parseFloatJs(holders.holdersCount.number),
    holdersIcon: icon(holders.holdersCount.risk),
    liquidity: `$${agg.totalLpSupplyInUsd.number}`,
    pairs: parseFloatJs(agg.tradingPairCount.number),
    taxes: [hp.buyTax, hp.sellTax, hp.transferTax].map((x: Json) => parseFloatJs(x?.number || '0')),
    // An older copy of the widget reads the taxes as the older array.
    arrayTaxes: arrayTaxes(hp),
    updated: new Date(g.lastUpdated),
    taxIcons: [hp.buyTax, hp.sellTax, hp.transferTax].map((x: Json) => icon(x?.risk)),
    mintable: own[0]?.heading === 'Token Minting Authority is Enabled',
    freezable: own[1]?.heading === 'Token Freezing Authority is Enabled',
    metadataMutable: own[2]?.heading === 'Token Metadata is Mutable',
    feeModifiable: own[3]?.risk === 0,
    lockedIcon: icon(agg.percentDistributed.locked.risk),
  }
}

/** C7, the MCP pass-through: a non-200 becomes its own 500; its tests read these two numbers. */
function c7(answer: Answer, kind: 'evm' | 'solana') {
  if (answer.status !== 200) return { error: 500 }
  if (answer.body.errorStatus === 420) return { notSupported: answer.body.message as string }
  return kind === 'evm' ? { score: answer.body.tokenScore.totalScore.percent } : { name: answer.body.tokenInformation.generalInformation.tokenName, score: answer.body.honeypotDetails.overAllScorePercentage }
}

/** The rated market figures of a contract report, as a reader of the contract shape finds them. */
function v1MarketLabels(v1: Json): string[] {
  const m = v1.marketChecks
  const d = m.holdersChecks.percentDistributed
  return [
    m.exchangabilityChecks.numberOfTradingPairs.risk,
    m.exchangabilityChecks.currentLiquidity.risk,
    m.holdersChecks.holdersCount.risk,
    d.topThree.risk,
    d.topTen.risk,
    d.owner.risk,
    d.creator.risk,
    m.liquidityChecks.lpHolderCount.risk,
    m.liquidityChecks.liquidityLockedDetails.totalLiquidityPercentageLocked.risk,
  ]
}

/** Every `risk` number of a description-shape body (items, figures, taxes, distributions). */
function riskNumbers(body: Json, path = ''): [string, unknown][] {
  if (body === null || typeof body !== 'object') return []
  return Object.entries(body).flatMap(([k, v]): [string, unknown][] => {
    const here = `${path}.${k}`
    if (k === 'risk' && (typeof v !== 'object' || v === null)) return [[here, v]]
    return riskNumbers(v, here)
  })
}

/** What each client shows, printed after the run with COMPAT_TABLE=1: client → case → what it shows. */
const shownTable = new Map<string, Map<string, string>>()
const showRow = (client: string, cls: string, what: string) => {
  if (!shownTable.has(client)) shownTable.set(client, new Map())
  shownTable.get(client)!.set(cls, what)
}
afterAll(() => {
  if (!process.env.COMPAT_TABLE) return
  const classes = [...new Set([...shownTable.values()].flatMap((m) => [...m.keys()]))]
  const lines = [`| client | ${classes.join(' | ')} |`, `|---|${classes.map(() => '---').join('|')}|`]
  for (const [client, row] of shownTable) lines.push(`| ${client} | ${classes.map((c) => row.get(c) ?? '').join(' | ')} |`)
  console.log(lines.join('\n'))
})

describe('the EVM honeypot, the clean token and a taxed token, as each client shows them', () => {
  const cases = [
    ['honeypot', evmToken('honeypot')],
    ['clean', evmToken('clean')],
    ['taxed', evmToken('tax-3-7-1')],
  ] as const

  it.each(cases)('the %s in the contract view (v1) and the quillcheck-v2 view', async (cls, token) => {
    const v1 = await get(information(token.address), keys.v1)
    const v2 = await get(information(token.address), keys.v2)
    expect([v1.status, v2.status]).toEqual([200, 200])
    expect(check.v1.Check(v1.body)).toBe(true)
    expect(check.v2.Check(v2.body), JSON.stringify([...check.v2.Errors(v2.body)].slice(0, 2))).toBe(true)
    const isHoneypot = token.pools.some((p) => p.isPairHoneypot === '1')
    const pool = token.pools.find((p) => p.isPairHoneypot === '1') ?? token.pools[0]

    expect(c2(v2.body, 'evm')).toMatchObject({ honeypot: isHoneypot ? 'Yes' : 'No', mintable: token.codeChecks.isMintable === '1' ? 'Yes' : 'No' })
    const agent = c3(v2.body)
    expect(agent.notHoneypot).toBe(!isHoneypot)
    expect(agent.pairs).toBe(token.pools.length)
    expect(agent.pools.length).toBe(token.pools.length)
    expect(c4(v2.body)).toMatchObject({ honeypot: isHoneypot, honeypotPools: token.pools.filter((p) => p.isPairHoneypot === '1').length, mintable: token.codeChecks.isMintable === '1' })

    // C5 reads the taxes from `honeypotDetails[0]`: those measured, as measured; one that could
    // not be measured (no sale on a honeypot) is "" in the body, which C5 itself shows as 0.
    const widget = c5(v2.body)
    expect(widget.honeypot).toBe(isHoneypot)
    const shown = v2.body.honeypotDetails[0]
    expect(shown.pairAddress.toLowerCase()).toBe(pool.pairAddress.toLowerCase())
    const v1Pool = v1.body.honeypotDetails.find((p: Json) => p.pairAddress.toLowerCase() === pool.pairAddress.toLowerCase())
    for (const [i, tax] of (['buyTax', 'sellTax', 'transferTax'] as const).entries()) {
      if (v1Pool[tax].number === '') expect(shown[tax].number, tax).toBe('')
      else expect(widget.taxes[i], tax).toBe(Number(pool[tax]))
    }
    if (isHoneypot) expect(widget.critical).toBeGreaterThan(0)
    // Its counters, from riskCategories: the same counts, by key.
    expect(widget.counters).toEqual(['Critical', 'RISKY', 'Medium Risk', 'Neutral'].map((name) => count(v2.body, name)))
    if (isHoneypot) expect(widget.counters[0]).toBeGreaterThan(0)
    // When the report was measured, the same in every view of it.
    expect(Number.isNaN(widget.updated.getTime())).toBe(false)
    expect(Math.abs(Date.now() - widget.updated.getTime())).toBeLessThan(10 * 60_000)
    expect(v1.body.tokenInformation.lastUpdated).toBe(v2.body.tokenInformation.lastUpdated)
    expect(Number.isNaN(widget.holders)).toBe(false)
    expect(widget.holders).toBe(token.holders.count)
    if (cls === 'clean') expect(widget.critical).toBe(0)

    // C7 passes the body on; its tests read the total as a number.
    expect(typeof c7(v2, 'evm').score).toBe('number')
    const formatter = c2(v2.body, 'evm')
    showRow('C2 agent formatter (quillcheck-v2)', cls, `honeypot ${formatter.honeypot}, mintable ${formatter.mintable}, score ${formatter.score}`)
    showRow('C3 AgentKit tool (quillcheck-v2)', cls, `not a honeypot: ${agent.notHoneypot}, ${agent.pairs} pair(s), score ${agent.score}`)
    const scanner = c4(v2.body)
    showRow('C4 trust scanner (quillcheck-v2)', cls, `honeypot ${scanner.honeypot} (${scanner.honeypotPools} pool(s)), mintable ${scanner.mintable}`)
    showRow('C5 widget (quillcheck-v2)', cls, `taxes ${widget.taxes.join('/')} %, Critical/RISKY/Medium/Neutral ${widget.counters.join('/')}, updated ${widget.updated.toISOString().slice(0, 16)}`)
    showRow('C7 MCP pass-through (quillcheck-v2)', cls, `score ${c7(v2, 'evm').score}`)
  })

  it.each(cases)('the %s on the widget paths (description shape)', async (cls, token) => {
    const isHoneypot = token.pools.some((p) => p.isPairHoneypot === '1')
    const pool = token.pools.find((p) => p.isPairHoneypot === '1') ?? token.pools[0]
    const v1 = (await get(information(token.address), keys.v1)).body
    for (const url of [frontend(token.address), ui(token.address)]) {
      const answer = await get(url, keys.v1)
      expect(answer.status, url).toBe(200)
      expect(check.description.Check(answer.body), JSON.stringify([...check.description.Errors(answer.body)].slice(0, 2))).toBe(true)
      const w = c6(answer.body)
      if (w.notSupported) throw new Error('a token read as not supported')
      expect(w.status).toBe(isHoneypot ? 'Is a Honeypot' : 'Not a Honeypot')
      expect(w.score).toBe(scoreCell(Math.max(0, Number(v1.tokenScore.totalScorePercentage))))
      expect(w.score.startsWith('-')).toBe(false)
      expect(Number.isNaN(w.ageDays)).toBe(false)
      expect(w.ageDays).toBeGreaterThanOrEqual(0)
      expect(Number.isNaN(w.holders)).toBe(false)
      expect(w.holders).toBe(token.holders.count)
      expect(w.pairs).toBe(token.pools.length)
      expect(w.critical).toBe(w.categories.critical)
      expect(w.risky).toBe(w.categories.risky)
      if (isHoneypot) expect(w.critical).toBeGreaterThan(0)
      // The widget counts code checks and market figures (as on Solana): on the clean token no
      // power is present, and its Critical count is its market figures' (the deployer holds most).
      const items = Object.values(answer.body.codeChecks.codeCheckDescription).flat() as Json[]
      if (cls === 'clean') {
        expect(items.filter((i) => i.status === '1').map((i) => i.check)).toEqual([])
        expect(w.critical).toBe(v1MarketLabels(v1).filter((l) => l === 'Critical').length)
      }
      // Taxes as measured on the pool shown: a measured tax is its figure, an unmeasured one "" in the body.
      const shown = answer.body.honeypotDetails
      expect(shown.pairAddress.toLowerCase()).toBe(pool.pairAddress.toLowerCase())
      for (const [i, tax] of (['buyTax', 'sellTax', 'transferTax'] as const).entries()) {
        const v1Pool = v1.honeypotDetails.find((p: Json) => p.pairAddress.toLowerCase() === pool.pairAddress.toLowerCase())
        if (v1Pool[tax].number === '') {
          expect(shown[tax].number, tax).toBe('')
          expect(w.taxIcons[i], tax).toBe('Neutral')
        } else expect(w.taxes[i], tax).toBe(Number(pool[tax]))
      }
      // The older copy reads the same taxes through `length` and element "0".
      expect(w.arrayTaxes).toEqual(w.taxes)
      expect(answer.body.honeypotDetails.length).toBe(1)
      // When the report was measured: the contract view's time.
      expect(answer.body.tokenInformation.generalInformation.lastUpdated).toBe(v1.tokenInformation.lastUpdated)
      expect(Number.isNaN(w.updated.getTime())).toBe(false)
      // The owner the zoo deployed, shortened as the widget shows it.
      expect(w.ownership).toBe(`${token.owner.slice(0, 4)}...${token.owner.slice(-4)}`)
      expect(w.mintable).toBe(token.codeChecks.isMintable === '1')
      expect(w.freezable).toBe(token.codeChecks.isBlacklisted === '1')
      expect(w.feeModifiable).toBe(token.codeChecks.slippageModifiable === '1')
      // No risk is "" (their Critical icon): every one is a number of the scale.
      expect(riskNumbers(answer.body).filter(([, r]) => typeof r !== 'number')).toEqual([])
      // The type every client parses it with.
      expect(answer.type).toBe(JSON_TYPE)
    }
    // Both widget paths answer the same body.
    expect((await get(ui(token.address))).text).toBe((await get(frontend(token.address))).text)
    const w = c6((await get(frontend(token.address), keys.v1)).body)
    if (!w.notSupported) showRow('C6 widget paths (description)', cls, `${w.status}, taxes ${w.taxes.join('/')} % (older copy via length/"0": ${w.arrayTaxes.join('/')}), Critical ${w.critical}, RISKY ${w.risky}, score ${w.score}, ${w.holders} holders`)
  })
})

describe('every zoo token on the widget path: a honeypot is never "Not a Honeypot"', () => {
  it.each(world.manifest.tokens.map((x) => [x.key, x] as const))('%s', async (_key, token) => {
    const answer = await get(frontend(token.address))
    expect(answer.status).toBe(200)
    expect(check.description.Check(answer.body), JSON.stringify([...check.description.Errors(answer.body)].slice(0, 2))).toBe(true)
    const w = c6(answer.body)
    if (w.notSupported) throw new Error('a token read as not supported')
    // A trap on the token's own recorded pair is on a pair the world's DEX does not list among its pools.
    const isHoneypot = token.pools.some((p) => p.isPairHoneypot === '1') || token.behaviours.includes('honeypot-own-pair')
    expect(w.status).toBe(isHoneypot ? 'Is a Honeypot' : 'Not a Honeypot')
    expect(w.mintable).toBe(token.codeChecks.isMintable === '1')
    expect(w.freezable).toBe(token.codeChecks.isBlacklisted === '1')
    // A power present never reads as its safe heading; one measured absent never as its risky one.
    const items = Object.values(answer.body.codeChecks.codeCheckDescription).flat() as Json[]
    for (const item of items.filter((i) => i.check in token.codeChecks)) {
      const want = token.codeChecks[item.check as keyof typeof token.codeChecks]
      expect(item.status, item.check).toBe(want)
      if (want === '1') expect(item.risk, item.check).toBeLessThanOrEqual(3)
    }
    expect(c2(answer.body, 'solana').mintable).toBe(token.codeChecks.isMintable === '0' ? 'No' : 'Yes')
    expect(c2(answer.body, 'solana').feeModifiable).toBe(token.codeChecks.slippageModifiable === '0' ? 'No' : 'Possibly')
    expect(parseFloatJs(answer.body.honeypotDetails.overAllScorePercentage)).toBeGreaterThanOrEqual(0)
  })
})

describe('the paused Solana mint (and the Solana clean and taxed mints), as each client shows them', () => {
  const cases = [
    ['paused', 't22-paused'],
    ['clean', 'clean-spl'],
    ['taxed', 't22-transfer-fee'],
  ] as const

  it.each(cases)('the %s mint in both views', async (cls, key) => {
    const m = mint(key)
    const v1 = await get(solanaUrl(m.address), keys.v1)
    const v2 = await get(solanaUrl(m.address), keys.v2)
    expect([v1.status, v2.status]).toEqual([200, 200])
    // The contract has no Solana shape: both views answer the one Solana body.
    expect(v2.text).toBe(v1.text)
    // The Solana widget sends its parameters to this path too.
    const widget = await get(solanaUrl(m.address, '?distinctId=$device:1921f267d7f65c-test&generateGptInput=true&generateChecksDescription=true'), keys.v2)
    expect(widget.text).toBe(v1.text)
    expect(check.solana.Check(v1.body), JSON.stringify([...check.solana.Errors(v1.body)].slice(0, 2))).toBe(true)
    const body = v1.body
    const trapped = m.isHoneypot === '1' || m.pools.some((p) => p.isPairHoneypot === '1')

    const agent = c2(body, 'solana')
    expect(agent.honeypot).toBe(trapped ? 'Yes' : 'No')
    expect(agent.mintable).toBe(m.codeChecks.isMintable === '0' ? 'No' : 'Yes')
    expect(agent.holders).toBe(m.holders.count)

    const w = c6(body)
    if (w.notSupported) throw new Error('a mint read as not supported')
    expect(w.status).toBe(trapped ? 'Is a Honeypot' : 'Not a Honeypot')
    // The total on its 0–100 scale: a paused mint's is not "-1.85%".
    expect(w.score.startsWith('-')).toBe(false)
    expect(body.honeypotDetails.overAllScorePercentage).toBeGreaterThanOrEqual(0)
    expect(Number.isNaN(w.ageDays)).toBe(false)
    expect(Number.isNaN(w.holders)).toBe(false)
    // Revoked reads "Renounced", never the unknown mark.
    expect(w.ownership).toBe(m.mintAuthority === '' ? 'Renounced' : `${m.mintAuthority.slice(0, 4)}...${m.mintAuthority.slice(-4)}`)
    expect([w.mintable, w.freezable, w.metadataMutable, w.feeModifiable]).toEqual(
      [m.codeChecks.isMintable, m.codeChecks.isFreezable, m.codeChecks.metadataMutable, m.codeChecks.transferFeeModifiable].map((s) => s === '1'),
    )
    expect(w.critical).toBe(w.categories.critical)
    expect(riskNumbers(body).filter(([, r]) => typeof r !== 'number')).toEqual([])
    const fee = m.transferFee.currentBasisPoints ? Number(m.transferFee.currentBasisPoints) / 100 : 0
    if (cls === 'taxed') expect(w.taxes).toEqual([fee, fee, fee])
    if (cls === 'clean') expect(w.taxes).toEqual([0, 0, 0])
    if (cls === 'paused') {
      // Nothing can be traded: no tax was measured ("" — the widget's own `|| "0"` shows 0), drawn neutral, never Critical for want of a value.
      expect([body.honeypotDetails.buyTax.number, body.honeypotDetails.sellTax.number]).toEqual(['', ''])
      expect(w.taxIcons).toEqual(['Neutral', 'Neutral', 'Neutral'])
      expect(body.honeypotDetails.honeypotReason).toMatch(/paused/)
      expect(w.critical).toBeGreaterThan(0)
    }
    expect(c7(v1, 'solana')).toEqual({ name: m.name, score: body.honeypotDetails.overAllScorePercentage })
  })
})

describe('an address that holds no token', () => {
  it('the contract view keeps its 404; the quillcheck-v2 view and the widget paths answer 200 with errorStatus 420 and a message', async () => {
    const v1 = await get(information(NO_TOKEN), keys.v1)
    expect(v1.status).toBe(404)
    expect(v1.body.message).toMatch(/no contract/)
    for (const answer of [await get(information(NO_TOKEN), keys.v2), await get(frontend(NO_TOKEN), keys.v1), await get(ui(NO_TOKEN), keys.v2), await get(information(NO_TOKEN, '&format=quillcheck-v2'), keys.v1)]) {
      expect(answer.status).toBe(200)
      expect(answer.type).toBe(JSON_TYPE)
      expect(check.notSupported.Check(answer.body)).toBe(true)
      expect(answer.body).toEqual({ errorStatus: 420, message: expect.stringMatching(/no contract/) })
      // Never a body that reads as a token.
      expect(c6(answer.body)).toEqual({ notSupported: true })
      expect(c7(answer, 'evm')).toEqual({ notSupported: expect.stringMatching(/no contract/) })
      expect((answer.body.honeypotDetails?.isTokenHoneypot ?? 1) == 0).toBe(false) // eslint-disable-line eqeqeq
    }
    // A v1 key is the wrong key for the MCP pass-through: it answers its own 500.
    expect(c7(v1, 'evm')).toEqual({ error: 500 })
  })

  it('a chain this instance does not serve is "not supported" too, where the contract view says 400', async () => {
    const url = `/api/v1/tokens/information/${evmToken('clean').address}?chainId=5`
    expect((await get(url, keys.v1)).status).toBe(400)
    const v2 = await get(url, keys.v2)
    expect([v2.status, v2.body.errorStatus]).toEqual([200, 420])
    expect(v2.body.message).toMatch(/unsupported chainId '5'/)
    const widget = await get(`/api/v1/tokens/frontend/information/${evmToken('clean').address}?chainId=5&generateChecksDescription=true`)
    expect([widget.status, widget.body.errorStatus]).toEqual([200, 420])
  })

  it('a Solana address without a mint: 404 in v1, errorStatus 420 in quillcheck-v2', async () => {
    const none = solanaWorld.manifest.notMints.empty
    expect((await get(solanaUrl(none), keys.v1)).status).toBe(404)
    const v2 = await get(solanaUrl(none), keys.v2)
    expect([v2.status, v2.type]).toEqual([200, JSON_TYPE])
    expect(v2.body).toEqual({ errorStatus: 420, message: expect.stringMatching(/no account exists/) })
    expect(c6(v2.body)).toEqual({ notSupported: true })
    // Malformed input stays a 400 in every view: it is not an address at all.
    expect((await get(solanaUrl('0OIl'), keys.v2)).status).toBe(400)
  })
})

describe('one format rule on every token route', () => {
  const routes = () => [
    information(evmToken('clean').address),
    frontend(evmToken('clean').address),
    ui(evmToken('clean').address),
    solanaUrl(mint('clean-spl').address, '?x=1'),
  ]

  it('an unknown, empty or repeated format is the same 400 everywhere, before anything is computed', async () => {
    for (const url of routes()) {
      for (const bad of ['garbage', '', 'QUILLCHECK-V2', 'v1&format=v1']) {
        const res = await api.app.inject({ url: `${url}&format=${bad}`, headers: { 'x-api-key': keys.v1 } })
        expect(res.statusCode, `${url} ${bad}`).toBe(400)
        const message = bad.includes('&') ? 'format was given more than once: give it once' : 'format must be one of v1, quillcheck-v2'
        expect(res.json().message, `${url} ${bad}`).toBe(message)
        expect(res.headers['content-type']).toBe(JSON_TYPE)
      }
    }
  })

  it('the request names the view, else the key, else DEFAULT_FORMAT', async () => {
    const address = evmToken('clean').address
    const isV2 = (b: Json) => !Array.isArray(b.honeypotDetails) && typeof b.tokenScore.totalScore === 'object'
    // DEFAULT_FORMAT v1 (the software's default): a key without a format of its own gets the contract's view.
    expect(isV2((await get(information(address), keys.plain)).body)).toBe(false)
    // DEFAULT_FORMAT quillcheck-v2: the same key gets the newer view; a key pinned to v1 keeps v1; the request wins over both.
    expect(isV2((await get(information(address), keys.plain, hosted)).body)).toBe(true)
    expect(isV2((await get(information(address), keys.v1, hosted)).body)).toBe(false)
    expect(isV2((await get(information(address, '&format=v1'), keys.plain, hosted)).body)).toBe(false)
    expect(isV2((await get(information(address, '&format=quillcheck-v2'), keys.v1)).body)).toBe(true)
    // On Solana the format decides an unknown mint's answer.
    expect((await get(solanaUrl(solanaWorld.manifest.notMints.empty), keys.plain, hosted)).body.errorStatus).toBe(420)
    expect((await get(solanaUrl(solanaWorld.manifest.notMints.empty, '?format=v1'), keys.plain, hosted)).status).toBe(404)
    // The widget paths answer the description shape in every format.
    const plain = await get(frontend(address), keys.plain)
    expect((await get(`${frontend(address)}&format=v1`, keys.v2)).text).toBe(plain.text)
  })

  it('the OpenAPI document gives every token route the same format parameter, the widget paths their parameters, and the 420 body', async () => {
    const doc = (await api.app.inject('/openapi.json')).json()
    const ops = ['information', 'frontend/information', 'ui/information', 'solana'].map((p) => doc.paths[`/api/v1/tokens/${p}/{tokenAddress}`].get)
    const formats = ops.map((op: Json) => op.parameters.find((p: Json) => p.name === 'format'))
    for (const f of formats) expect(f).toEqual(formats[0])
    expect(formats[0].schema.enum).toEqual(['v1', 'quillcheck-v2'])
    for (const op of ops.slice(1, 3)) {
      expect(op.parameters.map((p: Json) => p.name).sort()).toEqual(['chainId', 'distinctId', 'format', 'generateChecksDescription', 'generateGptInput', 'tokenAddress'])
      expect(JSON.stringify(op.responses['200'])).toContain('QuillcheckDescriptionReport')
      expect(op.responses['404']).toBeUndefined()
    }
    for (const op of ops) expect(JSON.stringify(op.responses['200'])).toContain('NotSupported')
    expect(doc.components.schemas.NotSupported.properties.errorStatus.enum).toEqual([420])
    const description = doc.components.schemas.QuillcheckDescriptionReport
    expect(Object.keys(description.properties)).toEqual(['tokenInformation', 'codeChecks', 'marketChecks', 'honeypotDetails', 'riskCategories'])
    expect(description.properties.tokenInformation.properties.generalInformation.properties.tokenCreationDate.description).toMatch(/DD\/MM\/YYYY/)
  })
})

describe('Content-Type on every JSON answer of every route and view', () => {
  it('walks every route the app has, in every view, answers and errors alike', async () => {
    const clean = evmToken('clean').address
    // The route tree: each line is a path's rest after its parent's (four characters a level).
    const routes: string[] = []
    const parents: string[] = []
    for (const line of api.app.printRoutes({ commonPrefix: false }).split('\n')) {
      const m = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line)
      if (!m) continue
      const depth = m[1].length / 4
      const path = (parents[depth - 1] ?? '') + m[2]
      parents.length = depth
      parents.push(path)
      if (m[3]?.split(', ').includes('GET')) routes.push(path)
    }
    expect(routes).toEqual(expect.arrayContaining(['/api/v1/tokens/information/:tokenAddress', '/api/v1/tokens/frontend/information/:tokenAddress', '/healthz', '/openapi.json']))
    /** A URL for each route: a real token, mint or project where it takes one. */
    const fill = (route: string) =>
      route
        .replace('/api/v1/tokens/solana/:tokenAddress', `/api/v1/tokens/solana/${mint('clean-spl').address}?`)
        .replace(/\/api\/v1\/tokens\/(.*information)\/:tokenAddress/, `/api/v1/tokens/$1/${clean}?chainId=${CHAIN}`)
        .replace('/api/v1/projects/audit/history', '/api/v1/projects/audit/history?projectId=p&userId=client')
        .replace(/:[A-Za-z]+|\*/g, 'x')
    const urls = routes.filter((r) => !r.startsWith('/docs')).flatMap((r) => {
      const url = fill(r)
      const sep = url.includes('?') ? '&' : '?'
      return r.startsWith('/api/v1/tokens/') && r !== '/api/v1/tokens/chains' ? [`${url}${sep}format=v1`, `${url}${sep}format=quillcheck-v2`, `${url}${sep}format=bad`, url] : [url]
    })
    const walked: string[] = []
    for (const url of [...urls, '/docs/json', '/nowhere', information(NO_TOKEN), information(NO_TOKEN, '&format=quillcheck-v2'), solanaUrl(solanaWorld.manifest.notMints.empty, '?format=quillcheck-v2')]) {
      for (const key of [keys.v1, keys.v2, '']) {
        const res = await api.app.inject({ url, headers: key ? { 'x-api-key': key } : {} })
        let isJson = true
        try {
          JSON.parse(res.body)
        } catch {
          isJson = false
        }
        const html = /^text\/html/.test(String(res.headers['content-type'])) || /^text\/plain/.test(String(res.headers['content-type']))
        // The pages' search form answers with a redirect to the page it asked for.
        const redirect = res.statusCode >= 300 && res.statusCode < 400 && typeof res.headers.location === 'string'
        if (!html && !redirect) expect(isJson, `${url}: ${res.statusCode} ${res.body.slice(0, 80)}`).toBe(true)
        if (isJson) expect(res.headers['content-type'], `${url} (${res.statusCode})`).toBe(JSON_TYPE)
        walked.push(`${res.statusCode} ${url.split('?')[0]}`)
      }
    }
    // Answers and errors of the token routes were among them.
    for (const status of ['200', '400', '401', '404']) expect(walked.some((w) => w.startsWith(status) && w.includes('/api/v1/tokens/'))).toBe(true)
  }, 120_000)
})

// The table of the closing note: every path × view × token class, its status and what clients read.
afterAll(async () => {
  const out = process.env.COMPAT_TABLE_OUT
  if (!out || !world || !solanaWorld) return
  const rows: string[] = ['| Path | View | Class | Status | What clients read |', '|---|---|---|---|---|']
  const evm = [['honeypot', evmToken('honeypot').address], ['clean', evmToken('clean').address], ['taxed (3/7/1 %)', evmToken('tax-3-7-1').address], ['unknown address', NO_TOKEN]] as const
  for (const [cls, address] of evm) {
    for (const [view, key] of [['v1', keys.v1], ['quillcheck-v2', keys.v2]] as const) {
      const a = await get(information(address), key)
      const read =
        a.status !== 200
          ? `message "${a.body.message}"`
          : a.body.errorStatus === 420
            ? `errorStatus 420, "${a.body.message}"`
            : view === 'v1'
              ? `isPairHoneypot ${a.body.honeypotDetails.map((p: Json) => JSON.stringify(p.isPairHoneypot)).join('/')}; taxes ${a.body.honeypotDetails[0].buyTax.number || '""'}/${a.body.honeypotDetails[0].sellTax.number || '""'}/${a.body.honeypotDetails[0].transferTax.number || '""'}; totalScorePercentage "${a.body.tokenScore.totalScorePercentage}"`
              : (() => {
                  const c = c5(a.body)
                  return `isTokenHoneypot ${JSON.stringify(a.body.honeypotDetails.isTokenHoneypot)}; [0] taxes ${c.taxes.join('/')} (C5); totalScore.percent ${a.body.tokenScore.totalScore.percent}; Critical ${c.critical}; riskCategories ${c.counters.join('/')}; holders ${c.holders}; lastUpdated ${a.body.tokenInformation.lastUpdated}`
                })()
      rows.push(`| /tokens/information | ${view} | ${cls} | ${a.status} | ${read} |`)
    }
    for (const path of ['frontend', 'ui']) {
      const a = await get(path === 'frontend' ? frontend(address) : ui(address))
      const w = c6(a.body)
      const read = w.notSupported
        ? `errorStatus 420, "${a.body.message}"`
        : `${w.status}; score ${w.score}; taxes ${w.taxes.join('/')} % (icons ${w.taxIcons.join('/')}; older widget's [0] ${w.arrayTaxes.join('/')}); holders ${w.holders}; Critical ${w.critical} (riskCategories ${w.categories.critical}); owner ${w.ownership}; created ${a.body.tokenInformation.generalInformation.tokenCreationDate}; lastUpdated ${a.body.tokenInformation.generalInformation.lastUpdated}`
      rows.push(`| /tokens/${path}/information | description | ${cls} | ${a.status} | ${read} |`)
    }
  }
  const sol = [['paused mint', mint('t22-paused').address], ['clean', mint('clean-spl').address], ['taxed (2.5 %)', mint('t22-transfer-fee').address], ['unknown address', solanaWorld.manifest.notMints.empty]] as const
  for (const [cls, address] of sol) {
    for (const [view, key] of [['v1', keys.v1], ['quillcheck-v2', keys.v2]] as const) {
      const a = await get(solanaUrl(address), key)
      const w = a.status === 200 ? c6(a.body) : undefined
      const read =
        a.status !== 200
          ? `message "${a.body.message}"`
          : !w || w.notSupported
            ? `errorStatus 420, "${a.body.message}"`
            : `${w.status}; overAllScorePercentage ${a.body.honeypotDetails.overAllScorePercentage} (${w.score}); taxes ${JSON.stringify(a.body.honeypotDetails.buyTax.number)}/${JSON.stringify(a.body.honeypotDetails.sellTax.number)} (icons ${w.taxIcons.join('/')}); owner ${w.ownership}; [0..3] ${[w.mintable, w.freezable, w.metadataMutable, w.feeModifiable].map((x) => (x ? 'risky' : 'safe')).join('/')}; Critical ${w.critical}; lastUpdated ${a.body.tokenInformation.generalInformation.lastUpdated}`
      rows.push(`| /tokens/solana | ${view} | ${cls} | ${a.status} | ${read} |`)
    }
  }
  await writeFile(out, `${rows.join('\n')}\n`)
})
