// The token endpoints as a client meets them: auth, the exact 400 messages, 404, 503 from dead or
// silent nodes within the deadline, ETag/Cache-Control, and bodies that are exactly the
// contract's shape (every scalar a string) — served by the real engines on the local worlds.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { loadConfig } from '../src/config/settings.ts'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'
import { startSolanaWorld, type StartedSolanaWorld } from '@tokenrisk/devworld/solana/world'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { createMetrics } from '../src/http/metrics.ts'
import { SolanaReport } from '../src/contract/solana-report.ts'
import { TokenReport } from '../src/contract/token-report.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { gunzipSync } from 'node:zlib'
import { zooToken } from '@tokenrisk/devworld/manifest'

const DATA_DIR = TEST_DEVNET_DIR
const DEADLINE_MS = 3_000
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

const checkTokenReport = TypeCompiler.Compile(TokenReport)
const checkSolanaReport = TypeCompiler.Compile(SolanaReport)

/** Every scalar of a report is a string: numbers, flags and percentages included. */
function nonStringScalars(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => nonStringScalars(v, `${path}[${i}]`))
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => nonStringScalars(v, path ? `${path}.${k}` : k))
  }
  return typeof value === 'string' ? [] : [`${path}: ${JSON.stringify(value)}`]
}

let world: World
let solanaWorld: StartedSolanaWorld
let t: TestStore
let api: TestApp
let key: string
let silentNode: Server

beforeAll(async () => {
  world = await startWorld({ dataDir: DATA_DIR })
  solanaWorld = await startSolanaWorld({ dataDir: DATA_DIR })
  // A node that accepts connections and never answers.
  silentNode = createServer(() => {})
  await new Promise<void>((r) => silentNode.listen(0, '127.0.0.1', () => r()))
  const silentUrl = `http://127.0.0.1:${(silentNode.address() as AddressInfo).port}`
  const env = {
    // Ethereum's entry pointed at a closed port, BNB Chain's at the silent node.
    RPC_URL_1: 'http://127.0.0.1:9',
    RPC_URL_56: silentUrl,
  }
  const config = { ...loadConfig({ DATA_DIR, REQUEST_TIMEOUT_MS: String(DEADLINE_MS) }), devnet: 'on' as const }
  t = await embeddedStore()
  const metrics = createMetrics({ defaultMetrics: false })
  const deps = { config, env, cache: createMemoryCache(), store: t.store, logger: silent, metrics }
  const evm = createEvmEngine({ ...deps, chains: localChains(world.manifest) })
  const solana = createSolanaEngine({ ...deps, rpcUrls: [solanaWorld.rpcUrl], pricing: solanaWorld.manifest.pricing })
  api = await buildTestApp(t.store, { tokens: { evm: evm.service, solana }, metrics, options: { requestTimeoutMs: DEADLINE_MS } })
  key = (await api.keys.create({ userId: 'wallet' })).key
}, 240_000)

afterAll(async () => {
  await api?.app.close()
  await t?.cleanup()
  await world?.stop()
  await solanaWorld?.stop()
  silentNode?.close()
})

const token = (k: string) => zooToken(world.manifest, k).address
const get = (url: string, headers: Record<string, string> = { 'x-api-key': key }) => api.app.inject({ url, headers })
const evmUrl = (address: string, chainId = '31337') => `/api/v1/tokens/information/${address}?chainId=${chainId}`

