import { Clock, FailedTransactionMetadata, LiteSVM } from 'litesvm'
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getAddressDecoder,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  signTransactionMessageWithSigners,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit'

/** LiteSVM's transaction errors are class instances or enum numbers; this names them. */
function describeError(err: unknown): string {
  if (typeof err === 'number') return `TransactionError ${err}`
  if (err && typeof err === 'object') {
    const o = err as { index?: () => number; err?: () => unknown; toString(): string }
    if (typeof o.index === 'function' && typeof o.err === 'function') return `instruction ${o.index()} failed: ${JSON.stringify(o.err(), (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`
    return o.toString()
  }
  return String(err)
}

/** The parts of a compiled v0 message the ledger records. */
interface CompiledV0 {
  staticAccounts: string[]
  header: { numSignerAccounts: number; numReadonlySignerAccounts: number; numReadonlyNonSignerAccounts: number }
  instructions?: { programAddressIndex: number; accountIndices?: number[]; data?: Uint8Array }[]
  lifetimeToken: string
}

/** What a JSON-RPC node keeps of a processed transaction. */
export interface LedgerTransaction {
  signature: string
  slot: bigint
  blockTime: number
  /** Static account keys; the first is the fee payer. */
  accountKeys: string[]
  header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number }
  instructions: { programIdIndex: number; accounts: number[]; data: string }[]
  innerInstructions: { index: number; instructions: { programIdIndex: number; accounts: number[]; data: string; stackHeight: number }[] }[]
  logMessages: string[]
  recentBlockhash: string
  fee: number
  /** Lamports of every static account key before and after, in key order. */
  preBalances: bigint[]
  postBalances: bigint[]
  /** Token accounts among the keys, before and after: what a node's `meta.pre/postTokenBalances` say. */
  preTokenBalances: TokenBalance[]
  postTokenBalances: TokenBalance[]
}

/** A token account's balance as a node reports it in a transaction's meta. */
export interface TokenBalance {
  accountIndex: number
  mint: string
  owner: string
  programId: string
  amount: bigint
}

const TOKEN_PROGRAMS = ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb']
const TOKEN_ACCOUNT_SIZE = 165
const ACCOUNT_TYPE_OFFSET = 165
const ACCOUNT_TYPE_ACCOUNT = 2

/** Lamports charged per signature, as on the public clusters. */
export const LAMPORTS_PER_SIGNATURE = 5_000
/** Seconds the world's clock moves per transaction. */
export const SECONDS_PER_TRANSACTION = 2

/**
 * LiteSVM plus what an RPC node would index: every processed transaction, and per address the
 * signatures of the transactions that mention it. The clock is explicit, so creation times,
 * slots and epochs are the world's own.
 */
export class SolanaLedger {
  readonly svm: LiteSVM
  private readonly byAddress = new Map<string, string[]>()
  private readonly transactions = new Map<string, LedgerTransaction>()
  /** Bumped by every change of state, so readers can cache scans between changes. */
  version = 0

  constructor(options: { startUnixTime: number; startSlot: bigint; epoch: bigint } | { restored: LedgerSnapshot }) {
    if ('restored' in options) {
      this.svm = LiteSVM.fromBytes(options.restored.svm)
      for (const saved of options.restored.transactions) this.record(fromSaved(saved))
      return
    }
    this.svm = new LiteSVM().withNativeMints()
    this.svm.setClock(new Clock(options.startSlot, BigInt(options.startUnixTime), options.epoch, options.epoch, BigInt(options.startUnixTime)))
  }

  /** Everything the ledger holds — LiteSVM's state and the transactions it indexed — for `new SolanaLedger({ restored })`. */
  snapshot(): LedgerSnapshot {
    return { svm: this.svm.toBytes(), transactions: [...this.transactions.values()].map(toSaved) }
  }

  get clock(): Clock {
    return this.svm.getClock()
  }

  /** Moves the clock forward without a transaction. */
  advance(seconds: number): void {
    const c = this.svm.getClock()
    const slots = BigInt(Math.max(1, Math.round(seconds / 0.4)))
    this.svm.setClock(new Clock(c.slot + slots, c.epochStartTimestamp, c.epoch, c.leaderScheduleEpoch, c.unixTimestamp + BigInt(seconds)))
    this.svm.expireBlockhash()
    this.version++
  }

  /** Writes an account directly (layouts of programs LiteSVM lacks; hostile fixtures in tests). */
  setAccount(account: Parameters<LiteSVM['setAccount']>[0]): void {
    this.svm.setAccount(account)
    this.version++
  }

