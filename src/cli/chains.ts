import { DEVNET_CHAIN_ID, loadChainRegistry } from '../config/chains.ts'
import { InputError } from '../errors.ts'
import { capabilityRows, degradation, detectCapabilities, formatCapabilityTable } from '../engines/evm/chain/capabilities.ts'
import { parseCommand } from './args.ts'
import { COMMANDS } from './commands.ts'
import { processIo, type Io } from './io.ts'
import { localChainEntries } from './local-worlds.ts'
import { createRpcSession } from '../engines/evm/chain/rpc.ts'
import { venueOf } from '../engines/evm/venues/registry.ts'
import type { ChainEntry } from '../config/chains.ts'
import type { Hex } from 'viem'

/** How long the venue reads of one chain may take. */
const VENUE_CHECK_DEADLINE_MS = 15_000

export interface VenueCheck {
  name: string
  type: string
  address: string
  answers: boolean
  /** What it answered, or why it does not count as answering. */
  detail: string
}

/** Asks each DEX of the chain whether its factory (or V4 manager) answers at the configured address as its venue should. */
export async function checkVenues(chain: ChainEntry): Promise<VenueCheck[]> {
  const rpc = createRpcSession({ urls: chain.rpcUrls, maxBatchSize: chain.maxBatchSize, deadlineMs: VENUE_CHECK_DEADLINE_MS })
  return Promise.all(
    chain.dexes.map(async (dex): Promise<VenueCheck> => {
      const probe = venueOf(dex.type).probeCall(dex)
      const base = { name: dex.name, type: dex.type, address: dex.factory }
      try {
        const [code, answer] = await Promise.all([
          rpc.request<Hex>('eth_getCode', [dex.factory, 'latest']),
          rpc.request<Hex>('eth_call', [{ to: probe.to ?? dex.factory, data: probe.data }, 'latest']).catch((error: unknown) => error as Error),
        ])
        if (!code || code === '0x') return { ...base, answers: false, detail: 'no contract at this address' }
        if (answer instanceof Error) return { ...base, answers: false, detail: `${probe.call} failed: ${answer.message.slice(0, 120)}` }
        const read = probe.read(answer)
        return read === undefined ? { ...base, answers: false, detail: `${probe.call} answered ${answer.slice(0, 74)}: not this venue's answer` } : { ...base, answers: true, detail: `${probe.call}: ${read}` }
      } catch (error) {
        return { ...base, answers: false, detail: `the node did not answer: ${(error as Error).message.slice(0, 120)}` }
      }
    }),
  )
}

const CHAINS_USAGE = COMMANDS.chains.usage[0]

/**
 * `tokenrisk chains check [--chain <id>] [--json]`: asks every configured chain's node what it
 * can do (the probes reports rely on) and prints, per chain, the capability table with what each
 * missing capability costs in the reports, and each venue (DEX) with whether its factory or
 * manager answers at the configured address. Exit code 1 when a node did not answer.
 */
export async function chainsCommand(argv: string[], io: Io = processIo): Promise<number> {
  const { config, values, positionals } = parseCommand(COMMANDS.chains, argv, io.env)
  if (positionals[0] !== 'check' || positionals.length !== 1) throw new InputError(`usage: ${CHAINS_USAGE}`)
  // The local chain, when a running world left it under the data dir (and no RPC URL replaces it).
  const local = io.env[`RPC_URL_${DEVNET_CHAIN_ID}`] ? [] : localChainEntries(config.dataDir)
  const registry = loadChainRegistry({ env: io.env, chainsFile: config.chainsFile, chains: { source: 'the local world', entries: local } })
  const only = typeof values.chain === 'string' ? values.chain : undefined
  if (only !== undefined && !/^\d+$/.test(only)) throw new InputError(`--chain must be a decimal chain id; usage: ${CHAINS_USAGE}`)
  const chains = registry.servable().filter((c) => only === undefined || c.chainId === Number(only))
  if (chains.length === 0) {
    throw new InputError(
      only === undefined
        ? 'no EVM chain is configured: set RPC_URL_<chainId> or CHAINS_FILE (or run the service on its local world)'
        : `chain ${only} is not configured (no RPC URL): set RPC_URL_${only}`,
    )
  }
  const results = await Promise.all(
    chains.map(async (chain) => ({
      chain,
      caps: await detectCapabilities({
        chainId: chain.chainId,
        urls: chain.rpcUrls,
        maxBatchSize: chain.maxBatchSize,
        logLimit: { maxRange: BigInt(chain.maxLogRange) },
        evmVersion: chain.evmVersion,
      }),
      venues: await checkVenues(chain),
    })),
  )
  // A node that answered nothing told nothing: its table would print defaults, never read values.
  const answers = ({ caps }: (typeof results)[number]) => !(caps.stateOverride === 'unknown' && caps.batch.support === 'unknown')
  const unreachable = results.filter((r) => !answers(r))
  if (values.json) {
    const out = results.map((r) => ({
      chainId: r.chain.chainId,
      name: r.chain.name,
      rpcHost: new URL(r.chain.rpcUrls[0]).host,
      answering: answers(r),
      ...(answers(r) ? { degraded: degradation(r.caps), capabilities: capabilityRows(r.caps), venues: r.venues } : {}),
    }))
    io.out(JSON.stringify(out, null, 2))
  } else {
    for (const r of results) {
      const where = `chain ${r.chain.chainId} (${r.chain.name}) at ${new URL(r.chain.rpcUrls[0]).host}`
      if (!answers(r)) {
        io.out(`${where}: not answering`)
        io.out('')
        continue
      }
      const degraded = degradation(r.caps)
      io.out(`${where}: ${degraded ? `degraded: ${degraded}` : 'ok'}`)
      for (const line of formatCapabilityTable(r.caps)) io.out(`  ${line}`)
      io.out('  venues:')
      for (const v of r.venues) io.out(`    ${v.name} (${v.type}) at ${v.address}: ${v.answers ? 'answers' : 'DOES NOT ANSWER'} — ${v.detail}`)
      io.out('')
    }
  }
  for (const { chain } of unreachable) io.err(`chain ${chain.chainId}: the node did not answer (${new URL(chain.rpcUrls[0]).host}); nothing of it was read`)
  return unreachable.length > 0 ? 1 : 0
}
