// The EVM report service around the engine: hostile tokens give a report or a clear error within
// the deadline, bad input and failing nodes give clear errors, reports are cached (in process and
// on Redis, computed once), the holder index grows incrementally, metadata providers fill what the
// chain cannot say, and `tokenrisk scan` prints the API's body.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { getAddress, parseEther, parseUnits, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache, createRedisCache } from '../src/cache/cache.ts'
import { scanCommand } from '../src/cli/scan.ts'
import { loadChainRegistry, type ChainRegistry } from '../src/config/chains.ts'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'
import type { DevnetManifest } from '@tokenrisk/devworld/manifest'
import { zooToken } from '@tokenrisk/devworld/manifest'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { DeadlineError, InputError, NotFoundError, UpstreamError } from '../src/errors.ts'
import { createMemoryHolderStore } from '../src/store/holder-index.ts'
import { createCreationExplorer } from '../src/engines/evm/explorer.ts'
import { createMarketDataProvider, createTokenListProvider } from '../src/metadata/providers.ts'
import { createEvmReportService, type ReportEvent } from '../src/engines/evm/service.ts'
import { quillcheckV2View } from '../src/report/views/quillcheck-v2.ts'
import { createDeployer, type Deployer } from './fixtures/evm/deploy.ts'
import { startTestAnvil } from './fixtures/evm/anvil.ts'
import { startRpcProxy } from './fixtures/evm/rpc-proxy.ts'
import { TEST_REDIS_URL, redisUp, requireService } from './helpers/services.ts'
import type { TokenReport } from '../src/contract/token-report.ts'
import { localChains, writeLocalChainsFile } from '@tokenrisk/devworld/local-chain'

const DATA_DIR = TEST_DEVNET_DIR
const silent = { info: () => {}, warn: () => {}, error: () => {} }
/** Deadline of the reports of hostile tokens. */
const HOSTILE_DEADLINE_MS = 10_000

let world: World
let manifest: DevnetManifest
let registry: ChainRegistry
let deployer: Deployer
const hostile: Record<string, Address> = {}

function registryWith(url: string): ChainRegistry {
  return loadChainRegistry({ chains: localChains({ ...manifest, rpcUrl: url }) })
}

function tokenOf(key: string): Address {
  return zooToken(manifest, key).address
}

beforeAll(async () => {
  world = await startWorld({ dataDir: DATA_DIR })
  manifest = world.manifest
  registry = loadChainRegistry({ chains: localChains(manifest) })
  deployer = await createDeployer(world.rpcUrl)
  const supply = parseEther('1000000')
  for (const name of ['AdvGasBurnerToken', 'AdvRevertBombToken', 'AdvReturnBombToken', 'AdvMuteToken']) {
    const address = await deployer.deploy(name, [supply])
    await deployer.addLiquidityEth(address, manifest.contracts.v2Router, parseEther('300000'), parseEther('10'))
    hostile[name] = address
  }
  hostile.AdvNotAToken = await deployer.deploy('AdvNotAToken')
  hostile.AdvDependentToken = await deployer.deploy('AdvDependentToken')
}, 240_000)

afterAll(async () => {
  await world?.stop()
})

function service(options: { registry?: ChainRegistry; deadlineMs?: number; events?: ReportEvent[]; cacheTtlMs?: number } = {}) {
  return createEvmReportService({
    registry: options.registry ?? registry,
    cache: createMemoryCache(),
    holderStore: createMemoryHolderStore(),
    logger: silent,
    options: { deadlineMs: options.deadlineMs ?? HOSTILE_DEADLINE_MS, cacheTtlMs: options.cacheTtlMs },
    metrics: options.events ? { onReport: (e) => options.events!.push(e) } : undefined,
  })
}

