import { getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { RpcError } from '../chain/rpc.ts'
import type { CreationExplorer } from '../explorer.ts'
import type { CreationRecord } from '../../../store/holder-index.ts'
import { blockHex, sameAddress, type CollectContext } from './context.ts'
import type { Discovery } from './discovery.ts'

/** Blocks probed per round of the creation-block search (one round trip per round). */
export const CREATION_SEARCH_FANOUT = 16
/** The search stops (creation unknown) when less than this is left of the report's deadline. */
const CREATION_SEARCH_MIN_REMAINING_MS = 1_500

export interface Creation extends CreationRecord {
  method: 'ots_getContractCreator' | 'getCode search' | 'explorer' | 'first Transfer' | 'stored' | ''
}

export interface CreationLookup {
  /** Who sent the creation transaction, as soon as it is known (before the block's time). */
  who: Promise<Pick<CreationRecord, 'creator' | 'deployer' | 'blockNumber'>>
  done: Promise<Creation>
}

const UNKNOWN: Creation = { creator: undefined, deployer: undefined, txHash: undefined, blockNumber: undefined, timestamp: undefined, method: '' }

/**
 * Who created the token and when: stored from an earlier report; else from the node's
 * `ots_getContractCreator` (creation transaction and block); else by a search over block numbers for
 * the first block where the address has code (then that block's receipts name the sender); else,
 * when the search cannot run (no historical state) or finish, from the explorer API when one is
 * configured (the creation transaction; its block and time from the node).
 * `creator` is the account that sent the creation transaction; `deployer` the address that ran the
 * creation (a factory contract, or the same account).
 */
export function collectCreation(ctx: CollectContext, d: Discovery, stored: CreationRecord | undefined): CreationLookup {
  const chainId = ctx.chain.chainId
  if (stored && stored.timestamp !== undefined) {
    const done = Promise.resolve<Creation>({ ...stored, method: 'stored' })
    return { who: done, done }
  }
  let tx: Promise<{ blockNumber: Hex | null; from: Address } | null> | undefined
  if (d.otsCreator) tx = ctx.rpc.request<{ blockNumber: Hex | null; from: Address } | null>('eth_getTransactionByHash', [d.otsCreator.hash])
  // A node without the history or the methods the lookup needs leaves the creation unknown; a
  // node that fails fails the report (the creator's holdings count in the score).
  const guard = <T>(p: Promise<T>, fallback: T): Promise<T> =>
    p.catch((error: unknown) => {
      if (!(error instanceof RpcError) || error.kind === 'fault') throw error
      ctx.log.info({ chainId, token: ctx.token, err: error.message }, 'creation not found')
      return fallback
    })
  const done = guard(
    (async (): Promise<Creation> => {
      if (d.otsCreator && tx) return fromOts(ctx, d.otsCreator, await tx)
      // Without historical state a search over blocks cannot answer: not asked.
      if (d.otsCreator === undefined && ctx.rpc.capabilities?.history.support !== 'no') return bySearch(ctx, d.block.number)
      return UNKNOWN
    })(),
    UNKNOWN,
  ).then(async (found) => {
    if (found.timestamp === undefined && ctx.explorer) return guard(fromExplorer(ctx, ctx.explorer), UNKNOWN)
    return found
  }).then(async (found) => {
    if (found.timestamp !== undefined) await ctx.holderStore.saveCreation(chainId, ctx.token, found)
    return found
  })
  const who = tx
    ? guard(
        tx.then((t) => ({
          creator: t ? getAddress(t.from) : undefined,
          deployer: d.otsCreator?.creator,
          blockNumber: t?.blockNumber ? BigInt(t.blockNumber) : undefined,
        })),
        { creator: undefined, deployer: undefined, blockNumber: undefined },
      )
    : done
  return { who, done }
}

async function fromOts(ctx: CollectContext, ots: { hash: Hex; creator: Address }, tx: { blockNumber: Hex | null; from: Address } | null): Promise<Creation> {
  const blockNumber = tx?.blockNumber ? BigInt(tx.blockNumber) : undefined
  const header = blockNumber === undefined ? null : await ctx.rpc.request<{ timestamp: Hex } | null>('eth_getBlockByNumber', [blockHex(blockNumber), false])
  return {
    creator: tx ? getAddress(tx.from) : undefined,
    deployer: ots.creator,
    txHash: ots.hash,
    blockNumber,
    timestamp: header ? Number(BigInt(header.timestamp)) : undefined,
    method: 'ots_getContractCreator',
  }
}

async function fromExplorer(ctx: CollectContext, explorer: CreationExplorer): Promise<Creation> {
  let known: { txHash: Hex; creator: Address } | undefined
  try {
    known = await explorer.creation(ctx.chain.chainId, ctx.token, AbortSignal.timeout(Math.max(1, ctx.rpc.remainingMs() - CREATION_SEARCH_MIN_REMAINING_MS)))
  } catch (error) {
    ctx.log.info({ chainId: ctx.chain.chainId, token: ctx.token, explorer: explorer.name, err: (error as Error).message }, 'explorer lookup failed')
    return UNKNOWN
  }
  if (!known) return UNKNOWN
  const tx = await ctx.rpc.request<{ blockNumber: Hex | null; from: Address; to: Address | null } | null>('eth_getTransactionByHash', [known.txHash])
  const blockNumber = tx?.blockNumber ? BigInt(tx.blockNumber) : undefined
  const header = blockNumber === undefined ? null : await ctx.rpc.request<{ timestamp: Hex } | null>('eth_getBlockByNumber', [blockHex(blockNumber), false])
  return {
    creator: tx ? getAddress(tx.from) : known.creator,
    // A creation by a factory: the transaction went to it; a direct one has no `to`.
    deployer: tx?.to ? getAddress(tx.to) : tx ? getAddress(tx.from) : undefined,
    txHash: known.txHash,
    blockNumber,
    timestamp: header ? Number(BigInt(header.timestamp)) : undefined,
    method: 'explorer',
  }
}

/**
 * The creation from the token's first Transfer (the holder index read from genesis), when neither
 * the node nor the explorer could tell: when that transaction deployed the token (its receipt's
 * `contractAddress`), its sender is the creator. Otherwise (a factory, a later first transfer)
 * the creation stays unknown: a guess would name the wrong account.
 */
export async function fromFirstTransfer(ctx: CollectContext, first: { txHash: Hex; blockNumber: bigint } | undefined): Promise<Creation> {
  if (!first) return UNKNOWN
  const [tx, receipt, header] = await Promise.all([
    ctx.rpc.request<{ from: Address; to: Address | null } | null>('eth_getTransactionByHash', [first.txHash]),
    ctx.rpc.request<{ contractAddress: Address | null; from: Address } | null>('eth_getTransactionReceipt', [first.txHash]),
    ctx.rpc.request<{ timestamp: Hex } | null>('eth_getBlockByNumber', [blockHex(first.blockNumber), false]),
  ])
  if (!tx || !receipt || !sameAddress(receipt.contractAddress ?? undefined, ctx.token)) return UNKNOWN
  const creator = getAddress(tx.from)
  return {
    creator,
    deployer: creator,
    txHash: first.txHash,
    blockNumber: first.blockNumber,
    timestamp: header ? Number(BigInt(header.timestamp)) : undefined,
    method: 'first Transfer',
  }
}

async function hasCode(ctx: CollectContext, block: bigint): Promise<boolean> {
  const code = await ctx.rpc.request<Hex>('eth_getCode', [ctx.token, blockHex(block)])
  return !!code && code !== '0x'
}

async function bySearch(ctx: CollectContext, head: bigint): Promise<Creation> {
  let lo = 0n // no code at lo - 1 (or lo is 0)
  let hi = head // code at hi
  if (await hasCode(ctx, 0n)) hi = 0n
  while (hi - lo > 0n) {
    if (ctx.rpc.remainingMs() < CREATION_SEARCH_MIN_REMAINING_MS) {
      return { creator: undefined, deployer: undefined, txHash: undefined, blockNumber: undefined, timestamp: undefined, method: '' }
    }
    const span = hi - lo
    const step = span / BigInt(CREATION_SEARCH_FANOUT) > 0n ? span / BigInt(CREATION_SEARCH_FANOUT) : 1n
    const points: bigint[] = []
    for (let p = lo; p < hi; p += step) points.push(p)
    const answers = await Promise.all(points.map((p) => hasCode(ctx, p)))
    const first = answers.findIndex(Boolean)
    if (first === -1) lo = points[points.length - 1] + 1n
    else {
      hi = points[first]
      if (first > 0) lo = points[first - 1] + 1n
      else if (points[first] === lo) break
    }
  }
  const block = hi
  const [header, receipts] = await Promise.all([
    ctx.rpc.request<{ timestamp: Hex } | null>('eth_getBlockByNumber', [blockHex(block), false]),
    ctx.rpc
      .request<{ contractAddress: Address | null; from: Address; transactionHash: Hex }[] | null>('eth_getBlockReceipts', [blockHex(block)])
      .catch((error: unknown) => {
        if (error instanceof RpcError && error.kind === 'unsupported') return null
        throw error
      }),
  ])
  const receipt = receipts?.find((r) => sameAddress(r.contractAddress ?? undefined, ctx.token))
  return {
    creator: receipt ? getAddress(receipt.from) : undefined,
    deployer: receipt ? getAddress(receipt.from) : undefined,
    txHash: receipt?.transactionHash,
    blockNumber: block,
    timestamp: header ? Number(BigInt(header.timestamp)) : undefined,
    method: 'getCode search',
  }
}
