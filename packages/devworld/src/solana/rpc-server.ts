import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHash } from 'node:crypto'
import { getAddressDecoder, getBase58Decoder, getBase58Encoder, type Address } from '@solana/kit'
import type { SolanaLedger } from './ledger.ts'

/**
 * A Solana JSON-RPC endpoint over a LiteSVM ledger, answering the methods a token-risk client
 * needs with the shapes and errors of a real node. Tests can intercept any call to answer what a
 * broken or hostile node would.
 */

/** JSON-RPC error codes of Solana nodes. */
export const RPC_ERRORS = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  excludedFromSecondaryIndex: -32010,
} as const

export const MAX_MULTIPLE_ACCOUNTS = 100
export const MAX_SIGNATURES_LIMIT = 1000
export const LARGEST_ACCOUNTS_LIMIT = 20
const MAX_REQUEST_BYTES = 1_000_000
const TOKEN_PROGRAMS = ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb']
/** Genesis hash of the local world, so clients can tell it from public clusters. */
export const LOCAL_GENESIS_HASH = getBase58Decoder().decode(createHash('sha256').update('tokenrisk local solana world').digest())

/** What an interceptor answers instead of the ledger; undefined lets the call through. */
export type InterceptAnswer =
  | { result: unknown }
  | { error: { code: number; message: string } }
  /** A raw HTTP answer: any status and body, e.g. truncated JSON. */
  | { http: { status: number; body: string } }
  | undefined

export interface SolanaRpcServerOptions {
  ledger: SolanaLedger
  port?: number
  host?: string
  /** Programs whose accounts getProgramAccounts refuses to scan, as public providers do. */
  refuseProgramAccounts?: string[]
  /** Sees every call first; `next()` computes the real answer (it throws a node error as RpcError). */
  intercept?: (call: { method: string; params: unknown[] }, next: () => unknown) => InterceptAnswer
  log?: (line: string) => void
}

export interface SolanaRpcServer {
  url: string
  /** Calls answered, per method. */
  calls: Map<string, number>
  stop(): Promise<void>
}

/** A node-side JSON-RPC error (thrown by handlers and by `next()` in interceptors). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

interface Account {
  lamports: bigint
  data: Uint8Array
  programAddress: string
  executable: boolean
}

export async function startSolanaRpcServer(options: SolanaRpcServerOptions): Promise<SolanaRpcServer> {
  const { ledger } = options
  const calls = new Map<string, number>()
  const handlers = createHandlers(ledger, options)

  const answer = (id: unknown, body: { result: unknown } | { error: { code: number; message: string } }) => ({ jsonrpc: '2.0', id: id ?? null, ...body })

  const handleOne = (request: unknown): object | { http: { status: number; body: string } } => {
    if (!isObject(request) || request.jsonrpc !== '2.0' || typeof request.method !== 'string') {
      return answer(isObject(request) ? request.id : null, { error: { code: RPC_ERRORS.invalidRequest, message: 'Invalid request' } })
    }
    const params = Array.isArray(request.params) ? request.params : []
    calls.set(request.method, (calls.get(request.method) ?? 0) + 1)
    const handler = handlers[request.method]
    const next = () => {
      if (!handler) throw new RpcError(RPC_ERRORS.methodNotFound, 'Method not found')
      return handler(params)
    }
    try {
      const intercepted = options.intercept?.({ method: request.method, params }, next)
      if (intercepted) return 'http' in intercepted ? intercepted : answer(request.id, intercepted)
      return answer(request.id, { result: next() })
    } catch (error) {
      if (error instanceof RpcError) return answer(request.id, { error: { code: error.code, message: error.message } })
      return answer(request.id, { error: { code: RPC_ERRORS.invalidParams, message: `Invalid params: ${(error as Error).message}` } })
    }
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > MAX_REQUEST_BYTES) req.destroy()
      else chunks.push(c)
    })
    req.on('end', () => {
      let payload: unknown
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        return send(res, 200, stringify(answer(null, { error: { code: RPC_ERRORS.parse, message: 'Parse error' } })))
      }
      const result = Array.isArray(payload) ? payload.map(handleOne) : handleOne(payload)
      const raw = Array.isArray(result) ? undefined : (result as { http?: { status: number; body: string } }).http
      if (raw) return send(res, raw.status, raw.body)
      send(res, 200, stringify(result))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`
  options.log?.(`solana rpc listening on ${url}`)
  return {
    url,
    calls,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function send(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

/** JSON with u64 values (bigint) written as integer literals, as Solana nodes do. */
function stringify(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `__u64__${v}` : v)).replace(/"__u64__(\d+)"/g, '$1')
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

