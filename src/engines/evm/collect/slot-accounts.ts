/*
 * Accounts kept in the token's first storage slots. Solidity packs an address beside the small
 * fields declared next to it (`bool flag; address admin;` puts the admin one byte up), so every
 * byte offset an address can sit at within a slot is read; each 20-byte candidate is kept only when
 * it is a plausible account (it has code, a balance of the token or of the native coin, a nonce, or
 * appears in the token's Transfer logs), so that the bytes of a neighbouring field shifted into a
 * candidate are never taken for an account.
 */
import { getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { callProbe, decodePresence, decodeProbe, encodePresence } from '../chain/probe.ts'
import type { CollectContext } from './context.ts'
import type { Discovery } from './discovery.ts'
import { HIDDEN_OWNER_SLOTS } from './discovery.ts'

/** Bytes of a storage word. */
const WORD_BYTES = 32
/** Bytes of an address. */
const ADDRESS_BYTES = 20
/**
 * An address below this (its first five bytes zero) is taken for a number, not an account: one
 * chance in 2^40 for a real one.
 */
const MIN_ADDRESS = 1n << 120n
/** Storage candidates checked for plausibility at most (one probe read and one nonce each, one round trip). */
export const MAX_SLOT_CANDIDATES = 32
/** Addresses of the code (PUSH20 constants) checked the same way, at most. */
export const MAX_CODE_ACCOUNTS = 8

/** An address-like 20 bytes of a storage slot: the slot, and how many bytes up from its low end it starts. */
export interface SlotAddress {
  slot: number
  offset: number
  address: Address
}

/** A storage address (or a constant of the code) with what makes it a plausible account (undefined: could not be read). */
export interface SlotAccount extends SlotAddress {
  /** Written into the runtime code (a PUSH20 constant, such as a hard-coded team address), not kept in storage. */
  inCode?: boolean
  codeSize: bigint | undefined
  tokenBalance: bigint | undefined
  nativeBalance: bigint | undefined
  nonce: bigint | undefined
}

/** Where a storage address sits, as evidence names it. */
export function slotLabel(a: SlotAddress & { inCode?: boolean }): string {
  if (a.inCode) return 'a constant in its code'
  return a.offset === 0 ? `storage slot ${a.slot}` : `storage slot ${a.slot}, byte ${a.offset}`
}

/** A short string kept in its slot (text left-aligned, length × 2 in the last byte): no address. */
function isShortString(v: bigint): boolean {
  const last = Number(v & 0xffn)
  if (last % 2 !== 0 || last === 0 || last > 2 * (WORD_BYTES - 1)) return false
  const len = last / 2
  const tail = (v >> 8n) & ((1n << BigInt(8 * (WORD_BYTES - 1 - len))) - 1n)
  return tail === 0n
}

/**
 * Every address-like 20 bytes of the first storage slots, at every byte offset an address can
 * start at (0 … 12 bytes up from the slot's low end), without repeats. Words that are short strings
 * are skipped.
 */
export function slotAddressCandidates(d: Pick<Discovery, 'slots'>): SlotAddress[] {
  const out: SlotAddress[] = []
  const seen = new Set<string>()
  const mask = (1n << 160n) - 1n
  for (let slot = 0; slot < HIDDEN_OWNER_SLOTS; slot++) {
    const word = d.slots[`0x${slot.toString(16)}`]
    if (!word) continue
    const v = BigInt(word)
    if (v === 0n || isShortString(v)) continue
    for (let offset = 0; offset <= WORD_BYTES - ADDRESS_BYTES; offset++) {
      const x = (v >> BigInt(8 * offset)) & mask
      if (x < MIN_ADDRESS) continue
      const address = getAddress(`0x${x.toString(16).padStart(40, '0')}`)
      if (seen.has(address.toLowerCase())) continue
      seen.add(address.toLowerCase())
      out.push({ slot, offset, address })
    }
  }
  return out
}

/**
 * Reads what makes each storage candidate plausible: code size, token and native balances (one
 * probe read) and nonce, all in the same round trip.
 */
export async function collectSlotAccounts(
  ctx: CollectContext,
  d: Pick<Discovery, 'slots'>,
  block: Hex,
  /** Addresses written into the token's runtime code (PUSH20 constants), read the same way. */
  constants: readonly Address[] = [],
): Promise<SlotAccount[]> {
  const fromSlots = slotAddressCandidates(d).slice(0, MAX_SLOT_CANDIDATES)
  const list: (SlotAddress & { inCode?: boolean })[] = [
    ...fromSlots,
    ...constants
      .filter((a) => !fromSlots.some((x) => x.address.toLowerCase() === a.toLowerCase()))
      .slice(0, MAX_CODE_ACCOUNTS)
      .map((address) => ({ slot: -1, offset: 0, address: getAddress(address), inCode: true })),
  ]
  if (list.length === 0) return []
  const addresses = list.map((x) => x.address)
  const [raw, nonces] = await Promise.all([
    callProbe(ctx.rpc, { what: 'storage account reads', data: encodePresence(ctx.token, addresses), gas: ctx.gasCap, block }),
    Promise.all(addresses.map((a) => ctx.rpc.request<Hex>('eth_getTransactionCount', [a, block]).then(BigInt, () => undefined))),
  ])
  const { codeSizes, balances, nativeBalances } = decodeProbe('storage account reads', raw, decodePresence)
  return list.map((x, i) => ({ ...x, codeSize: codeSizes[i], tokenBalance: balances[i], nativeBalance: nativeBalances[i], nonce: nonces[i] }))
}

/**
 * Whether a storage candidate is an account: it has code, a balance, a nonce, or the token's
 * Transfer logs name it (`known`: holders of record). A candidate none of which could be read is
 * kept (unknown is not absent).
 */
export function isPlausible(a: SlotAccount, known: ReadonlySet<string> = new Set()): boolean {
  if (known.has(a.address.toLowerCase())) return true
  const facts = [a.codeSize, a.tokenBalance, a.nativeBalance, a.nonce]
  if (facts.every((f) => f === undefined)) return true
  return facts.some((f) => f !== undefined && f > 0n)
}
