/*
 * What a chain's node can do, detected once with cheap probes and read by every collector that
 * depends on it: state overrides in `eth_call`, `eth_simulateV1`, `debug_traceCall` (call and
 * prestate tracers), Otterscan's `ots_*`, historical state (archive, or how deep), access lists,
 * block receipts, `eth_getLogs` ranges, batch size and the EVM version (PUSH0, Cancun opcodes).
 *
 * Only a refusal the node states (a missing method, a refused parameter, an answer that shows
 * the feature ignored) makes a capability "no"; a node that failed or did not answer leaves it
 * "unknown", and tokenrisk then behaves as if it were there (a passing fault never degrades a
 * report for good).
 */
import { keccak256, toHex } from 'viem/utils'
import type { Hex } from 'viem'
import { readCapped } from '../../../net/read-capped.ts'
import { rangeFromRefusal, type LogRangeLimit } from './logs.ts'
import { rpcErrorKind } from './rpc.ts'

/** Whether a node has a capability: "unknown" when the probe could not tell (the node failed). */
export type Support = 'yes' | 'no' | 'unknown'

/** EVM versions the probe is built for: Cancun (transient storage, MCOPY), Shanghai (PUSH0), Paris (neither). */
export const EVM_VERSIONS = ['cancun', 'shanghai', 'paris'] as const
export type EvmVersion = (typeof EVM_VERSIONS)[number]

/** Capability detection waits this long for the node at most (each round trip). */
export const CAPABILITY_PROBE_TIMEOUT_MS = 5_000
/** Capabilities are detected again after this long (a node upgraded, a provider's plan changed). */
export const CAPABILITIES_TTL_MS = 10 * 60_000
/** Calls in the batch that tests the node's batch size. */
export const BATCH_PROBE_SIZE = 50
/** Depths (blocks behind the head) tried when the node has no state at block 1. */
export const HISTORY_DEPTHS = [100_000n, 10_000n, 1_000n, 128n] as const
/** The smaller batch tried when the node refuses the first one as a whole. */
const SMALL_BATCH = 10
/** Largest answer of a capability probe taken (a probe answers a few hundred bytes). */
const MAX_PROBE_RESPONSE_BYTES = 1024 * 1024

/** The constant the probes' code returns (42). */
const PROBE_CONSTANT = 42n
/** Code that returns 42: PUSH1 42 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const CONSTANT_CODE: Hex = '0x602a60005260206000f3'
/** PUSH1 1 PUSH0 MSTORE PUSH1 32 PUSH0 RETURN: returns 1 where PUSH0 exists (Shanghai). */
const PUSH0_CODE: Hex = '0x60015f5260205ff3'
/**
 * TSTORE 1 at slot 0, TLOAD it, MSTORE it at 0, MCOPY it to 32, RETURN the word at 32: returns 1
 * where transient storage and MCOPY exist (Cancun). No PUSH0, so that it tests Cancun alone.
 */
const CANCUN_CODE: Hex = '0x600160005d60005c600052602060006020 5e60206020f3'.replace(/ /g, '') as Hex
/** A fresh address for the probes' overridden code (no key, no code, nothing at it). */
const PROBE_TARGET: Hex = `0x${keccak256(toHex('tokenrisk.capabilities.target')).slice(-40)}`
const ZERO: Hex = '0x0000000000000000000000000000000000000000'
/** keccak256("Transfer(address,address,uint256)") */
const TRANSFER_TOPIC: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

export interface NodeCapabilities {
  chainId: number
  /** Epoch ms of the detection. */
  detectedAt: number
  /** `eth_call` with a state override (the probe's code at scratch addresses): every simulation. */
  stateOverride: Support
  /** `eth_simulateV1`: calls in sequence over shared state, with their logs. */
  simulateV1: Support
  /** `debug_traceCall` with `callTracer` (and its logs). */
  callTracer: Support
  /** `debug_traceCall` with `prestateTracer` in diff mode. */
  prestateTracer: Support
  /** Otterscan's `ots_getApiLevel` / `ots_getContractCreator`. */
  otterscan: Support
  /** `eth_createAccessList`. */
  accessList: Support
  /** `eth_getBlockReceipts`. */
  blockReceipts: Support
  /** State at old blocks: "full" (an archive), a depth in blocks, or none beyond recent blocks. */
  history: { support: Support; depth: bigint | 'full' | undefined }
  /** Largest `eth_getLogs` range the node takes (as learned so far). */
  logRange: bigint
  /** JSON-RPC batches: "yes" up to `max` calls, "no" when the node refuses batches. */
  batch: { support: Support; max: number | undefined }
  /** The EVM version the probe is built for on this chain, and where it comes from. */
  evm: { version: EvmVersion; source: 'detected' | 'config' | 'default' }
  /** What the node answered where a capability is missing (its message), by capability. */
  notes: Record<string, string>
}

