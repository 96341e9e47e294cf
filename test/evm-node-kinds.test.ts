// Node kinds: behind a proxy that behaves like the nodes people use (no debug_*/ots_*, capped logs
// and batches, pruned state, no state overrides, no eth_simulateV1), the node's capabilities are
// detected as they are, and every report stays honest: what needs no missing capability is the
// same as through the unrestricted node, what does is "" with the reason, never a safer value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import type { TokenReport } from '../src/contract/token-report.ts'
import { NO_OVERRIDE_REASON } from '../src/engines/evm/chain/capabilities.ts'
import { RPC_MAX_BATCH_BYTES } from '../src/engines/evm/chain/rpc.ts'
import { EXTREME_CODE, REVERTING_CODE } from '../src/engines/evm/collect/dependencies.ts'
import { createEvmReportService, type EvmReportServiceExtended } from '../src/engines/evm/service.ts'
import { createMemoryHolderStore } from '../src/store/holder-index.ts'
import { evmChainReadiness } from '../src/cli/serve.ts'
import { EVM_REPORT_STAGES } from '../src/engines/evm/stages.ts'
import type { EvmFacts } from '../src/engines/evm/facts.ts'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'
import { NODE_KINDS, startNodeKindProxy, type NodeKind, type NodeKindProxy } from './helpers/node-kinds.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

const DATA_DIR = TEST_DEVNET_DIR
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
const kind = (name: string) => NODE_KINDS.find((k) => k.name === name)!

let world: World
const proxies: NodeKindProxy[] = []
const services: EvmReportServiceExtended[] = []

function serviceOn(url: string, capabilityWaitMs?: number): EvmReportServiceExtended {
  const registry = loadChainRegistry({ chains: localChains({ ...world.manifest, rpcUrl: url }) })
  const service = createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent, options: { deadlineMs: 12_000, cacheTtlMs: 0, capabilityWaitMs } })
  services.push(service)
  return service
}

async function proxied(name: string): Promise<EvmReportServiceExtended> {
  return (await proxiedWith(kind(name))).service
}

async function proxiedWith(k: NodeKind): Promise<{ service: EvmReportServiceExtended; proxy: NodeKindProxy }> {
  const proxy = await startNodeKindProxy(world.rpcUrl, k)
  proxies.push(proxy)
  return { service: serviceOn(proxy.url), proxy }
}

const address = (key: string) => world.manifest.tokens.find((t) => t.key === key)!.address
const checksOf = (r: TokenReport) => ({ ...r.codeChecks.ownershipChecks, ...r.codeChecks.otherChecks })

beforeAll(async () => {
  world = await startWorld({ dataDir: DATA_DIR })
}, 240_000)

afterAll(async () => {
  for (const s of services) await s.close()
  for (const p of proxies) await p.close()
  await world?.stop()
})

describe('node capabilities', () => {
  it('are all there on the local world (anvil)', async () => {
    const caps = await serviceOn(world.rpcUrl).capabilities(31337)
    expect(caps).toMatchObject({ stateOverride: 'yes', simulateV1: 'yes', callTracer: 'yes', prestateTracer: 'yes', otterscan: 'yes', accessList: 'yes', blockReceipts: 'yes' })
    // A loaded world has its latest state only: no history, and the detection says so.
    expect(caps.history.support).not.toBe('unknown')
    expect(caps.evm).toEqual({ version: 'cancun', source: 'detected' })
  })

  it('show what a public endpoint lacks: tracing, Otterscan, old state, large batches and log ranges', async () => {
    const { service, proxy } = await proxiedWith(kind('public endpoint'))
    const caps = await service.capabilities(31337)
    expect(caps).toMatchObject({ stateOverride: 'yes', simulateV1: 'yes', callTracer: 'no', prestateTracer: 'no', otterscan: 'no' })
    expect(caps.batch.max).toBe(10)
    // The detection's own calls fit the node's batches: only the batch-size test is refused for its size.
    expect(proxy.requests().filter((r) => r.refused === 'batch size' && r.method !== 'eth_chainId')).toEqual([])
  })

  it('are detected again within the batch size learned, on a node capped below public endpoints', async () => {
    // Batches of 50 and 10 refused: the node is taken to refuse batches (one call per request).
    const { service, proxy } = await proxiedWith({ name: 'batches of 4', description: '', maxBatch: 4 })
    expect((await service.capabilities(31337)).batch.max).toBe(1)
    proxy.reset()
    const again = await service.capabilities(31337, { refresh: true })
    expect(again).toMatchObject({ stateOverride: 'yes', callTracer: 'yes', otterscan: 'yes' })
    expect(proxy.requests().filter((r) => r.refused === 'batch size' && r.method !== 'eth_chainId')).toEqual([])
  })
})

