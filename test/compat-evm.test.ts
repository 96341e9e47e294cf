// The EVM endpoint read the way public clients of the hosted service read it: for every zoo
// token, both shapes (the contract's `v1` and `quillcheck-v2`) are fetched over HTTP and only the
// field paths quillcheck-compat.md lists are read, with the JavaScript/Python semantics those
// clients apply (`=== 1`, `== 0`, `parseFloat`, `=== true`, lookups by `name`). What a client
// would show is compared with the world's manifest: the honeypot is a honeypot, the clean token
// has no powers, scores are numbers. Also: format selection per key and per request, and the
// OpenAPI document.
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { loadConfig } from '../src/config/settings.ts'
import { createMetrics } from '../src/http/metrics.ts'
import { QuillcheckV2Report } from '../src/contract/quillcheck-v2.ts'
import { TokenReport } from '../src/contract/token-report.ts'
import { OTHER_CHECKS, OWNERSHIP_CHECKS, type EvmCheckName } from '../src/contract/checks.ts'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { localChains } from '@tokenrisk/devworld/local-chain'
import type { ManifestToken } from '@tokenrisk/devworld/manifest'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

const DATA_DIR = TEST_DEVNET_DIR
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
const checkV1 = TypeCompiler.Compile(TokenReport)
const checkV2 = TypeCompiler.Compile(QuillcheckV2Report)

/** A JSON value read by path, as a client's property access would (undefined when absent). */
type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any

let world: World
let t: TestStore
let api: TestApp
let v1Key: string
let v2Key: string
let evmService: ReturnType<typeof createEvmEngine>['service']
const bodies = new Map<string, { v1: Json; v2: Json; v1Text: string }>()

// Started while the tests are collected, so that each zoo token gets tests of its own.
world = await startWorld({ dataDir: DATA_DIR })
const tokens: ManifestToken[] = world.manifest.tokens

const url = (address: string, query = '') => `/api/v1/tokens/information/${address}?chainId=31337${query}`

beforeAll(async () => {
  const config = { ...loadConfig({ DATA_DIR, REQUEST_TIMEOUT_MS: '60000' }), devnet: 'on' as const }
  t = await embeddedStore()
  const metrics = createMetrics({ defaultMetrics: false })
  const deps = { config, env: {}, cache: createMemoryCache(), store: t.store, logger: silent, metrics }
  const evm = createEvmEngine({ ...deps, chains: localChains(world.manifest) })
  evmService = evm.service
  const solana = createSolanaEngine({ ...deps, rpcUrls: [] })
  api = await buildTestApp(t.store, { tokens: { evm: evm.service, solana }, metrics, options: { requestTimeoutMs: 60_000 } })
  v1Key = (await api.keys.create({ userId: 'migrating' })).key
  v2Key = (await api.keys.create({ userId: 'migrating', format: 'quillcheck-v2' })).key
  for (const token of tokens) {
    const v1 = await api.app.inject({ url: url(token.address), headers: { 'x-api-key': v1Key } })
    const v2 = await api.app.inject({ url: url(token.address), headers: { 'x-api-key': v2Key } })
    expect(v1.statusCode, `${token.key} v1: ${v1.body.slice(0, 200)}`).toBe(200)
    expect(v2.statusCode, `${token.key} v2: ${v2.body.slice(0, 200)}`).toBe(200)
    bodies.set(token.key, { v1: v1.json(), v2: v2.json(), v1Text: v1.body })
  }
}, 600_000)

afterAll(async () => {
  await api?.app.close()
  await t?.cleanup()
  await world?.stop()
})

const body = (key: string) => {
  const b = bodies.get(key)
  if (!b) throw new Error(`no answer for ${key}`)
  return b
}
const manifestToken = (key: string) => tokens.find((x) => x.key === key)!
const lower = (a: string) => a.toLowerCase()
/** JavaScript's `parseFloat`, as the clients apply it to scores. */
const parseScore = (v: unknown) => Number.parseFloat(String(v))
/** The label names clients look up in `aggregatedCount`, in the order one client reads by index. */
const COUNT_NAMES = ['Critical', 'RISKY', 'Medium Risk', 'Neutral']