interface Answer {
  result?: unknown
  error?: { code: number; message: string }
  /** The node failed (HTTP, network, timeout, no answer for this call). */
  failed?: string
}

type Call = { method: string; params: unknown[] }

/**
 * The calls in batches of at most `size` (sent at once: one round trip), every call's answer in
 * order. A node that caps its batches refuses a larger one as a whole; within the cap it is one
 * request per batch instead of one per call.
 */
async function rawBatches(url: string, calls: Call[], size: number, doFetch: typeof fetch, timeoutMs: number): Promise<Answer[]> {
  const chunks: Call[][] = []
  for (let i = 0; i < calls.length; i += size) chunks.push(calls.slice(i, i + size))
  return (await Promise.all(chunks.map((c) => rawBatch(url, c, doFetch, timeoutMs)))).flat()
}

/** One JSON-RPC batch, raw: every call's answer, or why it has none. A refused batch goes out call by call. */
async function rawBatch(url: string, calls: Call[], doFetch: typeof fetch, timeoutMs: number): Promise<Answer[]> {
  const body = calls.map((c, i) => ({ jsonrpc: '2.0', id: i + 1, method: c.method, params: c.params }))
  let parsed: unknown
  try {
    const response = await doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body.length === 1 ? body[0] : body),
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await readCapped(response, MAX_PROBE_RESPONSE_BYTES, () => new Error('answer too large'))
    if (response.status === 429 || response.status >= 500) return calls.map(() => ({ failed: `HTTP ${response.status}` }))
    parsed = JSON.parse(text)
  } catch (error) {
    return calls.map(() => ({ failed: (error as Error).message }))
  }
  if (!Array.isArray(parsed) && body.length > 1) {
    // The node refused the batch as a whole: ask one by one.
    return (await Promise.all(calls.map((c) => rawBatch(url, [c], doFetch, timeoutMs)))).flat()
  }
  const list = (Array.isArray(parsed) ? parsed : [parsed]) as { id?: unknown; result?: unknown; error?: { code?: number; message?: string } }[]
  return body.map((b) => {
    const r = list.find((x) => x?.id === b.id) ?? (body.length === 1 ? list[0] : undefined)
    if (!r) return { failed: 'no answer for this call' }
    if (r.error) return { error: { code: typeof r.error.code === 'number' ? r.error.code : 0, message: String(r.error.message ?? 'error') } }
    if (!('result' in r)) return { failed: 'an answer without a result' }
    return { result: r.result }
  })
}

/** A word answer equal to `value`. */
const isWord = (result: unknown, value: bigint): boolean => typeof result === 'string' && /^0x[0-9a-f]+$/i.test(result) && result.length >= 3 && BigInt(result) === value

/**
 * What an answer says of a capability: "yes" when `ok` accepts its result; "no" when the node
 * refused it or showed it ignored (a wrong result); "unknown" when the node failed.
 */
function supportOf(a: Answer, ok: (result: unknown) => boolean, notes: Record<string, string>, name: string): Support {
  if (a.failed) {
    notes[name] = `the node did not answer (${a.failed.slice(0, 80)})`
    return 'unknown'
  }
  if (a.error) {
    const kind = rpcErrorKind(a.error.code, a.error.message)
    notes[name] = a.error.message.slice(0, 120)
    // Invalid parameters (an override or tracer it does not take) is as final as a missing method.
    return kind === 'fault' && a.error.code !== -32602 && a.error.code !== -32600 ? 'unknown' : 'no'
  }
  if (ok(a.result)) return 'yes'
  notes[name] = 'the node answered, ignoring what was asked'
  return 'no'
}

