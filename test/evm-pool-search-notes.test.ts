// What the search for a token's pools could not cover is said with the trade checks: a node that
// refuses the Uniswap V4 PoolManager's logs leaves a V4-only token's pools unseen, and the report
// says so instead of stating that the token has no pool. The PoolManager holding the token is then
// named as a market of it whose figures are unknown; a token it does not hold gets no such row.
// A token that keeps its pool's key in its storage has that pool found all the same, priced and
// traded; a key kept of a pool never created adds none.
import type { Address, Hex } from 'viem'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import { QuillcheckDescriptionReport } from '../src/contract/quillcheck-description.ts'
import { QuillcheckV2Report } from '../src/contract/quillcheck-v2.ts'
import { TokenReport } from '../src/contract/token-report.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { HIDDEN_OWNER_SLOTS } from '../src/engines/evm/collect/discovery.ts'
import { storedPoolKeys } from '../src/engines/evm/venues/uniswap-v4.ts'
import { quillcheckDescriptionView } from '../src/report/views/quillcheck-description.ts'
import { quillcheckV2View } from '../src/report/views/quillcheck-v2.ts'
import { createMemoryHolderStore } from '../src/store/holder-index.ts'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { startFaultProxy, type FaultProxy } from './fixtures/fault-proxy.ts'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

let world: World
let proxy: FaultProxy
let service: ReturnType<typeof createEvmReportService>
let direct: ReturnType<typeof createEvmReportService>
let manager: string
// A node that refuses the PoolManager's logs and those of the token v4-native (its holders of record unknown).
let blind: FaultProxy
let blindService: ReturnType<typeof createEvmReportService>

beforeAll(async () => {
  world = await startWorld({ dataDir: TEST_DEVNET_DIR })
  proxy = await startFaultProxy(world.rpcUrl)
  manager = world.manifest.contracts.v4PoolManager!.toLowerCase()
  // A node that refuses every log search of the PoolManager, whatever its range.
  proxy.set({
    name: 'refuses the PoolManager logs',
    description: 'eth_getLogs of the PoolManager refused as too large',
    fail: (call) => (call.method === 'eth_getLogs' && JSON.stringify(call.params).toLowerCase().includes(manager) ? { code: -32005, message: 'query returned more than 10000 results' } : undefined),
  })
  const registry = loadChainRegistry({ chains: localChains({ ...world.manifest, rpcUrl: proxy.url }) })
  service = createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent, options: { cacheTtlMs: 0 } })
  // The same world through a node that answers every log search.
  const whole = loadChainRegistry({ chains: localChains(world.manifest) })
  direct = createEvmReportService({ registry: whole, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent, options: { cacheTtlMs: 0 } })
  blind = await startFaultProxy(world.rpcUrl)
  const token = address('v4-native').toLowerCase()
  blind.set({
    name: 'refuses the PoolManager logs and the token logs',
    description: 'eth_getLogs of the PoolManager or of the token refused as too large',
    fail: (call) => {
      const params = JSON.stringify(call.params).toLowerCase()
      return call.method === 'eth_getLogs' && (params.includes(manager) || params.includes(token)) ? { code: -32005, message: 'query returned more than 10000 results' } : undefined
    },
  })
  const blindRegistry = loadChainRegistry({ chains: localChains({ ...world.manifest, rpcUrl: blind.url }) })
  blindService = createEvmReportService({ registry: blindRegistry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent, options: { cacheTtlMs: 0 } })
}, 240_000)

afterAll(async () => {
  await blind?.close()
  await proxy?.close()
  await world?.stop()
})

/** One JSON-RPC call to the world's node. */
async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(world.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return ((await res.json()) as { result: T }).result
}

const address = (key: string) => world.manifest.tokens.find((t) => t.key === key)!.address as Address