describe('format selection', () => {
  it('a key made with --format quillcheck-v2 gets the newer shape, a default key the contract shape', () => {
    for (const token of tokens) {
      const { v1, v2 } = body(token.key)
      expect(checkV1.Check(v1), `${token.key} v1 ${JSON.stringify([...checkV1.Errors(v1)].slice(0, 2))}`).toBe(true)
      expect(checkV2.Check(v2), `${token.key} v2 ${JSON.stringify([...checkV2.Errors(v2)].slice(0, 2))}`).toBe(true)
    }
  })

  it('?format overrides the key both ways; the default stays the contract shape, byte for byte', async () => {
    const address = manifestToken('clean').address
    const asV1 = await api.app.inject({ url: url(address, '&format=v1'), headers: { 'x-api-key': v2Key } })
    const plain = await api.app.inject({ url: url(address), headers: { 'x-api-key': v1Key } })
    expect(asV1.statusCode).toBe(200)
    expect(asV1.body).toBe(plain.body)
    // The report fetched earlier may have been measured again since (its cache time passed): only its time differs.
    const timeless = (text: string) => text.replace(/"lastUpdated":"[^"]*"/, '"lastUpdated":""')
    expect(timeless(plain.body)).toBe(timeless(body('clean').v1Text))
    // The contract's report as the engine renders it, serialized as is: the same bytes.
    expect(plain.body).toBe(JSON.stringify(await evmService.report(31337, address, {})))
    expect(Array.isArray(asV1.json().honeypotDetails)).toBe(true)
    const asV2 = await api.app.inject({ url: url(address, '&format=quillcheck-v2'), headers: { 'x-api-key': v1Key } })
    expect(timeless(asV2.body)).toBe(timeless(JSON.stringify(body('clean').v2)))
    expect(asV2.headers.vary).toMatch(/x-api-key/)
    expect(asV2.headers.etag).not.toBe(plain.headers.etag)
  })

  it('answers 400 naming the formats for an unknown one, before computing anything', async () => {
    for (const bad of ['v2', 'QUILLCHECK-V2', '']) {
      const res = await api.app.inject({ url: url(manifestToken('clean').address, `&format=${bad}`), headers: { 'x-api-key': v2Key } })
      expect(res.statusCode, bad).toBe(400)
      expect(res.json().message).toBe('format must be one of v1, quillcheck-v2')
    }
  })

  it('a chain id without its parameter name (a client copying `?{chainId}`) is told what is missing', async () => {
    const res = await api.app.inject({ url: `/api/v1/tokens/information/${manifestToken('clean').address}?31337`, headers: { 'x-api-key': v2Key } })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe("must have required property 'chainId'")
  })

  it('the OpenAPI document has both shapes, the format parameter and its values', async () => {
    const doc = (await api.app.inject('/openapi.json')).json()
    const op = doc.paths['/api/v1/tokens/information/{tokenAddress}'].get
    const format = op.parameters.find((p: Json) => p.name === 'format')
    expect(format.in).toBe('query')
    expect(format.schema.enum).toEqual(['v1', 'quillcheck-v2'])
    const refs = JSON.stringify(op.responses['200'])
    expect(refs).toContain('TokenReport')
    expect(refs).toContain('QuillcheckV2Report')
    const v2 = doc.components.schemas.QuillcheckV2Report
    expect(Object.keys(v2.properties.codeChecks.properties.ownershipChecks.properties)).toEqual(
      expect.arrayContaining(['hiddenOwner', 'isOpenSource', 'isBlacklisted', 'isWhitelisted', 'antiwhaleModifiable', 'ownerCanChangeBalance']),
    )
    expect(v2.properties.honeypotDetails.properties.isTokenHoneypot).toBeTruthy()
  })
})

