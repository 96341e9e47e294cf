import type { Address, Hex } from 'viem'
import { RpcError, type RpcSession } from './rpc.ts'
import { DeadlineError, UpstreamError } from '../../../errors.ts'

/** A log as nodes return it (`blockTimestamp` only from nodes that add it). */
export interface RawLog {
  address: Address
  topics: Hex[]
  data: Hex
  blockNumber: Hex
  blockTimestamp?: Hex
  transactionHash: Hex
  logIndex: Hex
}

/** Smallest range a refused `eth_getLogs` is split down to before giving up on it. */
export const MIN_LOG_RANGE = 1n
/** Times one refused range is split before giving up on it. */
export const MAX_LOG_SPLITS = 24

export interface LogsResult {
  logs: RawLog[]
  /** Ranges (inclusive) that could not be read; empty when everything was. */
  missing: [bigint, bigint][]
}

/**
 * What a chain's node accepts, learned from its refusals and shared by the reports of that chain:
 * the next report asks in ranges the node takes, instead of learning again.
 */
export interface LogRangeLimit {
  maxRange: bigint
}

/**
 * The range a refusal message names, when it names one: "max block range 10", "up to a 2K block
 * range", "this block range should work: [0x1, 0x2]", "limited to 10000 blocks".
 */
export function rangeFromRefusal(message: string): bigint | undefined {
  const suggested = /\[\s*(0x[0-9a-f]+)\s*,\s*(0x[0-9a-f]+)\s*\]/i.exec(message)
  if (suggested) {
    const n = BigInt(suggested[2]) - BigInt(suggested[1]) + 1n
    if (n > 0n) return n
  }
  const m = /(\d[\d,]*)\s*(k)?\s*(?:-?\s*blocks?\s*)?range|range[^0-9]{0,30}?(\d[\d,]*)\s*(k)?|(\d[\d,]*)\s*(k)?\s*blocks/i.exec(message)
  if (!m) return undefined
  const digits = (m[1] ?? m[3] ?? m[5] ?? '').replace(/,/g, '')
  const kilo = (m[2] ?? m[4] ?? m[6]) !== undefined
  if (!digits) return undefined
  const n = BigInt(digits) * (kilo ? 1000n : 1n)
  return n > 0n ? n : undefined
}

/**
 * `eth_getLogs` over [from, to] in ranges of at most `limit.maxRange` blocks, all in one round
 * trip. A range the node refuses (too many results, range too large) is split — into ranges of the
 * size the refusal names when it names one (and `limit` learns it), else in halves — so that the
 * ranges adapt to the node. Ranges still refused at `MIN_LOG_RANGE` are reported missing.
 *
 * @example
 * const { logs, missing } = await getLogsAdaptive(rpc, { address: [token], topics: [TRANSFER] }, 0n, head, { maxRange: 10_000n })
 */
export async function getLogsAdaptive(
  rpc: RpcSession,
  filter: { address: Address[]; topics: (Hex | Hex[] | null)[] },
  from: bigint,
  to: bigint,
  limit: LogRangeLimit,
): Promise<LogsResult> {
  if (to < from || filter.address.length === 0) return { logs: [], missing: [] }
  const results = await Promise.all(chunks(from, to, limit.maxRange).map((r) => fetchRange(rpc, filter, r[0], r[1], 0, limit)))
  const logs: RawLog[] = []
  const missing: [bigint, bigint][] = []
  for (const r of results) {
    logs.push(...r.logs)
    missing.push(...r.missing)
  }
  logs.sort((a, b) => {
    const d = BigInt(a.blockNumber) - BigInt(b.blockNumber)
    return d !== 0n ? (d < 0n ? -1 : 1) : Number(BigInt(a.logIndex) - BigInt(b.logIndex))
  })
  return { logs, missing }
}

function chunks(from: bigint, to: bigint, size: bigint): [bigint, bigint][] {
  const out: [bigint, bigint][] = []
  const step = size > 0n ? size : 1n
  for (let start = from; start <= to; start += step) out.push([start, start + step - 1n < to ? start + step - 1n : to])
  return out
}

async function fetchRange(
  rpc: RpcSession,
  filter: { address: Address[]; topics: (Hex | Hex[] | null)[] },
  from: bigint,
  to: bigint,
  depth: number,
  limit: LogRangeLimit,
): Promise<LogsResult> {
  try {
    const logs = await rpc.request<RawLog[]>('eth_getLogs', [
      { address: filter.address, topics: filter.topics, fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}` },
    ])
    return { logs: Array.isArray(logs) ? logs : [], missing: [] }
  } catch (error) {
    // Only a refusal of the range's size (or an answer too large to take) is split; a fault of the
    // node is never read as "no logs here".
    const tooLarge = error instanceof UpstreamError && /answered more than/.test(error.message)
    const refused = error instanceof RpcError && error.kind === 'refused'
    if (error instanceof DeadlineError || !(refused || tooLarge)) throw error
    const span = to - from + 1n
    if (span <= MIN_LOG_RANGE || depth >= MAX_LOG_SPLITS) return { logs: [], missing: [[from, to]] }
    const named = error instanceof RpcError ? rangeFromRefusal(error.message) : undefined
    const size = named !== undefined && named < span ? named : (span + 1n) / 2n
    if (named !== undefined && named < limit.maxRange) limit.maxRange = named
    const parts = await Promise.all(chunks(from, to, size).map((r) => fetchRange(rpc, filter, r[0], r[1], depth + 1, limit)))
    return { logs: parts.flatMap((p) => p.logs), missing: parts.flatMap((p) => p.missing) }
  }
}
