// Cold Solana reports computed in the report worker threads (REPORT_WORKERS), like EVM ones: the
// same reports and errors as in the serving thread, and no Solana RPC read by the serving thread.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSolanaWorld, type StartedSolanaWorld } from '@tokenrisk/devworld/solana/world'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { startReportWorkers } from '../src/cli/report-workers.ts'
import { loadConfig } from '../src/config/settings.ts'
import { createSolanaReportService, type SolanaReportService } from '../src/engines/solana/service.ts'
import { NotFoundError } from '../src/errors.ts'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'

const DATA_DIR = TEST_DEVNET_DIR
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

let solanaWorld: StartedSolanaWorld
let dataDir: string
let workers: Awaited<ReturnType<typeof startReportWorkers>>
let served: SolanaReportService
let inThread: SolanaReportService

beforeAll(async () => {
  solanaWorld = await startSolanaWorld({ dataDir: DATA_DIR })
  dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-solana-workers-'))
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', REQUEST_TIMEOUT_MS: '60000', METADATA_FETCH: 'off' }) }
  const pricing = solanaWorld.manifest.pricing
  workers = await startReportWorkers({ count: 2, config, env: {}, solana: { rpcUrls: [solanaWorld.rpcUrl], pricing } })
  const options = { deadlineMs: 60_000, pricing }
  served = createSolanaReportService({ rpcUrls: [solanaWorld.rpcUrl], computer: workers, cache: createMemoryCache(), logger: silent, options })
  inThread = createSolanaReportService({ rpcUrls: [solanaWorld.rpcUrl], cache: createMemoryCache(), logger: silent, options })
}, 120_000)

afterAll(async () => {
  await workers?.close()
  await solanaWorld?.stop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

describe('Solana reports computed in the report worker threads', () => {
  it('are the reports the serving thread computes, and the serving thread reads no Solana RPC for them', async () => {
    for (const mint of solanaWorld.manifest.mints.slice(0, 4)) {
      const [a, b] = await Promise.all([served.report(mint.address), inThread.report(mint.address)])
      expect([mint.key, a.codeChecks]).toEqual([mint.key, b.codeChecks])
      expect({ ...a.tokenInformation.generalInformation, lastUpdated: "" }).toEqual({ ...b.tokenInformation.generalInformation, lastUpdated: "" })
      expect(a.honeypotDetails.pools.map((p) => p.isPairHoneypot)).toEqual(b.honeypotDetails.pools.map((p) => p.isPairHoneypot))
    }
    expect(served.stats().requests).toBe(0)
    expect(inThread.stats().requests).toBeGreaterThan(0)
  })

  it('answer the same errors: an account that is not a mint is a NotFoundError with the same words', async () => {
    const wallet = solanaWorld.manifest.notMints.wallet
    const fromWorker = await served.report(wallet).catch((e: unknown) => e)
    const here = await inThread.report(wallet).catch((e: unknown) => e)
    expect(fromWorker).toBeInstanceOf(NotFoundError)
    expect((fromWorker as Error).message).toBe((here as Error).message)
  })
})

describe('a worker\'s turns', () => {
  it('run at most its reports at once; the others wait, EVM and Solana ones in turn, and leave when abandoned', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tokenrisk-solana-turns-'))
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', REQUEST_TIMEOUT_MS: '60000', METADATA_FETCH: 'off' })
    const one = await startReportWorkers({ count: 1, reportsAtOnce: 1, config, env: {}, solana: { rpcUrls: [solanaWorld.rpcUrl], pricing: solanaWorld.manifest.pricing } })
    try {
      const finished: string[] = []
      const track = (name: string, work: Promise<unknown>) => work.then(() => finished.push(name), () => finished.push(name))
      // An EVM report of a chain this worker does not serve fails at once; each still takes a turn.
      const evm = (name: string) => track(name, one.compute(999_999, '0x000000000000000000000000000000000000dEaD'))
      const abandoned = new AbortController()
      const mints = solanaWorld.manifest.mints
      const first = evm('evm 1')
      const queued = one.computeSolana(mints[1].address, { signal: abandoned.signal })
      const all = Promise.all([
        first,
        evm('evm 2'),
        evm('evm 3'),
        track('solana', one.computeSolana(mints[0].address)),
      ])
      // Queued behind the others: abandoned before its turn, it is answered at once, never computed.
      abandoned.abort()
      await expect(queued).rejects.toThrow()
      await all
      // The first EVM report ran alone; the Solana one took the next turn, before the EVM ones queued before it.
      expect(finished).toEqual(['evm 1', 'solana', 'evm 2', 'evm 3'])
    } finally {
      await one.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