  /**
   * Signs and processes one transaction; throws with the program logs when it fails. Returns the
   * signature.
   */
  async send(feePayer: TransactionSigner, instructions: Instruction[], options: { sameSlot?: boolean } = {}): Promise<string> {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(feePayer, m),
      (m) => this.svm.setTransactionMessageLifetimeUsingLatestBlockhash(m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    )
    const transaction = await signTransactionMessageWithSigners(message)
    const keysBefore = (getCompiledTransactionMessageDecoder().decode(transaction.messageBytes) as unknown as CompiledV0).staticAccounts.map(String)
    const preBalances = keysBefore.map((k) => this.lamportsOf(k))
    const preTokenBalances = this.tokenBalances(keysBefore)
    const result = this.svm.sendTransaction(transaction)
    if (result instanceof FailedTransactionMetadata) {
      const programs = instructions.map((i) => i.programAddress).join(', ')
      throw new Error(`transaction failed (${describeError(result.err())}) in instructions of ${programs}\n${result.meta().logs().join('\n')}`)
    }
    const signature = getSignatureFromTransaction(transaction)
    const compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes) as unknown as CompiledV0
    const base58 = getBase58Decoder()
    const clock = this.svm.getClock()
    const accountKeys = compiled.staticAccounts.map(String)
    const record: LedgerTransaction = {
      signature,
      slot: clock.slot,
      blockTime: Number(clock.unixTimestamp),
      accountKeys,
      header: {
        numRequiredSignatures: compiled.header.numSignerAccounts,
        numReadonlySignedAccounts: compiled.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: compiled.header.numReadonlyNonSignerAccounts,
      },
      instructions: (compiled.instructions ?? []).map((i) => ({
        programIdIndex: i.programAddressIndex,
        accounts: [...(i.accountIndices ?? [])],
        data: base58.decode(i.data ?? new Uint8Array()),
      })),
      innerInstructions: result.innerInstructions().map((list, index) => ({
        index,
        instructions: list.map((inner) => {
          const c = inner.instruction()
          return { programIdIndex: c.programIdIndex(), accounts: [...c.accounts()], data: base58.decode(c.data()), stackHeight: inner.stackHeight() }
        }),
      })).filter((i) => i.instructions.length > 0),
      logMessages: result.logs(),
      recentBlockhash: String(compiled.lifetimeToken),
      fee: LAMPORTS_PER_SIGNATURE * compiled.header.numSignerAccounts,
      preBalances,
      postBalances: accountKeys.map((k) => this.lamportsOf(k)),
      preTokenBalances,
      postTokenBalances: this.tokenBalances(accountKeys),
    }
    this.record(record)
    // A transaction sent with `sameSlot` leaves the clock: the next one lands in the same slot (a bundle).
    if (!options.sameSlot) this.advance(SECONDS_PER_TRANSACTION)
    else this.version++
    return signature
  }

  /** Indexes a processed transaction: by signature, and under every account it mentions. */
  private record(record: LedgerTransaction): void {
    this.transactions.set(record.signature, record)
    for (const key of new Set(record.accountKeys)) {
      const list = this.byAddress.get(key) ?? []
      list.push(record.signature)
      this.byAddress.set(key, list)
    }
  }

  private lamportsOf(address: string): bigint {
    const a = this.svm.getAccount(address as Parameters<LiteSVM['getAccount']>[0])
    return a.exists ? BigInt(a.lamports) : 0n
  }

  /** The token accounts among `keys` (base accounts and Token-2022 accounts with extensions). */
  private tokenBalances(keys: string[]): TokenBalance[] {
    const out: TokenBalance[] = []
    const decoder = getAddressDecoder()
    keys.forEach((key, accountIndex) => {
      const a = this.svm.getAccount(key as Parameters<LiteSVM['getAccount']>[0])
      if (!a.exists || !TOKEN_PROGRAMS.includes(a.programAddress)) return
      const data = new Uint8Array(a.data)
      if (data.length < TOKEN_ACCOUNT_SIZE || (data.length > TOKEN_ACCOUNT_SIZE && data[ACCOUNT_TYPE_OFFSET] !== ACCOUNT_TYPE_ACCOUNT)) return
      const amount = new DataView(data.buffer, data.byteOffset).getBigUint64(64, true)
      out.push({ accountIndex, mint: decoder.decode(data.subarray(0, 32)), owner: decoder.decode(data.subarray(32, 64)), programId: a.programAddress, amount })
    })
    return out
  }

  transaction(signature: string): LedgerTransaction | undefined {
    return this.transactions.get(signature)
  }

  /** Signatures mentioning `address`, newest first. */
  signaturesFor(address: string): LedgerTransaction[] {
    return (this.byAddress.get(address) ?? []).map((s) => this.transactions.get(s)!).reverse()
  }

  transactionCount(): number {
    return this.transactions.size
  }
}


/** A transaction as the saved world keeps it: JSON, its integers as decimal strings. */
export type SavedTransaction = Omit<LedgerTransaction, 'slot' | 'preBalances' | 'postBalances' | 'preTokenBalances' | 'postTokenBalances'> & {
  slot: string
  preBalances: string[]
  postBalances: string[]
  preTokenBalances: SavedTokenBalance[]
  postTokenBalances: SavedTokenBalance[]
}
type SavedTokenBalance = Omit<TokenBalance, 'amount'> & { amount: string }

/** A ledger's whole content: LiteSVM's own snapshot (accounts, sysvars, clock) and the indexed transactions in order. */
export interface LedgerSnapshot {
  svm: Uint8Array
  transactions: SavedTransaction[]
}

function toSaved(t: LedgerTransaction): SavedTransaction {
  const balance = (b: TokenBalance): SavedTokenBalance => ({ ...b, amount: b.amount.toString() })
  return {
    ...t,
    slot: t.slot.toString(),
    preBalances: t.preBalances.map(String),
    postBalances: t.postBalances.map(String),
    preTokenBalances: t.preTokenBalances.map(balance),
    postTokenBalances: t.postTokenBalances.map(balance),
  }
}

function fromSaved(t: SavedTransaction): LedgerTransaction {
  const balance = (b: SavedTokenBalance): TokenBalance => ({ ...b, amount: BigInt(b.amount) })
  return {
    ...t,
    slot: BigInt(t.slot),
    preBalances: t.preBalances.map(BigInt),
    postBalances: t.postBalances.map(BigInt),
    preTokenBalances: t.preTokenBalances.map(balance),
    postTokenBalances: t.postTokenBalances.map(balance),
  }
}