describe('a node refusing the V4 PoolManager logs', () => {
  it('names the PoolManager holding a V4-only token as its market with unknown figures, never no pool or no liquidity', async () => {
    const { report } = await service.reportWithFacts(31337, address('v4-native'), {})
    expect(report.honeypotDetails).toHaveLength(1)
    const row = report.honeypotDetails[0]
    expect(row.pairAddress.toLowerCase()).toBe(manager)
    expect(row.dex).toBe('Uniswap V4')
    expect([row.isPairHoneypot, row.buyTax.number, row.sellTax.number, row.transferTax.number]).toEqual(['', '', '', ''])
    expect(row.pair).toEqual(['', ''])
    // Its pools' own contracts (a hook) were not traded: nothing is known of what they can stop.
    expect(row.feeCeiling?.sellsStopped ?? '').toBe('')
    expect(row.honeypotReason).toMatch(/^not determinable: the Uniswap V4 PoolManager 0x[0-9a-fA-F]{40} holds [\d.]+ \S* ?of the token: pools of it live there, but none was found by its Initialize logs or a pool key in the token.s storage \(the node refused the Initialize logs/)
    expect(report.marketChecks.exchangabilityChecks.currentLiquidity.number).toBe('')
    expect(report.marketChecks.exchangabilityChecks.numberOfTradingPairs.number).toBe('')
    const checks = { ...report.codeChecks.ownershipChecks, ...report.codeChecks.otherChecks } as Record<string, { status: string; comment: string }>
    expect(checks.cannotBuy.status).toBe('')
    expect(checks.cannotBuy.comment).toContain("pools of it live there, but none was found by its Initialize logs or a pool key in the token's storage")
    // What the search could not cover is said, once.
    const said = (text: string) => text.split('the node refused the Initialize logs').length - 1
    expect(said(checks.cannotBuy.comment)).toBe(1)
    expect(checks.cannotSellAll.status).toBe('')
    expect(said(checks.cannotSellAll.comment)).toBe(1)
    // The public clients' shapes carry the row as it is: unknown, with its reason.
    expect(TypeCompiler.Compile(TokenReport).Check(report)).toBe(true)
    const v2 = quillcheckV2View(report)
    expect(TypeCompiler.Compile(QuillcheckV2Report).Check(v2)).toBe(true)
    expect(v2.honeypotDetails.isTokenHoneypot).toBe('')
    expect(v2.honeypotDetails.honeypotFound).toEqual({ poolsSimulated: 0, totalPools: 1, honeypotPools: 0 })
    expect(v2.honeypotDetails[0]?.pairAddress.toLowerCase()).toBe(manager)
    const description = quillcheckDescriptionView(report, { chainId: 31337, chainName: 'local' })
    expect(TypeCompiler.Compile(QuillcheckDescriptionReport).Check(description)).toBe(true)
    expect(description.honeypotDetails.pools.map((p) => [p.pairAddress.toLowerCase(), p.isPairHoneypot, p.honeypotReason])).toEqual([[manager, '', row.honeypotReason]])
  }, 120_000)

  it('leaves a V4-only token whose pool is found (a node answering the logs) as it was: its pool traded, no holding row', async () => {
    const { report } = await direct.reportWithFacts(31337, address('v4-native'), {})
    expect(report.honeypotDetails.length).toBeGreaterThan(0)
    expect(report.honeypotDetails.every((p) => p.isPairHoneypot === '0' && p.pairAddress.toLowerCase() === manager)).toBe(true)
    expect(report.honeypotDetails.some((p) => p.honeypotReason.includes('pools of it live there'))).toBe(false)
  }, 120_000)

  it('leaves a token found through its factories as it was', async () => {
    const { report } = await service.reportWithFacts(31337, address('clean'), {})
    expect(report.honeypotDetails.length).toBeGreaterThan(0)
    expect(report.honeypotDetails.every((p) => p.isPairHoneypot === '0')).toBe(true)
    // The PoolManager does not hold it: no row names it.
    expect(report.honeypotDetails.some((p) => p.pairAddress.toLowerCase() === manager)).toBe(false)
  }, 120_000)
})

describe('a pool key the token keeps in its storage', () => {
  it('finds, prices and trades the V4 pool the token names when the node refuses the PoolManager logs', async () => {
    const { report, facts } = await service.reportWithFacts(31337, address('v4-stored-key'), {})
    const v4 = facts.markets.pools.filter((p) => p.v4)
    expect(v4).toHaveLength(1)
    const key = v4[0].v4!.key
    expect([key.fee, key.tickSpacing, key.hooks]).toEqual([3000, 60, '0x0000000000000000000000000000000000000000'])
    expect(v4[0].address.toLowerCase()).toBe(manager)
    expect(v4[0].liquidityUsd).toBeGreaterThan(0)
    expect(report.honeypotDetails).toHaveLength(1)
    const row = report.honeypotDetails[0]
    expect(row.pairAddress.toLowerCase()).toBe(manager)
    expect(row.dex).toBe('Uniswap V4')
    expect(row.isPairHoneypot).toBe('0')
    expect(row.sellTax.number).not.toBe('')
    expect(Number(row.sellTax.number)).toBeLessThan(1)
    expect(row.honeypotReason).not.toContain('pools of it live there')
    expect(report.marketChecks.exchangabilityChecks.currentLiquidity.number).not.toBe('')
    expect(Number(report.marketChecks.exchangabilityChecks.currentLiquidity.number)).toBeGreaterThan(0)
    const trade = facts.trades.find((t) => t.pool.v4)
    expect(trade?.simulated).toBe(true)
    expect(trade?.honeypot).toBe(false)
    // The PoolManager's holding is its found pool, not a market of unknown figures.
    expect(facts.trades.some((t) => t.pool.custody)).toBe(false)
  }, 120_000)

  it('adds no pool for a kept key of a pool never created: the pool found is the one the logs name', async () => {
    // The key it keeps is well formed, of its own currencies: what drops it is the PoolManager's state.
    const token = address('v4-stored-look-alike')
    const words = await Promise.all(Array.from({ length: HIDDEN_OWNER_SLOTS }, (_, i) => rpc<Hex>('eth_getStorageAt', [token, `0x${i.toString(16)}`, 'latest'])))
    const kept = storedPoolKeys(words, token)
    expect(kept.map((k) => [k.fee, k.tickSpacing])).toEqual([[500, 10]])
    const { facts } = await direct.reportWithFacts(31337, address('v4-stored-look-alike'), {})
    const keys = facts.markets.pools.filter((p) => p.v4).map((p) => [p.v4!.key.fee, p.v4!.key.tickSpacing])
    expect(keys).toEqual([[3000, 60]])
    expect(facts.trades.filter((t) => t.pool.v4).map((t) => t.honeypot)).toEqual([false])
    // Behind the node refusing the logs, the look-alike key finds nothing: the holding is said as a market of unknown figures.
    const { report } = await service.reportWithFacts(31337, address('v4-stored-look-alike'), {})
    expect(report.honeypotDetails).toHaveLength(1)
    expect(report.honeypotDetails[0].isPairHoneypot).toBe('')
    expect(report.honeypotDetails[0].honeypotReason).toContain("pools of it live there, but none was found by its Initialize logs or a pool key in the token's storage")
    // The key of no pool, known for a round trip before its state said so, makes nothing of the clean token risky.
    const checks = { ...report.codeChecks.ownershipChecks, ...report.codeChecks.otherChecks } as Record<string, { status: string }>
    expect(Object.entries(checks).filter(([, c]) => c.status === '1').map(([name]) => name)).toEqual([])
  }, 120_000)
})

describe("the PoolManager's holding of a token whose holders of record are unknown", () => {
  it('is read with the token and said as a market of unknown figures', async () => {
    const { report, facts } = await blindService.reportWithFacts(31337, address('v4-native'), {})
    // The holders of record are not known: the PoolManager is not among them.
    expect(facts.holders.top.some((h) => h.address.toLowerCase() === manager)).toBe(false)
    expect(report.honeypotDetails).toHaveLength(1)
    const row = report.honeypotDetails[0]
    expect(row.pairAddress.toLowerCase()).toBe(manager)
    expect(row.isPairHoneypot).toBe('')
    expect(row.honeypotReason).toMatch(/the Uniswap V4 PoolManager 0x[0-9a-fA-F]{40} holds [\d.]+ \S* ?of the token: pools of it live there/)
  }, 120_000)
})