describe('EVM token endpoint', () => {
  it('answers a report in exactly the contract shape, every scalar a string', async () => {
    const res = await get(evmUrl(token('clean')))
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(checkTokenReport.Check(body), JSON.stringify([...checkTokenReport.Errors(body)].slice(0, 3))).toBe(true)
    expect(nonStringScalars(body)).toEqual([])
    expect(body.tokenInformation.tokenAddress).toBe(token('clean'))
    // The contract's six, in its order, then the extra checks.
    expect(Object.keys(body.codeChecks.ownershipChecks)).toEqual([
      'ownerChangeBalance',
      'isMintable',
      'selfDestruct',
      'transferPausable',
      'slippageModifiable',
      'personalSlippageModifiable',
      'isBlacklisted',
      'isWhitelisted',
      'hiddenOwner',
      'antiwhaleModifiable',
    ])
    expect(Object.keys(body.codeChecks.otherChecks)).toEqual(['externalCall', 'isProxy', 'tradingCooldown', 'cannotBuy', 'cannotSellAll', 'isAntiWhale'])
    expect(body.honeypotDetails.length).toBeGreaterThan(0)
  })

  it('exposes each report\'s round trips, RPC calls, latency and stage durations on /metrics', async () => {
    await get(evmUrl(token('mintable')))
    const text = (await api.app.inject('/metrics')).body
    expect(text).toMatch(/tokenrisk_report_rpc_round_trips_count\{chain="31337"\} [1-9]/)
    expect(text).toMatch(/tokenrisk_report_rpc_calls_sum\{chain="31337"\} [1-9]/)
    expect(text).toMatch(/tokenrisk_report_duration_seconds_count\{chain="31337",cached="false"\} [1-9]/)
    for (const stage of ['collect', 'checks', 'score', 'render']) {
      expect(text).toMatch(new RegExp(`tokenrisk_report_stage_duration_seconds_count\\{chain="31337",stage="${stage}"\\} [1-9]`))
    }
  })

  it('shows a honeypot as such', async () => {
    const body = (await get(evmUrl(token('honeypot')))).json()
    expect(body.honeypotDetails.some((d: { isPairHoneypot: string }) => d.isPairHoneypot === '1')).toBe(true)
  })

  it('carries ETag and Cache-Control, and answers 304 to a matching If-None-Match', async () => {
    const first = await get(evmUrl(token('clean')))
    expect(first.headers['cache-control']).toBe('private, max-age=30')
    const etag = first.headers.etag as string
    expect(etag).toMatch(/^W\/"/)
    const again = await get(evmUrl(token('clean')), { 'x-api-key': key, 'if-none-match': etag })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
  })

  it('answers a cached report gzipped or as it is: the same JSON and ETag, written and compressed once', async () => {
    const plain = await get(evmUrl(token('clean')))
    const gzipped = await get(evmUrl(token('clean')), { 'x-api-key': key, 'accept-encoding': 'br;q=0.5, gzip' })
    expect(gzipped.statusCode).toBe(200)
    expect(gzipped.headers['content-encoding']).toBe('gzip')
    expect(gzipped.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(gzipped.headers.vary).toMatch(/accept-encoding/)
    expect(gunzipSync(gzipped.rawPayload).toString('utf8')).toBe(plain.body)
    expect(gzipped.headers.etag).toBe(plain.headers.etag)
    expect(gzipped.headers['cache-control']).toBe('private, max-age=30')
    // A client refusing gzip gets the JSON as it is.
    expect((await get(evmUrl(token('clean')), { 'x-api-key': key, 'accept-encoding': 'gzip;q=0' })).headers['content-encoding']).toBeUndefined()
    const again = await get(evmUrl(token('clean')), { 'x-api-key': key, 'accept-encoding': 'gzip', 'if-none-match': plain.headers.etag as string })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    expect(again.headers['content-encoding']).toBeUndefined()
  })

  it('answers 401 without a key or with a wrong one, before looking at the parameters', async () => {
    expect((await get(evmUrl(token('clean')), {})).statusCode).toBe(401)
    expect((await get(evmUrl('nope', ''), { 'x-api-key': 'trk_bad' })).statusCode).toBe(401)
    expect((await get('/api/v1/chains', {})).statusCode).toBe(401)
  })

  it("answers 400 `must have required property 'chainId'` without chainId", async () => {
    const res = await get(`/api/v1/tokens/information/${token('clean')}`)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: "must have required property 'chainId'" })
  })

  it('answers 400 with a clear message for a malformed address or chainId', async () => {
    for (const bad of ['0x123', 'hello', `${token('clean')}00`, '0xZZ9f2CCfdE556A7E9Ff0848998Aa4a0CFD8863AE']) {
      const res = await get(evmUrl(bad))
      expect(res.statusCode, bad).toBe(400)
      expect(res.json().message).toBe('tokenAddress must be an EVM address: 0x followed by 40 hexadecimal characters (20 bytes)')
    }
    for (const bad of ['mainnet', '-1', '0x1', '']) {
      const res = await get(evmUrl(token('clean'), bad))
      expect(res.statusCode, bad).toBe(400)
      expect(res.json().message).toMatch(/^chainId must be a decimal chain id/)
    }
  })

  it('answers 400 for an unsupported chain, saying how to list the supported ones', async () => {
    const res = await get(evmUrl(token('clean'), '5'))
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe("unsupported chainId '5'; GET /api/v1/chains lists the supported chains")
    const chains = (await get('/api/v1/chains')).json().chains
    expect(chains).toEqual(
      expect.arrayContaining([
        { chainId: '31337', name: expect.any(String), addressLink: '' },
        { chainId: '1', name: expect.any(String), addressLink: 'https://etherscan.io/address/{address}' },
      ]),
    )
  })

  it('answers 404 where there is no token: an account without code, a contract that is not an ERC-20', async () => {
    const eoa = await get(evmUrl('0x000000000000000000000000000000000000bEEF'))
    expect(eoa.statusCode).toBe(404)
    expect(eoa.json().message).toMatch(/no token|not a token|no contract/i)
    const notToken = await get(evmUrl(world.manifest.contracts.v2Router))
    expect(notToken.statusCode).toBe(404)
  })

  it('answers 503 with a message when the node is down, and when it never answers, within the deadline', async () => {
    const down = await get(evmUrl(token('clean'), '1'))
    expect(down.statusCode).toBe(503)
    expect(down.json().message).toBeTruthy()
    expect(down.body).not.toMatch(/at .*\.ts:\d+|127\.0\.0\.1:9/)
    const started = Date.now()
    const silentAnswer = await get(evmUrl(token('clean'), '56'))
    const elapsed = Date.now() - started
    expect(silentAnswer.statusCode).toBe(503)
    expect(silentAnswer.json().message).toMatch(/deadline|did not (answer|finish)/i)
    expect(silentAnswer.body).not.toMatch(/127\.0\.0\.1/)
    expect(elapsed).toBeLessThan(DEADLINE_MS + 2_000)
  }, 20_000)
})

