// Who holds a pool's position NFTs is read the same way whatever the node serves: by the token
// programs' account search by mint where the node answers it (one round trip), by the NFTs' largest
// accounts where it refuses that search or the operator turned it off.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import type { SolanaReport } from '../src/contract/solana-report.ts'
import { startSolanaWorld, type StartedSolanaWorld } from '@tokenrisk/devworld/solana/world'
import { DEFAULT_COLLECT_LIMITS } from '../src/engines/solana/collect/context.ts'
import { silentLogger } from '../src/engines/solana/logger.ts'
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../src/engines/solana/programs.ts'
import { createSolanaReportService, type SolanaReportService } from '../src/engines/solana/service.ts'
import { ORCA_POSITION } from '../src/engines/solana/venues/program-layouts.ts'
import { startFaultProxy, type FaultProxy, type JsonRpcCall } from './fixtures/fault-proxy.ts'

/** The world's mints whose liquidity sits in position NFTs (Orca Whirlpool, Raydium CLMM), locked or not. */
const POSITION_MINTS = ['orca-positions', 'raydium-clmm', 'raydium-clmm-locked', 'second-pool-locked']

let dataDir: string
let world: StartedSolanaWorld
let proxy: FaultProxy
const services: SolanaReportService[] = []
const tokenSearches: JsonRpcCall[] = []

const isTokenSearch = (c: JsonRpcCall) => c.method === 'getProgramAccounts' && (c.params?.[0] === TOKEN_PROGRAM || c.params?.[0] === TOKEN_2022_PROGRAM)

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tokenrisk-solana-positions-'))
  world = await startSolanaWorld({ dataDir })
  proxy = await startFaultProxy(world.rpcUrl)
  // A node without the index of token accounts by mint: it refuses every search of the token programs.
  proxy.set({
    name: 'token searches refused',
    description: 'getProgramAccounts of the token programs answers -32010',
    fail: (c) => {
      if (!isTokenSearch(c)) return undefined
      tokenSearches.push(c)
      return { code: -32010, message: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA excluded from account secondary indexes; this RPC method unavailable for key' }
    },
  })
}, 120_000)

afterAll(async () => {
  for (const s of services) await s.close()
  await proxy?.close()
  await world?.stop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

function service(rpcUrl: string, countHolders: boolean): SolanaReportService {
  const s = createSolanaReportService({
    rpcUrls: [rpcUrl],
    cache: createMemoryCache(),
    logger: silentLogger,
    options: { pricing: world.manifest.pricing, cacheTtlMs: 0, limits: { ...DEFAULT_COLLECT_LIMITS, countHolders } },
  })
  services.push(s)
  return s
}

const lpOf = (r: SolanaReport) => {
  const d = r.marketChecks.marketCheckDescription.liquidityDescription
  return { lp: d.aggregatedInformation, pools: d.pairByPairInformation }
}

describe('the holders of position NFTs', () => {
  it('are the same found by the token programs\' search, by largest accounts when the node refuses it, finds none, is too slow or it is turned off', async () => {
    const searched = service(world.rpcUrl, true)
    const refused = service(proxy.url, true)
    const off = service(world.rpcUrl, false)
    // A node that answers the searches but finds nothing (an NFT held in an account of another shape): read by largest account after them.
    const empty = await startFaultProxy(world.rpcUrl)
    empty.set({ name: 'token searches empty', description: 'getProgramAccounts of the token programs answers no account', result: (c, r) => (isTokenSearch(c) ? [] : r) })
    const unfound = service(empty.url, true)
    // A node that scans the whole token program for them (no index by mint): far slower than NFT_SEARCH_MS.
    const scanning = await startFaultProxy(world.rpcUrl)
    scanning.set({ name: 'token searches slow', description: 'getProgramAccounts of the token programs answers after 20 s', delayMs: (c) => (isTokenSearch(c) ? 20_000 : 0) })
    const slow = service(scanning.url, true)
    for (const key of POSITION_MINTS) {
      const mint = world.manifest.mints.find((m) => m.key === key)!
      const pool = mint.pools.find((p) => p.lpMint || p.lpHolders)
      const [a, b, c, d] = [await searched.report(mint.address), await refused.report(mint.address), await off.report(mint.address), await unfound.report(mint.address)]
      const started = Date.now()
      const e = await slow.report(mint.address)
      // Not waited for: read by largest account once NFT_SEARCH_MS passed (the holder count, the same search, is given up at the optional budget).
      expect(Date.now() - started, key).toBeLessThan(15_000)
      expect(lpOf(a).pools.flatMap((d) => d.pairsInformation).length, key).toBeGreaterThan(0)
      // The world's truth, where it records the providers: who holds the LP, and the share locked.
      if (pool) expect(lpOf(a).lp.keyLpHolders.map((h) => h.address).sort(), key).toEqual(pool.lpHolders ? pool.lpHolders.map((h) => h.owner).sort() : [mint.creator])
      if (pool) expect(lpOf(a).lp.percentDistributed.locked.percent, key).toBe(Number(pool.lpLockedPercent))
      expect(lpOf(b), key).toEqual(lpOf(a))
      expect(lpOf(c), key).toEqual(lpOf(a))
      expect(lpOf(d), key).toEqual(lpOf(a))
      expect(lpOf(e), key).toEqual(lpOf(a))
    }
    await empty.close()
    await scanning.close()
    // The refusing node was asked, and answered by the other way.
    expect(tokenSearches.some((c) => JSON.stringify(c.params).includes('"offset":0'))).toBe(true)
  }, 240_000)
})

describe('the locks of a pool read beside the deepest one', () => {
  it('that could not be read are said, beside the locks that were', async () => {
    // A node refusing the search of Orca Whirlpool positions (a program search too large, say).
    const refusing = await startFaultProxy(world.rpcUrl)
    refusing.set({
      name: 'Whirlpool positions refused',
      description: 'getProgramAccounts of Whirlpool positions answers -32010',
      fail: (c) => {
        const filters = JSON.stringify(c.params?.[1] ?? {})
        return c.method === 'getProgramAccounts' && c.params?.[0] === ORCA_POSITION.program && filters.includes(`"dataSize":${ORCA_POSITION.size}`) ? { code: -32010, message: 'the answer is too large' } : undefined
      },
    })
    try {
      const mint = world.manifest.mints.find((m) => m.key === 'second-pool-locked')!
      const [a, b] = [await service(world.rpcUrl, true).report(mint.address), await service(refusing.url, true).report(mint.address)]
      const locked = (r: SolanaReport) => r.marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.liquidityLockedDetails
      const orca = mint.pools.find((p) => p.dex === 'Orca Whirlpool')!
      // Read whole: both pools' locks, nothing left unsaid.
      expect(locked(a).reason).toBe('')
      expect(locked(a).lockedPools.map((p) => p.pool)).toContain(orca.address)
      // The Whirlpool's positions refused: its locks are not listed, and the reason names it; the PumpSwap LP's are.
      expect(locked(b).lockedPools.map((p) => p.pool)).not.toContain(orca.address)
      expect(locked(b).lockedPools.map((p) => p.pool)).toEqual(locked(a).lockedPools.map((p) => p.pool).filter((p) => p !== orca.address))
      expect(locked(b).reason).toContain(orca.address)
      expect(locked(b).reason).toMatch(/not read for every pool/)
    } finally {
      await refusing.close()
    }
  }, 60_000)
})
