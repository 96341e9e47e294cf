// Holder indexes too long for a report are finished in the background: reports say the figures
// are not final (and read no logs of their own meanwhile), the index goes on wave by wave with
// its progress stored, survives a restart of the indexer, runs on the Redis queue's worker when
// there is one, and the report then serves the holders — on the real local chain.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry, type ChainRegistry } from '../src/config/chains.ts'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import {
  createInProcessHolderIndexer,
  createQueuedHolderIndexer,
  startHolderIndexWorker,
  type WaveEvent,
} from '../src/engines/evm/holder-indexer.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { createDatabase, type Store } from '../src/store/database.ts'
import { createMemoryHolderStore, type HolderStore } from '../src/store/holder-index.ts'
import { createHolderRepository } from '../src/store/repositories/holders.ts'
import { startRpcProxy, type RpcProxy } from './fixtures/evm/rpc-proxy.ts'
import { redisUp, requireService, TEST_REDIS_URL } from './helpers/services.ts'
import { localChains } from '@tokenrisk/devworld/local-chain'

const DATA_DIR = TEST_DEVNET_DIR
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

let world: World
let proxy: RpcProxy
let registry: ChainRegistry
let dataDir: string
const stores: Store[] = []

/** A token of the world nobody moves in this file, with its holder count. */
const tokenOf = (key: string) => {
  const t = world.manifest.tokens.find((x) => x.key === key)!
  return { address: t.address as Address, holders: t.holders.count }
}

beforeAll(async () => {
  world = await startWorld({ dataDir: DATA_DIR })
  // A longer history than a report's budget can read at the pace of this node.
  await fetch(world.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: ['0x12c'] }) })
  // A node that answers one block of logs per request, slowly: the history takes many waves.
  proxy = await startRpcProxy({ upstream: world.rpcUrl, latencyMs: 150 })
  registry = loadChainRegistry({ chains: localChains({ ...world.manifest, rpcUrl: proxy.url }) })
  registry.get(31337)!.maxLogRange = 1
  dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-backfill-'))
}, 120_000)

afterAll(async () => {
  for (const s of stores) await s.close()
  await proxy?.close()
  await world?.stop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

const openStore = async (name: string): Promise<HolderStore> => {
  const store = await createDatabase({ dataDir: join(dataDir, name) })
  stores.push(store)
  return createHolderRepository(store)
}

const service = (holderStore: HolderStore, holderIndexer?: ReturnType<typeof createInProcessHolderIndexer>) =>
  createEvmReportService({ registry, cache: createMemoryCache(), holderStore, holderIndexer, logger: silent, options: { deadlineMs: 5_000, cacheTtlMs: 0 } })

describe('holder indexes finished in the background', () => {
  it('says the holders are not final until the background reaches the head, then serves them', async () => {
    const holderStore = createMemoryHolderStore()
    const waves: WaveEvent[] = []
    const indexer = createInProcessHolderIndexer({ registry, store: holderStore, logger: silent, onWave: (w) => waves.push(w) })
    const s = service(holderStore, indexer)
    const t = tokenOf('empty-symbol')
    const first = await s.reportWithFacts(31337, t.address, {})
    expect(first.report.marketChecks.holdersChecks.holdersCount.number).toBe('')
    expect(first.facts.holders.note).toMatch(/still being built .*goes on in the background/)
    expect(await holderStore.backfill(31337, t.address)).toBeDefined()
    // Meanwhile a report reads no logs of its own and says where the background stands.
    const during = await s.reportWithFacts(31337, t.address, {})
    if (await holderStore.backfill(31337, t.address)) {
      expect(during.facts.holders.note).toMatch(/being built in the background \(indexed up to block \d+ of \d+\)/)
      expect(during.report.marketChecks.holdersChecks.holdersCount.number).toBe('')
    }
    await indexer.idle()
    expect(await holderStore.backfill(31337, t.address)).toBeUndefined()
    expect(waves.length).toBeGreaterThan(1)
    // The token's waves follow each other (its LP token's are indexed beside them).
    const own = waves.filter((w) => w.token.toLowerCase() === t.address.toLowerCase())
    expect(own.length).toBeGreaterThan(1)
    expect(own.map((w) => [w.from, w.to]).filter((w, i, all) => i > 0 && w[0] !== all[i - 1][1] + 1n)).toEqual([])
    const done = await s.report(31337, t.address, {})
    expect(done.marketChecks.holdersChecks.holdersCount.number).toBe(String(t.holders))
    await s.close()
  }, 120_000)

  it('goes on after a restart from the block it had stored', async () => {
    const holderStore = await openStore('restart')
    const t = tokenOf('decimals-0')
    let stopAfter = 2
    const stopped = new Promise<void>((resolve) => {
      const first = createInProcessHolderIndexer({
        registry,
        store: holderStore,
        logger: silent,
        onWave: () => {
          if (--stopAfter === 0) void first.close().then(resolve)
        },
      })
      void first.request(31337, t.address, 0n)
    })
    await stopped
    const halfway = await holderStore.state(31337, t.address)
    expect(halfway).toBeDefined()
    expect(await holderStore.backfills()).toEqual([{ chainId: 31337, token: t.address, fromBlock: 0n }])
    // A new process: it finds the request in the store and finishes it from there.
    const waves: WaveEvent[] = []
    const second = createInProcessHolderIndexer({ registry, store: holderStore, logger: silent, onWave: (w) => waves.push(w) })
    await second.resume()
    await second.idle()
    expect(waves[0].from).toBe(halfway!.lastBlock + 1n)
    expect(await holderStore.backfills()).toEqual([])
    expect(await holderStore.count(31337, t.address)).toBe(t.holders)
    await second.close()
  }, 120_000)

  describe.runIf(requireService('Redis', redisUp))('on the Redis queue', () => {
    it('is run by the queue worker, and the report then serves the holders', async () => {
      const holderStore = await openStore('queued')
      const queueName = `tokenrisk-test-holders-${process.pid}-${Date.now()}`
      const t = tokenOf('decimals-24')
      const queued = createQueuedHolderIndexer(TEST_REDIS_URL, holderStore, { queueName })
      const s = createEvmReportService({ registry, cache: createMemoryCache(), holderStore, holderIndexer: queued, logger: silent, options: { deadlineMs: 5_000, cacheTtlMs: 0 } })
      const first = await s.report(31337, t.address, {})
      expect(first.marketChecks.holdersChecks.holdersCount.number).toBe('')
      expect(await holderStore.backfill(31337, t.address)).toBeDefined()
      const worker = await startHolderIndexWorker(TEST_REDIS_URL, { registry, store: holderStore, logger: silent }, { queueName })
      try {
        await queued.idle()
        for (let i = 0; i < 50 && (await holderStore.backfill(31337, t.address)); i++) await new Promise((r) => setTimeout(r, 100))
        expect(await holderStore.backfill(31337, t.address)).toBeUndefined()
        expect((await s.report(31337, t.address, {})).marketChecks.holdersChecks.holdersCount.number).toBe(String(t.holders))
      } finally {
        await worker.close()
        await s.close()
      }
    }, 120_000)
  })
})