describe('requests a node can take', () => {
  // Five fee setters searched for their reach: a round trip of simulations, each carrying the
  // probe's code in its overrides, that once went out as one batch of more than 2 MiB. anvil
  // refused it as a whole ("Invalid request") and the report was a 503 through every node kind
  // whose batches were not capped small.
  it('a round trip of many simulations goes out in batches under the request limit: 200 on every kind, the same verdicts', async () => {
    const plain = serviceOn(world.rpcUrl)
    const bodyLimited: NodeKind = { name: 'request body limit', description: '', maxRequestBytes: 512 * 1024 }
    for (const k of [kind('hosted, small log pages'), kind('pruned full node'), bodyLimited]) {
      const { service, proxy } = await proxiedWith(k)
      for (const key of ['fee-stack', 'fee-stack-capped']) {
        const base = (await plain.reportWithFacts(31337, address(key), {})).report
        const { report, stats } = await service.reportWithFacts(31337, address(key), {})
        expect(stats.retries, `${k.name} ${key}`).toBe(0)
        const statuses = (r: TokenReport) => Object.fromEntries(Object.entries(checksOf(r)).map(([id, c]) => [id, c.status]))
        expect(statuses(report), `${k.name} ${key}`).toEqual(statuses(base))
        expect(report.tokenScore, `${k.name} ${key}`).toEqual(base.tokenScore)
      }
      // Batches stay under the cap; a node with a smaller one (HTTP 413) gets them call by call.
      if (k.maxRequestBytes === undefined) expect(proxy.largestRequest, k.name).toBeLessThanOrEqual(RPC_MAX_BATCH_BYTES)
      else expect(proxy.requests().some((r) => r.refused === 'request size'), k.name).toBe(true)
    }
  })

  it('no call for a method or an argument the node was found not to offer is sent, on any node kind', async () => {
    // Without the rate limit: a 429 is a passing fault, retried, and not what is measured here.
    for (const k of NODE_KINDS.map((x) => ({ ...x, callsPerSecond: undefined }))) {
      const { service, proxy } = await proxiedWith(k)
      const caps = await service.capabilities(31337)
      proxy.reset()
      for (const key of ['clean', 'mintable', 'reserve-credit', 'lp-locked']) await service.reportWithFacts(31337, address(key), {})
      const refused = proxy.requests().filter((r) => r.refused === 'missing method' || r.refused === 'state override')
      expect(refused, k.name).toEqual([])
      const sent = proxy.counts()
      // What the kind lacks is neither asked nor billed; what it has is still used.
      if (caps.otterscan === 'no') expect(sent.ots_getContractCreator, k.name).toBeUndefined()
      if (caps.accessList === 'no') expect(sent.eth_createAccessList, k.name).toBeUndefined()
      if (caps.simulateV1 === 'no') expect(sent.eth_simulateV1, k.name).toBeUndefined()
      if (caps.callTracer === 'no') expect(sent.debug_traceCall, k.name).toBeUndefined()
      if (caps.stateOverride !== 'no') expect(sent.eth_call?.calls, k.name).toBeGreaterThan(0)
    }
  })
})

