import { getAddressEncoder, type Address } from '@solana/kit'
import type { ProgramAccountLayout } from 'tokenrisk/engines/solana/venues/program-layouts'

/**
 * Account data of programs LiteSVM does not ship (Metaplex Token Metadata, Raydium AMM v4,
 * Raydium CPMM, Orca Whirlpools), written byte by byte from their published layouts. The local
 * world stores them with `setAccount` under the real program ids; the token accounts, mints and
 * LP tokens they point to are produced by the real token programs. Written independently of the
 * engine's decoders (offsets spelled out here), so a layout mistake on one side shows in tests.
 */

const enc = getAddressEncoder()

class Writer {
  readonly bytes: Uint8Array
  private readonly view: DataView
  constructor(size: number) {
    this.bytes = new Uint8Array(size)
    this.view = new DataView(this.bytes.buffer)
  }
  u8(offset: number, v: number) {
    this.view.setUint8(offset, v)
    return this
  }
  u16(offset: number, v: number) {
    this.view.setUint16(offset, v, true)
    return this
  }
  u64(offset: number, v: bigint) {
    this.view.setBigUint64(offset, v, true)
    return this
  }
  u128(offset: number, v: bigint) {
    this.view.setBigUint64(offset, v & 0xffff_ffff_ffff_ffffn, true)
    this.view.setBigUint64(offset + 8, v >> 64n, true)
    return this
  }
  key(offset: number, a: string) {
    this.bytes.set(enc.encode(a as Address), offset)
    return this
  }
  raw(offset: number, b: ArrayLike<number>) {
    this.bytes.set(b, offset)
    return this
  }
}

/** Metaplex metadata accounts are allocated at their maximum size and zero-padded. */
export const METAPLEX_METADATA_SIZE = 679
const MAX_NAME = 32
const MAX_SYMBOL = 10
const MAX_URI = 200

export interface MetaplexMetadataInput {
  updateAuthority: string
  mint: string
  name: string
  symbol: string
  uri: string
  isMutable: boolean
  creators?: { address: string; verified: boolean; share: number }[]
  /** Metaplex TokenStandard: 2 = Fungible. */
  tokenStandard?: number
}

/** A MetadataV1 account as Token Metadata writes it: strings NUL-padded to their maximum. */
export function metaplexMetadataData(m: MetaplexMetadataInput): Uint8Array {
  const out: number[] = [4] // Key::MetadataV1
  const push = (b: ArrayLike<number>) => out.push(...Array.from(b))
  const u32 = (v: number) => push([v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >> 24) & 0xff])
  const padded = (s: string, max: number) => {
    const b = new TextEncoder().encode(s)
    if (b.length > max) throw new Error(`metaplex field "${s}" exceeds ${max} bytes`)
    u32(max)
    push(b)
    push(new Uint8Array(max - b.length))
  }
  push(enc.encode(m.updateAuthority as Address))
  push(enc.encode(m.mint as Address))
  padded(m.name, MAX_NAME)
  padded(m.symbol, MAX_SYMBOL)
  padded(m.uri, MAX_URI)
  push([0, 0]) // seller fee basis points
  if (m.creators && m.creators.length > 0) {
    out.push(1)
    u32(m.creators.length)
    for (const c of m.creators) {
      push(enc.encode(c.address as Address))
      out.push(c.verified ? 1 : 0, c.share)
    }
  } else out.push(0)
  out.push(0) // primary sale happened
  out.push(m.isMutable ? 1 : 0)
  out.push(1, 255) // edition nonce
  if (m.tokenStandard === undefined) out.push(0)
  else out.push(1, m.tokenStandard)
  out.push(0, 0, 0, 0) // collection, uses, collection details, programmable config: none
  const data = new Uint8Array(METAPLEX_METADATA_SIZE)
  data.set(out)
  return data
}

export interface PoolInput {
  mintA: string
  mintB: string
  vaultA: string
  vaultB: string
  lpMint?: string
  lpIssued?: bigint
  decimalsA: number
  decimalsB: number
  /** Fees the pool owes out of its vaults (not reserves). */
  feesOwedA?: bigint
  feesOwedB?: bigint
}