describe('hostile tokens give a report or a clear error within the deadline', () => {
  it('a token whose transfers burn all gas: cannot be bought, cannot be sold', async () => {
    const started = Date.now()
    const report = await service().report(31337, hostile.AdvGasBurnerToken, {})
    expect(Date.now() - started).toBeLessThan(HOSTILE_DEADLINE_MS)
    expect(report.codeChecks.otherChecks.cannotBuy.status).toBe('1')
    expect(report.honeypotDetails).toHaveLength(1)
    expect(report.honeypotDetails[0].isPairHoneypot).toBe('1')
  })

  it('a token reverting with 100 KB of data: honeypot, with a short reason', async () => {
    const report = await service().report(31337, hostile.AdvRevertBombToken, {})
    expect(report.honeypotDetails[0].isPairHoneypot).toBe('1')
    expect(report.honeypotDetails[0].honeypotReason.length).toBeLessThan(300)
    expect(report.codeChecks.otherChecks.cannotBuy.status).toBe('1')
  })

  it('a token answering 100 KB to name(): a report with a bounded name', async () => {
    const report = await service().report(31337, hostile.AdvReturnBombToken, {})
    expect(report.tokenInformation.tokenName.length).toBeLessThanOrEqual(101)
    expect(report.honeypotDetails[0].isPairHoneypot).toBe('0')
    expect(report.tokenInformation.totalSupply).toBe('1000000')
  })

  it('a token whose transfers revert without a reason: honeypot, and says so', async () => {
    const report = await service().report(31337, hostile.AdvMuteToken, {})
    expect(report.honeypotDetails[0].isPairHoneypot).toBe('1')
    expect(report.honeypotDetails[0].honeypotReason).toMatch(/without a reason/)
  })

  it('a token whose totalSupply() and balanceOf() revert: a report of what is known, flagged, not a 404', async () => {
    const report = await service().report(31337, hostile.AdvDependentToken, {})
    expect(report.tokenInformation.tokenName).toBe('Dependent Token')
    expect(report.tokenInformation.totalSupply).toBe('')
    expect(report.tokenInformation.anomalies.join('; ')).toMatch(/totalSupply\(\) reverted.*balanceOf\(\) reverted/)
  })

  it('a contract that is not a token, and an account without code: NotFoundError', async () => {
    await expect(service().report(31337, hostile.AdvNotAToken, {})).rejects.toBeInstanceOf(NotFoundError)
    await expect(service().report(31337, deployer.account, {})).rejects.toThrow(/no contract at/)
  })

  it('non-standard ERC-20s of the zoo (bytes32 metadata, no boolean return) give full reports', async () => {
    const s = service()
    const bytes32 = await s.report(31337, tokenOf('bytes32-metadata'), {})
    expect(bytes32.tokenInformation.tokenName).toBe(manifest.tokens.find((t) => t.key === 'bytes32-metadata')!.name)
    const noBool = await s.report(31337, tokenOf('no-bool-return'), {})
    expect(noBool.honeypotDetails.every((p) => p.isPairHoneypot === '0')).toBe(true)
    expect(noBool.honeypotDetails[0].sellTax.number).toBe('0')
  })
})

describe('bad input and failing nodes', () => {
  it('an unsupported chain is an InputError naming the chains route', async () => {
    const error = await service()
      .report(999_999, tokenOf('clean'), {})
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toBe("unsupported chainId '999999'; GET /api/v1/chains lists the supported chains")
  })

  it('a shipped chain without RPC URL is not served', async () => {
    await expect(service().report(1, tokenOf('clean'), {})).rejects.toBeInstanceOf(InputError)
    expect(service().chains()).toEqual([{ chainId: 31337, name: 'local' }])
  })

  it('a malformed address is an InputError', async () => {
    await expect(service().report(31337, '0x1234', {})).rejects.toBeInstanceOf(InputError)
    await expect(service().report(31337, 'not an address', {})).rejects.toBeInstanceOf(InputError)
  })

  it('a node that does not answer is an UpstreamError, quickly', async () => {
    const started = Date.now()
    await expect(service({ registry: registryWith('http://127.0.0.1:1') }).report(31337, tokenOf('clean'), {})).rejects.toBeInstanceOf(UpstreamError)
    expect(Date.now() - started).toBeLessThan(HOSTILE_DEADLINE_MS)
  })

  it('a slow node runs into the deadline: DeadlineError, not a hang', async () => {
    const proxy = await startRpcProxy({ upstream: world.rpcUrl, latencyMs: 400 })
    try {
      const started = Date.now()
      await expect(service({ registry: registryWith(proxy.url), deadlineMs: 600 }).report(31337, tokenOf('clean'), {})).rejects.toBeInstanceOf(DeadlineError)
      expect(Date.now() - started).toBeLessThan(2_000)
    } finally {
      await proxy.close()
    }
  })

  it('ping checks the chain id the node answers', async () => {
    await expect(service().ping(31337)).resolves.toBeUndefined()
    await expect(service({ registry: registryWith('http://127.0.0.1:1') }).ping(31337)).rejects.toBeInstanceOf(UpstreamError)
  })
})

