/*
 * Supply at creation: the balances a token's creation wrote, against what its Transfer events
 * credited. A constructor can write balances directly (no event): holder lists built from events
 * never show those holders, and the accounts the code names may not include them (an argument of
 * the constructor, kept nowhere). The creation code is run again in a call from the probe's address
 * (state overrides: any node, however old the creation) and the new contract's balances are read;
 * where that cannot be (no overrides, a factory's creation), the creation transaction is traced
 * (`debug_traceTransaction`, prestate tracer in diff mode: every slot the creation wrote) and read
 * at the balance mapping's slots. Candidates: the accounts the token names, the accounts of the
 * creation's Transfer events, the address-like words of the constructor's arguments, and (traced)
 * the accounts the creation touched and the addresses it stored.
 */
import { getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { PROBE_ADDRESSES, callProbe, decodeCreationBalances, decodeProbe, encodeCreationBalances } from '../chain/probe.ts'
import { RpcError, rpcErrorKind } from '../chain/rpc.ts'
import type { CreationSupplyFact } from '../facts.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import { mappingSlot, type Discovery } from './discovery.ts'
import { UNEXPLAINED_MIN_BPS } from './unexplained.ts'

/** keccak256("Transfer(address,address,uint256)") */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
/** Words at the end of the creation input read as constructor arguments, at most. */
export const CREATION_ARGUMENT_WORDS = 32
/** Accounts whose creation balances are read, at most. */
export const MAX_CREATION_ACCOUNTS = 64
/** A 32-byte word is read as an address when it is below 2^160 and above this (not a small number). */
const MIN_ADDRESS_VALUE = 1n << 100n

interface Receipt {
  contractAddress: Address | null
  logs: { address: Address; topics: Hex[]; data: Hex }[]
}

interface Tx {
  from: Address
  to: Address | null
  input: Hex
}

type StorageDiff = Record<string, { storage?: Record<string, Hex> }>

const none = (note: string): CreationSupplyFact => ({ method: '', list: [], percentOfSupply: undefined, note })

function asAddress(word: string): Address | undefined {
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(word)) return undefined
  const v = BigInt(word.startsWith('0x') ? word : `0x${word}`)
  return v > MIN_ADDRESS_VALUE && v < 1n << 160n ? getAddress(`0x${v.toString(16).padStart(40, '0')}`) : undefined
}

/** Address-like words at the end of a creation input: the constructor's arguments. */
export function argumentAddresses(input: Hex): Address[] {
  const hex = input.slice(2)
  const out: Address[] = []
  for (let k = 1; k <= CREATION_ARGUMENT_WORDS && hex.length >= 64 * k; k++) {
    const a = asAddress(hex.slice(hex.length - 64 * k, hex.length - 64 * (k - 1)))
    if (a) out.push(a)
  }
  return out
}

/** What the creation's Transfer events credited each account (net), lower-case keys. */
export function transferCredits(token: Address, logs: Receipt['logs']): Map<string, bigint> {
  const out = new Map<string, bigint>()
  for (const log of logs) {
    if (!sameAddress(log.address, token) || log.topics[0]?.toLowerCase() !== TRANSFER_TOPIC || log.topics.length < 3) continue
    const value = log.data && log.data !== '0x' ? BigInt(log.data.slice(0, 66)) : 0n
    const from = `0x${log.topics[1].slice(26)}`.toLowerCase()
    const to = `0x${log.topics[2].slice(26)}`.toLowerCase()
    out.set(to, (out.get(to) ?? 0n) + value)
    out.set(from, (out.get(from) ?? 0n) - value)
  }
  return out
}

/**
 * The balances the token's creation wrote that its Transfer events do not explain, counted
 * against the supply. `named` are the accounts the token names (code, storage, owner, creator).
 */
