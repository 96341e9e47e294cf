import { getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'

/**
 * Where the holder index lives: per (chain, token) the last indexed block and every non-zero
 * balance, built from Transfer logs. The report service only needs this interface; the store's
 * repository (`./repositories/holders.ts`) implements it on SQLite and PostgreSQL, and
 * `createMemoryHolderStore` in process.
 */
export interface HolderIndexState {
  /** First block the index covers (logs before it were never read). */
  fromBlock: bigint
  /** Last block whose logs are applied. */
  lastBlock: bigint
}

export interface CreationRecord {
  creator: Address | undefined
  deployer: Address | undefined
  txHash: Hex | undefined
  blockNumber: bigint | undefined
  timestamp: number | undefined
}

/** A holder index being brought to the head in the background. */
export interface BackfillRequest {
  chainId: number
  token: Address
  /** Block the index starts at when it has no state yet (the token's creation). */
  fromBlock: bigint
}

export interface HolderStore {
  state(chainId: number, token: Address): Promise<HolderIndexState | undefined>
  /**
   * Applies balance deltas of the logs in (`expected.lastBlock`, `toBlock`] in one transaction.
   * Returns false, applying nothing, when another writer moved the index since `expected` was read.
   */
  apply(chainId: number, token: Address, expected: HolderIndexState | undefined, next: HolderIndexState, deltas: Map<Address, bigint>): Promise<boolean>
  /** Largest balances first. */
  top(chainId: number, token: Address, limit: number): Promise<{ address: Address; balance: bigint }[]>
  count(chainId: number, token: Address): Promise<number>
  balances(chainId: number, token: Address, addresses: Address[]): Promise<Map<Address, bigint>>
  creation(chainId: number, token: Address): Promise<CreationRecord | undefined>
  saveCreation(chainId: number, token: Address, record: CreationRecord): Promise<void>
  /** Records that the token's index is to be finished in the background (kept if already recorded). */
  requestBackfill(request: BackfillRequest): Promise<void>
  /** The pending background request of a token, if any. */
  backfill(chainId: number, token: Address): Promise<BackfillRequest | undefined>
  /** Every pending background request (resumed after a restart). */
  backfills(): Promise<BackfillRequest[]>
  /** The token's index reached the head: its request is done. */
  finishBackfill(chainId: number, token: Address): Promise<void>
}

const key = (chainId: number, token: Address) => `${chainId}:${token.toLowerCase()}`

/** The holder index in process memory (tests, and the CLI's one-off scans). */
export function createMemoryHolderStore(): HolderStore {
  const states = new Map<string, HolderIndexState>()
  const balances = new Map<string, Map<Address, bigint>>()
  const creations = new Map<string, CreationRecord>()
  const backfills = new Map<string, BackfillRequest>()
  return {
    async requestBackfill(request) {
      const k = key(request.chainId, request.token)
      if (!backfills.has(k)) backfills.set(k, { ...request, token: getAddress(request.token) })
    },
    async backfill(chainId, token) {
      return backfills.get(key(chainId, token))
    },
    async backfills() {
      return [...backfills.values()]
    },
    async finishBackfill(chainId, token) {
      backfills.delete(key(chainId, token))
    },
    async state(chainId, token) {
      return states.get(key(chainId, token))
    },
    async apply(chainId, token, expected, next, deltas) {
      const k = key(chainId, token)
      const current = states.get(k)
      if ((current?.lastBlock ?? null) !== (expected?.lastBlock ?? null)) return false
      const book = balances.get(k) ?? new Map<Address, bigint>()
      for (const [raw, delta] of deltas) {
        const address = getAddress(raw)
        const v = (book.get(address) ?? 0n) + delta
        if (v === 0n) book.delete(address)
        else book.set(address, v)
      }
      balances.set(k, book)
      states.set(k, next)
      return true
    },
    async top(chainId, token, limit) {
      const book = balances.get(key(chainId, token)) ?? new Map()
      return [...book.entries()]
        .filter(([, b]) => b > 0n)
        .sort((a, b) => (a[1] !== b[1] ? (a[1] > b[1] ? -1 : 1) : a[0].toLowerCase() < b[0].toLowerCase() ? -1 : 1))
        .slice(0, limit)
        .map(([address, balance]) => ({ address, balance }))
    },
    async count(chainId, token) {
      const book = balances.get(key(chainId, token)) ?? new Map()
      return [...book.values()].filter((b) => b > 0n).length
    },
    async balances(chainId, token, addresses) {
      const book = balances.get(key(chainId, token)) ?? new Map()
      return new Map(addresses.map((a) => [a, book.get(getAddress(a)) ?? 0n]))
    },
    async creation(chainId, token) {
      return creations.get(key(chainId, token))
    },
    async saveCreation(chainId, token, record) {
      // Like the store: the first record stays (a creation never changes).
      if (!creations.has(key(chainId, token))) creations.set(key(chainId, token), record)
    },
  }
}
