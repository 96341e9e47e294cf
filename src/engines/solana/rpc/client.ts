import { createSolanaRpcFromTransport, getBase58Encoder, isSolanaError, type Address, type Base58EncodedBytes, type Signature } from '@solana/kit'
import { DeadlineError } from '../../../errors.ts'
import { isSolanaAddress } from '../address.ts'
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../programs.ts'
import { SolanaRpcError } from './errors.ts'
import { createFallbackTransport, type FallbackTransportOptions, type TransportStats } from './transport.ts'

/** getMultipleAccounts takes at most this many addresses per call. */
export const MAX_MULTIPLE_ACCOUNTS = 100
/** getSignaturesForAddress returns at most this many signatures per page. */
export const MAX_SIGNATURES_PER_PAGE = 1000

/** An account as the engine uses it: raw bytes, owner program and flags. */
export interface RawAccount {
  address: string
  owner: string
  lamports: bigint
  executable: boolean
  data: Uint8Array
}

/** An account a program-account search found: whole, or only the slice of its data asked for. */
export interface ProgramAccount extends RawAccount {
  /** The data is a slice of the account's (the search asked for one). */
  sliced: boolean
}

export interface SignatureInfo {
  signature: string
  slot: bigint
  /** Unix seconds; null when the node does not know the block time. */
  blockTime: number | null
  failed: boolean
}

/** What a transaction moved: each token account's balance and each key's lamports, before and after. */
export interface TransactionBalances {
  slot: bigint
  blockTime: number | null
  feePayer: string
  tokens: { account: string; mint: string; owner: string; pre: bigint; post: bigint }[]
  lamports: { account: string; pre: bigint; post: bigint }[]
  /** Mints the transaction initialised (InitializeMint/InitializeMint2, top-level or inner). */
  initializedMints: string[]
}

export interface TransactionSummary {
  feePayer: string
  blockTime: number | null
  initializesMint: boolean
}

export interface ProgramAccountsFilter {
  dataSize?: number
  memcmp?: { offset: number; bytes: string }[]
}

/**
 * The Solana JSON-RPC methods the engine calls, over `@solana/kit` and a fallback transport,
 * each answer checked for shape before use. Every failure is a `SolanaRpcError` (HTTP 503) or,
 * when `signal` carries one, the `DeadlineError` that aborted it.
 */
export interface SolanaRpcClient {
  getAccounts(addresses: readonly string[], signal?: AbortSignal): Promise<(RawAccount | null)[]>
  getTokenLargestAccounts(mint: string, signal?: AbortSignal): Promise<{ address: string; amount: bigint }[]>
  getProgramAccounts(program: string, filter: ProgramAccountsFilter, dataSlice: { offset: number; length: number } | undefined, signal?: AbortSignal): Promise<ProgramAccount[]>
  getSignaturesForAddress(address: string, options: { before?: string; limit: number }, signal?: AbortSignal): Promise<SignatureInfo[]>
  /**
   * The fee payer (first account key) of a transaction and whether it initialises `mint`
   * (InitializeMint or InitializeMint2 of a token program, top-level or inner); null when the
   * node does not have the transaction.
   */
  getTransactionSummary(signature: string, mint: string, signal?: AbortSignal): Promise<TransactionSummary | null>
  getTokenAccountsByOwner(owner: string, mint: string, signal?: AbortSignal): Promise<ProgramAccount[]>
  /** The balances a transaction changed (its meta's token and lamport balances); null when the node does not have it. */
  getTransactionBalances(signature: string, signal?: AbortSignal): Promise<TransactionBalances | null>
  getEpoch(signal?: AbortSignal): Promise<bigint>
  getGenesisHash(signal?: AbortSignal): Promise<string>
  getHealth(signal?: AbortSignal): Promise<string>
  stats(): TransportStats
}