describe.each(tokens.map((x) => [x.key] as const))('as a client reads token %s', (key) => {
  const token = () => manifestToken(key)

  it('the newer shape: honeypot summary, powers, scores and counts as a client shows them', () => {
    const token_ = token()
    const r = body(key).v2
    // A pair the token records on an exchange the chain does not list, and a pool found among the
    // token's holders, are pools of the report too (the world's manifest lists the pools it seeded).
    const found = (body(key).v1.honeypotDetails as Json[]).filter(
      (p) =>
        (String(p.dex).startsWith('unlisted') || String(p.venue ?? '').startsWith('a holder of the token that answers as a pool')) &&
        !token_.pools.some((q) => lower(q.pairAddress) === lower(String(p.pairAddress))),
    )
    const m = { ...token_, pools: [...token_.pools, ...found.map((p) => ({ pairAddress: String(p.pairAddress), isPairHoneypot: String(p.isPairHoneypot) }))] }
    // Honeypot: one client tests `=== 1`, another `get('isTokenHoneypot', 1) == 0` (Python).
    const isHoneypot = m.pools.some((p) => p.isPairHoneypot === '1')
    expect(r.honeypotDetails.isTokenHoneypot === 1, 'isTokenHoneypot === 1').toBe(isHoneypot)
    expect((r.honeypotDetails.isTokenHoneypot ?? 1) == 0, 'isTokenHoneypot == 0').toBe(!isHoneypot) // eslint-disable-line eqeqeq
    expect(r.honeypotDetails.honeypotFound.totalPools).toBe(m.pools.length)
    // A pool found among the holders that could not be traded (its other token unpriced) is listed with "", not simulated.
    expect(r.honeypotDetails.honeypotFound.poolsSimulated).toBe(m.pools.filter((p) => p.isPairHoneypot !== '').length)
    expect(r.honeypotDetails.honeypotFound.honeypotPools).toBe(m.pools.filter((p) => p.isPairHoneypot === '1').length)
    expect(r.honeypotDetails.honeypotPairs.map((p: Json) => lower(p.pairAddress)).sort()).toEqual(
      m.pools.filter((p) => p.isPairHoneypot === '1').map((p) => lower(p.pairAddress)).sort(),
    )
    for (const p of r.honeypotDetails.honeypotPairs) expect(p.honeypotReason, 'honeypotReason').not.toBe('')

    // Powers: a client prints "Yes" when `status === true`, and reads `riskStatus`.
    const checks = { ...r.codeChecks.ownershipChecks, ...r.codeChecks.otherChecks }
    for (const name of [...OWNERSHIP_CHECKS, ...OTHER_CHECKS] as EvmCheckName[]) {
      const want = m.codeChecks[name]
      const check = checks[name]
      expect(check.status === true, `${name} shown present`).toBe(want === '1')
      expect(check.status === false, `${name} shown absent`).toBe(want === '0')
      if (want === '1') expect(check.risk.riskRating, `${name} risk`).toBeLessThanOrEqual(3)
      if (want === '0') expect(check.risk.riskRating, `${name} risk`).toBeGreaterThanOrEqual(4)
      expect(check.risk.riskStatus === '', `${name} unrated`).toBe(want === '')
    }
    expect(r.codeChecks.ownershipChecks.ownerCanChangeBalance.status).toBe(r.codeChecks.ownershipChecks.ownerChangeBalance.status)
    // Not measured: never shown as closed source.
    expect(r.codeChecks.ownershipChecks.isOpenSource.status).toBe('')

    // Scores: `parseFloat(percent)`, compared with 70 and 50.
    for (const part of ['totalScore', 'codeScore', 'marketScore']) {
      expect(typeof r.tokenScore[part].percent, part).toBe('number')
      expect(Number.isFinite(parseScore(r.tokenScore[part].percent)), part).toBe(true)
    }
    if (isHoneypot && m.pools.every((p) => p.isPairHoneypot === '1')) expect(parseScore(r.tokenScore.totalScore.percent)).toBeLessThanOrEqual(0)

    // Counts: looked up by name; one client reads element 0 as the Critical count.
    const counts = r.tokenInformation.totalChecksInformation.aggregatedCount
    expect(counts.slice(0, 4).map((c: Json) => c.name)).toEqual(COUNT_NAMES)
    const critical = counts.find((c: Json) => c.name === 'Critical').count
    expect(critical).toBe(counts[0].count)
    const presentCritical = Object.entries(r.codeChecks.ownershipChecks)
      .concat(Object.entries(r.codeChecks.otherChecks))
      .filter(([name, c]: [string, Json]) => name !== 'ownerCanChangeBalance' && c.status === true && c.risk.riskStatus === 'Critical').length
    expect(critical).toBe(presentCritical + (isHoneypot ? 1 : 0))
    const performed = r.tokenInformation.totalChecksInformation.checksPerformed
    expect(counts.reduce((a: number, c: Json) => a + c.count, 0)).toBe(performed)

    // Market figures: numbers where clients compute, USD as a string.
    const agg = r.marketChecks.liquidityChecks.aggregatedInformation
    expect(agg.tradingPairCount.number).toBe(token_.pools.length)
    expect(typeof agg.totalLpSupplyInUsd.number).toBe('string')
    expect(Number.isFinite(Number.parseFloat(agg.totalLpSupplyInUsd.number))).toBe(true)
    expect(r.marketChecks.holdersChecks.holdersCount.number).toBe(m.holders.count)
    expect(r.marketChecks.pairByPairInformation.map((p: Json) => lower(p.pairAddress)).sort()).toEqual(token_.pools.map((p) => lower(p.pairAddress)).sort())
    for (const p of r.marketChecks.liquidityChecks.pairByPairInformation) {
      const pool = token_.pools.find((x) => lower(x.pairAddress) === lower(p.pairAddress))!
      expect(p.dexName).toBe(pool.dex)
      expect([lower(p.token0Address), lower(p.token1Address)]).toEqual(pool.pair.map(lower))
      expect([p.token0Symbol, p.token1Symbol]).toContain(pool.quoteSymbol)
      expect(Math.abs(Number(p.lpSupplyInUsd) / Number(pool.liquidityUsd) - 1)).toBeLessThan(0.001)
    }
    if (m.liquidity) {
      const locked = Number(m.liquidity.lockedPercent) + Number(m.liquidity.burnedPercent)
      expect(agg.percentDistributed.locked.percent).toBeCloseTo(locked, 3)
      expect(agg.percentDistributed.burnt.percent).toBeCloseTo(Number(m.liquidity.burnedPercent), 3)
    }
    // Key holders: the top three, flags as booleans.
    const top = r.marketChecks.holdersChecks.keyHolders
    expect(top.map((h: Json) => ({ address: lower(h.address), isContract: h.isContract, isLocked: h.isLocked }))).toEqual(
      m.holders.top.slice(0, 3).map((h) => ({ address: lower(h.address), isContract: h.isContract, isLocked: h.isLocked })),
    )
    for (const h of top) expect(typeof h.percent).toBe('number')
  })

  it('the contract shape: flags, labels and scores as a client of the older shape shows them', () => {
    const m = token()
    const r = body(key).v1
    for (const pool of m.pools) {
      const d = r.honeypotDetails.find((x: Json) => lower(x.pairAddress) === lower(pool.pairAddress))
      expect(d.isPairHoneypot, `${pool.quoteSymbol} isPairHoneypot`).toBe(pool.isPairHoneypot)
    }
    const checks = { ...r.codeChecks.ownershipChecks, ...r.codeChecks.otherChecks }
    for (const name of [...OWNERSHIP_CHECKS, ...OTHER_CHECKS] as EvmCheckName[]) {
      expect(checks[name].status, name).toBe(m.codeChecks[name])
      const label = checks[name].risk
      if (m.codeChecks[name] === '0') expect(['Nice To Have', 'Good To Have', 'Great To Have'], `${name} absent`).toContain(label)
      if (m.codeChecks[name] === '1') expect(['Critical', 'RISKY', 'Medium Risk', 'Neutral'], `${name} present`).toContain(label)
    }
    for (const s of [r.tokenScore.totalScorePercentage, r.tokenScore.codeScorePercentage, r.tokenScore.marketScorePercentage]) {
      expect(s).toMatch(/^-?\d+\.\d\d$/)
      expect(Number.isFinite(parseScore(s))).toBe(true)
    }
  })
})