describe('cache', () => {
  it('computes concurrent requests for one token once, and reuses the report', async () => {
    const proxy = await startRpcProxy({ upstream: world.rpcUrl })
    try {
      const events: ReportEvent[] = []
      const s = service({ registry: registryWith(proxy.url), events })
      const [a, b] = await Promise.all([s.report(31337, tokenOf('tax-3-7-1'), {}), s.report(31337, tokenOf('tax-3-7-1'), {})])
      expect(a).toEqual(b)
      const afterFirst = proxy.requests
      const c = await s.report(31337, tokenOf('tax-3-7-1').toLowerCase(), {})
      expect(c).toEqual(a)
      expect(proxy.requests).toBe(afterFirst)
      expect(events.filter((e) => !e.cached)).toHaveLength(1)
      expect(events.filter((e) => e.cached)).toHaveLength(2)
      expect(events[0].roundTrips).toBeGreaterThan(0)
    } finally {
      await proxy.close()
    }
  })

  it.runIf(requireService('Redis', redisUp))('shares reports between instances through Redis', async () => {
    const proxyA = await startRpcProxy({ upstream: world.rpcUrl })
    const proxyB = await startRpcProxy({ upstream: world.rpcUrl })
    const prefix = `tokenrisk:test:${Date.now()}:${Math.random()}:`
    const redisA = new Redis(TEST_REDIS_URL)
    const redisB = new Redis(TEST_REDIS_URL)
    try {
      const make = (url: string, redis: Redis) =>
        createEvmReportService({
          registry: registryWith(url),
          cache: createRedisCache(redis, { prefix }),
          holderStore: createMemoryHolderStore(),
          logger: silent,
        })
      const a = make(proxyA.url, redisA)
      const b = make(proxyB.url, redisB)
      const [ra, rb] = await Promise.all([a.report(31337, tokenOf('clean'), {}), b.report(31337, tokenOf('clean'), {})])
      expect(rb).toEqual(ra)
      // One instance computed it; the other waited for its value and never asked its node.
      expect(Math.min(proxyA.requests, proxyB.requests)).toBe(0)
      expect(Math.max(proxyA.requests, proxyB.requests)).toBeGreaterThan(0)
    } finally {
      const keys = await redisA.keys(`${prefix}*`)
      if (keys.length > 0) await redisA.del(...keys)
      redisA.disconnect()
      redisB.disconnect()
      await proxyA.close()
      await proxyB.close()
    }
  })
})

describe('holder index', () => {
  it('is built once and then grows from the last indexed block only', async () => {
    const store = createMemoryHolderStore()
    const proxy = await startRpcProxy({ upstream: world.rpcUrl })
    try {
      const s = createEvmReportService({ registry: registryWith(proxy.url), cache: createMemoryCache(), holderStore: store, logger: silent, options: { cacheTtlMs: 0 } })
      const token = tokenOf('clean')
      const first = await s.report(31337, token, {})
      const state = await store.state(31337, token)
      expect(state?.lastBlock).toBeGreaterThan(0n)
      const count = Number(first.marketChecks.holdersChecks.holdersCount.number)
      // A new holder appears on the chain: the next report reads only the new blocks.
      const newcomer = getAddress('0x00000000000000000000000000000000000b0b01')
      const amount = parseUnits('1234', 18)
      const wallet = await createDeployer(world.rpcUrl, 0)
      await wallet.transfer(token, newcomer, amount)
      const head = await wallet.client.getBlockNumber({ cacheTime: 0 })
      const logCalls = () => proxy.methods.filter((m) => m === 'eth_getLogs').length
      const before = logCalls()
      const second = await s.report(31337, token, {})
      expect(Number(second.marketChecks.holdersChecks.holdersCount.number)).toBe(count + 1)
      expect((await store.balances(31337, token, [newcomer])).get(newcomer)).toBe(amount)
      expect((await store.state(31337, token))?.lastBlock).toBe(head)
      expect(logCalls() - before).toBeGreaterThan(0)
    } finally {
      await proxy.close()
    }
  })
})

