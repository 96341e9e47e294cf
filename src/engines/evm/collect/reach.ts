/*
 * The reach of numeric setters, searched. A fee setter tried at a few values (0, 20, 100, …) can
 * hide its reach between them: five stacked fees at 20 each take a third, at 100 their sum passes
 * 100 % and every trade reverts. The probe searches each setter on-chain, in one call: the largest
 * value it accepts (bisection between the last accepted and the first refused value), and the
 * highest sell tax it sets while sales still work (bisection between the last value that sells and
 * the first that does not), alone and with its sibling setters at their largest accepted values;
 * then who is paid the tax, and whether an address setter the owner can call redirects it.
 */
import type { Address, Hex } from 'viem'
import type { CodeFunction } from '../chain/bytecode.ts'
import { signatureOf } from '../chain/signatures.ts'
import type { Outcome, ProbeSetter, ReachResult, ReachSearch } from '../chain/probe.ts'
import type { PowerCandidate, PowerFinding } from '../facts.ts'
import { ZERO_ADDRESS, sameAddress } from './context.ts'

/**
 * Values every search starts from: 0, a small number, the largest percentage of each usual scale
 * (100 %, 1 000 ‰, 10 000 basis points, 1 000 000 hundredths of a basis point: a Uniswap V3/V4 LP
 * fee), the type's maximum.
 */
export const SEARCH_GRID: readonly bigint[] = [0n, 20n, 100n, 1_000n, 10_000n, 1_000_000n, (1n << 256n) - 1n]
/** Sibling setters put at their largest accepted values during a combined search, at most. */
export const MAX_SIBLINGS = 4
/** A sell tax a single privileged call can push to this or above stops trading in effect. */
export const STOPPING_TAX_PERCENT = 99
/** Two sell taxes differing by less than this (percentage points) are the same. */
const TAX_EPSILON_PP = 0.005

/** A function whose arguments are all unsigned numbers: a setter the probe can search. */
export function searchableSetter(fn: CodeFunction): ProbeSetter | undefined {
  if (!fn.arguments) return undefined
  const types = fn.arguments.split(',')
  const widths = types.map((t) => /^uint(\d*)$/.exec(t)?.[1])
  if (widths.some((w) => w === undefined)) return undefined
  return {
    data: `${fn.selector}${'00'.repeat(32 * types.length)}` as Hex,
    words: types.map((_, i) => BigInt(4 + 32 * i)),
    maxes: widths.map((w) => (1n << BigInt(w || 256)) - 1n),
  }
}

/** The sell tax of an outcome, in percent; undefined when the sale failed or sent nothing. */
export function taxOf(o: Outcome): number | undefined {
  if (!o.ok || o.sent === 0n) return undefined
  return (1 - Number((o.received * 1_000_000_000n) / o.sent) / 1_000_000_000) * 100
}

const pct = (x: number) => `${Math.round(x * 100) / 100}%`

/** What one search says in words (its figures), and the highest working sell tax it found. */
function describeSearch(s: ReachSearch): { text: string; sell: number | undefined } {
  const accepts = s.refused ? `accepts values up to ${s.lastAccepted} (refuses ${s.firstRefused})` : 'accepts any value'
  const sell = s.sells ? taxOf(s.best.sell) : undefined
  const parts = [accepts]
  if (sell !== undefined) parts.push(`at ${s.best.value} a holder's sell tax reaches ${pct(sell)}`)
  if (s.stopsAtTop) parts.push(`from ${s.stopAt} on every sale fails (the fees themselves, not a size limit)`)
  return { text: parts.join('; '), sell }
}

/** What the search found about one setter: the reach, where the proceeds go, and whether sales can be stopped. */
export interface ReachReading {
  /** The highest sell tax reached while sales work (alone or with siblings), percent. */
  sell: number
  buy: number | undefined
  /** Some accepted value makes every sale fail, while smaller ones sell (the fees themselves). */
  stops: boolean
  text: string
  caller: PowerCandidate
  /** The accounts the tax was seen paid to (watched accounts that gained, holders and pools aside). */
  paidTo: Address[]
  /** Whether a privileged call can redirect the tax to any address (an owner-set wallet). */
  walletSettable: boolean
}

/**
 * Reads a search: undefined when no candidate could call the setter, holders could not be funded,
 * or the setter never raised the sell tax above what it was (even where it stops sales: a rule).
 */
