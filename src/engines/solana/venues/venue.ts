import { getBase58Decoder } from '@solana/kit'
import { ByteReader, MalformedAccountError } from '../decode/reader.ts'
import type { ProgramAccountLayout } from './program-layouts.ts'
import type { PoolSearch } from '../decode/pools.ts'

/**
 * Reads one field of an account by its name in the program's IDL layout (program-layouts.ts):
 * the offset is the IDL's, never typed by hand.
 */
export function fieldReader(layout: ProgramAccountLayout, data: Uint8Array, what: string) {
  const at = (name: string, type: string) => {
    const field = layout.fields[name]
    if (!field) throw new MalformedAccountError(`${what}: the ${layout.account} layout has no field ${name}`)
    if (field.type !== type) throw new MalformedAccountError(`${what}: ${name} is ${field.type} in the layout, read as ${type}`)
    return new ByteReader(data, field.offset, what)
  }
  return {
    address: (name: string) => at(name, 'pubkey').address(name),
    u64: (name: string) => at(name, 'u64').u64(name),
    u128: (name: string) => at(name, 'u128').u128(name),
    u8: (name: string) => at(name, 'u8').u8(name),
    u16: (name: string) => at(name, 'u16').u16(name),
    i32: (name: string) => at(name, 'i32').i32(name),
    bool: (name: string) => at(name, 'bool').bool(name),
    /** An enum's variant index (its one-byte tag). */
    tag: (name: string) => at(name, 'enum').u8(name),
    has: (name: string) => name in layout.fields,
  }
}

/** Throws unless `data` starts with the account's discriminator and is long enough for its fixed fields. */
export function expectLayout(layout: ProgramAccountLayout, data: Uint8Array, what: string, exactSize = false): void {
  const d = layout.discriminator
  if (data.length < d.length || d.some((b, i) => data[i] !== b)) throw new MalformedAccountError(`${what}: account discriminator does not match`)
  const last = Math.max(...Object.values(layout.fields).map((f) => f.offset + fieldSize(f.type)))
  if (data.length < last) throw new MalformedAccountError(`${what}: ${data.length} bytes, too short for its fields`)
  if (exactSize && layout.size !== null && data.length !== layout.size) throw new MalformedAccountError(`${what}: ${data.length} bytes, expected ${layout.size}`)
}

/** Bytes of each field type; an enum takes at least its one-byte tag. */
const SIZES: Record<string, number> = { enum: 1, bool: 1, u8: 1, i8: 1, u16: 2, i16: 2, u32: 4, i32: 4, u64: 8, i64: 8, u128: 16, i128: 16, pubkey: 32 }
const fieldSize = (type: string) => SIZES[type] ?? 0

/** The memcmp filter that selects one account type of a program by its discriminator. */
export function discriminatorFilter(layout: ProgramAccountLayout): { offset: number; bytes: string } {
  return { offset: 0, bytes: getBase58Decoder().decode(Uint8Array.from(layout.discriminator)) }
}

/** Searches for a mint at the two given fields of an account type, each bounded by the account's size or discriminator. */
export function mintSearches(layout: ProgramAccountLayout, fields: readonly [string, string], mint: string, bySize: boolean): PoolSearch[] {
  return fields.map((name) => {
    const field = layout.fields[name]
    if (!field) throw new Error(`${layout.account} layout has no field ${name}`)
    const mintFilter = { offset: field.offset, bytes: mint }
    return bySize && layout.size !== null ? { dataSize: layout.size, memcmp: [mintFilter] } : { memcmp: [discriminatorFilter(layout), mintFilter] }
  })
}
