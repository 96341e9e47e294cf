/*
 * Owner calls traced: the accounts a call names in its Transfer events, measured from the storage
 * diff of the balance mapping. The isolated experiments of `powers.ts` read the balances of a
 * watch list; a call that credits or debits an account nobody could know beforehand (an address
 * computed at run time, kept masked, read from a list) escapes it. Its events name it, but the EVM
 * cannot read events, and an isolated experiment's events are dropped with its revert. So the same
 * calls are replayed one after the other in one traced call, beside the isolated ones (same round
 * trip): `callTracer` gives the events, the `prestateTracer` diff gives every balance slot the
 * calls changed, and balances are measured, not taken from what the events claim.
 */
import { getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { SimulationError } from '../../../errors.ts'
import { PROBE_ADDRESSES, decodeAccounts, decodePowersReplay, encodeAccounts, probeOverride, replaySupplyDelta } from '../chain/probe.ts'
import { RpcError } from '../chain/rpc.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import { mappingSlot, type BalanceMapping } from './discovery.ts'

/** keccak256("Transfer(address,address,uint256)") */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
/** Accounts named only in events that one replay measures, at most. */
export const MAX_EVENT_ACCOUNTS = 32

interface TraceLog {
  address?: string
  topics?: string[]
}

interface CallFrame {
  error?: string
  output?: Hex
  logs?: TraceLog[]
  calls?: CallFrame[]
}

type StorageDiff = Record<string, { storage?: Record<string, Hex> }>

/** What one traced replay measured, or why nothing was. */
export type ReplayTrace =
  | {
      traced: true
      /** Accounts named in the token's Transfer events (lower case). */
      named: Set<string>
      /** The total supply's change; undefined when it was not read on both sides (unknown, never 0). */
      supplyDelta: bigint | undefined
      /**
       * Balance change of `account`: from the storage diff (0 when its slot did not change), or from
       * balances read around the replay (undefined when either read failed: unknown, never 0).
       */
      delta: (account: Address) => bigint | undefined
    }
  | { traced: false; why: string }

/** A replay that measured nothing, and why: the reason, then what it leaves unmeasured. */
const unread = (reason: string): ReplayTrace => ({ traced: false, why: `${reason}: the accounts named only in its Transfer events were not measured` })

/** Every account named as sender or recipient in a Transfer event of `token`, in the frames that succeeded. */
export function transferAccounts(frame: CallFrame, token: Address): Set<string> {
  const out = new Set<string>()
  const walk = (f: CallFrame) => {
    for (const log of f.logs ?? []) {
      const topics = log.topics ?? []
      if (!log.address || !sameAddress(log.address, token) || topics[0]?.toLowerCase() !== TRANSFER_TOPIC || topics.length < 3) continue
      for (const t of [topics[1], topics[2]]) {
        if (/^0x0{24}[0-9a-fA-F]{40}$/.test(t)) out.add(`0x${t.slice(26)}`.toLowerCase())
      }
    }
    for (const c of f.calls ?? []) walk(c)
  }
  walk(frame)
  out.delete(ZERO_ADDRESS)
  return out
}

/** The change of one storage slot of `account` in a prestate diff (cleared slots leave `post`). */
export function slotDelta(diff: { pre: StorageDiff; post: StorageDiff }, account: Address, slot: Hex): bigint {
  const key = (m: StorageDiff) => Object.keys(m).find((k) => sameAddress(k, account))
  const preAcc = key(diff.pre)
  const postAcc = key(diff.post)
  const pre = preAcc ? diff.pre[preAcc].storage?.[slot] : undefined
  const post = postAcc ? diff.post[postAcc].storage?.[slot] : undefined
  if (pre === undefined && post === undefined) return 0n
  return BigInt(post ?? '0x0') - BigInt(pre ?? '0x0')
}

/**
 * Replays a function's calls and measures the balance of every account their Transfer events
 * name. With tracing (`debug_traceCall`, call and prestate tracers) and a plain balance mapping,
 * in one traced call whose storage diff gives each balance; else, where the node has
 * `eth_simulateV1`, by simulating the replay between two reads of the balances (one more round
 * trip when the events name accounts the watch list does not read). Requests go out in the tick
 * of the call, so they join the isolated experiments' round trip. A node with neither leaves the
 * events unread and says why.
 */
export async function traceReplay(
  ctx: CollectContext,
  data: Hex,
  actors: Address[],
  block: Hex,
  mapping: BalanceMapping | undefined,
  mappingWhy: string,
  /** Accounts whose balances the isolated experiments read (measured in a simulated replay too). */
  watched: Address[] = [],
): Promise<ReplayTrace> {
  const caps = ctx.rpc.capabilities
  const canTrace = caps?.callTracer !== 'no' && caps?.prestateTracer !== 'no'
  const canSimulate = caps?.simulateV1 !== 'no'
  if (mapping && canTrace) {
    const traced = await tracedReplay(ctx, data, actors, block, mapping)
    if (traced.traced || !canSimulate) return traced
  }
  if (canSimulate) return simulatedReplay(ctx, data, actors, block, watched)
  if (!canTrace) return unread('the node can neither trace calls (debug_traceCall) nor simulate them (eth_simulateV1)')
  return unread(mappingWhy)
}

/** A traced replay that could not run because the node cannot trace: the simulated one may. */
type Untraceable = Extract<ReplayTrace, { traced: false }> & { untraceable: true }

async function tracedReplay(ctx: CollectContext, data: Hex, actors: Address[], block: Hex, mapping: BalanceMapping): Promise<ReplayTrace | Untraceable> {
  const call = { to: PROBE_ADDRESSES.main, data, gas: `0x${ctx.gasCap.toString(16)}` }
  const stateOverrides = probeOverride(actors, ctx.rpc.capabilities?.evm.version)
  const callsPromise = ctx.rpc.request<CallFrame>('debug_traceCall', [
    call,
    block,
    { tracer: 'callTracer', tracerConfig: { onlyTopCall: false, withLog: true }, stateOverrides },
  ])
  const diffPromise = ctx.rpc.request<{ pre?: StorageDiff; post?: StorageDiff }>('debug_traceCall', [
    call,
    block,
    { tracer: 'prestateTracer', tracerConfig: { diffMode: true, disableCode: true }, stateOverrides },
  ])
  let frame: CallFrame
  let diff: { pre?: StorageDiff; post?: StorageDiff }
  try {
    ;[frame, diff] = await Promise.all([callsPromise, diffPromise])
  } catch (error) {
    if (error instanceof RpcError && error.kind === 'unsupported') {
      return { ...(unread('the node cannot trace calls (debug_traceCall)') as Extract<ReplayTrace, { traced: false }>), untraceable: true }
    }
    // A fault of the node is no behaviour of the token: the events stay unread, and say so.
    if (error instanceof RpcError || error instanceof SimulationError) {
      return unread(`the node failed the traced replay (${error.message.slice(0, 100)})`)
    }
    throw error
  }
  // The replay never reverts at its top and always answers the supply: anything else is the node's.
  if (frame.error || !frame.output || frame.output === '0x' || !diff.pre || !diff.post) {
    return unread('the node answered the traced replay without its result')
  }
  let supply: { supplyBefore: bigint | undefined; supplyAfter: bigint | undefined }
  try {
    supply = decodePowersReplay(frame.output)
  } catch {
    return unread('the node answered the traced replay with something that is no result')
  }
  const d = { pre: diff.pre, post: diff.post }
  const named = transferAccounts(frame, ctx.token)
  const delta = (account: Address) => slotDelta(d, ctx.token, mappingSlot(mapping, account))
  if (!movesWithTransfers(named, delta)) {
    return unread(`the storage found for balances (mapping at index ${mapping.index}) did not move with the transfers`)
  }
  return { traced: true, named, supplyDelta: replaySupplyDelta(supply), delta }
}

/** One call's answer in an `eth_simulateV1` block. */
interface SimulatedCall {
  status?: Hex
  returnData?: Hex
  logs?: TraceLog[]
  error?: unknown
}

/**
 * The replay simulated with `eth_simulateV1` between two reads of `accounts`' balances (the
 * probe's `accounts` reader), all in one simulated block over shared state: balances read, not
 * taken from what the events claim.
 */
async function simulateBetweenReads(
  ctx: CollectContext,
  data: Hex,
  actors: Address[],
  block: Hex,
  accounts: Address[],
): Promise<{ replay: SimulatedCall; before: readonly (bigint | undefined)[]; after: readonly (bigint | undefined)[] }> {
  const gas = `0x${ctx.gasCap.toString(16)}`
  const read = { to: PROBE_ADDRESSES.main, data: encodeAccounts(ctx.token, accounts), gas }
  const blocks = await ctx.rpc.request<{ calls?: SimulatedCall[] }[]>('eth_simulateV1', [
    {
      blockStateCalls: [
        {
          // Room for the reads and the replay, each with the report's gas.
          blockOverrides: { gasLimit: `0x${(ctx.gasCap * 3n).toString(16)}` },
          stateOverrides: probeOverride(actors, ctx.rpc.capabilities?.evm.version),
          calls: [read, { to: PROBE_ADDRESSES.main, data, gas }, read],
        },
      ],
      validation: false,
    },
    block,
  ])
  const calls = Array.isArray(blocks) ? blocks[0]?.calls : undefined
  if (!calls || calls.length !== 3 || calls.some((c) => c.status !== '0x1' || !c.returnData || c.returnData === '0x')) {
    throw new SimulationError('the node answered the simulated replay without its results')
  }
  // A balance the reader could not read is unknown (undefined), never 0.
  const balances = (raw: Hex) => {
    const { balances: values, read: ok } = decodeAccounts(raw)
    return values.map((v, i) => (ok[i] ? v : undefined))
  }
  return { replay: calls[1], before: balances(calls[0].returnData!), after: balances(calls[2].returnData!) }
}

async function simulatedReplay(ctx: CollectContext, data: Hex, actors: Address[], block: Hex, watched: Address[]): Promise<ReplayTrace> {
  try {
    const first = await simulateBetweenReads(ctx, data, actors, block, watched)
    const supply = decodePowersReplay(first.replay.returnData!)
    const named = transferAccounts({ logs: first.replay.logs ?? [] }, ctx.token)
    // Only balances read on both sides have a delta: one not read is unknown, and explains nothing.
    const deltas = new Map<string, bigint>()
    const record = (a: Address, before: bigint | undefined, after: bigint | undefined) => {
      if (before !== undefined && after !== undefined) deltas.set(a.toLowerCase(), after - before)
    }
    watched.forEach((a, i) => record(a, first.before[i], first.after[i]))
    const watchedSet = new Set(watched.map((a) => a.toLowerCase()))
    // Accounts only the events name are read in a second simulation, now that they are known.
    const only = [...named].filter((a) => !watchedSet.has(a)).slice(0, MAX_EVENT_ACCOUNTS).map((a) => getAddress(a))
    if (only.length > 0) {
      const second = await simulateBetweenReads(ctx, data, actors, block, only)
      only.forEach((a, i) => record(a, second.before[i], second.after[i]))
    }
    const delta = (account: Address) => deltas.get(account.toLowerCase())
    if (!movesWithTransfers(new Set([...named].filter((a) => deltas.has(a))), delta)) {
      return unread('the balances read did not move with the transfers of the simulated replay')
    }
    return { traced: true, named, supplyDelta: replaySupplyDelta(supply), delta }
  } catch (error) {
    if (error instanceof RpcError || error instanceof SimulationError) {
      return unread(`the node failed the simulated replay (eth_simulateV1: ${error.message.slice(0, 100)})`)
    }
    if (error instanceof Error && /decode|Data size|bounds/i.test(error.message)) return unread('the node answered the simulated replay with something that is no result')
    throw error
  }
}

/**
 * Whether the mapping read for balances is the one transfers move: when the events name accounts
 * (the funding buys always do), one of them at least must have changed there. A mapping that
 * `balanceOf` reads beside the balances (an exclusion flag, a reflected balance) fails this, and
 * then nothing is concluded from it.
 */
export function movesWithTransfers(named: Set<string>, delta: (account: Address) => bigint | undefined): boolean {
  if (named.size === 0) return true
  return [...named].some((a) => (delta(getAddress(a)) ?? 0n) !== 0n)
}

/** What the replay showed of accounts the watch list does not read: tokens created there, or taken. */
export interface EventEffect {
  /** Accounts named only in events whose balance rose, with the amount no measured debit explains. */
  minted: { account: Address; amount: bigint }[]
  /** Accounts named only in events that lost tokens they never sent. */
  taken: { account: Address; amount: bigint }[]
  /** Why what was created could not be concluded (a supply or balance not read), when an account rose. */
  unread?: string
}

/**
 * Conservation over the watched accounts and those named only in events, across the whole replay:
 * balances rising beyond what measured debits and the supply's change explain are created, and
 * are reported where they landed on accounts only the events name (the watched ones are the
 * isolated experiments' to report). An account only the events name that lost tokens lost them
 * without calling: it is no caller, the callers are watched.
 */
export function eventEffect(trace: Extract<ReplayTrace, { traced: true }>, watched: Address[]): EventEffect {
  const watchedSet = new Set(watched.map((a) => a.toLowerCase()))
  const only = [...trace.named].filter((a) => !watchedSet.has(a)).slice(0, MAX_EVENT_ACCOUNTS).map((a) => getAddress(a))
  if (only.length === 0) return { minted: [], taken: [] }
  const change = (account: Address) => ({ account, amount: trace.delta(account) })
  const credited = only.map(change).filter((x): x is { account: Address; amount: bigint } => x.amount !== undefined && x.amount > 0n)
  // A loss measured is a loss, whatever else was not read.
  const taken = only
    .map(change)
    .filter((x): x is { account: Address; amount: bigint } => x.amount !== undefined && x.amount < 0n)
    .map((x) => ({ account: x.account, amount: -x.amount }))
  // Conservation needs every balance and the supply read: one not read leaves the created amount
  // unknown (never counted as a change of 0).
  const unreadAccounts = [...watched, ...only].filter((a) => trace.delta(a) === undefined)
  if (trace.supplyDelta === undefined || unreadAccounts.length > 0) {
    const what = trace.supplyDelta === undefined ? 'the total supply could not be read around the replay' : `the balance of ${unreadAccounts[0]} could not be read around the replay`
    return credited.length > 0 ? { minted: [], taken, unread: `${what}: what it created is unknown` } : { minted: [], taken }
  }
  let net = 0n
  for (const a of [...watched, ...only]) net += trace.delta(a) ?? 0n
  const residual = net - trace.supplyDelta
  const minted: EventEffect['minted'] = []
  let left = residual
  for (const c of credited) {
    if (left <= 0n) break
    const amount = c.amount < left ? c.amount : left
    minted.push({ account: c.account, amount })
    left -= amount
  }
  return { minted, taken }
}
