import { getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import type { CodeAnalysis } from '../chain/bytecode.ts'
import { PROBE_ADDRESSES, callProbe, decodeAccounts, decodeProbe, encodeAccounts } from '../chain/probe.ts'
import type { UnexplainedBalanceFact } from '../facts.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import { HIDDEN_OWNER_SLOTS, type Discovery } from './discovery.ts'
import type { IndexedHolders } from './holders.ts'

/** A balance no Transfer explains counts from this share of the supply (basis points): dust is left alone. */
export const UNEXPLAINED_MIN_BPS = 1n
/** A 32-byte constant is read as an address when it is below 2^160 and above this (not a small number). */
const MIN_ADDRESS_VALUE = 1n << 100n

/**
 * Balances no Transfer event explains: the accounts the token names (addresses written in its code,
 * immutables, addresses in its first storage slots, its owner and creator) have their balances
 * read and compared with what the holder index (built from Transfer events) credits them. A
 * balance placed at creation without a Transfer (a hidden allocation) shows here, with its share
 * of the total supply. Needs a complete index; one probe call.
 */
export async function collectUnexplainedBalances(
  ctx: CollectContext,
  d: Discovery,
  logic: CodeAnalysis | undefined,
  index: IndexedHolders | undefined,
  named: (Address | undefined)[],
  block: Hex,
): Promise<{ list: UnexplainedBalanceFact[]; note: string }> {
  if (!index?.complete) return { list: [], note: 'the holder index is not complete: balances were not compared with Transfer events' }
  const supply = d.basics.totalSupply
  if (!supply) return { list: [], note: 'the supply is unknown' }
  const candidates = namedAccounts(ctx, d, logic, named)
  if (candidates.length === 0) return { list: [], note: 'the token names no account' }
  const raw = await callProbe(ctx.rpc, { what: 'named balances', data: encodeAccounts(ctx.token, candidates), gas: ctx.gasCap, block })
  const { balances, read } = decodeProbe('named balances', raw, decodeAccounts)
  // The index lists its largest holders: an account absent from it holds less than the smallest
  // listed, as far as Transfer events go (nothing, when the list is not full).
  const smallest = index.top.length > 0 ? index.top[index.top.length - 1].balance : 0n
  const list: UnexplainedBalanceFact[] = []
  // A balance not read is unknown: it is neither compared nor counted as 0.
  const unread = candidates.filter((_, i) => !read[i])
  candidates.forEach((address, i) => {
    if (!read[i]) return
    const balance = balances[i]
    const listed = index.top.find((h) => sameAddress(h.address, address))
    if (!listed && balance <= smallest) return
    const explained = listed?.balance ?? 0n
    const extra = balance - explained
    if (listed || extra * 10_000n < supply * UNEXPLAINED_MIN_BPS) return
    list.push({ address, balance, explained, percentOfSupply: Number((extra * 1_000_000n) / supply) / 10_000 })
  })
  const compared = `${candidates.length - unread.length} account(s) the token names compared with the Transfer events`
  if (unread.length === 0) return { list, note: compared }
  return { list, note: `${compared}; ${unread.length} balance(s) could not be read (${unread.slice(0, 3).join(', ')}${unread.length > 3 ? ', ...' : ''}): unknown` }
}

/**
 * The accounts the token names: addresses written in its code, immutables, addresses in its first
 * storage slots, and `named` (its owner, creator...). Never the token, the zero address, its
 * pools or the probe's accounts.
 */
export function namedAccounts(ctx: CollectContext, d: Discovery, logic: CodeAnalysis | undefined, named: (Address | undefined)[]): Address[] {
  const found = new Set<string>()
  const candidates: Address[] = []
  const add = (a: Address | undefined) => {
    if (!a || sameAddress(a, ZERO_ADDRESS) || sameAddress(a, ctx.token) || found.has(a.toLowerCase())) return
    if (Object.values(PROBE_ADDRESSES).some((p) => sameAddress(p, a)) || d.pools.some((p) => sameAddress(p.pool, a))) return
    found.add(a.toLowerCase())
    candidates.push(getAddress(a))
  }
  const asAddress = (word: Hex | undefined) => {
    if (!word) return undefined
    const v = BigInt(word)
    return v > MIN_ADDRESS_VALUE && v < 1n << 160n ? (`0x${v.toString(16).padStart(40, '0')}` as Address) : undefined
  }
  for (const a of logic?.addresses ?? []) add(a)
  for (const c of logic?.constants32 ?? []) add(asAddress(c))
  for (let i = 0; i < HIDDEN_OWNER_SLOTS; i++) add(asAddress(d.slots[`0x${i.toString(16)}`]))
  for (const a of named) add(a)
  return candidates
}
