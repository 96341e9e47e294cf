import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { createRedisCache } from '../src/cache/cache.ts'
import { NotFoundError } from '../src/errors.ts'
import { startSolanaWorld, type StartedSolanaWorld } from '@tokenrisk/devworld/solana/world'
import { silentLogger } from '../src/engines/solana/logger.ts'
import { createSolanaReportService } from '../src/engines/solana/service.ts'
import { redisUp, requireService, TEST_REDIS_URL } from './helpers/services.ts'

/**
 * Several API instances on one Redis: a Solana report computed by one instance is served by the
 * others without RPC calls, and concurrent requests across instances compute it once.
 */
describe.runIf(requireService('Redis', redisUp))('Solana reports cached in Redis', () => {
  let world: StartedSolanaWorld
  let dataDir: string
  const calls: string[] = []
  const clients: Redis[] = []
  const prefix = `tokenrisk:test:solana:${process.pid}:${Date.now()}:`

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tokenrisk-solana-cache-'))
    world = await startSolanaWorld({ dataDir, rpc: { intercept: (call) => void calls.push(call.method) } })
  })

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit()))
    await world?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  /** One API instance: its own Redis connection, the shared prefix. */
  const instance = () => {
    const redis = new Redis(TEST_REDIS_URL)
    clients.push(redis)
    return createSolanaReportService({ rpcUrls: [world.rpcUrl], cache: createRedisCache(redis, { prefix }), logger: silentLogger, options: { pricing: world.manifest.pricing } })
  }

  it('serves a report computed by one instance to another without RPC calls', async () => {
    const [a, b] = [instance(), instance()]
    const address = world.manifest.mints.find((m) => m.key === 't22-transfer-fee')!.address
    const first = await a.report(address)
    calls.length = 0
    const second = await b.report(address)
    expect(calls).toEqual([])
    expect(second).toEqual(first)
  })

  it('computes once for concurrent requests on several instances', async () => {
    const instances = [instance(), instance(), instance()]
    const address = world.manifest.mints.find((m) => m.key === 'clean-spl')!.address
    calls.length = 0
    const reports = await Promise.all(instances.flatMap((s) => [s.report(address), s.report(address)]))
    expect(new Set(reports.map((r) => JSON.stringify(r))).size).toBe(1)
    // One computation asks getTokenLargestAccounts twice (the token's, then its LP token's):
    // six callers on three instances cost exactly that.
    expect(calls.filter((m) => m === 'getTokenLargestAccounts')).toHaveLength(2)
  })

  it('shares "no such mint" between instances', async () => {
    const [a, b] = [instance(), instance()]
    await expect(a.report(world.manifest.notMints.wallet)).rejects.toBeInstanceOf(NotFoundError)
    calls.length = 0
    await expect(b.report(world.manifest.notMints.wallet)).rejects.toThrow('System Program')
    expect(calls).toEqual([])
  })
})