describe('a node without tracing and without Otterscan methods', () => {
  it('reads external calls from the bytecode; the creation is found by code search, or from the first Transfer without historical state', async () => {
    const proxy = await startRpcProxy({ upstream: world.rpcUrl })
    proxy.blockMethods(['debug_traceCall', 'ots_getContractCreator'])
    try {
      const s = service({ registry: registryWith(proxy.url) })
      const t = manifest.tokens.find((x) => x.key === 'fee-forward')!
      const report = await s.report(31337, t.address, {})
      const external = report.codeChecks.otherChecks.externalCall
      expect(external.status).toBe('1')
      expect(external.comment).toMatch(/^bytecode: the node cannot trace calls/)
      const twin = (await s.report(31337, tokenOf(t.twin), {})).codeChecks.otherChecks.externalCall
      expect(twin.status).toBe('0')
      expect(twin.comment).toMatch(/^bytecode: .*no reachable CALL/)
      if (world.loaded) {
        // A world loaded from a saved state keeps no past state, like a pruned node: the creation
        // comes from the first Transfer, in the transaction that deployed the token.
        expect(report.tokenInformation.creatorAddress).toBe(t.creator)
        expect(report.tokenInformation.tokenCreationDate).not.toBe('')
      } else {
        // A world built in this run keeps its history: the search over blocks finds the creation.
        expect(report.tokenInformation.creatorAddress).toBe(t.creator)
        expect(report.tokenInformation.tokenCreationDate).not.toBe('')
      }
    } finally {
      await proxy.close()
    }
  })

  it('owner calls: without traces the replay goes through eth_simulateV1; without either, the accounts named only in Transfer events are not measured and the answer is ""', async () => {
    const proxy = await startRpcProxy({ upstream: world.rpcUrl })
    proxy.blockMethods(['debug_traceCall'])
    try {
      const simulated = await service({ registry: registryWith(proxy.url) }).reportWithFacts(31337, tokenOf('reserve-credit'), {})
      expect(simulated.facts.powers.eventsUnread).toBeUndefined()
      expect(simulated.report.codeChecks.ownershipChecks.isMintable.status).toBe('1')
      expect(simulated.report.codeChecks.ownershipChecks.isMintable.comment).toMatch(/named only in its Transfer events/)
    } finally {
      await proxy.close()
    }
    const neither = await startRpcProxy({ upstream: world.rpcUrl })
    neither.blockMethods(['debug_traceCall', 'eth_simulateV1'])
    try {
      const { report, facts } = await service({ registry: registryWith(neither.url) }).reportWithFacts(31337, tokenOf('reserve-credit'), {})
      expect(facts.powers.eventsUnread).toMatch(/neither trace calls .* nor simulate them/)
      const mint = report.codeChecks.ownershipChecks.isMintable
      // What was measured (the watched accounts) shows no mint, and that is no "0": the decisive accounts were not measured.
      expect(mint.status).toBe('')
      expect(mint.comment).toMatch(/named only in its Transfer events were not measured/)
      // Its look-alike, whose owner call moves the owner's own tokens, is no safer than measured either.
      const fund = (await service({ registry: registryWith(neither.url) }).report(31337, tokenOf('reserve-fund'), {})).codeChecks.ownershipChecks.isMintable
      expect(['', '0']).toContain(fund.status)
      // With traces, the same call is a mint.
      const traced = await service({ registry }).report(31337, tokenOf('reserve-credit'), {})
      expect(traced.codeChecks.ownershipChecks.isMintable.status).toBe('1')
    } finally {
      await neither.close()
    }
  })

  it('isOpenSource: the explorer\'s verified source of the code that runs, unknown without an explorer or when it fails', async () => {
    const [verified, unverified, failing] = ['mintable', 'pausable', 'blacklist'].map((k) => manifest.tokens.find((x) => x.key === k)!)
    const asked: string[] = []
    const explorerServer = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      const address = (url.searchParams.get('address') ?? '').toLowerCase()
      if (url.searchParams.get('action') !== 'getsourcecode') return void res.writeHead(200).end(JSON.stringify({ status: '0', message: 'No data found', result: [] }))
      asked.push(address)
      if (address === failing.address.toLowerCase()) return void res.writeHead(502).end('bad gateway')
      const source = address === verified.address.toLowerCase() ? 'contract Token { }' : ''
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: '1', message: 'OK', result: [{ SourceCode: source, ABI: '[]' }] }))
    })
    await new Promise<void>((r) => explorerServer.listen(0, '127.0.0.1', () => r()))
    const explorer = createCreationExplorer({ apiKey: 'KEY', baseUrl: `http://127.0.0.1:${(explorerServer.address() as AddressInfo).port}/v2/api` })
    try {
      const s = createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), explorer, logger: silent })
      const open = await s.report(31337, verified.address, {})
      expect(open.tokenInformation.isOpenSource).toBe('1')
      expect(quillcheckV2View(open).codeChecks.ownershipChecks.isOpenSource).toMatchObject({ status: true })
      const closed = await s.report(31337, unverified.address, {})
      expect(closed.tokenInformation.isOpenSource).toBe('0')
      expect(quillcheckV2View(closed).codeChecks.ownershipChecks.isOpenSource).toMatchObject({ status: false, risk: { riskStatus: 'RISKY' } })
      const failed = await s.report(31337, failing.address, {})
      expect(failed.tokenInformation.isOpenSource).toBe('')
      expect(failed.tokenInformation.openSourceComment).toMatch(/^not determinable: the explorer lookup failed/)
      expect(quillcheckV2View(failed).codeChecks.ownershipChecks.isOpenSource).toMatchObject({ status: '', risk: { riskRating: '' } })
      expect(asked).toEqual([verified, unverified, failing].map((t) => t.address.toLowerCase()))
      // Without an explorer nothing is claimed either way.
      const none = await createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent }).report(31337, verified.address, {})
      expect(none.tokenInformation.isOpenSource).toBe('')
      expect(none.tokenInformation.openSourceComment).toMatch(/^not determinable: no explorer is configured/)
    } finally {
      explorerServer.close()
    }
  })

  it('says whether a hostile-capable dependency is closed source, as the explorer lists it, and that it is unknown without one', async () => {
    const explorerServer = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      if (url.searchParams.get('action') !== 'getsourcecode') return void res.writeHead(200).end(JSON.stringify({ status: '0', message: 'No data found', result: [] }))
      // Every contract is listed, none with its source: closed.
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: '1', message: 'OK', result: [{ SourceCode: '', ABI: 'Contract source code not verified' }] }))
    })
    await new Promise<void>((r) => explorerServer.listen(0, '127.0.0.1', () => r()))
    const explorer = createCreationExplorer({ apiKey: 'KEY', baseUrl: `http://127.0.0.1:${(explorerServer.address() as AddressInfo).port}/v2/api` })
    try {
      const s = createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), explorer, logger: silent })
      const up = await s.report(31337, tokenOf('guard-upgradeable'), {})
      expect(up.codeChecks.ownershipChecks.transferPausable.status).toBe('1')
      expect(up.codeChecks.ownershipChecks.transferPausable.comment).toMatch(/can upgrade; its source is closed \(explorer 127\.0\.0\.1:\d+ lists no verified source\)/)
      const fixed = await s.report(31337, tokenOf('guard-fixed'), {})
      expect(fixed.codeChecks.otherChecks.externalCall.comment).toMatch(/its address is written in the token's code; .*its source is closed/)
      const none = await service().report(31337, tokenOf('guard-fixed'), {})
      expect(none.codeChecks.otherChecks.externalCall.comment).toMatch(/whether its source is published is unknown \(no explorer is configured/)
    } finally {
      explorerServer.close()
    }
  })

  it('asks the explorer API for the creation when the node has neither Otterscan nor historical state', async () => {
    const proxy = await startRpcProxy({ upstream: world.rpcUrl })
    proxy.blockMethods(['debug_traceCall', 'ots_getContractCreator'])
    proxy.refuseHistoricalState(true)
    const t = manifest.tokens.find((x) => x.key === 'mintable')!
    const other = manifest.tokens.find((x) => x.key === 'pausable')!
    // The real creation transaction, from the node itself (anvil has Otterscan's method).
    const creation = (await (
      await fetch(world.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ots_getContractCreator', params: [t.address] }),
      })
    ).json()) as { result: { hash: string; creator: string } }
    const asked: string[] = []
    // An Etherscan-shaped explorer: it knows `t` and nothing else.
    const explorerServer = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      asked.push(`${url.searchParams.get('chainid')} ${url.searchParams.get('action')} ${url.searchParams.get('apikey')}`)
      const address = url.searchParams.get('contractaddresses') ?? ''
      const known = address.toLowerCase() === t.address.toLowerCase()
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify(
          known
            ? { status: '1', message: 'OK', result: [{ contractAddress: address, contractCreator: creation.result.creator, txHash: creation.result.hash }] }
            : { status: '0', message: 'No data found', result: [] },
        ),
      )
    })
    await new Promise<void>((r) => explorerServer.listen(0, '127.0.0.1', () => r()))
    const explorer = createCreationExplorer({ apiKey: 'KEY', baseUrl: `http://127.0.0.1:${(explorerServer.address() as AddressInfo).port}/v2/api` })
    try {
      const s = createEvmReportService({
        registry: registryWith(proxy.url),
        cache: createMemoryCache(),
        holderStore: createMemoryHolderStore(),
        explorer,
        logger: silent,
        options: { deadlineMs: HOSTILE_DEADLINE_MS },
      })
      const report = await s.report(31337, t.address, {})
      expect(report.tokenInformation.creatorAddress).toBe(t.creator)
      const header = (await (
        await fetch(world.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: [`0x${t.creationBlock.toString(16)}`, false] }),
        })
      ).json()) as { result: { timestamp: string } }
      expect(report.tokenInformation.tokenCreationDate).toBe(new Date(Number(BigInt(header.result.timestamp)) * 1000).toISOString())
      expect(asked).toContain('31337 getcontractcreation KEY')
      // What the explorer does not know comes from the first Transfer's transaction: the token's
      // deployment (its receipt's contractAddress), which minted the supply.
      const fromLogs = await s.report(31337, other.address, {})
      expect(fromLogs.tokenInformation.creatorAddress).toBe(other.creator)
      expect(fromLogs.tokenInformation.tokenCreationDate).not.toBe('')
    } finally {
      await proxy.close()
      explorerServer.close()
    }
  })

  it('finds the creation block by searching code over blocks, and the creator in its receipts', async () => {
    const anvil = await startTestAnvil()
    const proxy = await startRpcProxy({ upstream: anvil.url })
    proxy.blockMethods(['debug_traceCall', 'ots_getContractCreator'])
    const dir = mkdtempSync(join(tmpdir(), 'tokenrisk-search-'))
    try {
      const d = await createDeployer(anvil.url, 0)
      await d.client.request({ method: 'anvil_mine' as never, params: ['0x40'] as never })
      const token = await d.deploy('ZooClean', ['Searched', 'SRCH', 18, parseEther('1000')])
      await d.client.request({ method: 'anvil_mine' as never, params: ['0x40'] as never })
      const chains = join(dir, 'chains.json')
      writeFileSync(chains, JSON.stringify([{ chainId: 31337, name: 'plain', rpcUrls: [proxy.url], wrappedNative: '0x0000000000000000000000000000000000000001' }]))
      const s = service({ registry: loadChainRegistry({ chainsFile: chains }) })
      const { report, facts } = await s.reportWithFacts(31337, token, {})
      expect(facts.creation.method).toBe('getCode search')
      const code = await d.client.getCode({ address: token, blockNumber: facts.creation.blockNumber! })
      const before = await d.client.getCode({ address: token, blockNumber: facts.creation.blockNumber! - 1n })
      expect(code).not.toBeUndefined()
      expect(before).toBeUndefined()
      const block = await d.client.getBlock({ blockNumber: facts.creation.blockNumber! })
      expect(report.tokenInformation.tokenCreationDate).toBe(new Date(Number(block.timestamp) * 1000).toISOString())
      expect(report.tokenInformation.creatorAddress).toBe(getAddress(d.account))
      expect(report.tokenInformation.creatorBalance).toBe('1000')
      expect(report.honeypotDetails).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
      await proxy.close()
      await anvil.stop()
    }
  })
})