export function readReach(
  r: ReachResult,
  candidates: readonly PowerCandidate[],
  watch: { accounts: readonly Address[]; bystanders: ReadonlySet<string>; labels: ReadonlyMap<string, string> },
): ReachReading | undefined {
  if (!r.funded || sameAddress(r.caller, ZERO_ADDRESS)) return undefined
  const caller = candidates.find((c) => sameAddress(c.address, r.caller))
  if (!caller) return undefined
  const base = taxOf(r.baseSell)
  if (base === undefined) return undefined
  const alone = describeSearch(r.alone)
  const combined = r.withSiblings ? describeSearch(r.combined) : undefined
  const sell = Math.max(alone.sell ?? 0, combined?.sell ?? 0)
  const stops = r.alone.stopsAtTop && r.alone.sells
  // Sales that go from the tax they paid before straight to failing, with no higher tax between
  // (bisected down to neighbouring values), fail on a rule the setter sets (an exact amount a sale
  // must be, a size), not on its fees: no fee setter, whatever its plain variants say of its pause.
  if (sell <= base + TAX_EPSILON_PP) return undefined
  const parts = [`searched: ${alone.text}`]
  const buy = taxOf(r.bestBuy)
  if (buy !== undefined && alone.sell !== undefined) parts.push(`buy tax ${pct(buy)} there`)
  if (combined) {
    const siblings = `${r.siblingValues.length} sibling setter(s) at their largest accepted values`
    parts.push(combined.sell !== undefined ? `with ${siblings}, the sell tax reaches ${pct(combined.sell)}` : `with ${siblings}, every sale fails`)
  }
  // Only gains read on both sides name who is paid (one not read is unknown: neither paid nor not).
  const paidTo = r.gains
    .map((g, i) => ({ g, a: watch.accounts[i], read: i < 256 && ((r.gainsRead >> BigInt(i)) & 1n) === 1n }))
    .filter(({ g, a, read }) => a && read && g > 0n && !watch.bystanders.has(a.toLowerCase()))
    .map(({ a }) => a)
  const paid = paidTo.map((a) => watch.labels.get(a.toLowerCase()) ?? a)
  const settable = r.delegateGainRead && r.delegateGain > 0n
  if (paid.length > 0 || settable) {
    const to = paid.length > 0 ? paid.join(', ') : 'an account'
    parts.push(`the tax is paid to ${to}${settable ? ', which a privileged call can replace with any address (the owner\'s, in effect)' : ''}`)
  }
  return { sell, buy, stops, text: parts.join('; '), caller, paidTo, walletSettable: settable }
}

/** The label of a function in evidence: its known signature, or its selector and argument types. */
function labelOf(fn: CodeFunction): string {
  const signature = signatureOf(fn.selector)
  return signature ? `${signature} [${fn.selector}]` : `function ${fn.selector}(${fn.arguments})`
}

/**
 * Folds a search into a function's findings: its tax finding states the searched reach (a new one
 * when the tried values missed it), and a setter that can make every sale fail, or push the sell
 * tax to 99 % or more, stops trading (a `pause` finding with that evidence).
 */
export function withReach(findings: PowerFinding[], fn: CodeFunction, reading: ReachReading | undefined): PowerFinding[] {
  if (!reading) return findings
  const out = [...findings]
  const signature = signatureOf(fn.selector)
  const via = `as ${reading.caller.address} (${reading.caller.source}), `
  const fee = out.findIndex((f) => f.kind === 'feeAll' && f.selector === fn.selector && f.candidate === reading.caller)
  const critical = reading.sell >= 50 || reading.stops
  if (fee >= 0) {
    const f = out[fee]
    const reach = { buy: Math.max(f.reach?.buy ?? 0, reading.buy ?? 0), sell: reading.sell, transfer: f.reach?.transfer ?? 0, sellsStopped: reading.stops || !!f.reach?.sellsStopped, paidTo: reading.paidTo, walletSettable: reading.walletSettable }
    out[fee] = { ...f, evidence: `${f.evidence}; ${reading.text}`, reach, ...(critical ? { tier: 'Critical' as const } : {}) }
  } else {
    out.push({
      kind: 'feeAll',
      candidate: reading.caller,
      selector: fn.selector,
      signature,
      evidence: `${via}${labelOf(fn)} changes everyone's sell tax; ${reading.text}`,
      reach: { buy: reading.buy ?? 0, sell: reading.sell, transfer: 0, sellsStopped: reading.stops, paidTo: reading.paidTo, walletSettable: reading.walletSettable },
      ...(critical ? { tier: 'Critical' as const } : {}),
    })
  }
  if ((reading.stops || reading.sell >= STOPPING_TAX_PERCENT) && !out.some((f) => f.kind === 'pause' && f.selector === fn.selector)) {
    const what = reading.stops ? 'can make every sale fail' : `can push the sell tax to ${pct(reading.sell)}`
    out.push({ kind: 'pause', candidate: reading.caller, selector: fn.selector, signature, evidence: `${via}${labelOf(fn)} ${what}: trading stopped in effect (${reading.text})` })
  }
  return out
}