type Handler = (params: unknown[]) => unknown

function createHandlers(ledger: SolanaLedger, options: SolanaRpcServerOptions): Record<string, Handler> {
  const svm = ledger.svm
  const b58 = getBase58Encoder()
  const addrDecoder = getAddressDecoder()
  const context = () => ({ slot: ledger.clock.slot, apiVersion: '2.2.0' })

  const address = (v: unknown, what = 'address'): Address => {
    if (typeof v !== 'string') throw new RpcError(RPC_ERRORS.invalidParams, `Invalid param: ${what} is not a string`)
    let bytes: Uint8Array
    try {
      bytes = new Uint8Array(b58.encode(v))
    } catch {
      throw new RpcError(RPC_ERRORS.invalidParams, `Invalid param: Invalid`)
    }
    if (bytes.length !== 32) throw new RpcError(RPC_ERRORS.invalidParams, `Invalid param: WrongSize`)
    return v as Address
  }
  const config = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {})

  /** Accounts of a program, scanned once per ledger version (LiteSVM scans are slow). */
  const scans = new Map<string, { version: number; accounts: ReturnType<typeof svm.getProgramAccounts> }>()
  const programAccounts = (program: string) => {
    const cached = scans.get(program)
    if (cached && cached.version === ledger.version) return cached.accounts
    const accounts = svm.getProgramAccounts(program as Address)
    scans.set(program, { version: ledger.version, accounts })
    return accounts
  }

  const getAccount = (a: Address): Account | null => {
    const account = svm.getAccount(a)
    if (!account.exists) return null
    return { lamports: BigInt(account.lamports), data: new Uint8Array(account.data), programAddress: account.programAddress, executable: account.executable }
  }

  const encodeAccount = (account: Account, cfg: Record<string, unknown>) => {
    const encoding = (cfg.encoding as string | undefined) ?? 'base58'
    let data = account.data
    if (isObject(cfg.dataSlice)) {
      const offset = Number(cfg.dataSlice.offset ?? 0)
      const length = Number(cfg.dataSlice.length ?? 0)
      data = data.subarray(offset, offset + length)
    }
    let encoded: [string, string]
    if (encoding === 'base64') encoded = [Buffer.from(data).toString('base64'), 'base64']
    else if (encoding === 'base58') encoded = [getBase58Decoder().decode(data), 'base58']
    else throw new RpcError(RPC_ERRORS.invalidParams, `Invalid params: unsupported encoding ${encoding}`)
    return { data: encoded, executable: account.executable, lamports: account.lamports, owner: account.programAddress, rentEpoch: 18446744073709551615n, space: BigInt(account.data.length) }
  }

  /** Token accounts of both token programs with their decoded base fields. */
  const tokenAccounts = () =>
    TOKEN_PROGRAMS.flatMap((program) =>
      programAccounts(program)
        .filter((a) => a.data.length === 165 || (a.data.length > 165 && a.data[165] === 2))
        .map((a) => ({
          address: a.address as string,
          program,
          account: { lamports: BigInt(a.lamports), data: new Uint8Array(a.data), programAddress: a.programAddress, executable: a.executable },
          mint: addrDecoder.decode(a.data.subarray(0, 32)) as string,
          owner: addrDecoder.decode(a.data.subarray(32, 64)) as string,
          amount: new DataView(a.data.buffer, a.data.byteOffset).getBigUint64(64, true),
        })),
    )

  const mintOf = (a: Address): { decimals: number; supply: bigint } => {
    const account = getAccount(a)
    const isMint = account && TOKEN_PROGRAMS.includes(account.programAddress) && (account.data.length === 82 || (account.data.length > 165 && account.data[165] === 1))
    if (!account || !isMint) throw new RpcError(RPC_ERRORS.invalidParams, 'Invalid param: not a Token mint')
    return { decimals: account.data[44], supply: new DataView(account.data.buffer, account.data.byteOffset).getBigUint64(36, true) }
  }

  const uiAmount = (amount: bigint, decimals: number) => {
    const s = amount.toString().padStart(decimals + 1, '0')
    const text = decimals === 0 ? s : `${s.slice(0, -decimals)}.${s.slice(-decimals)}`.replace(/\.?0+$/, '')
    return { amount: amount.toString(), decimals, uiAmount: Number(text), uiAmountString: text }
  }

  const matchesFilters = (data: Uint8Array, filters: unknown): boolean => {
    if (filters === undefined) return true
    if (!Array.isArray(filters) || filters.length > 4) throw new RpcError(RPC_ERRORS.invalidParams, 'Invalid params: too many filters provided; max 4')
    return filters.every((f) => {
      if (!isObject(f)) throw new RpcError(RPC_ERRORS.invalidParams, 'Invalid params: bad filter')
      if ('dataSize' in f) return data.length === Number(f.dataSize)
      if (isObject(f.memcmp)) {
        const offset = Number(f.memcmp.offset)
        const bytes = f.memcmp.encoding === 'base64' ? new Uint8Array(Buffer.from(String(f.memcmp.bytes), 'base64')) : new Uint8Array(b58.encode(String(f.memcmp.bytes)))
        if (bytes.length > 128) throw new RpcError(RPC_ERRORS.invalidParams, 'Invalid params: memcmp bytes too long')
        if (offset + bytes.length > data.length) return false
        return bytes.every((b, i) => data[offset + i] === b)
      }
      throw new RpcError(RPC_ERRORS.invalidParams, 'Invalid params: unknown filter')
    })
  }

  const epochInfo = () => {
    const c = ledger.clock
    return { absoluteSlot: c.slot, blockHeight: c.slot, epoch: c.epoch, slotIndex: 0n, slotsInEpoch: 432000n, transactionCount: BigInt(ledger.transactionCount()) }
  }

  return {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': '2.2.0-tokenrisk-litesvm', 'feature-set': 0 }),
    getGenesisHash: () => LOCAL_GENESIS_HASH,
    getSlot: () => ledger.clock.slot,
    getBlockHeight: () => ledger.clock.slot,
    getEpochInfo: epochInfo,
    getFirstAvailableBlock: () => 0n,
    getLatestBlockhash: () => ({ context: context(), value: { blockhash: svm.latestBlockhash(), lastValidBlockHeight: ledger.clock.slot + 150n } }),
    getMinimumBalanceForRentExemption: ([size]) => svm.minimumBalanceForRentExemption(BigInt(Number(size ?? 0))),
    getBalance: ([a]) => ({ context: context(), value: getAccount(address(a))?.lamports ?? 0n }),

    getAccountInfo: ([a, cfg]) => {
      const account = getAccount(address(a))
      return { context: context(), value: account ? encodeAccount(account, config(cfg)) : null }
    },

    getMultipleAccounts: ([list, cfg]) => {
      if (!Array.isArray(list)) throw new RpcError(RPC_ERRORS.invalidParams, 'Invalid params: expected a list of addresses')
      if (list.length > MAX_MULTIPLE_ACCOUNTS) throw new RpcError(RPC_ERRORS.invalidParams, `Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`)
      return {
        context: context(),
        value: list.map((a) => {
          const account = getAccount(address(a))
          return account ? encodeAccount(account, config(cfg)) : null
        }),
      }
    },

    getProgramAccounts: ([p, cfg]) => {
      const program = address(p, 'program')
      if (options.refuseProgramAccounts?.includes(program)) {
        throw new RpcError(RPC_ERRORS.excludedFromSecondaryIndex, `${program} excluded from account secondary indexes; this RPC method unavailable for key`)
      }
      const c = config(cfg)
      const list = programAccounts(program)
        .filter((a) => matchesFilters(new Uint8Array(a.data), c.filters))
        .map((a) => ({
          pubkey: a.address,
          account: encodeAccount({ lamports: BigInt(a.lamports), data: new Uint8Array(a.data), programAddress: a.programAddress, executable: a.executable }, c),
        }))
      return c.withContext ? { context: context(), value: list } : list
    },

    getTokenSupply: ([m]) => {
      const mint = mintOf(address(m, 'mint'))
      return { context: context(), value: uiAmount(mint.supply, mint.decimals) }
    },

    getTokenLargestAccounts: ([m]) => {
      const mintAddress = address(m, 'mint')
      const { decimals } = mintOf(mintAddress)
      const largest = tokenAccounts()
        .filter((t) => t.mint === mintAddress)
        .sort((a, b) => (a.amount === b.amount ? 0 : a.amount > b.amount ? -1 : 1))
        .slice(0, LARGEST_ACCOUNTS_LIMIT)
      return { context: context(), value: largest.map((t) => ({ address: t.address, ...uiAmount(t.amount, decimals) })) }
    },

    getTokenAccountsByOwner: ([o, filter, cfg]) => {
      const owner = address(o, 'owner')
      if (!isObject(filter)) throw new RpcError(RPC_ERRORS.invalidParams, 'Invalid params: missing mint or programId filter')
      const mint = filter.mint !== undefined ? address(filter.mint, 'mint') : undefined
      const programId = filter.programId !== undefined ? address(filter.programId, 'programId') : undefined
      if (!mint && !programId) throw new RpcError(RPC_ERRORS.invalidParams, 'Invalid params: missing mint or programId filter')
      if (mint) mintOf(mint)
      const value = tokenAccounts()
        .filter((t) => t.owner === owner && (!mint || t.mint === mint) && (!programId || t.program === programId))
        .map((t) => ({ pubkey: t.address, account: encodeAccount(t.account, config(cfg)) }))
      return { context: context(), value }
    },

    getSignaturesForAddress: ([a, cfg]) => {
      const c = config(cfg)
      const limit = c.limit === undefined ? MAX_SIGNATURES_LIMIT : Number(c.limit)
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SIGNATURES_LIMIT) throw new RpcError(RPC_ERRORS.invalidParams, 'Invalid limit; max 1000')
      let list = ledger.signaturesFor(address(a))
      if (typeof c.before === 'string') {
        const i = list.findIndex((t) => t.signature === c.before)
        list = i < 0 ? [] : list.slice(i + 1)
      }
      if (typeof c.until === 'string') {
        const i = list.findIndex((t) => t.signature === c.until)
        if (i >= 0) list = list.slice(0, i)
      }
      return list.slice(0, limit).map((t) => ({
        signature: t.signature,
        slot: t.slot,
        err: null,
        memo: null,
        blockTime: BigInt(t.blockTime),
        confirmationStatus: 'finalized',
      }))
    },

    getTransaction: ([s, cfg]) => {
      if (typeof s !== 'string') throw new RpcError(RPC_ERRORS.invalidParams, 'Invalid param: signature')
      const c = config(cfg)
      if (c.encoding !== undefined && c.encoding !== 'json') throw new RpcError(RPC_ERRORS.invalidParams, `Invalid params: unsupported encoding ${String(c.encoding)}`)
      const t = ledger.transaction(s)
      if (!t) return null
      return {
        slot: t.slot,
        blockTime: BigInt(t.blockTime),
        version: 0,
        transaction: {
          signatures: [t.signature],
          message: { accountKeys: t.accountKeys, header: t.header, instructions: t.instructions.map((i) => ({ ...i, stackHeight: null })), recentBlockhash: t.recentBlockhash, addressTableLookups: [] },
        },
        meta: {
          err: null,
          status: { Ok: null },
          fee: BigInt(t.fee),
          preBalances: t.preBalances,
          postBalances: t.postBalances,
          preTokenBalances: t.preTokenBalances.map(tokenBalance),
          postTokenBalances: t.postTokenBalances.map(tokenBalance),
          innerInstructions: t.innerInstructions,
          logMessages: t.logMessages,
          loadedAddresses: { writable: [], readonly: [] },
          computeUnitsConsumed: 0n,
        },
      }
    },
  }
}

/** A token balance as nodes write it in a transaction's meta (decimals read from the amount's mint are not kept: 0). */
function tokenBalance(b: { accountIndex: number; mint: string; owner: string; programId: string; amount: bigint }) {
  return { accountIndex: b.accountIndex, mint: b.mint, owner: b.owner, programId: b.programId, uiTokenAmount: { amount: b.amount.toString(), decimals: 0, uiAmount: null, uiAmountString: b.amount.toString() } }
}