/** An EVM feature by a creation call (no state override needed): "no" on any error (invalid opcode). */
function featureOf(a: Answer): Support {
  if (a.failed) return 'unknown'
  if (a.error) return rpcErrorKind(a.error.code, a.error.message) === 'unsupported' && /method/i.test(a.error.message) ? 'unknown' : 'no'
  return isWord(a.result, 1n) ? 'yes' : 'no'
}

export interface DetectCapabilitiesOptions {
  chainId: number
  /** The node's URLs; the first one is probed. */
  urls: string[]
  /** The batch size the chain is configured for (tested up to this). */
  maxBatchSize: number
  /** The batch size an earlier detection learned the node takes: the probes' batches stay within it. */
  learnedBatchSize?: number
  /** The chain's learned `eth_getLogs` limit: read, and taught by a refusal. */
  logLimit: LogRangeLimit
  /** `evmVersion` from the chain's configuration: wins over detection. */
  evmVersion?: EvmVersion
  fetch?: typeof fetch
  timeoutMs?: number
}

/**
 * Probes a node's capabilities: one round trip of cheap calls, in batches within the batch size
 * learned before (else 10, what public endpoints take), and, on a node without state at block 1,
 * one more for its depth; beside them, one batch that tests the batch size.
 *
 * @example
 * const caps = await detectCapabilities({ chainId: 1, urls: ['https://eth.example/rpc'], maxBatchSize: 100, logLimit: { maxRange: 1_000_000n } })
 * caps.stateOverride // 'yes'
 */
