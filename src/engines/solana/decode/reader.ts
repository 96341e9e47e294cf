import { getAddressDecoder } from '@solana/kit'

/**
 * Raised when account bytes do not follow the layout their owner program writes: truncated data,
 * an option tag that is neither 0 nor 1, a length that runs past the end. Collectors turn it
 * into an `UpstreamError` (for the account the report is about) or an unknown fact.
 */
export class MalformedAccountError extends Error {
  override name = 'MalformedAccountError'
}

const addressDecoder = getAddressDecoder()

/** Bounds-checked little-endian reads over account data. */
export class ByteReader {
  private readonly view: DataView
  offset: number

  constructor(
    readonly bytes: Uint8Array,
    offset = 0,
    /** Names the layout in error messages ("mint", "Metaplex metadata"). */
    readonly what = 'account',
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    this.offset = offset
  }

  get remaining(): number {
    return this.bytes.length - this.offset
  }

  private need(n: number, field: string): number {
    if (n < 0 || this.offset + n > this.bytes.length) {
      throw new MalformedAccountError(`${this.what} data ends at byte ${this.bytes.length}; ${field} needs bytes ${this.offset}..${this.offset + n}`)
    }
    const at = this.offset
    this.offset += n
    return at
  }

  u8(field = 'u8'): number {
    return this.view.getUint8(this.need(1, field))
  }
  bool(field = 'bool'): boolean {
    const v = this.u8(field)
    if (v > 1) throw new MalformedAccountError(`${this.what}: ${field} is ${v}, not a boolean`)
    return v === 1
  }
  u16(field = 'u16'): number {
    return this.view.getUint16(this.need(2, field), true)
  }
  i16(field = 'i16'): number {
    return this.view.getInt16(this.need(2, field), true)
  }
  u32(field = 'u32'): number {
    return this.view.getUint32(this.need(4, field), true)
  }
  i32(field = 'i32'): number {
    return this.view.getInt32(this.need(4, field), true)
  }
  u64(field = 'u64'): bigint {
    return this.view.getBigUint64(this.need(8, field), true)
  }
  i64(field = 'i64'): bigint {
    return this.view.getBigInt64(this.need(8, field), true)
  }
  u128(field = 'u128'): bigint {
    const lo = this.u64(field)
    const hi = this.u64(field)
    return (hi << 64n) | lo
  }
  f64(field = 'f64'): number {
    return this.view.getFloat64(this.need(8, field), true)
  }
  take(n: number, field = 'bytes'): Uint8Array {
    const at = this.need(n, field)
    return this.bytes.subarray(at, at + n)
  }
  skip(n: number, field = 'padding'): void {
    this.need(n, field)
  }
  address(field = 'address'): string {
    return addressDecoder.decode(this.take(32, field))
  }
  /** A 32-byte key where all zeroes means "none" (Token-2022's OptionalNonZeroPubkey). */
  optionalNonZeroAddress(field = 'address'): string | null {
    const bytes = this.take(32, field)
    return bytes.every((b) => b === 0) ? null : addressDecoder.decode(bytes)
  }
  /** A `COption<Pubkey>` of the token programs' state: u32 tag, then always 32 bytes. */
  cOptionAddress(field = 'address'): string | null {
    const tag = this.u32(`${field} tag`)
    const bytes = this.take(32, field)
    if (tag === 0) return null
    if (tag !== 1) throw new MalformedAccountError(`${this.what}: ${field} option tag is ${tag}, not 0 or 1`)
    return addressDecoder.decode(bytes)
  }
  /** A `COption<u64>`: u32 tag, then always 8 bytes. */
  cOptionU64(field = 'u64'): bigint | null {
    const tag = this.u32(`${field} tag`)
    const value = this.u64(field)
    if (tag === 0) return null
    if (tag !== 1) throw new MalformedAccountError(`${this.what}: ${field} option tag is ${tag}, not 0 or 1`)
    return value
  }
  /** A Borsh `Option<T>`: one tag byte, then the value only when present. */
  borshOption<T>(read: () => T, field = 'option'): T | null {
    const tag = this.u8(`${field} tag`)
    if (tag === 0) return null
    if (tag !== 1) throw new MalformedAccountError(`${this.what}: ${field} option tag is ${tag}, not 0 or 1`)
    return read()
  }
  /** A Borsh string: u32 length, then UTF-8 bytes (at most `maxBytes`). */
  borshString(field = 'string', maxBytes = 10_000): string {
    const length = this.u32(`${field} length`)
    if (length > maxBytes) throw new MalformedAccountError(`${this.what}: ${field} claims ${length} bytes (limit ${maxBytes})`)
    return new TextDecoder('utf-8', { fatal: false }).decode(this.take(length, field))
  }
}

/** Strips the NUL padding Metaplex leaves in fixed-size strings, and surrounding blanks. */
export function cleanString(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\u0000+/g, '').trim()
}