describe('holder index near the head', () => {
  it('stores only final blocks and reads the newer ones for each report', async () => {
    const chains = loadChainRegistry({ chains: localChains(manifest) })
    const head = await deployer.client.getBlockNumber({ cacheTime: 0 })
    const t = manifest.tokens.find((x) => x.key === 'decimals-0')!
    // Everything after the token's creation is "not final": all of its logs are the tail.
    chains.get(31337)!.finalityBlocks = Number(head) - t.creationBlock + 1
    const store = createMemoryHolderStore()
    const s = createEvmReportService({ registry: chains, cache: createMemoryCache(), holderStore: store, logger: silent })
    const report = await s.report(31337, t.address, {})
    expect(report.marketChecks.holdersChecks.holdersCount.number).toBe(String(t.holders.count))
    expect(report.marketChecks.holdersChecks.keyHolders[0].address).toBe(t.holders.top[0].address)
    expect(report.marketChecks.holdersChecks.keyHolders[0].balance).toBe(t.holders.top[0].balance)
    expect(await store.count(31337, t.address)).toBe(0)
    expect((await store.state(31337, t.address))?.lastBlock ?? -1n).toBeLessThan(BigInt(t.creationBlock))
  })
})

describe('holder index of a long history', () => {
  it('is read in waves within a budget, stored as it goes, and finished by later reports', async () => {
    const proxy = await startRpcProxy({ upstream: world.rpcUrl, latencyMs: 300 })
    try {
      // A node that takes small log ranges only: the world's history needs many waves.
      const small = loadChainRegistry({ chains: localChains({ ...manifest, rpcUrl: proxy.url }) })
      const entry = small.get(31337)!
      // One block per range, eight ranges per wave: the history takes more waves than the budget.
      entry.maxLogRange = 1
      const store = createMemoryHolderStore()
      const s = createEvmReportService({ registry: small, cache: createMemoryCache(), holderStore: store, logger: silent, options: { deadlineMs: 4_000, cacheTtlMs: 0 } })
      // A token no other test of this file moves.
      const t = manifest.tokens.find((x) => x.key === 'empty-symbol')!
      const head = await deployer.client.getBlockNumber({ cacheTime: 0 })
      const first = await s.reportWithFacts(31337, t.address, {})
      expect(first.report.marketChecks.holdersChecks.holdersCount.number).toBe('')
      expect(first.facts.holders.note).toMatch(/still being built/)
      const progress = (await store.state(31337, t.address))?.lastBlock ?? 0n
      expect(progress).toBeGreaterThan(0n)
      expect(progress).toBeLessThan(head)
      let count = ''
      for (let i = 0; i < 20 && count === ''; i++) count = (await s.report(31337, t.address, {})).marketChecks.holdersChecks.holdersCount.number
      expect(count).toBe(String(t.holders.count))
    } finally {
      await proxy.close()
    }
  }, 120_000)
})