export async function detectCapabilities(options: DetectCapabilitiesOptions): Promise<NodeCapabilities> {
  const url = options.urls[0]
  const doFetch = options.fetch ?? fetch
  const timeoutMs = options.timeoutMs ?? CAPABILITY_PROBE_TIMEOUT_MS
  const override = { [PROBE_TARGET]: { code: CONSTANT_CODE } }
  const call = { to: PROBE_TARGET, data: '0x' }
  const calls: Call[] = [
    { method: 'eth_blockNumber', params: [] },
    { method: 'eth_call', params: [call, 'latest', override] },
    { method: 'eth_simulateV1', params: [{ blockStateCalls: [{ stateOverrides: override, calls: [call] }], validation: false }, 'latest'] },
    { method: 'debug_traceCall', params: [call, 'latest', { tracer: 'callTracer', tracerConfig: { withLog: true }, stateOverrides: override }] },
    { method: 'debug_traceCall', params: [call, 'latest', { tracer: 'prestateTracer', tracerConfig: { diffMode: true, disableCode: true }, stateOverrides: override }] },
    { method: 'ots_getApiLevel', params: [] },
    { method: 'eth_getBalance', params: [ZERO, '0x1'] },
    { method: 'eth_createAccessList', params: [{ to: ZERO, data: '0x' }, 'latest'] },
    { method: 'eth_getBlockReceipts', params: ['latest'] },
    // Creation calls run code without any override: the EVM version on every node.
    { method: 'eth_call', params: [{ data: PUSH0_CODE }, 'latest'] },
    { method: 'eth_call', params: [{ data: CANCUN_CODE }, 'latest'] },
  ]
  const batchSize = Math.max(2, Math.min(options.maxBatchSize, BATCH_PROBE_SIZE))
  const batchOf = (size: number) =>
    doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(Array.from({ length: size }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'eth_chainId', params: [] }))),
      signal: AbortSignal.timeout(timeoutMs),
    })
      .then(async (r) => ({ size, status: r.status, body: JSON.parse(await readCapped(r, MAX_PROBE_RESPONSE_BYTES, () => new Error('answer too large'))) as unknown }))
      .catch((error: unknown) => ({ size, status: 0, body: (error as Error).message as unknown }))
  // A batch refused as a whole is tried again smaller: the size the node takes is learned.
  const batchProbe = batchOf(batchSize).then((b) =>
    b.status === 200 && !Array.isArray(b.body) && batchSize > SMALL_BATCH ? batchOf(SMALL_BATCH).then((small) => (Array.isArray(small.body) ? small : b)) : b,
  )
  // The probes go in batches no larger than the node is known, or likely, to take (public endpoints cap at 10).
  const probeBatch = Math.max(1, Math.min(options.maxBatchSize, options.learnedBatchSize ?? SMALL_BATCH))
  const [answers, batch] = await Promise.all([rawBatches(url, calls, probeBatch, doFetch, timeoutMs), batchProbe])
  const [head, overrideA, simulateA, callA, prestateA, otsA, oldBalanceA, accessA, receiptsA, push0A, cancunA] = answers
  const notes: Record<string, string> = {}

  const stateOverride = supportOf(overrideA, (r) => isWord(r, PROBE_CONSTANT), notes, 'stateOverride')
  const simulateV1 = supportOf(
    simulateA,
    (r) => Array.isArray(r) && isWord((r[0] as { calls?: { returnData?: unknown }[] } | undefined)?.calls?.[0]?.returnData, PROBE_CONSTANT),
    notes,
    'simulateV1',
  )
  const callTracer = supportOf(callA, (r) => isWord((r as { output?: unknown } | null)?.output, PROBE_CONSTANT), notes, 'callTracer')
  const prestateTracer = supportOf(prestateA, (r) => typeof r === 'object' && r !== null && 'pre' in r && 'post' in r, notes, 'prestateTracer')
  const otterscan = supportOf(otsA, (r) => typeof r === 'number' || typeof r === 'string', notes, 'otterscan')
  const accessList = supportOf(accessA, (r) => typeof r === 'object' && r !== null, notes, 'accessList')
  const blockReceipts = supportOf(receiptsA, (r) => Array.isArray(r) || r === null, notes, 'blockReceipts')

  // Historical state: block 1, else how deep.
  const headNumber = typeof head.result === 'string' ? BigInt(head.result) : undefined
  let history: NodeCapabilities['history'] = { support: supportOf(oldBalanceA, (r) => typeof r === 'string', notes, 'history'), depth: undefined }
  // A chain of a block or two has all its history (block 1 may not exist yet).
  if (history.support !== 'yes' && headNumber !== undefined && headNumber < 2n) {
    history = { support: 'yes', depth: 'full' }
    delete notes.history
  }
  if (history.support === 'yes') history.depth = 'full'
  const followUp: Call[] = []
  const depths = headNumber === undefined ? [] : HISTORY_DEPTHS.filter((d) => d < headNumber)
  if (history.support === 'no') for (const d of depths) followUp.push({ method: 'eth_getBalance', params: [ZERO, `0x${(headNumber! - d).toString(16)}`] })
  // The configured log range, asked once: a node that caps it says so, and the chain learns it.
  const logRange = options.logLimit.maxRange
  if (headNumber !== undefined && headNumber > 0n) {
    const from = headNumber + 1n > logRange ? headNumber + 1n - logRange : 0n
    followUp.push({ method: 'eth_getLogs', params: [{ address: [ZERO], topics: [TRANSFER_TOPIC], fromBlock: `0x${from.toString(16)}`, toBlock: `0x${headNumber.toString(16)}` }] })
  }
  if (followUp.length > 0) {
    const more = await rawBatches(url, followUp, probeBatch, doFetch, timeoutMs)
    const logsA = more[more.length - 1]
    if (logsA?.error) {
      const named = rangeFromRefusal(logsA.error.message)
      if (rpcErrorKind(logsA.error.code, logsA.error.message) === 'refused') {
        notes.logRange = logsA.error.message.slice(0, 120)
        if (named !== undefined && named < options.logLimit.maxRange) options.logLimit.maxRange = named
      }
    }
    if (history.support === 'no') {
      const deepest = depths.find((_, i) => typeof more[i]?.result === 'string')
      history = { support: 'no', depth: deepest ?? 0n }
    }
  }

  // The batch size: every call answered, or the node's refusal.
  let batchSupport: NodeCapabilities['batch']
  if (Array.isArray(batch.body)) {
    const answered = (batch.body as { result?: unknown }[]).filter((r) => r && 'result' in r).length
    const full = batch.size === batchSize && answered >= batchSize
    batchSupport = full ? { support: 'yes', max: options.maxBatchSize } : { support: 'yes', max: Math.max(1, answered) }
    if (!full) notes.batch = batch.size === batchSize ? `answered ${answered} of a batch of ${batchSize}` : `refused a batch of ${batchSize}, took one of ${batch.size}`
  } else if (batch.status === 0 || batch.status === 429 || batch.status >= 500) {
    batchSupport = { support: 'unknown', max: undefined }
    notes.batch = typeof batch.body === 'string' ? batch.body.slice(0, 120) : `HTTP ${batch.status}`
  } else {
    batchSupport = { support: 'no', max: 1 }
    notes.batch = JSON.stringify(batch.body).slice(0, 120)
  }

  const push0 = featureOf(push0A)
  const cancun = featureOf(cancunA)
  let evm: NodeCapabilities['evm']
  if (options.evmVersion) evm = { version: options.evmVersion, source: 'config' }
  else if (push0 === 'unknown' || cancun === 'unknown') evm = { version: 'cancun', source: 'default' }
  else evm = { version: cancun === 'yes' && push0 === 'yes' ? 'cancun' : push0 === 'yes' ? 'shanghai' : 'paris', source: 'detected' }

  return {
    chainId: options.chainId,
    detectedAt: Date.now(),
    stateOverride,
    simulateV1,
    callTracer,
    prestateTracer,
    otterscan,
    accessList,
    blockReceipts,
    history,
    logRange: options.logLimit.maxRange,
    batch: batchSupport,
    evm,
    notes,
  }
}

