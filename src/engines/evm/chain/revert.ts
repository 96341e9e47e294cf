import { decodeAbiParameters, hexToString } from 'viem/utils'
import type { Hex } from 'viem'

/** Prefix of the reasons our probe gives when it, not the token, could not go on. */
export const PROBE_REASON_PREFIX = 'tokenrisk-probe:'
/** Selector of the probe's `ProbeFailure(string)` error: only the probe's own failures carry it. */
export const PROBE_FAILURE_SELECTOR = '0xd2429681'

const PANIC_CODES: Record<number, string> = {
  0x01: 'assertion failed',
  0x11: 'arithmetic overflow or underflow',
  0x12: 'division by zero',
  0x21: 'invalid enum value',
  0x22: 'invalid storage byte array',
  0x31: 'pop on an empty array',
  0x32: 'array index out of bounds',
  0x41: 'out of memory',
  0x51: 'call to an invalid internal function',
}

/** Longest reason kept in a report. */
export const MAX_REASON_LENGTH = 200

/**
 * Turns revert data into a readable reason: the `Error(string)` message, a described
 * `Panic(uint256)`, or the selector of a custom error. Empty data gives "reverted without a reason".
 *
 * @example
 * decodeRevert('0x08c379a0…') // 'ZooHoneypot: selling is disabled'
 */
export function decodeRevert(data: Hex | undefined | null): string {
  if (!data || data === '0x') return 'reverted without a reason'
  const selector = data.slice(0, 10).toLowerCase()
  try {
    if (selector === PROBE_FAILURE_SELECTOR) {
      const [reason] = decodeAbiParameters([{ type: 'string' }], `0x${data.slice(10)}`)
      return `${PROBE_REASON_PREFIX} ${clean(reason)}`
    }
    if (selector === '0x08c379a0') {
      const [reason] = decodeAbiParameters([{ type: 'string' }], `0x${data.slice(10)}`)
      const text = clean(reason) || 'reverted with an empty reason'
      // A token's own words never pass for the probe's.
      return text.startsWith(PROBE_REASON_PREFIX) ? `the token said: ${text}` : text
    }
    if (selector === '0x4e487b71') {
      const [code] = decodeAbiParameters([{ type: 'uint256' }], `0x${data.slice(10)}`)
      return `panic 0x${code.toString(16)} (${PANIC_CODES[Number(code)] ?? 'unknown panic'})`
    }
  } catch {
    // Malformed reason data: fall through to the raw description.
  }
  if (data.length >= 10) {
    // A short printable payload (some tokens revert with raw strings) is shown as text.
    const text = safeText(data)
    if (text) return text
    return `custom error ${selector}`
  }
  return `reverted with data ${data}`
}

/**
 * Whether a decoded reason is the probe's own (not the token's behaviour): only `decodeRevert` of
 * a `ProbeFailure` gives one.
 */
export function isProbeReason(reason: string): boolean {
  return reason.startsWith(PROBE_REASON_PREFIX)
}

function clean(s: string): string {
  const printable = s.replace(/[^\x20-\x7e]/g, '').trim()
  return printable.length > MAX_REASON_LENGTH ? `${printable.slice(0, MAX_REASON_LENGTH)}…` : printable
}

function safeText(data: Hex): string {
  try {
    const s = hexToString(data)
    if (s.length >= 4 && /^[\x20-\x7e]+$/.test(s)) return clean(s)
  } catch {
    // not text
  }
  return ''
}
