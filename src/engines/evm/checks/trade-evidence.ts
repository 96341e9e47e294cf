import type { DependencyFact, EvmFacts } from '../facts.ts'
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

/** Share of a balance (percent) a clamp must leave beyond what the pool's sell tax explains. */
export const HOLDER_CLAMP_MARGIN_PERCENT = 1

/**
 * Holders of record whose whole-balance sell went through and left part of the balance behind,
 * more than the pool's sell tax explains (a fee wallet selling all gets its own fee back: that
 * share is no clamp), on a pool where a fresh wallet can sell. Undefined when none is.
 */
export function clampedHolders(facts: EvmFacts): string | undefined {
  const s = facts.holderSells
  if (!s?.pool) return undefined
  const trade = facts.trades.find((t) => t.pool.address.toLowerCase() === s.pool!.address.toLowerCase())
  if (!trade || trade.honeypot !== false) return undefined
  const tax = trade.sellTax.percent ?? 0
  const wallets = s.holders.filter((h) => h.outcome !== 'unknown' && !isKnownContract(facts, h.address))
  const clamped = wallets.filter((h) => h.outcome === 'clamped' && (h.leftPercent ?? 0) > tax + HOLDER_CLAMP_MARGIN_PERCENT)
  if (clamped.length === 0) return undefined
  const worst = [...clamped].sort((a, b) => (b.leftPercent ?? 0) - (a.leftPercent ?? 0))
  const named = worst.slice(0, 3).map((h) => `${h.address} kept ${h.leftPercent}%`).join(', ')
  return `${clamped.length} of the ${wallets.length} largest holders of record, selling their whole balance on ${poolName(trade)} (${s.path === 'router' ? 'through the router' : 'by a transfer to the pair'}), saw the sell go through and part of the balance stay (the pool's sell tax is ${tax}%): ${named}`
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

/** What the explorer says of a dependency's source: published, closed, or why that is unknown. */
function sourceOf(dep: DependencyFact): string {
  const s = dep.source
  if (s.verified === true) return `its source is verified (${s.note})`
  if (s.verified === false) return `its source is closed (${s.note} lists no verified source)`
  return `whether its source is published is unknown (${s.note})`
}

/**
 * A contract transfers call whose hostile code stops holders (`stops`) or changes what trades
 * deliver (`amounts`), and whose code or address someone can change. Undefined when none is.
 */
export function hostileDependency(facts: EvmFacts, effect: 'stops' | 'amounts'): string | undefined {
  for (const dep of facts.dependencies?.list ?? []) {
    const what = effect === 'stops' ? dep.stops : dep.changesAmounts
    const who = [dep.upgradeable, dep.repointable].filter(Boolean).join('; ')
    const how = dep.named ? `the token names ${dep.address} ${dep.named} (transfers could not be traced)` : `transfers call ${dep.address} (${dep.selectors.join(', ')})`
    if (what && who) return `${how}; with that contract hostile, ${what}, and ${who}; ${sourceOf(dep)}`
  }
  return undefined
}

/**
 * Why the contracts transfers call were not all measured with hostile code although the token's
 * code can call out: the node cannot trace calls (which contracts they are is unknown), or making
 * them hostile did not run (no pool, a simulation the node failed, more than are tried).
 * Undefined when every one was measured, or the code calls no other contract. A "0" that rests
 * on dependencies needs this to be undefined.
 */
export function unmeasuredDependencies(facts: EvmFacts): string | undefined {
  const x = facts.externalCalls
  if (x.method === 'trace') return x.calls.length === 0 ? undefined : facts.dependencies?.unmeasured
  const r = facts.code.logic?.reachable
  if (x.method === 'bytecode' && r && !r.call && !r.callCode && !r.staticCall) return undefined
  const tried = facts.dependencies?.list.length ?? 0
  return tried > 0
    ? `the node cannot trace calls: the contracts transfers call (the code can call out) are not all known; the ${tried} the token names in its code and first storage slots were given hostile code`
    : 'the node cannot trace calls: the contracts transfers call (the code can call out) are not known, and were not given hostile code'
}

/** What making each called contract hostile showed, and who can change it ('' when none was tried). */
export function dependencySummary(facts: EvmFacts): string {
  const list = facts.dependencies?.list ?? []
  if (list.length === 0) return ''
  const parts = list.map((d) => {
    const effect = d.stops || d.changesAmounts ? `made hostile: ${[d.stops, d.changesAmounts].filter(Boolean).join('; ')}` : 'made hostile, it changed nothing for holders'
    const who = [d.upgradeable, d.repointable].filter(Boolean).join('; ') || [d.immutable, d.repointNote].filter(Boolean).join('; ') || 'no proxy and no function that points the token elsewhere were found'
    return `${d.address}: ${effect} (${who}; ${sourceOf(d)})`
  })
  return `; ${parts.join('; ')}`
}
