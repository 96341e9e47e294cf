import type { EvmFacts } from '../facts.ts'
import { poolName } from './evidence.ts'

/**
 * Shared reasoning of the checks over the token's own pair and its real holders' sells. Pure
 * functions of the facts.
 */

/** Holders of record the report shows as contracts (their sells say nothing of a wallet's). */
function isKnownContract(facts: EvmFacts, address: string): boolean {
  return facts.holders.top.some((h) => h.address.toLowerCase() === address.toLowerCase() && h.isContract === true)
}

/**
 * Holders of record that cannot sell any of their balance on a pool where a fresh wallet sells:
 * addresses the token blocks. Undefined when none is.
 */
export function blockedHolders(facts: EvmFacts): string | undefined {
  const s = facts.holderSells
  if (!s?.pool) return undefined
  const trade = facts.trades.find((t) => t.pool.address.toLowerCase() === s.pool!.address.toLowerCase())
  if (trade?.honeypot !== false) return undefined
  const wallets = s.holders.filter((h) => h.outcome !== 'unknown' && !isKnownContract(facts, h.address))
  const blocked = wallets.filter((h) => h.outcome === 'blocked')
  if (blocked.length === 0) return undefined
  const named = blocked.slice(0, 3).map((h) => `${h.address} (${h.reason})`).join(', ')
  return `${blocked.length} of the ${wallets.length} largest holders of record cannot sell any of their balance on ${poolName(trade)}, where a fresh wallet sells: ${named}`
}

/** Percentage points within which what a holder kept equals the pool's sell tax (the holder is paid its own fee). */
const OWN_FEE_TOLERANCE_PP = 0.5

/** Holders of record whose whole sell went through but left part of the balance (a silent clamp). */
export function clampedHolders(facts: EvmFacts): string | undefined {
  const s = facts.holderSells
  if (!s?.pool) return undefined
  // A holder paid the token's own sell fee (its fee wallet) keeps that fee: what stayed is the tax a
  // fresh wallet pays there, not a clamp.
  const tax = facts.trades.find((t) => t.pool.address.toLowerCase() === s.pool!.address.toLowerCase())?.sellTax.percent
  const ownFee = (h: { taxPercent?: number; leftPercent?: number }) =>
    tax !== undefined && tax > 0 && h.taxPercent !== undefined && h.leftPercent !== undefined && Math.abs(h.taxPercent - tax) <= OWN_FEE_TOLERANCE_PP && Math.abs(h.leftPercent - tax) <= OWN_FEE_TOLERANCE_PP
  const clamped = s.holders.filter((h) => h.outcome === 'clamped' && !isKnownContract(facts, h.address) && !ownFee(h))
  if (clamped.length === 0) return undefined
  const named = clamped.slice(0, 3).map((h) => `${h.address} kept ${h.leftPercent}%`).join(', ')
  return `${clamped.length} holder(s) of record sold "all" on ${s.pool.dex} ${s.pool.address} and kept part of it: ${named}`
}

/**
 * Why sells measured elsewhere say nothing of the token's own sell path: the token names pairs,
 * none could be traded. Undefined when its own pair was traded (or it names none).
 */
export function ownPairUnrun(facts: EvmFacts): string | undefined {
  const pairs = facts.ownPairs?.pairs ?? []
  if (pairs.length === 0 || pairs.some((p) => p.tradable)) return undefined
  const p = pairs[0]
  return `the token treats ${p.address} as its pair (${p.how.join(', ')}) and it cannot be traded: ${p.problem}; sells elsewhere do not run its sell path`
}