export function createSolanaRpcClient(options: FallbackTransportOptions): SolanaRpcClient {
  const transport = createFallbackTransport(options)
  const rpc = createSolanaRpcFromTransport(transport)

  async function call<T>(method: string, signal: AbortSignal | undefined, send: (abortSignal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    try {
      return await send(signal)
    } catch (error) {
      throw toRpcError(method, error, signal)
    }
  }

  const malformed = (method: string, what: string) => new SolanaRpcError(method, 'malformed', `unexpected answer: ${what}`)

  return {
    async getAccounts(addresses, signal) {
      const chunks: string[][] = []
      for (let i = 0; i < addresses.length; i += MAX_MULTIPLE_ACCOUNTS) chunks.push(addresses.slice(i, i + MAX_MULTIPLE_ACCOUNTS))
      const results = await Promise.all(
        chunks.map(async (chunk) => {
          const answer: unknown = await call('getMultipleAccounts', signal, (abortSignal) =>
            rpc.getMultipleAccounts(chunk as Address[], { encoding: 'base64' }).send({ abortSignal }),
          )
          const value = isRecord(answer) ? answer.value : undefined
          if (!Array.isArray(value) || value.length !== chunk.length) throw malformed('getMultipleAccounts', `expected ${chunk.length} accounts`)
          return value.map((item, i) => (item === null ? null : parseAccount('getMultipleAccounts', chunk[i], item)))
        }),
      )
      return results.flat()
    },

    async getTokenLargestAccounts(mint, signal) {
      const answer: unknown = await call('getTokenLargestAccounts', signal, (abortSignal) =>
        rpc.getTokenLargestAccounts(mint as Address).send({ abortSignal }),
      )
      const value = isRecord(answer) ? answer.value : undefined
      if (!Array.isArray(value)) throw malformed('getTokenLargestAccounts', 'value is not a list')
      return value.map((item) => {
        if (!isRecord(item) || typeof item.address !== 'string' || !isSolanaAddress(item.address) || !isUintString(item.amount)) {
          throw malformed('getTokenLargestAccounts', 'an entry lacks a base58 address or an integer amount')
        }
        return { address: item.address, amount: BigInt(item.amount) }
      })
    },

    async getProgramAccounts(program, filter, dataSlice, signal) {
      const filters = [
        ...(filter.dataSize !== undefined ? [{ dataSize: BigInt(filter.dataSize) }] : []),
        ...(filter.memcmp ?? []).map((m) => ({ memcmp: { offset: BigInt(m.offset), bytes: m.bytes as Base58EncodedBytes, encoding: 'base58' as const } })),
      ]
      const answer: unknown = await call('getProgramAccounts', signal, (abortSignal) =>
        rpc.getProgramAccounts(program as Address, { encoding: 'base64', filters, ...(dataSlice ? { dataSlice } : {}) }).send({ abortSignal }),
      )
      if (!Array.isArray(answer)) throw malformed('getProgramAccounts', 'not a list')
      return answer.map((item) => {
        if (!isRecord(item) || typeof item.pubkey !== 'string' || !isSolanaAddress(item.pubkey)) throw malformed('getProgramAccounts', 'an entry lacks a pubkey')
        return { ...parseAccount('getProgramAccounts', item.pubkey, item.account), sliced: dataSlice !== undefined }
      })
    },

    async getSignaturesForAddress(address, { before, limit }, signal) {
      const answer: unknown = await call('getSignaturesForAddress', signal, (abortSignal) =>
        rpc.getSignaturesForAddress(address as Address, { limit, ...(before ? { before: before as Signature } : {}) }).send({ abortSignal }),
      )
      if (!Array.isArray(answer)) throw malformed('getSignaturesForAddress', 'not a list')
      if (answer.length > limit) throw malformed('getSignaturesForAddress', `${answer.length} entries for a limit of ${limit}`)
      return answer.map((item) => {
        if (!isRecord(item) || typeof item.signature !== 'string' || !isInteger(item.slot)) throw malformed('getSignaturesForAddress', 'an entry lacks signature or slot')
        const blockTime = isInteger(item.blockTime) ? Number(item.blockTime) : null
        return { signature: item.signature, slot: BigInt(item.slot), blockTime, failed: item.err !== null && item.err !== undefined }
      })
    },

    async getTransactionSummary(signature, mint, signal) {
      const answer: unknown = await call('getTransaction', signal, (abortSignal) =>
        rpc.getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send({ abortSignal }),
      )
      if (answer === null) return null
      if (!isRecord(answer) || !isRecord(answer.transaction) || !isRecord(answer.transaction.message)) throw malformed('getTransaction', 'no transaction message')
      const message = answer.transaction.message
      const staticKeys = message.accountKeys
      if (!Array.isArray(staticKeys) || typeof staticKeys[0] !== 'string' || !isSolanaAddress(staticKeys[0])) throw malformed('getTransaction', 'no fee payer among the account keys')
      const meta = isRecord(answer.meta) ? answer.meta : {}
      const loaded = isRecord(meta.loadedAddresses) ? meta.loadedAddresses : {}
      const keys: unknown[] = [...staticKeys, ...(Array.isArray(loaded.writable) ? loaded.writable : []), ...(Array.isArray(loaded.readonly) ? loaded.readonly : [])]
      const instructions: unknown[] = [...(Array.isArray(message.instructions) ? message.instructions : [])]
      for (const inner of Array.isArray(meta.innerInstructions) ? meta.innerInstructions : []) {
        if (isRecord(inner) && Array.isArray(inner.instructions)) instructions.push(...inner.instructions)
      }
      const blockTime = isInteger(answer.blockTime) ? Number(answer.blockTime) : null
      return { feePayer: staticKeys[0], blockTime, initializesMint: instructions.some((ix) => initializesMint(ix, keys, mint)) }
    },

    async getTransactionBalances(signature, signal) {
      const answer: unknown = await call('getTransaction', signal, (abortSignal) =>
        rpc.getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send({ abortSignal }),
      )
      if (answer === null) return null
      if (!isRecord(answer) || !isRecord(answer.transaction) || !isRecord(answer.transaction.message) || !isRecord(answer.meta)) throw malformed('getTransaction', 'no transaction message or meta')
      const staticKeys = answer.transaction.message.accountKeys
      if (!Array.isArray(staticKeys) || !staticKeys.every((k) => typeof k === 'string' && isSolanaAddress(k))) throw malformed('getTransaction', 'account keys are not addresses')
      const meta = answer.meta
      const loaded = isRecord(meta.loadedAddresses) ? meta.loadedAddresses : {}
      const keys = [...staticKeys, ...(Array.isArray(loaded.writable) ? loaded.writable : []), ...(Array.isArray(loaded.readonly) ? loaded.readonly : [])] as string[]
      const amounts = (list: unknown) => {
        const out = new Map<number, { mint: string; owner: string; amount: bigint }>()
        for (const b of Array.isArray(list) ? list : []) {
          if (!isRecord(b) || !isInteger(b.accountIndex) || typeof b.mint !== 'string' || !isRecord(b.uiTokenAmount) || typeof b.uiTokenAmount.amount !== 'string' || !/^\d+$/.test(b.uiTokenAmount.amount)) throw malformed('getTransaction', 'a token balance is not one')
          out.set(Number(b.accountIndex), { mint: b.mint, owner: typeof b.owner === 'string' ? b.owner : '', amount: BigInt(b.uiTokenAmount.amount) })
        }
        return out
      }
      const pre = amounts(meta.preTokenBalances)
      const post = amounts(meta.postTokenBalances)
      const tokens = [...new Set([...pre.keys(), ...post.keys()])].map((i) => {
        const b = (post.get(i) ?? pre.get(i))!
        return { account: keys[i] ?? '', mint: b.mint, owner: b.owner, pre: pre.get(i)?.amount ?? 0n, post: post.get(i)?.amount ?? 0n }
      })
      const lamportList = (list: unknown) => (Array.isArray(list) ? list.map((v) => (isInteger(v) ? BigInt(v) : 0n)) : [])
      const preLamports = lamportList(meta.preBalances)
      const postLamports = lamportList(meta.postBalances)
      const lamports = keys.map((account, i) => ({ account, pre: preLamports[i] ?? 0n, post: postLamports[i] ?? 0n }))
      const instructions: unknown[] = [...(Array.isArray(answer.transaction.message.instructions) ? answer.transaction.message.instructions : [])]
      for (const inner of Array.isArray(meta.innerInstructions) ? meta.innerInstructions : []) {
        if (isRecord(inner) && Array.isArray(inner.instructions)) instructions.push(...inner.instructions)
      }
      const initializedMints = [...new Set(keys.filter((k) => instructions.some((ix) => initializesMint(ix, keys, k))))]
      return { slot: isInteger(answer.slot) ? BigInt(answer.slot) : 0n, blockTime: isInteger(answer.blockTime) ? Number(answer.blockTime) : null, feePayer: keys[0], tokens, lamports, initializedMints }
    },

    async getTokenAccountsByOwner(owner, mint, signal) {
      const answer: unknown = await call('getTokenAccountsByOwner', signal, (abortSignal) =>
        rpc.getTokenAccountsByOwner(owner as Address, { mint: mint as Address }, { encoding: 'base64' }).send({ abortSignal }),
      )
      const value = isRecord(answer) ? answer.value : undefined
      if (!Array.isArray(value)) throw malformed('getTokenAccountsByOwner', 'value is not a list')
      return value.map((item) => {
        if (!isRecord(item) || typeof item.pubkey !== 'string' || !isSolanaAddress(item.pubkey)) throw malformed('getTokenAccountsByOwner', 'an entry lacks a pubkey')
        return { ...parseAccount('getTokenAccountsByOwner', item.pubkey, item.account), sliced: false }
      })
    },

    async getEpoch(signal) {
      const answer: unknown = await call('getEpochInfo', signal, (abortSignal) => rpc.getEpochInfo().send({ abortSignal }))
      if (!isRecord(answer) || !isInteger(answer.epoch)) throw malformed('getEpochInfo', 'no epoch')
      return BigInt(answer.epoch)
    },

    async getGenesisHash(signal) {
      const answer: unknown = await call('getGenesisHash', signal, (abortSignal) => rpc.getGenesisHash().send({ abortSignal }))
      if (typeof answer !== 'string') throw malformed('getGenesisHash', 'not a string')
      return answer
    },

    async getHealth(signal) {
      const answer: unknown = await call('getHealth', signal, (abortSignal) => rpc.getHealth().send({ abortSignal }))
      if (typeof answer !== 'string') throw malformed('getHealth', 'not a string')
      return answer
    },

    stats: () => transport.stats(),
  }
}

function parseAccount(method: string, address: string, item: unknown): RawAccount {
  const bad = (what: string) => new SolanaRpcError(method, 'malformed', `unexpected answer for account ${address}: ${what}`)
  if (!isRecord(item)) throw bad('not an object')
  if (typeof item.owner !== 'string' || !isSolanaAddress(item.owner)) throw bad('owner is not a base58 address')
  if (typeof item.executable !== 'boolean') throw bad('executable is not a boolean')
  if (!isInteger(item.lamports)) throw bad('lamports is not an integer')
  const data = item.data
  if (!Array.isArray(data) || typeof data[0] !== 'string' || data[1] !== 'base64') throw bad('data is not [base64, "base64"]')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data[0])) throw bad('data is not base64')
  return { address, owner: item.owner, lamports: BigInt(item.lamports), executable: item.executable, data: new Uint8Array(Buffer.from(data[0], 'base64')) }
}