describe('a node that refuses state overrides', () => {
  it('still reports everything that needs none, fast, and every behavioural check is "" with the reason', async () => {
    const plain = serviceOn(world.rpcUrl)
    const refusing = await proxied('no state overrides')
    for (const key of ['clean', 'honeypot', 'mintable']) {
      const base = (await plain.reportWithFacts(31337, address(key), {})).report
      const { report, stats } = await refusing.reportWithFacts(31337, address(key), {})
      expect(stats.retries, key).toBe(0)
      const info = report.tokenInformation
      expect([info.tokenName, info.tokenSymbol, info.totalSupply, info.ownerAddress, info.ownerBalance], key).toEqual([
        base.tokenInformation.tokenName, base.tokenInformation.tokenSymbol, base.tokenInformation.totalSupply, base.tokenInformation.ownerAddress, base.tokenInformation.ownerBalance,
      ])
      expect(report.marketChecks.holdersChecks, key).toEqual(base.marketChecks.holdersChecks)
      expect(report.marketChecks.exchangabilityChecks.availableDex, key).toEqual(base.marketChecks.exchangabilityChecks.availableDex)
      expect(report.marketChecks.liquidityChecks.totalLpSupply, key).toBe(base.marketChecks.liquidityChecks.totalLpSupply)
      for (const [id, check] of Object.entries(checksOf(report))) {
        if (['selfDestruct', 'isProxy', 'externalCall'].includes(id)) continue
        expect(check.status, `${key} ${id}`).toBe('')
        expect(check.comment, `${key} ${id}`).toContain(NO_OVERRIDE_REASON)
      }
      for (const pool of report.honeypotDetails) {
        expect(pool.isPairHoneypot).toBe('')
        expect(pool.honeypotReason).toContain(NO_OVERRIDE_REASON)
      }
    }
  })

  it('refusing them before detection finished: the refusal is final at once, the report takes the no-override path (200, "" with the reason), nothing is retried', async () => {
    const plain = serviceOn(world.rpcUrl)
    const proxy = await startNodeKindProxy(world.rpcUrl, kind('no state overrides'))
    proxies.push(proxy)
    // The report does not wait for detection: it starts assuming every capability, overrides included.
    const refusing = serviceOn(proxy.url, 0)
    const base = (await plain.reportWithFacts(31337, address('honeypot'), {})).report
    const { report, stats } = await refusing.reportWithFacts(31337, address('honeypot'), {})
    const refused = proxy.requests().filter((r) => r.refused === 'state override')
    // Detection sends one; the rest are the report's own, sent before it knew.
    expect(refused.length).toBeGreaterThan(1)
    expect(stats.retries).toBe(0)
    expect(report.tokenInformation.tokenName).toBe(base.tokenInformation.tokenName)
    expect(report.tokenInformation.totalSupply).toBe(base.tokenInformation.totalSupply)
    for (const pool of report.honeypotDetails) {
      expect(pool.isPairHoneypot).toBe('')
      expect(pool.honeypotReason).toContain(NO_OVERRIDE_REASON)
    }
    for (const [id, check] of Object.entries(checksOf(report))) {
      if (['selfDestruct', 'isProxy', 'externalCall'].includes(id)) continue
      expect(check.status, id).not.toBe('0')
      if (check.status === '') expect(check.comment, id).toContain(NO_OVERRIDE_REASON)
    }
    // The chain knows it from then on: the next report sends no override at all.
    proxy.reset()
    const next = await refusing.reportWithFacts(31337, address('honeypot'), {})
    expect(next.stats.retries).toBe(0)
    expect(proxy.requests().filter((r) => r.refused === 'state override')).toEqual([])
    expect((await refusing.capabilities(31337)).stateOverride).toBe('no')
  })

  it('makes /readyz say the chain is degraded, with its capability table', async () => {
    const refusing = await proxied('no state overrides')
    let t: TestStore | undefined
    let api: TestApp | undefined
    try {
      t = await embeddedStore()
      const solana = { report: async () => Promise.reject(new Error('unused')), ping: async () => {}, close: async () => {} }
      api = await buildTestApp(t.store, { tokens: { evm: refusing, solana }, readiness: [evmChainReadiness(refusing, 31337)] })
      const r = await api.app.inject({ url: '/readyz' })
      expect(r.statusCode).toBe(200)
      const body = r.json() as { status: string; checks: Record<string, string>; capabilities: Record<string, { capability: string; value: string; cost: string }[]> }
      expect(body.status).toBe('degraded')
      expect(body.checks['chain 31337']).toContain(`degraded: ${NO_OVERRIDE_REASON}`)
      const row = body.capabilities['chain 31337'].find((c) => c.capability === 'eth_call state overrides')
      expect(row).toMatchObject({ value: 'no' })
      expect(row?.cost).toContain(NO_OVERRIDE_REASON)
    } finally {
      await api?.app.close()
      await t?.cleanup()
    }
  })
})