describe('what a client shows for the landmark tokens', () => {
  it('the honeypot is a honeypot in both shapes', () => {
    const { v1, v2 } = body('honeypot')
    expect(v2.honeypotDetails.isTokenHoneypot).toBe(1)
    expect(v1.honeypotDetails.some((d: Json) => d.isPairHoneypot === '1')).toBe(true)
    expect(v2.tokenInformation.totalChecksInformation.aggregatedCount[0].count).toBeGreaterThan(0)
  })

  it('the clean token has no powers: no check shown present, none Critical, its mint "Great To Have"', () => {
    const { v1, v2 } = body('clean')
    const checks = { ...v2.codeChecks.ownershipChecks, ...v2.codeChecks.otherChecks }
    expect(Object.entries(checks).filter(([, c]: [string, Json]) => c.status === true).map(([n]) => n)).toEqual([])
    expect(v2.honeypotDetails.isTokenHoneypot).toBe(0)
    expect(v2.tokenInformation.totalChecksInformation.aggregatedCount.find((c: Json) => c.name === 'Critical').count).toBe(0)
    expect(v1.codeChecks.ownershipChecks.isMintable.risk).toBe('Great To Have')
    expect(v2.codeChecks.ownershipChecks.isMintable.risk).toEqual({ riskRating: 6, riskStatus: 'Great To Have' })
  })

  it('what burn addresses hold is measured, not defaulted', () => {
    const m = manifestToken('lp-locked')
    const dead = m.holders.top.filter((h) => lower(h.address) === '0x000000000000000000000000000000000000dead')
    expect(dead.length).toBe(1)
    const burnt = body('lp-locked').v2.marketChecks.holdersChecks.percentDistributed.burnt
    expect(burnt.percent).toBeCloseTo(Number((BigInt(dead[0].balance) * 1_000_000n) / BigInt(m.totalSupply)) / 10_000, 4)
    expect(burnt.risk).toEqual({ riskRating: '', riskStatus: '' })
  })

  it('a token that traps sellers in one pool only is still a honeypot token, one pool of two', () => {
    const { v2 } = body('pool-honeypot')
    expect(v2.honeypotDetails.isTokenHoneypot).toBe(1)
    expect(v2.honeypotDetails.honeypotFound).toEqual({ poolsSimulated: 2, totalPools: 2, honeypotPools: 1 })
  })
})
