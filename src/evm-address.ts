import { getAddress, isAddress } from 'viem/utils'
import type { Address } from 'viem'

/**
 * Why `raw` is not an EVM address tokenrisk accepts, or `undefined` when it is one. Accepted: `0x`
 * and 40 hex digits, all lowercase, all uppercase, or in mixed case with a correct EIP-55
 * checksum. Mixed case is a checksum: when it does not match, the address was mistyped or
 * altered, and guessing which byte is wrong is not ours to do.
 *
 * @example
 * evmAddressProblem('0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48') // undefined
 * evmAddressProblem('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB49') // 'has a mixed-case EIP-55 checksum that does not match …'
 */
export function evmAddressProblem(raw: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{40}$/.test(raw)) return 'must be an EVM address: 0x followed by 40 hexadecimal characters (20 bytes)'
  const hex = raw.slice(2)
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return undefined
  if (isAddress(raw, { strict: true })) return undefined
  return 'has a mixed-case EIP-55 checksum that does not match: write it all lowercase, or checksummed correctly'
}

/** The checksummed form of an address `evmAddressProblem` accepts. */
export function checksummed(raw: string): Address {
  return getAddress(raw.toLowerCase())
}
