import type { Address, Hex } from 'viem'
import { venueOf } from '../venues/registry.ts'
import { decodeRevert, isProbeReason } from '../chain/revert.ts'
import { PROBE_ADDRESSES, assertGasNotCapped, callProbe, decodeHolderSells, decodeProbe, encodeHolderSells, isStarved, type HolderSellResult } from '../chain/probe.ts'
import type { HolderSellFact, HolderSellsFact, OwnPairsFact, PoolFact } from '../facts.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import type { Discovery } from './discovery.ts'
import { probePool, quoteRoute, routerOf } from './trades.ts'
import { ownPairOf } from './own-pairs.ts'

/** Holders of record that sell their whole balance in a report (the largest first). */
export const HOLDER_SELLERS = 20
/** A whole sell that leaves more than this share of the balance (basis points) was clamped. */
export const CLAMP_LEFT_BPS = 10n

/**
 * The largest holders of record sell their whole balance, from their real state, on the token's
 * main V2 pool: through its router when one is known (approve + transferFrom, as wallets sell),
 * else by a transfer to the pair. One probe call, every holder in an isolated experiment; a
 * whole sell that fails is followed by a small one, so that a limit (the small one sells) is told
 * from a block (nothing sells). Pools, the token, burn addresses and lockers never sell.
 */
export async function collectHolderSells(
  ctx: CollectContext,
  d: Discovery,
  main: PoolFact | undefined,
  traded: Address[],
  holders: { address: Address; balance: bigint }[],
  block: Hex,
): Promise<HolderSellsFact> {
  const trade = main ? { pool: main } : undefined
  if (!trade) return { pool: undefined, path: '', holders: [], note: 'no V2 pool where the probe could trade: holders of record were not made to sell' }
  const skip = [
    ctx.token,
    ZERO_ADDRESS,
    ...d.pools.map((p) => p.pool),
    ...traded,
    ...ctx.chain.burnAddresses,
    ...ctx.chain.lockers.map((l) => l.address),
    ...Object.values(PROBE_ADDRESSES),
  ]
  const sellers = holders
    .filter((h) => h.balance > 0n && !skip.some((s) => sameAddress(s, h.address)))
    .slice(0, HOLDER_SELLERS)
    .map((h) => h.address)
  if (sellers.length === 0) return { pool: trade.pool, path: '', holders: [], note: 'no holder of record besides pools, the token and burn addresses' }
  const router = routerOf(ctx, trade.pool).address
  const raw = await callProbe(ctx.rpc, {
    what: 'holder sells',
    data: encodeHolderSells(ctx.token, probePool(ctx, trade.pool), router, sellers),
    gas: ctx.gasCap,
    block,
    actors: sellers,
  })
  const { startGas, sells } = decodeProbe('holder sells', raw, decodeHolderSells)
  assertGasNotCapped('holder sells', ctx.gasCap, startGas, sells.some((s) => !s.all.ok && isStarved(s.all.err)))
  return {
    pool: trade.pool,
    path: router ? 'router' : 'pair',
    holders: sells.map(holderSellFact),
    note: router ? `each sold its whole balance through the router ${router} (approve + transferFrom)` : 'each sold its whole balance by a transfer to the pair',
  }
}

/**
 * The pool holders sell on: among the V2-like pools the probe trades on (the node takes state
 * overrides, the quote can be obtained), the token's own pair, else the deepest. Chosen from the
 * pools, not from their trades, so that the holders' sells go out beside the trades.
 */
export function mainPool(ctx: CollectContext, d: Discovery, pools: PoolFact[], own: OwnPairsFact | undefined): PoolFact | undefined {
  if (ctx.rpc.capabilities?.stateOverride === 'no') return undefined
  const v2 = pools.filter((p) => venueOf(p.dexType).fungibleLp && quoteRoute(ctx, d, p.quote) !== undefined)
  return v2.find((p) => ownPairOf(own, p.address)) ?? v2[0]
}

function percentOf(part: bigint, whole: bigint): number {
  return whole === 0n ? 0 : Number((part * 1_000_000n) / whole) / 10_000
}

/** A router's revert with the token's own reason beside it (what a plain transfer to the pair said). */
function withDirectReason(reason: string, direct: HolderSellResult['direct']): string {
  if (direct.sent === 0n) return reason
  if (direct.ok) return `${reason} (through the router; a plain transfer to the pair sells)`
  const own = decodeRevert(direct.err)
  return isProbeReason(own) || own === reason ? reason : `${reason} (the token: ${own})`
}

export function holderSellFact(s: HolderSellResult): HolderSellFact {
  const base = { address: s.holder, balance: s.balance }
  if (!s.balanceRead) return { ...base, outcome: 'unknown', taxPercent: undefined, leftPercent: undefined, reason: 'its balance could not be read' }
  if (s.balance === 0n) return { ...base, outcome: 'unknown', taxPercent: undefined, leftPercent: undefined, reason: 'no balance to sell' }
  const allReason = s.all.ok ? '' : withDirectReason(decodeRevert(s.all.err), s.direct)
  if (s.all.ok && s.all.received > 0n) {
    const taxPercent = s.all.received >= s.all.sent ? 0 : percentOf(s.all.sent - s.all.received, s.all.sent)
    // What stayed, not read, is unknown: neither "all sold" nor "held back".
    if (!s.leftRead) {
      return { ...base, outcome: 'unknown', taxPercent: undefined, leftPercent: undefined, reason: 'the sell went through, but the balance after it could not be read' }
    }
    const clamped = s.left * 10_000n > s.balance * CLAMP_LEFT_BPS
    const leftPercent = percentOf(s.left, s.balance)
    return clamped
      ? { ...base, outcome: 'clamped', taxPercent, leftPercent, reason: `the sell went through and ${leftPercent}% of the balance stayed (held back, or fees that came back to this holder)` }
      : { ...base, outcome: 'sold', taxPercent, leftPercent, reason: '' }
  }
  if (s.all.ok) return { ...base, outcome: 'blocked', taxPercent: 100, leftPercent: undefined, reason: 'the pool received none of the tokens sent' }
  if (isProbeReason(allReason)) return { ...base, outcome: 'unknown', taxPercent: undefined, leftPercent: undefined, reason: allReason }
  const partReason = s.part.ok ? '' : decodeRevert(s.part.err)
  if (s.part.ok && s.part.received > 0n) {
    return { ...base, outcome: 'limit', taxPercent: undefined, leftPercent: undefined, reason: `the whole balance does not sell (${allReason}); a thousandth of it does` }
  }
  if (!s.part.ok && isProbeReason(partReason)) return { ...base, outcome: 'unknown', taxPercent: undefined, leftPercent: undefined, reason: `${allReason}; ${partReason}` }
  return { ...base, outcome: 'blocked', taxPercent: undefined, leftPercent: undefined, reason: allReason }
}