/** InitializeMint (0) and InitializeMint2 (20) take the mint as their first account. */
const INITIALIZE_MINT_TAGS = new Set([0, 20])
const TOKEN_PROGRAMS = new Set([TOKEN_PROGRAM, TOKEN_2022_PROGRAM])

function initializesMint(ix: unknown, keys: unknown[], mint: string): boolean {
  if (!isRecord(ix) || typeof ix.programIdIndex !== 'number' && typeof ix.programIdIndex !== 'bigint') return false
  const program = keys[Number(ix.programIdIndex)]
  if (typeof program !== 'string' || !TOKEN_PROGRAMS.has(program)) return false
  if (!Array.isArray(ix.accounts) || typeof ix.data !== 'string') return false
  const first = ix.accounts[0]
  if ((typeof first !== 'number' && typeof first !== 'bigint') || keys[Number(first)] !== mint) return false
  try {
    const data = getBase58Encoder().encode(ix.data)
    return data.length > 0 && INITIALIZE_MINT_TAGS.has(data[0])
  } catch {
    return false
  }
}

function toRpcError(method: string, error: unknown, signal: AbortSignal | undefined): unknown {
  if (error instanceof SolanaRpcError || error instanceof DeadlineError) return error
  if (signal?.aborted) {
    const reason: unknown = signal.reason
    return reason instanceof Error ? reason : new DeadlineError(`Solana RPC ${method}: aborted`)
  }
  if (isSolanaError(error)) {
    const context = (error as { context?: Record<string, unknown> }).context ?? {}
    const code = typeof context.__code === 'number' ? context.__code : typeof context.code === 'number' ? context.code : undefined
    const serverMessage = typeof context.__serverMessage === 'string' ? context.__serverMessage : typeof context.message === 'string' ? context.message : error.message
    return new SolanaRpcError(method, 'rpc-error', `node answered error ${code ?? '?'}: ${serverMessage.slice(0, 200)}`, { code, cause: error })
  }
  return new SolanaRpcError(method, 'malformed', `unexpected answer: ${(error as Error)?.message ?? String(error)}`, { cause: error })
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isInteger(value: unknown): value is number | bigint {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value))
}

function isUintString(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,20}$/.test(value)
}
