import { decodeAbiParameters, getAddress, hexToString } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { SimulationError } from '../../../errors.ts'
import { callProbe, decodeProbe, decodeReads, encodeReads, type ReadCall, type ReadResult } from '../chain/probe.ts'
import type { CollectContext } from './context.ts'

/*
 * View reads of any contracts through the probe's `reads`, and the decoding of their answers: what
 * the discovery, the role holders, the holder pools and the venues that find pools themselves read.
 */

/** View reads through the probe: each may fail on its own; the node failing them fails the report. */
export async function probeReads(ctx: CollectContext, calls: ReadCall[], block: Hex | 'latest'): Promise<readonly ReadResult[]> {
  if (calls.length === 0) return []
  const raw = await callProbe(ctx.rpc, { what: 'view reads', data: encodeReads(calls), gas: ctx.gasCap, block })
  const results = decodeProbe('view reads', raw, decodeReads)
  if (results.length !== calls.length) throw new SimulationError(`the node's answer to the view reads is not theirs (${results.length} results for ${calls.length} reads)`)
  return results
}

/** A text answer (string or bytes32) of a read, printable and bounded; undefined when it failed or is not text. */
export function decodeText(r: ReadResult | undefined): string | undefined {
  if (!r?.success || r.returnData === '0x') return undefined
  try {
    const [s] = decodeAbiParameters([{ type: 'string' }], r.returnData)
    return sanitize(s)
  } catch {
    // bytes32 metadata (early tokens)
    if (r.returnData.length === 66) {
      try {
        return sanitize(hexToString(r.returnData, { size: 32 }).replace(/\0+$/, ''))
      } catch {
        return undefined
      }
    }
    return undefined
  }
}

/** Printable text of at most 100 characters: a token's name must not carry control characters or a novel. */
function sanitize(s: string): string {
  const t = s.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  return t.length > 100 ? `${t.slice(0, 100)}…` : t
}

export function decodeUint(r: ReadResult | undefined): bigint | undefined {
  if (!r?.success || r.returnData.length < 66) return undefined
  try {
    return decodeAbiParameters([{ type: 'uint256' }], r.returnData.slice(0, 66) as Hex)[0]
  } catch {
    return undefined
  }
}

export function decodeAddress(r: ReadResult | undefined): Address | undefined {
  const v = decodeUint(r)
  if (v === undefined || v >= 1n << 160n) return undefined
  return getAddress(`0x${v.toString(16).padStart(40, '0')}`)
}