describe('owner calls without tracing', () => {
  it('are replayed through eth_simulateV1 where the node has it: the mint credited to an account only its Transfer event names is found', async () => {
    const { report, facts } = await (await proxied('hosted plan')).reportWithFacts(31337, address('reserve-credit'), {})
    expect(facts.powers.eventsUnread).toBeUndefined()
    expect(report.codeChecks.ownershipChecks.isMintable.status).toBe('1')
  })

  it('leave mint and balance checks "" where neither tracing nor eth_simulateV1 exists and a privileged call went through', async () => {
    const s = await proxied('no eth_simulateV1, no debug')
    const { report } = await s.reportWithFacts(31337, address('reserve-credit'), {})
    expect(report.codeChecks.ownershipChecks.isMintable.status).toBe('')
    expect(report.codeChecks.ownershipChecks.isMintable.comment).toMatch(/neither trace calls .* nor simulate them/)
    // A token whose owner is renounced has no privileged call to replay: its "0" stands.
    const clean = (await s.reportWithFacts(31337, address('clean'), {})).report
    expect(clean.codeChecks.ownershipChecks.isMintable.status).toBe('0')
  })
})

describe('contracts transfers call, without tracing', () => {
  it('a guard behind an upgradeable proxy is never reported harmless: externalCall and transferPausable are "1" or "" with the reason, never "0"', async () => {
    const plain = serviceOn(world.rpcUrl)
    for (const name of ['hosted plan', 'no eth_simulateV1, no debug']) {
      const s = await proxied(name)
      for (const key of ['guard-upgradeable', 'guard-fixed']) {
        const base = checksOf((await plain.reportWithFacts(31337, address(key), {})).report)
        const got = checksOf((await s.reportWithFacts(31337, address(key), {})).report)
        for (const id of ['externalCall', 'transferPausable', 'ownerChangeBalance'] as const) {
          if (base[id].status !== '1') continue
          expect(got[id].status, `${name} ${key} ${id}`).not.toBe('0')
          if (got[id].status === '') expect(got[id].comment, `${name} ${key} ${id}`).toMatch(/cannot trace calls/)
        }
      }
    }
  })
})

describe('contracts the token names, made hostile without tracing', () => {
  it('on a public endpoint (no debug_traceCall), an upgradeable guard is a pause ("1"), a fixed one is not, and no check flips to safe', async () => {
    const plain = serviceOn(world.rpcUrl)
    const s = await proxied('public endpoint')
    const got: Record<string, ReturnType<typeof checksOf>> = {}
    for (const key of ['guard-upgradeable', 'guard-fixed']) {
      const base = checksOf((await plain.reportWithFacts(31337, address(key), {})).report)
      const { report, facts } = await s.reportWithFacts(31337, address(key), {})
      expect(facts.externalCalls.method, key).toBe('bytecode')
      got[key] = checksOf(report)
      for (const [id, check] of Object.entries(got[key])) {
        const was = base[id as keyof typeof base].status
        // Never safer than the unrestricted node: a "1" stays "1" or becomes "" with the reason; a "0" only where it was "0".
        if (was === '1') expect(check.status, `${key} ${id}`).not.toBe('0')
        if (check.status === '0') expect(was, `${key} ${id}`).toBe('0')
      }
      expect(got[key].transferPausable.status === '0', key).toBe(false)
    }
    expect(got['guard-upgradeable'].transferPausable.status).toBe('1')
    expect(got['guard-upgradeable'].transferPausable.comment).toMatch(/the token names 0x[0-9a-fA-F]{40} in its code \(transfers could not be traced\); with that contract hostile, .*a sell fails.* can upgrade/)
    expect(got['guard-fixed'].transferPausable.status).not.toBe('1')
    // The guard is asked with a STATICCALL: its hostile code stopping trades shows transfers call it.
    for (const key of ['guard-upgradeable', 'guard-fixed']) expect(got[key].externalCall.status, key).toBe('1')
    expect(got['guard-fixed'].transferPausable.comment).toMatch(/cannot trace calls: .* the 1 the token names in its code and first storage slots were given hostile code/)
  })
})