export async function collectCreationSupply(
  ctx: CollectContext,
  d: Discovery,
  txHash: Hex | undefined,
  named: Address[],
  block: Hex,
): Promise<CreationSupplyFact> {
  if (!txHash) return none('the creation transaction is unknown')
  const caps = ctx.rpc.capabilities
  const mapping = 'mapping' in d.selfBalanceSlot ? d.selfBalanceSlot.mapping : undefined
  const [tx, receipt] = await Promise.all([
    ctx.rpc.request<Tx | null>('eth_getTransactionByHash', [txHash]),
    ctx.rpc.request<Receipt | null>('eth_getTransactionReceipt', [txHash]),
  ])
  if (!tx || !receipt) return none('the node does not know the creation transaction')
  const credits = transferCredits(ctx.token, receipt.logs)

  const seen = new Set<string>()
  const candidates: Address[] = []
  const add = (a: string | undefined) => {
    if (!a || candidates.length >= MAX_CREATION_ACCOUNTS) return
    const key = a.toLowerCase()
    if (seen.has(key) || sameAddress(a, ZERO_ADDRESS) || sameAddress(a, ctx.token) || d.pools.some((p) => sameAddress(p.pool, a))) return
    seen.add(key)
    candidates.push(getAddress(a))
  }
  add(tx.from)
  for (const a of credits.keys()) add(a)
  for (const a of named) add(a)
  for (const a of argumentAddresses(tx.input)) add(a)

  // Run again where the node takes state overrides (any node, however old the creation): only a
  // creation sent as a transaction of its own (a factory's input is no creation code).
  const direct = tx.to === null && sameAddress(receipt.contractAddress ?? undefined, ctx.token)
  if (direct && caps?.stateOverride !== 'no') {
    // The probe runs the creation: the creator's part (msg.sender) is the probe's.
    const accounts = candidates.map((a) => (sameAddress(a, tx.from) ? PROBE_ADDRESSES.main : a))
    const raw = await callProbe(ctx.rpc, { what: 'creation re-run', data: encodeCreationBalances(tx.input, accounts), gas: ctx.gasCap, block })
    const result = decodeProbe('creation re-run', raw, decodeCreationBalances)
    if (!sameAddress(result.created, ZERO_ADDRESS)) {
      return creationVerdict(candidates, result.balances, credits, result.supply, 're-run', `the creation code run again in a call; ${candidates.length} account(s) read`)
    }
  }
  // Else traced: the storage the creation wrote, read at the balance mapping's slots (tried even
  // where traced calls with overrides are refused: tracing a transaction needs none).
  const notRun = direct ? 'the node takes no state overrides (the creation was not run again)' : 'the token was created by a factory (its code cannot be run again)'
  if (!mapping) return none(`${notRun}, and the balance mapping is not a plain one: a traced creation cannot be read`)
  // A node found without the debug methods at all (not merely refusing overrides in them) is not asked.
  const said = caps?.notes.prestateTracer ?? ''
  if (caps?.prestateTracer === 'no' && rpcErrorKind(0, said) === 'unsupported' && !/argument|field|override/i.test(said)) {
    return none(`${notRun}, and the node has no debug_traceTransaction (its debug methods are missing: ${said.slice(0, 80)})`)
  }
  let why = ''
  const diff = await ctx.rpc
    .request<{ pre: StorageDiff; post: StorageDiff }>('debug_traceTransaction', [txHash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true, disableCode: true } }])
    .catch((error: unknown) => {
      if (!(error instanceof RpcError) || error.kind === 'fault') throw error
      why = error.message.slice(0, 120)
      return undefined
    })
  if (!diff) return none(`${notRun}, and the node does not trace the creation transaction (${why})`)
  const tokenKey = Object.keys(diff.post).find((k) => sameAddress(k, ctx.token))
  const written = tokenKey ? (diff.post[tokenKey].storage ?? {}) : {}
  for (const k of Object.keys(diff.post)) add(k)
  for (const v of Object.values(written)) add(asAddress(v.slice(2).padStart(64, '0')))
  const byKey = new Map(Object.entries(written).map(([k, v]) => [k.toLowerCase(), BigInt(v)]))
  // A slot the creation did not write is a read 0: the contract's storage starts empty.
  const balances = candidates.map((a) => byKey.get(mappingSlot(mapping, a).toLowerCase()) ?? 0n)
  return creationVerdict(candidates, balances, credits, d.basics.totalSupply, 'trace', `the creation transaction traced (its storage diff); ${candidates.length} account(s) read; shares are of today's total supply (a trace does not say the supply at creation)`)
}

/** What the creation gave the candidates beyond their Transfer credits, as a share of `supply`. */
export function creationVerdict(
  candidates: Address[],
  /** undefined: that balance could not be read (unknown, never 0). */
  balances: readonly (bigint | undefined)[],
  credits: Map<string, bigint>,
  supply: bigint | undefined,
  method: CreationSupplyFact['method'],
  note: string,
): CreationSupplyFact {
  if (!supply) return { method, list: [], percentOfSupply: undefined, note: `${note}; the supply is ${supply === 0n ? '0' : 'unknown'}` }
  const list: CreationSupplyFact['list'] = []
  const unread = candidates.filter((_, i) => balances[i] === undefined)
  candidates.forEach((address, i) => {
    const balance = balances[i]
    if (balance === undefined) return
    const transferred = credits.get(address.toLowerCase()) ?? 0n
    const extra = balance - (transferred > 0n ? transferred : 0n)
    if (extra * 10_000n < supply * UNEXPLAINED_MIN_BPS) return
    list.push({ address, balance, transferred, percentOfSupply: Number((extra * 1_000_000n) / supply) / 10_000 })
  })
  const total = list.reduce((sum, u) => sum + (u.balance - (u.transferred > 0n ? u.transferred : 0n)), 0n)
  if (unread.length === 0) return { method, list, percentOfSupply: Number((total * 1_000_000n) / supply) / 10_000, note }
  // Balances not read are unknown: nothing found among the rest is no measured 0, and a share found
  // is a floor.
  const why = `${note}; ${unread.length} balance(s) could not be read (${unread.slice(0, 3).join(', ')}${unread.length > 3 ? ', ...' : ''})`
  return list.length === 0
    ? { method, list, percentOfSupply: undefined, note: `${why}: what the creation gave them is unknown` }
    : { method, list, percentOfSupply: Number((total * 1_000_000n) / supply) / 10_000, note: `${why}: the share is at least this` }
}
