// What the search for a token's pools could not cover is said with the trade checks: a node that
// refuses the Uniswap V4 PoolManager's logs leaves a V4-only token's pools unseen, and the report
// says so instead of stating that the token has no pool.
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { createMemoryHolderStore } from '../src/store/holder-index.ts'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { startFaultProxy, type FaultProxy } from './fixtures/fault-proxy.ts'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

let world: World
let proxy: FaultProxy
let service: ReturnType<typeof createEvmReportService>

beforeAll(async () => {
  world = await startWorld({ dataDir: TEST_DEVNET_DIR })
  proxy = await startFaultProxy(world.rpcUrl)
  const manager = world.manifest.contracts.v4PoolManager!.toLowerCase()
  // A node that refuses every log search of the PoolManager, whatever its range.
  proxy.set({
    name: 'refuses the PoolManager logs',
    description: 'eth_getLogs of the PoolManager refused as too large',
    fail: (call) => (call.method === 'eth_getLogs' && JSON.stringify(call.params).toLowerCase().includes(manager) ? { code: -32005, message: 'query returned more than 10000 results' } : undefined),
  })
  const registry = loadChainRegistry({ chains: localChains({ ...world.manifest, rpcUrl: proxy.url }) })
  service = createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent, options: { cacheTtlMs: 0 } })
}, 240_000)

afterAll(async () => {
  await proxy?.close()
  await world?.stop()
})

const address = (key: string) => world.manifest.tokens.find((t) => t.key === key)!.address as Address

describe('a node refusing the V4 PoolManager logs', () => {
  it('leaves a V4-only token with no pool found, and the trade checks say the search was not whole, never that it has no pool', async () => {
    const { report } = await service.reportWithFacts(31337, address('v4-native'), {})
    expect(report.honeypotDetails).toEqual([])
    const checks = { ...report.codeChecks.ownershipChecks, ...report.codeChecks.otherChecks } as Record<string, { status: string; comment: string }>
    expect(checks.cannotBuy.status).toBe('')
    expect(checks.cannotBuy.comment).toContain('no pool of the token was found (the pool search: the node refused the Initialize logs')
    expect(checks.cannotSellAll.status).toBe('')
    expect(checks.cannotSellAll.comment).toContain('the pool search: the node refused the Initialize logs')
  }, 120_000)

  it('leaves a token found through its factories as it was', async () => {
    const { report } = await service.reportWithFacts(31337, address('clean'), {})
    expect(report.honeypotDetails.length).toBeGreaterThan(0)
    expect(report.honeypotDetails.every((p) => p.isPairHoneypot === '0')).toBe(true)
  }, 120_000)
})