/** The capabilities assumed before (or without) detection: everything there, as tokenrisk always did. */
export function assumedCapabilities(chainId: number, logRange: bigint, maxBatchSize: number, evmVersion?: EvmVersion): NodeCapabilities {
  return {
    chainId,
    detectedAt: 0,
    stateOverride: 'unknown',
    simulateV1: 'unknown',
    callTracer: 'unknown',
    prestateTracer: 'unknown',
    otterscan: 'unknown',
    accessList: 'unknown',
    blockReceipts: 'unknown',
    history: { support: 'unknown', depth: undefined },
    logRange,
    batch: { support: 'unknown', max: maxBatchSize },
    evm: { version: evmVersion ?? 'cancun', source: evmVersion ? 'config' : 'default' },
    notes: {},
  }
}

/**
 * The capability a call needs that the node was found not to have (its name), or undefined when
 * the node has it or it is unknown. Such a call is never sent: its answer is known, and a
 * provider bills it all the same.
 *
 * @example
 * missingCapability(caps, 'ots_getContractCreator', [token]) // 'otterscan' on a node without ots_*
 */
export function missingCapability(c: NodeCapabilities, method: string, params: readonly unknown[]): keyof NodeCapabilities | undefined {
  const no = (k: 'stateOverride' | 'simulateV1' | 'callTracer' | 'prestateTracer' | 'otterscan' | 'accessList' | 'blockReceipts') => (c[k] === 'no' ? k : undefined)
  if (method.startsWith('ots_')) return no('otterscan')
  switch (method) {
    case 'eth_createAccessList':
      return no('accessList')
    case 'eth_getBlockReceipts':
      return no('blockReceipts')
    case 'eth_simulateV1':
      return no('simulateV1')
    case 'eth_call':
      return params.length > 2 && params[2] !== undefined ? no('stateOverride') : undefined
    case 'debug_traceCall': {
      const config = params[2] as { tracer?: unknown; stateOverrides?: unknown } | undefined
      return (config?.tracer === 'prestateTracer' ? no('prestateTracer') : no('callTracer')) ?? (config?.stateOverrides ? no('stateOverride') : undefined)
    }
    default:
      return undefined
  }
}

/** The reason every simulated check gives on a node that refuses state overrides. */
export const NO_OVERRIDE_REASON = 'this node does not accept state overrides in eth_call; tokenrisk needs them to simulate trades'

/** One row of the capability table: what was found, and what its absence costs in the report. */
export interface CapabilityRow {
  capability: string
  /** "yes", "no", "unknown", or a figure. */
  value: string
  /** What the report loses without it ("" when nothing). */
  cost: string
}

const word = (s: Support) => s

