import { join } from 'node:path'
import { compileContracts, useWorldEvm } from './compile.ts'
import { WORLD_DEV_ACCOUNTS, worldAccounts } from './accounts.ts'
import { startAnvil, type AnvilProcess } from './anvil.ts'
import { createWorldChain } from './chain.ts'
import { LOCAL_CHAINS_FILE } from 'tokenrisk/cli/local-worlds'
import { removeLocalFile, writeLocalChainsFile } from './local-chain.ts'
import type { DevnetManifest } from './manifest.ts'
import { measureWorld, withExpectedChecks } from './measure.ts'
import { createDevnetRpc, DevnetError, type DevnetRpc } from './rpc.ts'
import { copySavedWorld, findSavedWorld, saveWorld, sharedWorldDir, worldStateKey, writeManifest } from './state-cache.ts'
import { buildWorld, HISTORY } from './world-build.ts'

export const DEVNET_CHAIN_ID = 31337
/** The genesis block is this long before the world's history starts. */
const GENESIS_LEAD_SECONDS = 3600

export interface World {
  rpcUrl: string
  chainId: 31337
  manifest: DevnetManifest
  /** Milliseconds from the call to a ready world. */
  readyMs: number
  /** Whether the world was loaded from a saved anvil state rather than built. */
  loaded: boolean
  /** Process id of anvil. */
  anvilPid: number
  /** Path of the manifest written for this start. */
  manifestPath: string
  /** Resolves when anvil has exited (after `stop()`, or on its own). */
  exited: Promise<void>
  /** Stops anvil; safe to call more than once. */
  stop(): Promise<void>
}

export interface StartWorldOptions {
  /** The service's data directory; the world lives in `<dataDir>/devnet/`. */
  dataDir: string
  /** anvil's port; a free one when absent. */
  port?: number
  log?: (line: string) => void
  /** Load a saved state when one matches (default true); false always builds (and saves). */
  useSavedState?: boolean
  /**
   * anvil's hardfork for a world on an older EVM ("shanghai", "london"): its contracts are built
   * for it (no transient storage, no PUSH0 before Shanghai). Use a data directory of its own.
   */
  hardfork?: 'shanghai' | 'london'
}

/** anvil's arguments, the same whether the world is built or loaded. */
function anvilArgs(extra: string[], hardfork?: string): string[] {
  return ['--chain-id', String(DEVNET_CHAIN_ID), '--accounts', String(WORLD_DEV_ACCOUNTS), '--order', 'fifo', ...(hardfork ? ['--hardfork', hardfork] : []), ...extra]
}

/** Checks that a loaded state is the saved world: same head block, the tokens have code. */
async function matchesSaved(rpc: DevnetRpc, manifest: DevnetManifest): Promise<boolean> {
  const head = Number(BigInt(await rpc.request<string>('eth_blockNumber')))
  if (head !== manifest.readyBlock) return false
  const codes = await rpc.batch<string>(manifest.tokens.map((t) => ({ method: 'eth_getCode', params: [t.address, 'latest'] })))
  return codes.every((c) => c !== '0x')
}

/**
 * Starts the local chain world: anvil (from npm, on 127.0.0.1, a free port unless `port`),
 * filled with the DEX, the money, the token zoo and a few days of history, and its manifest of
 * ground truth written to `<dataDir>/devnet/manifest.json`. A world built before (same contracts,
 * same scripts, whatever its age) is loaded from `<dataDir>/devnet/` instead of rebuilt, its clock
 * set back to its last block so that its history reads as when it was built.
 * anvil ends with `stop()`, and with this process however it ends.
 *
 * @example
 * const world = await startWorld({ dataDir: './data', log: console.log })
 * console.log(world.rpcUrl, world.manifest.tokens.length)
 * await world.stop()
 */
