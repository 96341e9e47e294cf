import { getBase58Encoder, type Address } from '@solana/kit'
import { InputError } from '../../errors.ts'

/** Length of a Solana address (an ed25519 public key or a program-derived address). */
export const SOLANA_ADDRESS_BYTES = 32
/** Longest base58 text of 32 bytes; anything longer is rejected before decoding. */
const MAX_BASE58_ADDRESS_LENGTH = 44
const BASE58_ALPHABET = /^[1-9A-HJ-NP-Za-km-z]+$/

export type ParseSolanaAddressErrorType = InputError

/**
 * Checks that `input` is a base58 string of exactly 32 bytes and returns it as an `Address`.
 * Throws `InputError` (HTTP 400) with a message saying what is wrong.
 *
 * @example
 * parseSolanaAddress('So11111111111111111111111111111111111111112') // ok
 * parseSolanaAddress('0xabc') // InputError: not base58
 */
export function parseSolanaAddress(input: string): Address {
  if (typeof input !== 'string' || input.length === 0) throw new InputError('tokenAddress is required: a base58 Solana address')
  const text = input
  if (!BASE58_ALPHABET.test(text)) {
    throw new InputError(`tokenAddress must be base58 (characters 1-9, A-Z, a-z without 0, O, I, l): got ${JSON.stringify(truncate(input))}`)
  }
  if (text.length > MAX_BASE58_ADDRESS_LENGTH) {
    throw new InputError(`tokenAddress must be a 32-byte base58 address (at most ${MAX_BASE58_ADDRESS_LENGTH} characters): got ${text.length} characters`)
  }
  const bytes = getBase58Encoder().encode(text)
  if (bytes.length !== SOLANA_ADDRESS_BYTES) {
    throw new InputError(`tokenAddress must decode to ${SOLANA_ADDRESS_BYTES} bytes: ${JSON.stringify(text)} decodes to ${bytes.length}`)
  }
  return text as Address
}

/** Whether `input` is a base58 string of exactly 32 bytes. */
export function isSolanaAddress(input: string): boolean {
  try {
    parseSolanaAddress(input)
    return true
  } catch {
    return false
  }
}

function truncate(s: string): string {
  return s.length > 60 ? `${s.slice(0, 60)}…` : s
}
