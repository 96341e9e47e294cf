import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Address } from 'viem'
import { afterAll, beforeAll } from 'vitest'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { zooToken } from '@tokenrisk/devworld/manifest'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { createMemoryCache } from '../../src/cache/cache.ts'
import { loadChainRegistry } from '../../src/config/chains.ts'
import type { TokenReport } from '../../src/contract/token-report.ts'
import type { RpcStats } from '../../src/engines/evm/chain/rpc.ts'
import type { EvmFacts } from '../../src/engines/evm/facts.ts'
import { createEvmReportService } from '../../src/engines/evm/service.ts'
import { createDatabase, type Store } from '../../src/store/database.ts'
import { TEST_DEVNET_DIR } from './paths.ts'

/** Shared with the other world tests, so that the saved world is reused between runs. */
const DATA_DIR = TEST_DEVNET_DIR
const silent = { info: () => {}, warn: () => {}, error: () => {} }

export interface ZooReports {
  /** The local world (started before the tests of the file). */
  readonly world: World
  /** The embedded store the reports were made with. */
  readonly store: Store
  /** The report, facts and RPC statistics of the zoo token `key` (one of the keys asked for). */
  get(key: string): { report: TokenReport; facts: EvmFacts; stats: RpcStats }
}

/**
 * Starts the local world before a test file's tests and reports the zoo tokens `keys` once, cold,
 * with an embedded store of their own; stops both after the file.
 */
export function useZooReports(keys: readonly string[]): ZooReports {
  let world: World | undefined
  let store: Store | undefined
  let storeDir: string | undefined
  const reports = new Map<string, { report: TokenReport; facts: EvmFacts; stats: RpcStats }>()

  beforeAll(async () => {
    world = await startWorld({ dataDir: DATA_DIR })
    storeDir = mkdtempSync(join(tmpdir(), 'tokenrisk-zoo-reports-'))
    store = await createDatabase({ dataDir: storeDir })
    const service = createEvmReportService({ registry: loadChainRegistry({ chains: localChains(world.manifest) }), cache: createMemoryCache(), store, logger: silent })
    for (const key of keys) reports.set(key, await service.reportWithFacts(31337, zooToken(world.manifest, key).address as Address, {}))
  }, 300_000)

  afterAll(async () => {
    await store?.close()
    if (storeDir) rmSync(storeDir, { recursive: true, force: true })
    await world?.stop()
  })

  return {
    get world() {
      return world!
    },
    get store() {
      return store!
    },
    get(key) {
      const r = reports.get(key)
      if (!r) throw new Error(`no report of ${key}`)
      return r
    },
  }
}
