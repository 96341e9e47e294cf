import type { Address, Hex } from 'viem'
import type { ChainEntry } from '../../../config/chains.ts'
import type { LogRangeLimit } from '../chain/logs.ts'
import type { RpcSession } from '../chain/rpc.ts'
import type { HolderStore } from '../../../store/holder-index.ts'
import type { CreationExplorer } from '../explorer.ts'
import type { MetadataProvider } from '../../../metadata/providers.ts'

/** A pino-compatible logger. */
export interface Logger {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
  debug?(obj: object, msg?: string): void
}

/** What every fact-gatherer of one report shares. */
export interface CollectContext {
  rpc: RpcSession
  chain: ChainEntry
  token: Address
  /** Gas given to every `eth_call` (and to each simulation). */
  gasCap: bigint
  holderStore: HolderStore
  metadata: MetadataProvider[]
  /** Where the creation transaction is asked for when the node cannot tell (optional). */
  explorer?: CreationExplorer
  log: Logger
  /** The chain's `eth_getLogs` range limit, learned from its node and shared across reports. */
  logLimit: LogRangeLimit
  /** Finishes holder indexes the report could not (in the background); absent: later reports go on. */
  holderIndexer?: { request(chainId: number, token: Address, fromBlock: bigint): Promise<void> }
}

export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000'

/** Block reference as the node wants it. */
export function blockHex(n: bigint): Hex {
  return `0x${n.toString(16)}`
}

export function sameAddress(a: string | undefined, b: string | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase()
}