describe('contracts transfers call, traced but not measured', () => {
  it('where the node fails every simulation that makes them hostile, transferPausable and ownerChangeBalance are "" with the reason, never "0"', async () => {
    const plain = serviceOn(world.rpcUrl)
    const hostile = (method: string, params: readonly unknown[]) =>
      method === 'eth_call' && [REVERTING_CODE, EXTREME_CODE].some((code) => JSON.stringify(params[2] ?? {}).includes(code))
    const { service, proxy } = await proxiedWith({ name: 'failing hostile simulations', description: '', failCall: hostile })
    for (const key of ['guard-upgradeable', 'guard-fixed']) {
      const base = checksOf((await plain.reportWithFacts(31337, address(key), {})).report)
      proxy.reset()
      const { report, facts } = await service.reportWithFacts(31337, address(key), {})
      expect(proxy.requests().some((r) => r.refused === 'fault'), key).toBe(true)
      expect(facts.externalCalls.method, key).toBe('trace')
      expect(facts.dependencies?.unmeasured, key).toMatch(/dependencies were not made hostile/)
      const got = checksOf(report)
      for (const id of ['transferPausable', 'ownerChangeBalance'] as const) {
        // Measured "1" by the owner's own powers stands; nothing else does without the dependencies.
        if (got[id].status === '1') continue
        expect(got[id].status, `${key} ${id} (unrestricted: ${base[id].status})`).toBe('')
        expect(got[id].comment, `${key} ${id}`).toMatch(/dependencies were not made hostile/)
      }
    }
  })
})

describe('the creator without an archive or Otterscan', () => {
  it("comes from the first Transfer's transaction when it deployed the token, and the creator's share of the LP is then measured", async () => {
    const t = world.manifest.tokens.find((x) => x.key === 'clean')!
    // A node that keeps the state of its head block only, without Otterscan.
    const proxy = await startNodeKindProxy(world.rpcUrl, { name: 'head state only', description: '', missing: ['ots_'], stateDepth: 0 })
    proxies.push(proxy)
    const s = serviceOn(proxy.url)
    expect((await s.capabilities(31337)).history.support).toBe('no')
    const { report, facts } = await s.reportWithFacts(31337, t.address, {})
    expect(facts.creation.method).toBe('first Transfer')
    expect(report.tokenInformation.creatorAddress).toBe(t.creator)
    expect(report.tokenInformation.tokenCreationDate).not.toBe('')
  })
})

