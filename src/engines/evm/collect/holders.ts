import { decodeAbiParameters, getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { getLogsAdaptive, type RawLog } from '../chain/logs.ts'
import { callProbe, decodeAccounts, decodeProbe, encodeAccounts } from '../chain/probe.ts'
import type { HolderFact, HoldersFact } from '../facts.ts'
import type { BackfillRequest, HolderIndexState } from '../../../store/holder-index.ts'
import { ZERO_ADDRESS, type CollectContext } from './context.ts'

/** keccak256("Transfer(address,address,uint256)") */
export const TRANSFER_TOPIC: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
/** Holders listed in a report. */
export const KEY_HOLDERS = 10
/** Ranges of `eth_getLogs` asked in one round trip while indexing a long history. */
const LOG_WAVE_CHUNKS = 8
/** Share of the report's remaining time the holder index may take (at least the minimum). */
const HOLDER_INDEX_BUDGET_SHARE = 0.4
const HOLDER_INDEX_MIN_BUDGET_MS = 1_000
/** Holders read from the index to list the key ones (extra room for tail corrections). */
const TOP_READ = 40
/**
 * Transfer logs a report reads at most; a longer history is finished in the background
 * (`holder-indexer.ts`), and reports say the holder figures are not final until it is.
 */
export const MAX_REPORT_LOGS = 20_000

/** A token's balances as the index (plus the not-yet-final tail) knows them. */
export interface IndexedHolders {
  complete: boolean
  count: number | undefined
  /** Largest first, index balances (verified against balanceOf later). */
  top: { address: Address; balance: bigint }[]
  note: string
  /**
   * The token's first Transfer ever, when this report read its index from genesis: the
   * transaction that may have created it (the creation's last resort without an archive).
   */
  firstTransfer?: { txHash: Hex; blockNumber: bigint }
}

/** Largest balance first; equal balances by address (lowercase), so that lists are stable. */
export function byBalance(a: { address: Address; balance: bigint }, b: { address: Address; balance: bigint }): number {
  if (a.balance !== b.balance) return a.balance > b.balance ? -1 : 1
  const x = a.address.toLowerCase()
  const y = b.address.toLowerCase()
  return x < y ? -1 : x > y ? 1 : 0
}

function topicAddress(topic: Hex | undefined): Address | undefined {
  if (!topic || topic.length !== 66) return undefined
  return getAddress(`0x${topic.slice(26)}`)
}

function transferValue(log: RawLog): bigint | undefined {
  if (log.topics.length !== 3 || log.data.length < 66) return undefined
  try {
    return decodeAbiParameters([{ type: 'uint256' }], log.data.slice(0, 66) as Hex)[0]
  } catch {
    return undefined
  }
}

function addDeltas(deltas: Map<Address, bigint>, log: RawLog) {
  const value = transferValue(log)
  const from = topicAddress(log.topics[1])
  const to = topicAddress(log.topics[2])
  if (value === undefined || !from || !to || value === 0n) return
  if (from !== ZERO_ADDRESS) deltas.set(from, (deltas.get(from) ?? 0n) - value)
  if (to !== ZERO_ADDRESS) deltas.set(to, (deltas.get(to) ?? 0n) + value)
}

/**
 * Brings the holder index of each of `tokens` up to the head: Transfer logs since each token's last
 * indexed block are read in one `eth_getLogs` (ranges adapting to the node's limits); logs older
 * than the chain's finality are stored, newer ones only applied for this report.
 */
export async function indexHolders(ctx: CollectContext, allTokens: Address[], head: bigint, startBlock: bigint): Promise<Map<Address, IndexedHolders>> {
  const chainId = ctx.chain.chainId
  const store = ctx.holderStore
  // Tokens the background is indexing are not read here: the report shows where it stands.
  const pending = await Promise.all(allTokens.map((t) => store.backfill(chainId, t)))
  const out = await backgroundHolders(ctx, pending.filter((p) => p !== undefined), head)
  const tokens = allTokens.filter((_, i) => !pending[i])
  const states = await Promise.all(tokens.map((t) => store.state(chainId, t)))
  const nextFrom = (s: HolderIndexState | undefined) => (s ? s.lastBlock + 1n : startBlock)
  const from = tokens.length === 0 ? head + 1n : states.map(nextFrom).reduce((a, b) => (a < b ? a : b))
  const safeHead = head - BigInt(ctx.chain.finalityBlocks) > 0n ? head - BigInt(ctx.chain.finalityBlocks) : 0n
  // Long histories are read in waves (one round trip each) within a budget; what was read is
  // stored, and the next report goes on from there.
  const budgetMs = Math.max(HOLDER_INDEX_MIN_BUDGET_MS, ctx.rpc.remainingMs() * HOLDER_INDEX_BUDGET_SHARE)
  const started = Date.now()
  const logs: RawLog[] = []
  let coveredTo = from - 1n
  while (coveredTo < head && (coveredTo < from || Date.now() - started < budgetMs)) {
    const waveFrom = coveredTo + 1n
    const span = ctx.logLimit.maxRange * BigInt(LOG_WAVE_CHUNKS)
    const waveTo = waveFrom + span - 1n < head ? waveFrom + span - 1n : head
    const wave = await getLogsAdaptive(ctx.rpc, { address: tokens, topics: [TRANSFER_TOPIC] }, waveFrom, waveTo, ctx.logLimit)
    // Logs are usable up to the first range the node refused.
    const end = wave.missing.length > 0 ? wave.missing.map((m) => m[0]).reduce((a, b) => (a < b ? a : b)) - 1n : waveTo
    for (const l of wave.logs) if (BigInt(l.blockNumber) <= end) logs.push(l)
    coveredTo = end
    if (wave.missing.length > 0 || logs.length >= MAX_REPORT_LOGS) break
  }
  await Promise.all(
    tokens.map(async (token, i) => {
      const state = states[i]
      const begin = nextFrom(state)
      const storeTo = coveredTo < safeHead ? coveredTo : safeHead
      const stored = new Map<Address, bigint>()
      const tail = new Map<Address, bigint>()
      for (const log of logs) {
        if (getAddress(log.address) !== token) continue
        const b = BigInt(log.blockNumber)
        if (b < begin || b > coveredTo) continue
        addDeltas(b <= storeTo ? stored : tail, log)
      }
      if (storeTo >= begin) {
        const next: HolderIndexState = { fromBlock: state?.fromBlock ?? startBlock, lastBlock: storeTo }
        const applied = await store.apply(chainId, token, state, next, stored)
        if (!applied) ctx.log.info({ chainId, token }, 'holder index moved by another writer; using its state')
      }
      const complete = coveredTo >= head
      const [top, count] = await Promise.all([store.top(chainId, token, TOP_READ), store.count(chainId, token)])
      let list = top
      let n = count
      if (tail.size > 0) {
        const current = await store.balances(chainId, token, [...tail.keys()])
        const merged = new Map(top.map((t) => [t.address, t.balance]))
        for (const [a, delta] of tail) {
          const before = current.get(a) ?? 0n
          const after = before + delta
          if (before <= 0n && after > 0n) n++
          if (before > 0n && after <= 0n) n--
          merged.set(a, after)
        }
        list = [...merged.entries()].filter(([, b]) => b > 0n).map(([address, balance]) => ({ address, balance }))
        list.sort(byBalance)
      }
      // What this report could not read is finished in the background.
      if (!complete && ctx.holderIndexer) {
        await ctx.holderIndexer.request(chainId, token, state?.fromBlock ?? startBlock).catch((error: unknown) =>
          ctx.log.warn({ chainId, token, err: (error as Error).message }, 'holder indexing could not be requested'),
        )
      }
      // Read from genesis with nothing refused before it: the first log is the token's first Transfer.
      const first = !state && startBlock === 0n ? logs.find((l) => getAddress(l.address) === token && BigInt(l.blockNumber) <= coveredTo) : undefined
      out.set(token, {
        ...(first ? { firstTransfer: { txHash: first.transactionHash, blockNumber: BigInt(first.blockNumber) } } : {}),
        complete,
        count: complete ? n : undefined,
        top: list.slice(0, TOP_READ),
        note: complete
          ? `indexed ${logs.length} new Transfer logs up to block ${head}`
          : `the holder index is still being built (read up to block ${coveredTo} of ${head}${ctx.holderIndexer ? '; it goes on in the background' : ''}); holders are not final`,
      })
    }),
  )
  return out
}

/**
 * Holders of tokens whose index the background is building: what it has so far, not final. The
 * request is made again (it is idempotent), so that one given up on or lost is taken up.
 */
async function backgroundHolders(ctx: CollectContext, requests: BackfillRequest[], head: bigint): Promise<Map<Address, IndexedHolders>> {
  const out = new Map<Address, IndexedHolders>()
  await Promise.all(
    requests.map(async ({ token, fromBlock }) => {
      await ctx.holderIndexer?.request(ctx.chain.chainId, token, fromBlock).catch(() => {})
      const [state, top] = await Promise.all([ctx.holderStore.state(ctx.chain.chainId, token), ctx.holderStore.top(ctx.chain.chainId, token, TOP_READ)])
      out.set(token, {
        complete: false,
        count: undefined,
        top,
        note: `the holder index is being built in the background (indexed up to block ${state?.lastBlock ?? 'none yet'} of ${head}); holders are not final`,
      })
    }),
  )
  return out
}

/**
 * The key holders: top balances checked against `balanceOf` now (tokens that rebalance without
 * Transfer events), whether each is a contract, and whether it is a locker or a burn address.
 */
export async function verifyHolders(ctx: CollectContext, token: Address, indexed: IndexedHolders | undefined, block: Hex): Promise<HoldersFact> {
  if (!indexed) return { complete: false, count: undefined, top: [], note: 'no holder index' }
  const lockedSet = new Set([...ctx.chain.lockers.map((l) => l.address), ...ctx.chain.burnAddresses].map((a) => a.toLowerCase()))
  const candidates = indexed.top.slice(0, KEY_HOLDERS * 2)
  let facts: HolderFact[] = candidates.map((c) => ({
    address: c.address,
    balance: c.balance,
    isContract: undefined,
    isLocked: lockedSet.has(c.address.toLowerCase()),
  }))
  if (candidates.length > 0) {
    const raw = await callProbe(ctx.rpc, { what: 'holder reads', data: encodeAccounts(token, candidates.map((c) => c.address)), gas: ctx.gasCap, block })
    const { codeSizes, balances } = decodeProbe('holder reads', raw, decodeAccounts)
    facts = facts.map((f, i) => ({ ...f, isContract: codeSizes[i] > 0n, balance: balances[i] }))
    facts.sort(byBalance)
  }
  return { complete: indexed.complete, count: indexed.count, top: facts.filter((f) => f.balance > 0n).slice(0, KEY_HOLDERS), note: indexed.note }
}