describe('metadata providers', () => {
  let server: Server
  let baseUrl: string
  let dir: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tokenrisk-metadata-'))
    server = createServer((req, res) => {
      if (req.url === '/tokens.json') {
        return res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({ name: 'served list', tokens: [{ chainId: 31337, address: tokenOf('clean'), name: 'Clean', symbol: 'CLEAN', decimals: 18, logoURI: 'https://img.example/served.png' }] }),
        )
      }
      if (req.headers['x-cg-pro-api-key'] !== 'test-key') return res.writeHead(401).end()
      if (!req.url?.includes('/coins/')) return res.writeHead(404).end()
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'clean-token',
          image: { large: 'https://img.example/clean.png' },
          categories: ['Meme', null],
          links: { repos_url: { github: ['https://github.com/example/clean'] }, twitter_screen_name: 'cleantoken', telegram_channel_identifier: 'cleanchat', subreddit_url: 'https://reddit.com/r/clean' },
          community_data: { twitter_followers: 1200, telegram_channel_user_count: 300, reddit_subscribers: 45, facebook_likes: null },
          tickers: [{ market: { name: 'Binance' }, trade_url: 'https://www.binance.com/trade/CLEAN_USDT' }, { market: { name: 'Uniswap V2 (Ethereum)' }, trade_url: null }],
        }),
      )
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`
  })

  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()))
    rmSync(dir, { recursive: true, force: true })
  })

  it('a token list file gives the image, categories and links', async () => {
    const token = tokenOf('clean')
    const path = join(dir, 'tokens.json')
    writeFileSync(
      path,
      JSON.stringify({
        name: 'test list',
        tags: { meme: { name: 'Meme coin' } },
        tokens: [
          { chainId: 31337, address: token.toLowerCase(), name: 'Clean', symbol: 'CLEAN', decimals: 18, logoURI: 'ipfs://QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG', tags: ['meme'], extensions: { twitter: 'clean', coingeckoId: 'clean-token' } },
        ],
      }),
    )
    const s = createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent, metadata: [createTokenListProvider(path)] })
    const info = (await s.report(31337, token, {})).tokenInformation
    expect(info.tokenImageLink).toBe('https://ipfs.io/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG')
    expect(info.tokenCategories).toEqual(['Meme coin'])
    expect(info.socialInformation.microblog).toEqual({ name: 'clean', followers: '' })
    expect(info.externalLinks.marketAggregatorLink).toBe('https://www.coingecko.com/en/coins/clean-token')
    // ipfs:// images go through the configured gateway.
    const own = createTokenListProvider(path, { gateways: { ipfs: 'https://ipfs.tokenrisk.example/ipfs/', arweave: 'https://ar.tokenrisk.example/' } })
    expect((await own.lookup(31337, token, AbortSignal.timeout(2_000)))?.imageUrl).toBe('https://ipfs.tokenrisk.example/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG')
  })

  it('a token list served over HTTP works the same', async () => {
    const provider = createTokenListProvider(baseUrl.replace('/api/v3', '/tokens.json'))
    expect((await provider.lookup(31337, tokenOf('clean'), AbortSignal.timeout(2_000)))?.imageUrl).toBe('https://img.example/served.png')
    expect(await provider.lookup(31337, tokenOf('tax-3-7-1'), AbortSignal.timeout(2_000))).toBeUndefined()
  })

  it('a market-data API (with its key) gives social figures and centralised exchanges', async () => {
    const provider = createMarketDataProvider({ apiKey: 'test-key', baseUrl })
    const facts = await provider.lookup(1, tokenOf('clean'), AbortSignal.timeout(2_000))
    expect(facts?.centralisedExchanges).toEqual([{ name: 'Binance', link: 'https://www.binance.com/trade/CLEAN_USDT' }])
    expect(facts?.microblog).toEqual({ name: 'cleantoken', followers: '1200' })
    expect(facts?.messenger).toEqual({ name: 'cleanchat', users: '300' })
    expect(facts?.forum).toEqual({ url: 'https://reddit.com/r/clean', subscribers: '45' })
    expect(facts?.categories).toEqual(['Meme'])
    // A chain the API does not cover, or a failing provider, gives nothing and fails nothing.
    expect(await provider.lookup(31337, tokenOf('clean'), AbortSignal.timeout(2_000))).toBeUndefined()
    const wrongKey = createMarketDataProvider({ apiKey: 'nope', baseUrl })
    const s = createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent, metadata: [wrongKey] })
    const report = await s.report(31337, tokenOf('clean'), {})
    expect(report.marketChecks.exchangabilityChecks.centralisedExchanges).toEqual([])
  })
})

describe('tokenrisk scan', () => {
  it('--json prints exactly the API body; the summary shows sections and taxes per pool', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-scan-'))
    try {
      // What a running world leaves for other processes: its chain, as a chains file.
      writeLocalChainsFile(join(dataDir, 'devnet'), manifest)
      const token = tokenOf('tax-3-7-1')
      const out: string[] = []
      const err: string[] = []
      const io = { env: {}, out: (l: string) => out.push(l), err: (l: string) => err.push(l) }
      expect(await scanCommand([token, '--chain', '31337', '--json', '--data-dir', dataDir], io)).toBe(0)
      const body = JSON.parse(out.join('\n')) as TokenReport
      const expected = await service().report(31337, token, {})
      // Two reports of the token, each stamped with when it was measured.
      const timeless = (r: TokenReport) => ({ ...r, tokenInformation: { ...r.tokenInformation, lastUpdated: '' } })
      expect(timeless(body)).toEqual(timeless(expected))
      expect(Date.parse(body.tokenInformation.lastUpdated)).toBeGreaterThan(0)

      out.length = 0
      expect(await scanCommand([token, '--chain', '31337', '--no-color', '--data-dir', dataDir], io)).toBe(0)
      const text = out.join('\n')
      for (const section of ['Score', 'Code checks', 'Pools', 'Holders', 'Liquidity']) expect(text).toContain(section)
      expect(text).toMatch(/buy 3 %\s+sell 7 %\s+transfer 1 %/)
      expect(text).toMatch(/sequential round trips/)
      await expect(scanCommand([token, '--data-dir', dataDir], io)).rejects.toBeInstanceOf(InputError)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