/** Raydium AMM v4 `AmmInfo` (752 bytes): status 6 = swap only. */
export function raydiumAmmV4Data(p: PoolInput): Uint8Array {
  const w = new Writer(752)
  w.u64(0, 6n) // status
  w.u64(32, BigInt(p.decimalsA)).u64(40, BigInt(p.decimalsB))
  w.u64(192, p.feesOwedA ?? 0n).u64(200, p.feesOwedB ?? 0n) // base/quote need-take pnl
  w.key(336, p.vaultA).key(368, p.vaultB).key(400, p.mintA).key(432, p.mintB)
  if (p.lpMint) w.key(464, p.lpMint)
  w.u64(720, p.lpIssued ?? 0n) // lp reserve
  return w.bytes
}

/** Raydium CPMM `PoolState` (637 bytes with the Anchor discriminator). */
export function raydiumCpmmData(p: PoolInput): Uint8Array {
  const w = new Writer(637)
  w.raw(0, [247, 237, 227, 245, 215, 195, 222, 70])
  w.key(72, p.vaultA).key(104, p.vaultB)
  if (p.lpMint) w.key(136, p.lpMint)
  w.key(168, p.mintA).key(200, p.mintB)
  w.u8(330, 9).u8(331, p.decimalsA).u8(332, p.decimalsB)
  w.u64(333, p.lpIssued ?? 0n)
  w.u64(341, p.feesOwedA ?? 0n).u64(349, p.feesOwedB ?? 0n) // protocol fees
  return w.bytes
}

/** Orca `Whirlpool` (653 bytes with the Anchor discriminator); price as √price Q64.64. */
export function orcaWhirlpoolData(p: PoolInput & { sqrtPriceX64: bigint }): Uint8Array {
  const w = new Writer(653)
  w.raw(0, [63, 149, 209, 12, 225, 128, 99, 9])
  w.u16(41, 64) // tick spacing
  w.u16(45, 3000) // fee rate (0.3 %)
  w.u128(65, p.sqrtPriceX64)
  w.u64(85, p.feesOwedA ?? 0n).u64(93, p.feesOwedB ?? 0n)
  w.key(101, p.mintA).key(133, p.vaultA).key(181, p.mintB).key(213, p.vaultB)
  return w.bytes
}

/** √(price of A in B, base units) as Q64.64, for a whole-token price and both decimals. */
export function sqrtPriceX64(priceBPerA: number, decimalsA: number, decimalsB: number): bigint {
  const raw = priceBPerA * 10 ** (decimalsB - decimalsA)
  return BigInt(Math.round(Math.sqrt(raw) * 2 ** 32)) << 32n
}

/**
 * An Anchor account of a program whose layout the engine takes from the program's published IDL
 * (pump.fun, PumpSwap, Meteora): the discriminator and every named field at the IDL's offset, the
 * rest zero. Values: addresses as strings, integers as bigint or number, booleans.
 */
export function idlAccountData(layout: ProgramAccountLayout, values: Record<string, string | bigint | number | boolean>, size: number | null = layout.size): Uint8Array {
  if (size === null) throw new Error(`${layout.account} has no fixed size: give the size of the data to write`)
  const w = new Writer(size)
  w.raw(0, layout.discriminator)
  for (const [name, value] of Object.entries(values)) {
    const field = layout.fields[name]
    if (!field) throw new Error(`${layout.account} has no field ${name} in its layout`)
    const o = field.offset
    switch (field.type) {
      case 'pubkey': w.key(o, value as string); break
      case 'bool': w.u8(o, value ? 1 : 0); break
      case 'u8': w.u8(o, Number(value)); break
      // An enum's variant index (its fields, when it has some, are written by their own dotted names).
      case 'enum': w.u8(o, Number(value)); break
      case 'u16': w.u16(o, Number(value)); break
      case 'i32': new DataView(w.bytes.buffer).setInt32(o, Number(value), true); break
      case 'u64': w.u64(o, BigInt(value)); break
      case 'u128': w.u128(o, BigInt(value)); break
      default: throw new Error(`cannot write ${field.type} (${layout.account}.${name})`)
    }
  }
  return w.bytes
}