describe('no unknown reported as a value', () => {
  /** Score and render of `facts` (the pure stages). */
  const render = (facts: EvmFacts): TokenReport => {
    const checks = EVM_REPORT_STAGES.checks(facts)
    return EVM_REPORT_STAGES.render(facts, EVM_REPORT_STAGES.score(facts, checks as never))
  }
  /** Every `{ …, risk }` whose figure is "" has no risk label either. */
  const labelsOfUnknowns = (report: TokenReport): string[] => {
    const out: string[] = []
    const walk = (v: unknown, path: string) => {
      if (!v || typeof v !== 'object') return
      const o = v as Record<string, unknown>
      // An unlock's risk rates its time, which is known whatever its share.
      const figure = 'time' in o ? o.time : 'percent' in o ? o.percent : 'number' in o ? o.number : undefined
      if (typeof o.risk === 'string' && figure === '' && o.risk !== '') out.push(`${path}: risk ${o.risk} of an unknown figure`)
      for (const [k, x] of Object.entries(o)) walk(x, `${path}.${k}`)
    }
    walk(report, '')
    return out
  }
  const at = (report: TokenReport, path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], report)
  const member = (prefix: string) => [`${prefix}.percent`, `${prefix}.balance`, `${prefix}.risk`]
  const holders = 'marketChecks.holdersChecks'
  const lp = 'marketChecks.liquidityChecks'

  /** One input made unknown at a time, and the fields derived from it. */
  const CASES: { input: string; unknown(f: EvmFacts): void; derived: string[] }[] = [
    {
      input: 'the creator',
      unknown: (f) => Object.assign(f.creation, { creator: undefined, deployer: undefined, creatorBalance: undefined }),
      derived: ['tokenInformation.creatorAddress', 'tokenInformation.creatorBalance', ...member(`${holders}.percentDistributed.creator`), ...member(`${lp}.percentDistributed.creator`)],
    },
    {
      input: 'the owner',
      unknown: (f) => Object.assign(f.owner, { declared: undefined, reported: undefined, balance: undefined }),
      derived: ['tokenInformation.ownerAddress', 'tokenInformation.ownerBalance', ...member(`${holders}.percentDistributed.owner`), ...member(`${lp}.percentDistributed.owner`)],
    },
    {
      input: 'the supply',
      unknown: (f) => Object.assign(f.basics, { totalSupply: undefined }),
      derived: ['tokenInformation.totalSupply', `${holders}.percentDistributed.topThree.percent`, `${holders}.percentDistributed.topTen.percent`, `${holders}.percentDistributed.owner.percent`, `${holders}.percentDistributed.creator.percent`],
    },
    {
      input: 'the holder list',
      unknown: (f) => Object.assign(f.holders, { complete: false, count: undefined }),
      derived: [`${holders}.holdersCount.number`, `${holders}.holdersCount.risk`, ...member(`${holders}.percentDistributed.topThree`), ...member(`${holders}.percentDistributed.topTen`)],
    },
    {
      input: 'the LP holder list',
      unknown: (f) => Object.assign(f.liquidity.holders, { complete: false, count: undefined, top: [] }),
      derived: [`${lp}.lpHolderCount.number`, ...member(`${lp}.percentDistributed.owner`), ...member(`${lp}.percentDistributed.creator`)],
    },
    {
      input: 'the LP supply',
      unknown: (f) => Object.assign(f.liquidity, { totalLpSupply: undefined }),
      derived: [`${lp}.totalLpSupply`, `${lp}.liquidityLockedDetails.totalLiquidityPercentageLocked.number`, `${lp}.percentDistributed.owner.percent`, `${lp}.percentDistributed.creator.percent`],
    },
    {
      input: 'the price',
      unknown: (f) => Object.assign(f.markets, { priceUsd: undefined, marketCapUsd: undefined, liquidityUsd: undefined }),
      derived: ['tokenInformation.marketData.currentPriceUsd', 'tokenInformation.marketData.marketCapUsd', 'marketChecks.exchangabilityChecks.currentLiquidity.number', 'marketChecks.exchangabilityChecks.currentLiquidity.risk'],
    },
  ]

  it('a creator, owner, supply, holder list, LP figure or price that is unknown leaves every figure derived from it "" and without a risk label', async () => {
    const { facts } = await serviceOn(world.rpcUrl).reportWithFacts(31337, address('lp-locked'), {})
    const full = render(facts)
    expect(labelsOfUnknowns(full)).toEqual([])
    for (const c of CASES) {
      // Each derived field is a value when the input is known...
      for (const path of c.derived) expect(at(full, path), `${c.input}: ${path} (known)`).not.toBe('')
      const partial = structuredClone(facts)
      c.unknown(partial)
      const report = render(partial)
      // ...and "" when it is not; no label rates an unknown figure anywhere in the report.
      for (const path of c.derived) expect(at(report, path), `${c.input}: ${path}`).toBe('')
      expect(labelsOfUnknowns(report), c.input).toEqual([])
      // The score leaves the unknown out: it stays a score of what is known.
      expect(report.tokenScore.marketScorePercentage, c.input).toMatch(/^-?\d+\.\d\d$|^$/)
    }
  })
})