describe('Solana endpoint with its node down', () => {
  it('answers 503 without naming the node', async () => {
    const t2 = await embeddedStore()
    const config = loadConfig({ DATA_DIR, REQUEST_TIMEOUT_MS: String(DEADLINE_MS) })
    const solana = createSolanaEngine({ config, env: {}, cache: createMemoryCache(), logger: silent, rpcUrls: ['http://127.0.0.1:9/'] })
    const down = await buildTestApp(t2.store, { tokens: { evm: createEvmEngine({ config, env: {}, cache: createMemoryCache(), logger: silent }).service, solana } })
    const k = (await down.keys.create({ userId: 'x' })).key
    const res = await down.app.inject({ url: `/api/v1/tokens/solana/${solanaWorld.manifest.mints[0].address}`, headers: { 'x-api-key': k } })
    expect(res.statusCode).toBe(503)
    expect(res.body).not.toMatch(/127\.0\.0\.1/)
    await down.app.close()
    await t2.cleanup()
  })
})

describe('Solana token endpoint', () => {
  const mint = () => solanaWorld.manifest.mints[0].address

  it('answers a report in the published Solana shape: scores and ratings are numbers', async () => {
    const res = await get(`/api/v1/tokens/solana/${mint()}`)
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(checkSolanaReport.Check(body), JSON.stringify([...checkSolanaReport.Errors(body)].slice(0, 3))).toBe(true)
    expect(typeof body.honeypotDetails.overAllScorePercentage).toBe('number')
    expect(res.headers.etag).toBeTruthy()
  })

  it('answers 400 for an address that is not base58 of 32 bytes', async () => {
    for (const bad of ['0OIl', '1111', 'So1111111111111111111111111111111111111111111111111']) {
      const res = await get(`/api/v1/tokens/solana/${bad}`)
      expect(res.statusCode, bad).toBe(400)
      expect(res.json().message).toMatch(/base58|32 bytes/)
    }
  })

  it('answers 404 for an address without an account and for an account that is not a mint', async () => {
    const none = await get(`/api/v1/tokens/solana/${solanaWorld.manifest.notMints.empty}`)
    expect(none.statusCode).toBe(404)
    const wallet = await get(`/api/v1/tokens/solana/${solanaWorld.manifest.notMints.wallet}`)
    expect(wallet.statusCode).toBe(404)
    expect(wallet.json().message).not.toBe(none.json().message)
  })

  it('answers 401 without a key', async () => {
    expect((await get(`/api/v1/tokens/solana/${mint()}`, {})).statusCode).toBe(401)
  })
})

describe('OpenAPI document', () => {
  it('describes both token endpoints with their report schemas and the status-1 semantics', async () => {
    const doc = (await api.app.inject('/openapi.json')).json()
    const evm = doc.paths['/api/v1/tokens/information/{tokenAddress}'].get
    expect(evm.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`).sort()).toEqual(['path:tokenAddress', 'query:chainId', 'query:format'])
    expect(evm.description).toMatch(/status "1" means the risky capability is present/)
    expect(Object.keys(evm.responses).sort()).toEqual(['200', '304', '400', '401', '404', '429', '503'])
    expect(doc.paths['/api/v1/tokens/solana/{tokenAddress}'].get.responses['200']).toBeTruthy()
    expect(doc.components.schemas.TokenReport.properties.codeChecks).toBeTruthy()
    expect(doc.components.schemas.SolanaReport.properties.tokenInformation).toBeTruthy()
  })
})