export async function startWorld(options: StartWorldOptions): Promise<World> {
  const started = Date.now()
  const log = options.log ?? (() => {})
  const dir = join(options.dataDir, 'devnet')
  useWorldEvm(options.hardfork ?? 'cancun')
  const compiled = compileContracts()
  if (compiled.compiled) log(`devnet: compiled ${compiled.contracts} contracts in ${compiled.ms} ms`)
  const key = worldStateKey()

  let anvil: AnvilProcess | undefined
  try {
    let manifest: DevnetManifest | undefined
    let loaded = false
    // A data directory without a world of its own takes the one this install already built.
    const useSaved = options.useSavedState !== false
    if (useSaved && !findSavedWorld(dir, key) && copySavedWorld(sharedWorldDir(key), dir, key)) log('devnet: took the world this install built')
    const saved = useSaved ? findSavedWorld(dir, key) : null
    if (saved && !findSavedWorld(sharedWorldDir(key), key)) copySavedWorld(dir, sharedWorldDir(key), key)
    if (saved) {
      try {
        anvil = await startAnvil({ port: options.port, args: anvilArgs(['--load-state', saved.statePath], options.hardfork), log })
        const rpc = createDevnetRpc(anvil.rpcUrl)
        if (await matchesSaved(rpc, saved.saved.manifest)) {
          // anvil's clock is the wall clock: blocks mined now would come hours or days after the
          // world's history. Its next block comes one second after the saved head instead.
          await rpc.request('evm_setTime', [saved.saved.manifest.readyTimestamp + 1])
          manifest = withExpectedChecks({ ...saved.saved.manifest, rpcUrl: anvil.rpcUrl })
          loaded = true
          log(`devnet: loaded the saved world (block ${manifest.readyBlock})`)
        } else {
          log('devnet: the saved world does not match its manifest; building a new one')
        }
      } catch (error) {
        log(`devnet: the saved world could not be loaded (${(error as Error).message}); building a new one`)
      }
      if (!loaded) {
        await anvil?.stop()
        anvil = undefined
      }
    }
    if (!manifest) {
      const anchor = Math.floor(Date.now() / 1000)
      const genesis = anchor - HISTORY.setup - GENESIS_LEAD_SECONDS
      anvil = await startAnvil({ port: options.port, args: anvilArgs(['--timestamp', String(genesis)], options.hardfork), log })
      const rpc = createDevnetRpc(anvil.rpcUrl)
      const chain = createWorldChain(rpc)
      const accounts = worldAccounts(await rpc.request<string[]>('eth_accounts'))
      const built = await buildWorld(chain, accounts, anchor, log)
      const measuring = Date.now()
      manifest = await measureWorld(rpc, built)
      log(`devnet: manifest measured in ${Date.now() - measuring} ms`)
      if (manifest.chainId !== DEVNET_CHAIN_ID) throw new DevnetError(`anvil runs chain ${manifest.chainId}, not ${DEVNET_CHAIN_ID}`)
      const state = await rpc.request<string>('anvil_dumpState')
      saveWorld(dir, key, state, manifest, Date.now())
      copySavedWorld(dir, sharedWorldDir(key), key)
      log(`devnet: built the world in ${Date.now() - started} ms (${built.transactions} transactions, block ${manifest.readyBlock})`)
    }
    if (!anvil) throw new DevnetError('the world has no chain')
    const manifestPath = writeManifest(dir, manifest)
    writeLocalChainsFile(dir, manifest)
    const readyMs = Date.now() - started
    const running = anvil
    return {
      rpcUrl: running.rpcUrl,
      chainId: DEVNET_CHAIN_ID,
      manifest,
      readyMs,
      loaded,
      anvilPid: running.pid,
      manifestPath,
      exited: running.exited,
      stop: async () => {
        removeLocalFile(dir, LOCAL_CHAINS_FILE, running.rpcUrl)
        await running.stop()
      },
    }
  } catch (error) {
    await anvil?.stop()
    throw error
  }
}