/** The capability table of a chain's node (for `/readyz`, the start log and `tokenrisk chains check`). */
export function capabilityRows(c: NodeCapabilities): CapabilityRow[] {
  const traces = c.callTracer !== 'no' && c.prestateTracer !== 'no'
  const replayCost = traces
    ? ''
    : c.simulateV1 !== 'no'
      ? 'owner-call replays read Transfer events through eth_simulateV1 instead (one more round trip)'
      : 'accounts named only in the Transfer events of owner calls cannot be measured: isMintable and ownerChangeBalance are "" where such a call succeeded and nothing else decides them'
  const historyValue = c.history.depth === 'full' ? 'yes (archive)' : c.history.support === 'unknown' ? 'unknown' : `no (${c.history.depth ?? 0n} blocks)`
  return [
    {
      capability: 'eth_call state overrides',
      value: word(c.stateOverride),
      cost: c.stateOverride === 'no' ? `every behavioural check (honeypot, taxes, owner powers) is "": ${NO_OVERRIDE_REASON}; view reads run as creation calls` : '',
    },
    { capability: 'eth_simulateV1', value: word(c.simulateV1), cost: c.simulateV1 === 'no' && !traces ? replayCost : '' },
    {
      capability: 'debug_traceCall callTracer',
      value: word(c.callTracer),
      cost:
        c.callTracer === 'no'
          ? `externalCall is read from the bytecode (a reachable CALL), not traced; only the contracts the token names in its code and first storage slots are made hostile: where the code can call out, transferPausable and ownerChangeBalance are "" unless measured "1"; ${replayCost}`
          : '',
    },
    { capability: 'debug_traceCall prestateTracer', value: word(c.prestateTracer), cost: c.prestateTracer === 'no' && c.callTracer !== 'no' ? replayCost : '' },
    {
      capability: 'ots_* (Otterscan)',
      value: word(c.otterscan),
      cost: c.otterscan === 'no' ? 'the creator is found by a search over historical state, else the explorer, else the first Transfer log' : '',
    },
    {
      capability: 'historical state',
      value: historyValue,
      cost: c.history.depth !== 'full' && c.history.support === 'no' ? 'no search over blocks for the creation: the creator comes from Otterscan, the explorer or the first Transfer log, else ""' : '',
    },
    {
      capability: 'eth_createAccessList',
      value: word(c.accessList),
      cost: c.accessList === 'no' ? "the token's balance slot is unknown: sells with the token holding itself are not simulated, and replays cannot be traced" : '',
    },
    { capability: 'eth_getBlockReceipts', value: word(c.blockReceipts), cost: c.blockReceipts === 'no' ? 'a creation found by search names no creator' : '' },
    { capability: 'eth_getLogs range', value: `${c.logRange} blocks`, cost: c.notes.logRange ? 'holder indexes read in more, smaller ranges' : '' },
    {
      capability: 'JSON-RPC batch',
      value: c.batch.support === 'yes' ? `yes (${c.batch.max} calls)` : word(c.batch.support),
      cost: c.batch.support === 'no' ? 'every call is an HTTP request of its own' : c.notes.batch ? `batches of ${c.batch.max} calls: more HTTP requests` : '',
    },
    {
      capability: 'EVM version',
      value: `${c.evm.version} (${c.evm.source})`,
      cost: c.evm.version === 'cancun' ? '' : `the probe and readers built for ${c.evm.version} run (no ${c.evm.version === 'paris' ? 'PUSH0 nor ' : ''}transient storage)`,
    },
  ]
}

/** Why the chain's reports are degraded, or "" when they are not (missing capabilities that cost a check). */
export function degradation(c: NodeCapabilities): string {
  const missing: string[] = []
  if (c.stateOverride === 'no') missing.push(NO_OVERRIDE_REASON)
  if (c.callTracer === 'no' && c.simulateV1 === 'no') missing.push('the node can neither trace calls nor simulate them (eth_simulateV1): owner powers that credit accounts named only in events are not measured')
  return missing.join('; ')
}

/** The table as text lines: one row per capability, with its cost. */
export function formatCapabilityTable(c: NodeCapabilities): string[] {
  const rows = capabilityRows(c)
  const w1 = Math.max(...rows.map((r) => r.capability.length))
  const w2 = Math.max(...rows.map((r) => r.value.length))
  return rows.map((r) => `${r.capability.padEnd(w1)}  ${r.value.padEnd(w2)}  ${r.cost}`.trimEnd())
}
