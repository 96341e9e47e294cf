/*
 * Owner powers, measured by simulation: which functions to try and with what arguments, what the
 * probe is asked (encoding), and how its measures are read (balance conservation, taxes, limits).
 * Why it is long: the encoding of an experiment and the reading of its result change together
 * (a field added to the probe's measure is read here), so they are kept in one file.
 */
import { encodeAbiParameters, getAddress, parseAbiParameters } from 'viem/utils'
import type { AbiParameter, Address, Hex } from 'viem'
import type { CodeAnalysis, CodeFunction } from '../chain/bytecode.ts'
import { decodeRevert, isProbeReason } from '../chain/revert.ts'
import { isStandardSelector, signatureOf } from '../chain/signatures.ts'
import {
  AMOUNT_PLACEHOLDER,
  NO_ROUTE,
  PROBE_ADDRESSES,
  REJECTER_STATE,
  assertGasNotCapped,
  callProbe,
  decodePowers,
  decodeProbe,
  encodePowers,
  encodePowersReplay,
  encodeReach,
  decodeReach,
  isStarved,
  type Attempt,
  type Measure,
  type Outcome,
  type PowerResult,
} from '../chain/probe.ts'
import { NO_OVERRIDE_REASON } from '../chain/capabilities.ts'
import type { PoolFact, PowerCandidate, PowerFinding, PowerKind, PowersFact } from '../facts.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import type { Discovery } from './discovery.ts'
import { slotLabel, type SlotAccount } from './slot-accounts.ts'
import { eventEffect, traceReplay, type EventEffect } from './power-trace.ts'
import { probePool, quoteRoute } from './trades.ts'
import { MAX_ROLE_HOLDERS, type RoleHolder } from './role-holders.ts'
import { dustFloor, isDust } from './effect-floor.ts'
import { MAX_SIBLINGS, SEARCH_GRID, STOPPING_TAX_PERCENT, readReach, searchableSetter, withReach } from './reach.ts'
import type { PoolContract } from '../venues/venue.ts'

/** Privileged-account candidates tried at most. */
export const MAX_CANDIDATES = 8
/** Candidate owner functions simulated at most (one `eth_call` each, all in one round trip). */
export const MAX_POWER_FUNCTIONS = 48
/** Two measured tax ratios differing by more than this (0.005 percentage points) differ. */
const TAX_EPSILON = 0.00005
/** Small number given to uint arguments (a fee of 20 %, 2 %, 0.2 % depending on the denominator). */
const SMALL_UINT = 20n
/**
 * Numbers every numeric argument is also tried at: 0 and the largest percentage of each usual
 * scale (100 %, 1 000 ‰, 10 000 bps); besides, half of a holder's balance and the type's maximum.
 */
const SCALE_EXTREMES = [100n, 1_000n, 10_000n]
/** Functions that may appoint the delegate (setters taking an address, role grants), tried at most. */
export const MAX_GRANTS = 24
/** Role identifiers (32-byte constants of the code) tried in each role grant, at most. */
export const MAX_ROLE_CONSTANTS = 8
/** A sell tax a privileged call can reach at or above this takes what holders sell: Critical. */
export const CONFISCATORY_TAX_PERCENT = 50
/** Event topics a token's code pushes that are no role: Transfer, Approval, OwnershipTransferred. */
const NOT_ROLES = new Set<string>([
  '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
  '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925',
  '0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0',
])

/**
 * Standard allowance functions that a token may bend for a privileged caller (an `increaseAllowance`
 * that credits the caller an allowance over someone else's tokens): tried like owner functions,
 * with one variant each (holder A named, half its balance).
 */
const ALLOWANCE_SELECTORS = new Set<Hex>(['0x39509351', '0xa457c2d7'])

/**
 * Candidate owner functions of a contract: every state-changing function that is not standard
 * ERC-20, and the allowance functions a privileged caller may bend.
 */
export function candidateFunctions(logic: CodeAnalysis): CodeFunction[] {
  const fns = logic.functions.filter(
    (f) => f.stateMutability !== 'view' && f.stateMutability !== 'pure' && (!isStandardSelector(f.selector) || ALLOWANCE_SELECTORS.has(f.selector.toLowerCase() as Hex)),
  )
  // Known names first, so that the cap drops the least telling ones.
  return fns.sort((a, b) => Number(!!signatureOf(b.selector)) - Number(!!signatureOf(a.selector))).slice(0, MAX_POWER_FUNCTIONS)
}

/**
 * Privileged-account candidates: owner()/getOwner(), the proxy admin, the creator and deployer,
 * and the plausible accounts without code in the first storage slots, at whatever byte offset they
 * are packed (owners no getter reveals; see slot-accounts.ts). A contract kept
 * in storage is a dependency the token calls (a router, a fee receiver, a hook): giving it the
 * probe's code would change what the token does, so it is left as it is.
 */
export function powerCandidates(
  ctx: CollectContext,
  d: Discovery,
  extra: {
    admin?: Address
    creator?: Address
    deployer?: Address
    implementation?: Address
    pools: PoolFact[]
    slotAccounts?: readonly SlotAccount[]
    /**
     * Accounts holding a role (RoleGranted logs not revoked since, or the token's enumerable role
     * getters), the first `MAX_ROLE_HOLDERS` not named otherwise tried.
     */
    roleHolders?: readonly Pick<RoleHolder, 'address' | 'how'>[]
  },
): PowerCandidate[] {
  const exclude = new Set<string>(
    [
      ctx.token,
      extra.implementation,
      ZERO_ADDRESS,
      ctx.chain.wrappedNative,
      ctx.chain.multicall3,
      ...ctx.chain.stablecoins,
      ...ctx.chain.majors,
      ...ctx.chain.burnAddresses,
      ...ctx.chain.dexes.flatMap((x) => [x.factory, x.router, x.quoter]),
      ...ctx.chain.lockers.map((l) => l.address),
      ...extra.pools.map((p) => p.address),
      ...Object.values(PROBE_ADDRESSES),
    ]
      .filter((a): a is Address => !!a)
      .map((a) => a.toLowerCase()),
  )
  const out: PowerCandidate[] = []
  const add = (address: Address | undefined, source: string) => {
    if (!address || exclude.has(address.toLowerCase()) || out.some((c) => sameAddress(c.address, address))) return
    out.push({ address: getAddress(address), source })
  }
  add(d.owner.owner, 'owner()')
  add(d.owner.getOwner, 'getOwner()')
  add(extra.admin, 'proxy admin')
  add(extra.creator, 'creator')
  add(extra.deployer, 'deployer')
  // Accounts written into the code (a hard-coded `devteam`) and role holders before the storage
  // candidates: each names one account on purpose, where storage words are read at every offset.
  for (const a of extra.slotAccounts ?? []) {
    if (a.inCode && !a.codeSize) add(a.address, slotLabel(a))
  }
  let roles = 0
  for (const h of extra.roleHolders ?? []) {
    if (roles >= MAX_ROLE_HOLDERS) break
    const before = out.length
    add(h.address, `a role holder (${h.how})`)
    if (out.length > before) roles++
  }
  for (const a of extra.slotAccounts ?? []) {
    if (!a.inCode && !a.codeSize) add(a.address, slotLabel(a))
  }
  return out.slice(0, MAX_CANDIDATES)
}

type Value = unknown

/** What a numeric argument is set to in one variant. */
type UintChoice = 'zero' | 'small' | 'amount' | 'max' | bigint

interface Choice {
  uint: UintChoice
  bool: boolean
  /** Value of bytes32 arguments (role identifiers in grants). */
  word?: Hex
}

function defaultValue(param: AbiParameter, choice: Choice, addresses: Address[]): Value {
  const t = param.type
  const array = /^(.*)\[(\d*)\]$/.exec(t)
  if (array) {
    const inner = { ...param, type: array[1] } as AbiParameter
    const n = array[2] ? Number(array[2]) : 1
    return Array.from({ length: n }, () => defaultValue(inner, choice, addresses))
  }
  if (t === 'tuple') {
    const components = (param as { components?: readonly AbiParameter[] }).components ?? []
    return components.map((c) => defaultValue(c, choice, addresses))
  }
  if (t === 'address') return addresses.length > 1 ? addresses.shift() : (addresses[0] ?? PROBE_ADDRESSES.a)
  if (t === 'bool') return choice.bool
  const int = /^(u?)int(\d*)$/.exec(t)
  if (int) {
    const bits = BigInt(int[2] || 256)
    const max = int[1] === 'u' ? (1n << bits) - 1n : (1n << (bits - 1n)) - 1n
    const c = choice.uint
    const v = c === 'zero' ? 0n : c === 'small' ? SMALL_UINT : c === 'max' ? max : c === 'amount' ? (int[1] === 'u' && bits === 256n ? BigInt(AMOUNT_PLACEHOLDER) : SMALL_UINT) : c
    return v > max ? max : v
  }
  if (t === 'string') return ''
  if (t === 'bytes') return '0x'
  if (t === 'bytes32' && choice.word) return choice.word
  if (t.startsWith('bytes')) return `0x${'00'.repeat(Number(t.slice(5)))}`
  return 0n
}

function paramsOf(fn: CodeFunction): readonly AbiParameter[] | undefined {
  try {
    return fn.arguments ? parseAbiParameters(fn.arguments.replace(/,/g, ', ')) : []
  } catch {
    return undefined
  }
}

function encode(fn: CodeFunction, params: readonly AbiParameter[], choice: Choice, addresses: Address[]): Hex {
  try {
    const queue = [...addresses]
    const values = params.map((p) => defaultValue(p, choice, queue))
    return `${fn.selector}${encodeAbiParameters(params, values as never).slice(2)}` as Hex
  } catch {
    return fn.selector
  }
}

/** An account passed as an owner function's address argument beside the test holders, and what it is. */
export interface ArgumentAccount {
  address: Address
  label: string
}

/** Accounts the token flags or names tried as address arguments, at most (beside A, F and the rejecting account). */
export const MAX_ARGUMENT_ACCOUNTS = 7

/** One calldata variant of a function, and the account it names beside the test holders ('' for none). */
export interface Variant {
  data: Hex
  label: string
  /** Which address argument names the account (0: the first); absent for the plain variants. */
  argument?: number
}

/** Address arguments of a function each given the accounts in turn, at most (the first, second, third). */
export const MAX_ADDRESS_ARGUMENTS = 3
/** The words evidence says an address argument's place with, by index. */
const ORDINALS = ['first', 'second', 'third']

/** Kinds of effects read from balances alone (no trade): what a variant naming the token's own accounts is judged on. */
const BALANCE_KINDS = new Set<PowerKind>(['mint', 'changeBalance', 'ownMove'])

/** The account that refuses the native coin, as evidence names it. */
export const REJECTER_LABEL = `${PROBE_ADDRESSES.rejecter} (an account whose code refuses the native coin)`

/**
 * The accounts a token's owner functions are also given as address arguments: the account whose
 * code refuses the native coin (a fee wallet set to it stops every sale that pays it), the pools,
 * the token itself, the first privileged candidate, and the accounts the token names (its own
 * pairs, the accounts in its storage or code) and its holders of record (fee wallets, excluded
 * accounts: levers that act only on accounts the token already flags).
 */
export function argumentAccounts(token: Address, pools: readonly Address[], candidates: readonly PowerCandidate[], named: readonly { address: Address; label: string }[]): ArgumentAccount[] {
  const out: ArgumentAccount[] = [{ address: PROBE_ADDRESSES.rejecter, label: REJECTER_LABEL }]
  const add = (address: Address, label: string) => {
    if (out.length > MAX_ARGUMENT_ACCOUNTS || sameAddress(address, ZERO_ADDRESS) || out.some((x) => sameAddress(x.address, address))) return
    out.push({ address, label })
  }
  pools.forEach((p) => add(p, `the pool ${p}`))
  add(token, 'the token contract itself')
  if (candidates[0]) add(candidates[0].address, `${candidates[0].address} (${candidates[0].source})`)
  named.forEach((n) => add(n.address, n.label))
  return out
}

/**
 * Calldata variants of a function: the target holder A as the first address (then the fresh
 * account F, so that a `(from, to, amount)` moves A's tokens away), booleans both ways, and every
 * numeric argument at 0, a small number, the largest percentage of each usual scale (100, 1 000,
 * 10 000), half of A's balance (substituted by the probe at run time) and the type's maximum: a
 * setter is tried at its extremes, where an uncapped one confiscates or traps. A function taking an
 * address is also given each of `accounts` as its first address (numbers at half A's balance and
 * at their maximum; booleans both ways where there is no number, else `true`: the plain variants
 * try both, and an `(account, amount, flag)` tried four ways per account outgrows the experiment's
 * gas), and as each later address argument, up to the `MAX_ADDRESS_ARGUMENTS`th, the others
 * holding A then F (numbers at half A's balance, `true`): a `setRoute(router, pair)` acts only when
 * its pair is the pool. An allowance function gets one variant: A, half its balance.
 */
export function functionVariants(fn: CodeFunction, accounts: readonly ArgumentAccount[] = []): Variant[] {
  const params = paramsOf(fn)
  if (!params) return [{ data: fn.selector, label: '' }]
  const out = new Map<Hex, Omit<Variant, 'data'>>()
  if (ALLOWANCE_SELECTORS.has(fn.selector.toLowerCase() as Hex)) {
    out.set(encode(fn, params, { uint: 'amount', bool: true }, [PROBE_ADDRESSES.a]), { label: '' })
    return [...out].map(([data, v]) => ({ data, ...v }))
  }
  const hasUint = /int/.test(fn.arguments)
  const hasBool = /bool/.test(fn.arguments)
  const uints: UintChoice[] = hasUint ? ['zero', 'small', ...SCALE_EXTREMES, 'amount', 'max'] : ['small']
  const bools = hasBool ? [true, false] : [true]
  for (const uint of uints) {
    for (const bool of bools) out.set(encode(fn, params, { uint, bool }, [PROBE_ADDRESSES.a, PROBE_ADDRESSES.f]), { label: '' })
  }
  const addressArguments = Math.min(fn.arguments.match(/address/g)?.length ?? 0, MAX_ADDRESS_ARGUMENTS)
  for (let argument = 0; argument < addressArguments; argument++) {
    const extremes: UintChoice[] = !hasUint ? ['small'] : argument === 0 ? ['amount', 'max'] : ['amount']
    for (const account of accounts) {
      // The account in the argument's place; the ones before it hold A, the one after it F.
      const queue = [...[PROBE_ADDRESSES.a, PROBE_ADDRESSES.f].slice(0, argument), account.address, PROBE_ADDRESSES.f]
      for (const uint of extremes) {
        for (const bool of argument === 0 && !hasUint ? bools : [true]) {
          const data = encode(fn, params, { uint, bool }, [...queue])
          if (!out.has(data)) out.set(data, { label: account.label, ...(argument > 0 ? { argument } : {}) })
        }
      }
    }
  }
  return [...out].map(([data, v]) => ({ data, ...v }))
}

/**
 * Calldata of `fn` naming `address` in every address argument (`true` for booleans, a small
 * number): a call that may point the token at another contract. Undefined for a function that
 * takes no address, and for the allowance functions.
 */
export function namingCall(fn: CodeFunction, address: Address): Hex | undefined {
  if (!/address/.test(fn.arguments) || ALLOWANCE_SELECTORS.has(fn.selector.toLowerCase() as Hex)) return undefined
  const params = paramsOf(fn)
  return params ? encode(fn, params, { uint: 'small', bool: true }, [address]) : undefined
}

/** Preconditions tried before a function no one could call, at most (the probe tries as many). */
export const MAX_CHAIN_FLAGS = 8

/**
 * Preconditions of chained powers for `fn`: every other candidate function taking an address,
 * called with holder A in each address argument (`true` for booleans, a small number): flag an
 * account (blacklist it, exclude it from rewards), then act on it.
 */
export function flagCalls(fns: readonly CodeFunction[], fn: CodeFunction): Hex[] {
  if (!/address/.test(fn.arguments)) return []
  const out: Hex[] = []
  for (const other of fns) {
    if (other.selector === fn.selector || !/address/.test(other.arguments) || ALLOWANCE_SELECTORS.has(other.selector.toLowerCase() as Hex)) continue
    const params = paramsOf(other)
    if (!params) continue
    out.push(encode(other, params, { uint: 'small', bool: true }, [PROBE_ADDRESSES.a]))
  }
  return [...new Set(out)].slice(0, MAX_CHAIN_FLAGS)
}

/** Role identifiers a code pushes: its 32-byte constants that are neither text nor a known event topic. */
export function roleConstants(logic: CodeAnalysis): Hex[] {
  const text = (w: Hex) => {
    const bytes = w.slice(2).match(/../g)!.map((b) => parseInt(b, 16))
    return bytes.filter((b) => b >= 0x20 && b < 0x7f).length >= 24
  }
  return logic.constants32.filter((w) => !NOT_ROLES.has(w) && !text(w)).slice(0, MAX_ROLE_CONSTANTS)
}

/**
 * Calldata that appoints the delegate: every candidate function taking an address, with the
 * delegate in every address argument, `true` for booleans and the maximum for numbers (an
 * allowance, a cap); a function that also takes a bytes32 (a role grant) once per role the code
 * knows, and with the zero role (the default admin).
 */
export function grantCalls(fns: CodeFunction[], roles: Hex[]): Hex[] {
  const out: Hex[] = []
  for (const fn of fns) {
    if (!/address/.test(fn.arguments) || ALLOWANCE_SELECTORS.has(fn.selector.toLowerCase() as Hex)) continue
    const params = paramsOf(fn)
    if (!params) continue
    const words: (Hex | undefined)[] = /bytes32/.test(fn.arguments) ? [`0x${'00'.repeat(32)}`, ...roles] : [undefined]
    for (const word of words) out.push(encode(fn, params, { uint: 'max', bool: true, word }, [PROBE_ADDRESSES.delegate]))
  }
  return [...new Set(out)].slice(0, MAX_GRANTS)
}

function ratio(o: Outcome): number | undefined {
  return o.ok && o.sent > 0n ? Number((o.received * 1_000_000_000n) / o.sent) / 1_000_000_000 : undefined
}

function taxChanged(before: Outcome, after: Outcome): { changed: boolean; from?: number; to?: number } {
  const a = ratio(before)
  const b = ratio(after)
  if (a === undefined || b === undefined) return { changed: false }
  // No tax either side (a bonus shown, or ended): nothing anyone pays changed.
  if (a >= 1 - TAX_EPSILON && b >= 1 - TAX_EPSILON) return { changed: false }
  return { changed: Math.abs(a - b) > TAX_EPSILON, from: (1 - a) * 100, to: (1 - b) * 100 }
}

const pct = (x: number | undefined) => (x === undefined ? '?' : `${Math.round(x * 100) / 100}%`)

/** The accounts every owner-power measure reads the balances of, and what each is. */
export interface Watch {
  accounts: Address[]
  /** Accounts that hold tokens the call must not touch: the holders, the pools. */
  bystanders: Set<string>
  /** The token contract itself (its own balance is the owner's to manage). */
  token: Address
  labels: Map<string, string>
  /** The token's absolute rounding floor in raw units (`dustFloor`): changes at or below it are no effect. */
  dust: bigint
}

/** Accounts named in the token's storage or code that a watch list reads, at most. */
export const MAX_NAMED_ACCOUNTS = 16
/** Holders of record (the largest in the holder index) that a watch list reads, at most. */
export const MAX_KNOWN_HOLDERS = 32

/**
 * The watched accounts: holders A and B, the fresh account, the token itself, every pool, the
 * burn addresses, every candidate and the delegate, and the accounts the token names in its
 * storage or its code (fee wallets, a minter: where a call may credit tokens it did not mint in
 * the open). Balances of all of them are read before any trade of each measure, so that supply is
 * checked against what they hold: a mint that writes a balance without raising the supply shows
 * as balances rising beyond what others lost. The token's largest holders of record (from its
 * Transfer logs) are watched as bystanders too: a call that walks a list of holders kept in the
 * token's own storage (which the test holders, given their balances by override, are not on) takes
 * from them, not from the test holders.
 */
export function watchList(
  token: Address,
  pools: Address[],
  burn: Address[],
  candidates: PowerCandidate[],
  named: Address[] = [],
  holders: Address[] = [],
  /** The token's decimals (its absolute rounding floor); unknown, the relative floor only. */
  decimals?: number,
): Watch {
  const labels = new Map<string, string>()
  const accounts: Address[] = []
  const add = (a: Address, label: string) => {
    if (labels.has(a.toLowerCase())) return
    labels.set(a.toLowerCase(), label)
    accounts.push(a)
  }
  add(PROBE_ADDRESSES.a, 'a holder')
  add(PROBE_ADDRESSES.b, 'a bystander holder')
  add(PROBE_ADDRESSES.f, 'a fresh account')
  add(token, 'the token contract')
  pools.forEach((p) => add(p, `the pool ${p}`))
  burn.forEach((b) => add(b, `the burn address ${b}`))
  candidates.forEach((c) => add(c.address, `${c.address} (${c.source})`))
  add(PROBE_ADDRESSES.delegate, 'the appointed account')
  named.slice(0, MAX_NAMED_ACCOUNTS).forEach((a) => add(a, `${a} (named by the token)`))
  const ofRecord = holders.filter((h) => !labels.has(h.toLowerCase()) && !sameAddress(h, ZERO_ADDRESS)).slice(0, MAX_KNOWN_HOLDERS)
  ofRecord.forEach((a) => add(a, `the holder ${a}`))
  return {
    accounts,
    bystanders: new Set([PROBE_ADDRESSES.a, PROBE_ADDRESSES.b, ...pools, ...ofRecord].map((a) => a.toLowerCase())),
    token,
    labels,
    dust: dustFloor(decimals),
  }
}

interface Effect {
  kind: PowerKind
  text: string
}

/** What one owner call did to balances, by conservation: who lost, who gained, and what no one paid for. */
export interface BalanceEffect {
  /** Tokens that appeared in watched balances (or in the supply) beyond what watched balances lost. */
  minted: bigint
  /** Credits beyond the watched debits of a call that takes from holders: taken from accounts not watched. */
  unwatched: bigint
  supplyDelta: bigint
  /** Bystanders (holders, pools) that lost tokens they never sent. */
  taken: { label: string; amount: bigint }[]
  /** Bystanders whose balance rose with nobody paying for it (set arbitrarily). */
  raised: { label: string; amount: bigint }[]
  /** Tokens that left the caller's own balance or the token contract's (airdrops, rescues): no power over others. */
  ownMoves: { label: string; amount: bigint }[]
  /** Accounts whose balance could be read before the call and not after it (unknown, not taken). */
  unread: string[]
  /** Balances shown and not held, that the call brought down to what is held: nothing taken (`shownNotHeld`). */
  revealed: { label: string; amount: bigint }[]
  /** Balances the call showed higher than is held (a display multiplied): nothing created (`shownNotHeld`). */
  inflated: { label: string; amount: bigint }[]
}

/**
 * Watched account `i`'s balance in measure `m`, or undefined when it was not read (the probe says
 * so with a flag: no value, 2^256 - 1 included, means "unknown").
 */
export function balanceRead(m: Measure, i: number): bigint | undefined {
  return i >= 0 && i < 256 && ((m.balancesRead >> BigInt(i)) & 1n) === 1n ? m.balances[i] : undefined
}

export function balanceEffect(watch: Watch, base: Measure, m: Measure, caller: Address): BalanceEffect {
  // A read that failed is unknown: it explains nothing and is never taken for 0.
  const unread: string[] = []
  // Below the token's own rounding a change is no effect (effect-floor.ts).
  const supplyDelta = base.supplyRead && m.supplyRead && !isDust(base.supply, m.supply, watch.dust) ? m.supply - base.supply : 0n
  let credits = 0n
  let debits = 0n
  const taken: BalanceEffect['taken'] = []
  const raisedRaw: BalanceEffect['raised'] = []
  const ownMoves: BalanceEffect['ownMoves'] = []
  const fell: { index: number; label: string; amount: bigint }[] = []
  const inflated: BalanceEffect['inflated'] = []
  watch.accounts.forEach((a, i) => {
    const before = balanceRead(base, i)
    const after = balanceRead(m, i)
    if (before === undefined || after === undefined) {
      if (after === undefined && before !== undefined) unread.push(watch.labels.get(a.toLowerCase()) ?? a)
      return
    }
    if (isDust(before, after, watch.dust)) return
    const d = after - before
    const key = a.toLowerCase()
    const label = watch.labels.get(key) ?? a
    // A rise the account cannot send (it sends what it held, not one unit more) is a display: no credit.
    if (d > 0n && shownNotHeld(i, m)) {
      inflated.push({ label, amount: d })
      return
    }
    if (d > 0n) {
      credits += d
      if (watch.bystanders.has(key)) raisedRaw.push({ label, amount: d })
    } else {
      debits -= d
      if (sameAddress(a, caller) || sameAddress(a, watch.token)) ownMoves.push({ label, amount: -d })
      else if (watch.bystanders.has(key)) fell.push({ index: i, label, amount: -d })
    }
  })
  // A fall with nothing moving (no watched account rose, the supply stayed) is taken only if the
  // balance shown before was held: a balance shown and not held, revealed, takes nothing.
  const revealed: BalanceEffect['revealed'] = []
  for (const f of fell) (credits === 0n && supplyDelta === 0n && shownNotHeld(f.index, m) ? revealed : taken).push({ label: f.label, amount: f.amount })
  // Burned tokens leave the supply: what the watched accounts lost to a burn is explained.
  const explained = debits + (supplyDelta > 0n ? supplyDelta : 0n)
  const minted = supplyDelta > 0n ? supplyDelta + (credits > explained ? credits - explained : 0n) : credits > debits ? credits - debits : 0n
  // A bystander's rise nobody paid for is its balance set at will (a debit elsewhere explains it otherwise).
  const raised = credits > explained ? raisedRaw : []
  // A call that takes from holders who never sent (the supply unmoved) is taking, not minting:
  // credits beyond the watched debits came from holders the watch list does not read.
  // (What no watched account lost, below the token's rounding, is its rounding: nothing more taken.)
  if (supplyDelta === 0n && taken.length > 0) return { minted: 0n, unwatched: isDust(0n, minted, watch.dust) ? 0n : minted, supplyDelta, taken, raised, ownMoves, unread, revealed, inflated }
  return { minted, unwatched: 0n, supplyDelta, taken, raised, ownMoves, unread, revealed, inflated }
}

/**
 * Whether the balance watched account `index` was shown on one side of the call was not held. For a
 * fall: before the call it could not send one unit more than it is shown after it, and after it
 * sends the whole of what it is shown. For a rise: right after the call it sends the whole of what
 * it was shown before, and not one unit more. Measured by the probe for every watched account it
 * can act for.
 */
export function shownNotHeld(index: number, m: Measure): boolean {
  return index < 256 && ((m.notHeld >> BigInt(index)) & 1n) === 1n
}

/** Accounts named one by one in an effect's text; the rest are counted, with what they add up to. */
const LISTED_ACCOUNTS = 5

/** `list` in words, its first `LISTED_ACCOUNTS` one by one and the rest counted and summed. */
function listed(list: readonly { label: string; amount: bigint }[], one: (x: { label: string; amount: bigint }) => string, rest: (n: number, sum: bigint) => string): string {
  const shown = list.slice(0, LISTED_ACCOUNTS).map(one)
  const more = list.slice(LISTED_ACCOUNTS)
  if (more.length > 0) shown.push(rest(more.length, more.reduce((t, x) => t + x.amount, 0n)))
  return shown.join(', ')
}

const units = (list: { label: string; amount: bigint }[]) =>
  listed(list, (x) => `${x.amount} (raw units) from ${x.label}`, (n, sum) => `${sum} (raw units) from ${n} more watched account(s)`)

/** What one successful owner call changed, compared with the measure it starts from. */
export function effectsOf(watch: Watch, base: Measure, m: Measure, caller: Address, funded: boolean, withPool: boolean): Effect[] {
  const out: Effect[] = []
  const b = balanceEffect(watch, base, m, caller)
  if (b.minted > 0n) {
    out.push({
      kind: 'mint',
      text: b.supplyDelta > 0n ? `raised the total supply by ${b.supplyDelta} (raw units)` : `created ${b.minted} (raw units) in balances without raising the total supply`,
    })
  }
  if (b.taken.length > 0) {
    const more = b.unwatched > 0n ? ` (and ${b.unwatched} raw units more, from holders not watched)` : ''
    out.push({ kind: 'changeBalance', text: `took ${units(b.taken)}, which never sent or approved them${more}` })
  }
  else if (b.raised.length > 0) out.push({ kind: 'changeBalance', text: `set the balance of ${b.raised.map((x) => x.label).join(', ')} at will (raised by ${b.raised.map((x) => x.amount).join(', ')} raw units, paid by no one)` })
  if (b.ownMoves.length > 0 && b.taken.length === 0) out.push({ kind: 'ownMove', text: `moved ${units(b.ownMoves)}` })
  if (b.revealed.length > 0 && b.taken.length === 0) {
    out.push({
      kind: 'ownMove',
      text: `lowered the balance shown of ${listed(b.revealed, (x) => `${x.label} by ${x.amount} raw units`, (n, sum) => `${n} more watched account(s) by ${sum} raw units`)} with nothing moving, a balance shown and not held: before the call it could not send one unit more than it is shown after it, and after it sends all it is shown (nothing taken)`,
    })
  }
  if (b.inflated.length > 0) {
    out.push({
      kind: 'ownMove',
      text: `raised the balance shown of ${listed(b.inflated, (x) => `${x.label} by ${x.amount} raw units`, (n, sum) => `${n} more watched account(s) by ${sum} raw units`)} with nothing moving, a balance shown and not held: after the call it sends all it was shown before and not one unit more (a display: nothing created, nothing taken)`,
    })
  }
  const pulled = pullEffect(watch, base, m)
  if (pulled) out.push(pulled)
  if (!funded) return out

  // A holder the call emptied has nothing to send: its failures say nothing about being blocked.
  // A holder whose balance shown the call raised and that does not hold it asks, in each trade, for
  // a share of what it is shown: its failures and its taxes measure the display, not a power.
  const notJudged = (who: Address) => {
    const i = watch.accounts.findIndex((x) => sameAddress(x, who))
    const before = balanceRead(base, i)
    const after = balanceRead(m, i)
    return i >= 0 && before !== undefined && ((before > 0n && after === 0n) || (after !== undefined && after > before && shownNotHeld(i, m)))
  }
  const bNotJudged = notJudged(PROBE_ADDRESSES.b)
  const bBlocked = !bNotJudged && ((base.bTransfer.ok && !m.bTransfer.ok) || (withPool && base.bSell.ok && !m.bSell.ok))
  const unreadNote = b.unread.length > 0 ? `; after it, the balances of ${b.unread.length} watched account(s) could not be read (unknown, not counted as taken)` : ''
  // Sales alone failing (transfers between holders still going) is said as such: a pool's hook stops swaps, not transfers.
  const salesOnly = bBlocked && base.bTransfer.ok && m.bTransfer.ok
  if (bBlocked) out.push({ kind: 'pause', text: `${salesOnly ? 'stopped the sales into the pool of a holder it was not given (its transfers still went through)' : 'stopped transfers of a holder it was not given'}${unreadNote}` })
  const bTransfer = bNotJudged ? { changed: false } : taxChanged(base.bTransfer, m.bTransfer)
  const bSell = withPool && !bNotJudged ? taxChanged(base.bSell, m.bSell) : { changed: false }
  const bBuy = withPool && !bNotJudged ? taxChanged(base.bBuy, m.bBuy) : { changed: false }
  const bChanged = bTransfer.changed || bSell.changed || bBuy.changed
  if (bChanged) {
    const which = bSell.changed ? ['sell', bSell] : bBuy.changed ? ['buy', bBuy] : ['transfer', bTransfer]
    const fig = which[1] as { from?: number; to?: number }
    out.push({ kind: 'feeAll', text: `changed everyone's ${which[0]} tax from ${pct(fig.from)} to ${pct(fig.to)}` })
  }
  // A large buy that flips while small trades are unchanged: a maximum transaction or wallet moved.
  if (withPool && !bBlocked && !bChanged && base.bBigBuy.ok !== m.bBigBuy.ok) {
    out.push({ kind: 'limit', text: m.bBigBuy.ok ? 'lifted a maximum transaction or wallet (a large buy that failed now works)' : 'lowered a maximum transaction or wallet (a large buy that worked now fails)' })
  }
  const aNotJudged = notJudged(PROBE_ADDRESSES.a)
  const aBlocked = !aNotJudged && ((base.aTransfer.ok && !m.aTransfer.ok) || (withPool && base.aSell.ok && !m.aSell.ok))
  const aTransfer = aNotJudged ? { changed: false } : taxChanged(base.aTransfer, m.aTransfer)
  const aSell = withPool && !aNotJudged ? taxChanged(base.aSell, m.aSell) : { changed: false }
  if ((aBlocked || aTransfer.changed || aSell.changed) && !bBlocked && !bChanged) {
    const text = aBlocked
      ? 'blocked one address from transferring or selling'
      : aSell.changed
        ? `changed one address's sell tax from ${pct(aSell.from)} to ${pct(aSell.to)}`
        : `changed one address's transfer tax from ${pct(aTransfer.from)} to ${pct(aTransfer.to)}`
    out.push({ kind: 'feePersonal', text })
    if (aBlocked) out.push({ kind: 'blacklist', text: 'stopped the address it was given from transferring or selling, while others still could' })
  }
  // The named address now fares better than everyone else: a lower tax, or trading where others cannot.
  const aFreed = (!base.aTransfer.ok && m.aTransfer.ok && !m.bTransfer.ok) || (withPool && !base.aSell.ok && m.aSell.ok && !m.bSell.ok)
  const aRelieved = (aSell.changed && (aSell.to ?? 0) < (aSell.from ?? 0)) || (aTransfer.changed && (aTransfer.to ?? 0) < (aTransfer.from ?? 0))
  if ((aFreed || aRelieved) && !bChanged) {
    out.push({
      kind: 'whitelist',
      text: aFreed ? 'let the address it was given trade while others still could not' : "lowered the tax of the address it was given, not everyone's",
    })
  }
  return out
}

/**
 * An allowance over a test holder's tokens that the call granted (the holder never approved
 * anyone) and the transferFrom it enabled: the spender took the holder's tokens.
 */
function pullEffect(watch: Watch, base: Measure, m: Measure): Effect | undefined {
  if (!m.pullSpender || sameAddress(m.pullSpender, ZERO_ADDRESS) || !m.pull.ok || m.pull.received === 0n) return undefined
  const before = base.pullSpender && sameAddress(base.pullSpender, m.pullSpender) && sameAddress(base.pullHolder, m.pullHolder) ? base.pullAllowance : 0n
  if (m.pullAllowance <= before) return undefined
  const label = (a: Address) => watch.labels.get(a.toLowerCase()) ?? a
  return {
    kind: 'changeBalance',
    text: `granted ${label(m.pullSpender)} an allowance of ${m.pullAllowance} (raw units) over the tokens of ${label(m.pullHolder)}, which never approved it; the spender then took ${m.pull.received} (raw units) with transferFrom`,
  }
}

/** Highest taxes a holder not named was measured to pay after any variant, in percent ("stopped": a sale failed). */
interface Reach {
  buy: number
  sell: number
  transfer: number
  sellsStopped: boolean
}

function reachOf(attempts: readonly { m: Measure }[], base: Measure, withPool: boolean): Reach {
  const r: Reach = { buy: 0, sell: 0, transfer: 0, sellsStopped: false }
  const tax = (o: Outcome) => {
    const x = ratio(o)
    return x === undefined ? undefined : (1 - x) * 100
  }
  for (const { m } of attempts) {
    r.transfer = Math.max(r.transfer, tax(m.bTransfer) ?? 0)
    if (!withPool) continue
    r.buy = Math.max(r.buy, tax(m.bBuy) ?? 0)
    r.sell = Math.max(r.sell, tax(m.bSell) ?? 0)
    if (base.bSell.ok && !m.bSell.ok) r.sellsStopped = true
  }
  return r
}

/**
 * Attempts the probe could not finish (short of gas, or failed in the probe itself): not a call
 * the token refused, so they leave the function undetermined.
 */
export function unmeasuredAttempts(r: PowerResult): PowerResult['attempts'][number][] {
  return [...r.attempts, ...r.delegateAttempts].filter((a) => !a.called && a.err !== '0x' && isProbeReason(decodeRevert(a.err)))
}

/** The label of a function in evidence: its known signature, or its selector and argument types. */
export function labelOf(fn: CodeFunction): string {
  const signature = signatureOf(fn.selector)
  return signature ? `${signature} [${fn.selector}]` : `function ${fn.selector}(${fn.arguments})`
}

/** Whether a variant's label names one of the token's pools (or a pair it records as its own). */
const isPoolLabel = (label: string) => label.startsWith('the pool ') || label.startsWith("the token's own pair ")

/** Whether, after the call, a holder it was not given can no longer sell into the pool but still transfers to another holder. */
function stopsSalesOnly(base: Measure, m: Measure, traded: boolean): boolean {
  return traded && base.bSell.ok && !m.bSell.ok && base.bTransfer.ok && m.bTransfer.ok
}

/** Findings of one caller's attempts on one function, against the measure they start from. */
function findingsOf(
  fn: CodeFunction,
  candidate: PowerCandidate,
  attempts: readonly { m: Measure; raisesAgain?: boolean; variant?: bigint }[],
  base: Measure,
  watch: Watch,
  funded: boolean,
  withPool: boolean,
  via: string,
  appointedBy: PowerCandidate | undefined,
  /** The account each variant names beside the test holders ('' for none), by variant index. */
  labels: readonly string[] = [],
  /** Which address argument names that account, by variant index (absent: the first). */
  positions: readonly (number | undefined)[] = [],
): PowerFinding[] {
  if (attempts.length === 0) return []
  const findings: PowerFinding[] = []
  const signature = signatureOf(fn.selector)
  const hasUint = /int/.test(fn.arguments)
  const labelOfAttempt = (i: number) => labels[Number(attempts[i].variant ?? -1n)] ?? ''
  // A variant that names one of the token's own accounts (its pool, itself, a holder of record) is
  // judged on balances only: minting into the pool, or blocking it, changes what every trade
  // measures without being a tax or a pause of holders it was not given. The account refusing the
  // native coin is judged on trades: a fee wallet set to it stops sales. A variant naming the pool
  // that moved no balance, after which holders' sales into it fail while transfers between holders still go (a list of
  // recipients, a gated pair, given the pool) stops every sale, unless the same function given a
  // holder blacklists that holder (then it is the blacklist, reported as such).
  const measured = attempts.map((a) => effectsOf(watch, base, a.m, candidate.address, funded, withPool))
  const listsHolders = measured.some((l, i) => !labelOfAttempt(i) && l.some((x) => x.kind === 'blacklist'))
  const effects = measured.map((all, i) => {
    const label = labelOfAttempt(i)
    if (!label || label === REJECTER_LABEL) return all
    const kept = all.filter((e) => BALANCE_KINDS.has(e.kind))
    if (kept.length === 0 && isPoolLabel(label) && !listsHolders && stopsSalesOnly(base, attempts[i].m, funded && withPool)) {
      kept.push({ kind: 'pause', text: "made every holder's sale into the pool fail, while transfers between holders still went through" })
    }
    return kept
  })
  const reach = reachOf(attempts.filter((_, i) => !labelOfAttempt(i) || labelOfAttempt(i) === REJECTER_LABEL), base, withPool)
  // The variants that name only the test holders: a numeric setter's values are judged on them.
  const plain = effects.filter((_, i) => !labelOfAttempt(i))
  const some = (k: PowerKind) => plain.some((l) => l.some((x) => x.kind === k))
  const every = (k: PowerKind) => plain.every((l) => l.some((x) => x.kind === k))
  // A numeric setter that blocks a holder's sales at some values only: taxes that reach 100 % are a
  // fee setter; taxes unchanged, a limit that can be set so low that no one sells.
  const blocksAtSome = hasUint && some('pause') && !every('pause')
  /** The account named by the variant that first showed an effect of this kind, when it was not a test holder. */
  const given = (k: PowerKind): string => {
    const i = effects.findIndex((l) => l.some((x) => x.kind === k))
    if (i < 0 || effects.some((l, j) => !labelOfAttempt(j) && l.some((x) => x.kind === k))) return ''
    const position = positions[Number(attempts[i].variant ?? -1n)]
    return ` (given ${labelOfAttempt(i)} as its ${position ? `${ORDINALS[position]} ` : ''}address argument)`
  }
  const feeSetter = some('feeAll')
  const extra: Effect[] = []
  if (blocksAtSome && !feeSetter) extra.push({ kind: 'limit', text: 'changes how much a holder may trade: at some values a holder it was not given can no longer sell or transfer at all' })
  const seen = new Set<PowerKind>()
  /** Evidence that the call can stop every sale (a tax at 99 % or more, sales failing, a limit at nothing). */
  const stops: string[] = []
  for (const e of [...effects.flat(), ...extra]) {
    if (seen.has(e.kind)) continue
    if (e.kind === 'pause' && blocksAtSome) continue
    seen.add(e.kind)
    let text = `${e.text}${given(e.kind)}`
    let tier: PowerFinding['tier']
    if (e.kind === 'feeAll') {
      const stopped = blocksAtSome && reach.sellsStopped
      const sell = stopped ? 100 : reach.sell
      text = `${e.text}; at its extremes a holder's buy tax reaches ${pct(reach.buy)}, sell tax ${stopped ? '100% (sales fail)' : pct(reach.sell)}, transfer tax ${pct(reach.transfer)}`
      if (sell >= CONFISCATORY_TAX_PERCENT) tier = 'Critical'
      findings.push({ kind: e.kind, candidate, appointedBy, selector: fn.selector, signature, evidence: `${via}${labelOf(fn)} ${text}`, tier, reach: { ...reach, sell } })
      // A tax that reaches 99 % or sales that fail stop trading, whatever the call is named.
      if (stopped || sell >= STOPPING_TAX_PERCENT) stops.push(`${via}${labelOf(fn)} ${stopped ? 'can make every sale fail' : `can push the sell tax to ${pct(sell)}`}: trading stopped in effect (${text})`)
      continue
    }
    if (e.kind === 'mint') {
      // A fixed emission that works once is still a mint: its amount, and that it cannot be repeated.
      const minting = attempts.filter((_, i) => effects[i].some((x) => x.kind === 'mint'))
      const raisedSupply = minting.every((a) => a.m.supplyRead && base.supplyRead && a.m.supply > base.supply)
      if (minting.length > 0 && raisedSupply && minting.every((a) => a.raisesAgain === false && a.m.supply === minting[0].m.supply)) {
        text = `${e.text}, a fixed amount that can be created once (the same call made again created nothing more)`
      }
    }
    if (e.kind === 'limit' && reach.sellsStopped && blocksAtSome) {
      text = `${e.text}; at its smallest a holder cannot sell even a tenth of its balance`
      tier = 'Critical'
      stops.push(`${via}${labelOf(fn)} can be set so low that every sale fails: trading stopped in effect (${text})`)
    }
    findings.push({ kind: e.kind, candidate, appointedBy, selector: fn.selector, signature, evidence: `${via}${labelOf(fn)} ${text}`, tier })
  }
  if (stops.length > 0 && !seen.has('pause')) findings.push({ kind: 'pause', candidate, appointedBy, selector: fn.selector, signature, evidence: stops[0] })
  return findings
}

/** The account privileged calls appoint in two-step powers, as findings name it. */
const DELEGATE: PowerCandidate = { address: PROBE_ADDRESSES.delegate, source: 'an account a privileged call appointed' }

/** Reads the findings of one function's simulation: each candidate's calls, then the appointed account's. */
export function interpretPowers(
  fn: CodeFunction,
  candidates: PowerCandidate[],
  r: PowerResult,
  withPool: boolean,
  watch: Watch,
  grants: Hex[],
  /** The account each variant names beside the test holders ('' for none), by variant index. */
  labels: readonly string[] = [],
  /** The preconditions passed to the probe (`flagCalls`). */
  flags: readonly Hex[] = [],
  /** Which address argument names the labelled account, by variant index (absent: the first). */
  positions: readonly (number | undefined)[] = [],
): PowerFinding[] {
  const findings: PowerFinding[] = []
  for (const candidate of candidates) {
    const attempts = r.attempts.filter((a) => sameAddress(a.candidate, candidate.address) && a.called)
    findings.push(...findingsOf(fn, candidate, attempts, r.baseline, watch, r.funded, withPool, `as ${candidate.address} (${candidate.source}), `, undefined, labels, positions))
  }
  const flag = r.chained ? flags[Number(r.chainFlag)] : undefined
  const chainBy = r.chained ? candidates.find((c) => sameAddress(c.address, r.chainBy)) : undefined
  if (flag && chainBy && r.chainMeasured) {
    const selector = flag.slice(0, 10) as Hex
    const flagName = signatureOf(selector) || `function ${selector}`
    const via = `only through a chain (as ${chainBy.address} (${chainBy.source}): first ${flagName} naming the holder, then a trade by another holder, then this call): `
    findings.push(...findingsOf(fn, chainBy, r.chainAttempts.filter((a) => a.called), r.chainBaseline, watch, r.funded, withPool, via, undefined, labels, positions))
  }
  if (r.twoStep && r.grantMeasured && r.grantsMade.length > 0) {
    const made = r.grantsMade.map((g, i) => ({ calldata: grants[Number(g)], by: candidates.find((c) => sameAddress(c.address, r.grantors[i])) }))
    const first = made.find((m) => m.by)?.by
    const steps = made.map((m) => `${m.by ? `${m.by.address} (${m.by.source})` : 'a candidate'} called ${signatureOf(m.calldata.slice(0, 10) as Hex) || m.calldata.slice(0, 10)} naming a fresh account`).join('; ')
    const attempts = r.delegateAttempts.filter((a) => a.called)
    const count = made.length + 1
    findings.push(...findingsOf(fn, DELEGATE, attempts, r.grantBaseline, watch, r.funded, withPool, `in ${count === 2 ? 'two' : count === 3 ? 'three' : count} steps (${steps}; then that account called it): `, first, labels, positions))
  }
  return findings
}

/**
 * The accounts an owner-power experiment acts for: the test holders, the fresh account (an
 * allowance a call grants it over a holder's tokens is then used), the appointed account and the
 * privileged candidates.
 */
export function powerActors(candidates: readonly PowerCandidate[]): Address[] {
  return [PROBE_ADDRESSES.a, PROBE_ADDRESSES.b, PROBE_ADDRESSES.f, PROBE_ADDRESSES.delegate, ...candidates.map((c) => c.address)]
}

/**
 * Measures owner powers: every candidate function is called as every candidate account, with
 * argument variants up to their extremes, each from the same funded state, and what changed
 * (supply against watched balances, a holder's balance, transfers, taxes, limits) is compared with
 * a baseline. A function no candidate can call is tried in two steps: first every call that may
 * appoint an account (a setter taking an address, a role grant), then that account calls it. One
 * `eth_call` per function, all in one round trip.
 */
export async function collectPowers(
  ctx: CollectContext,
  d: Discovery,
  logic: CodeAnalysis | undefined,
  candidates: PowerCandidate[],
  pools: PoolFact[],
  block: Hex,
  /** The token's largest holders of record, watched as bystanders. */
  holders: Address[] = [],
  /** The plausible accounts of the token's first storage slots. */
  slotAccounts: readonly SlotAccount[] = [],
  /** The pairs the token records as its own (getters, storage, AMM-pair mappings), listed or not. */
  ownPairs: readonly Address[] = [],
  /**
   * The contract whose functions are tried, when not the token: one its pools' trades run (a V4
   * pool's hook), `logic` being its code; its effects are measured on the token's holders and pools
   * all the same, and its findings say which contract they were found on.
   */
  target?: PoolContract,
): Promise<PowersFact> {
  const base: PowersFact = {
    status: 'not-tested',
    reason: '',
    candidates,
    functionsTried: [],
    functionsFailed: [],
    findings: [],
    funded: false,
    withPool: false,
  }
  if (!logic) return { ...base, reason: 'the logic contract could not be read' }
  if (ctx.rpc.capabilities?.stateOverride === 'no') return { ...base, reason: NO_OVERRIDE_REASON }
  const fns = candidateFunctions(logic)
  if (candidates.length === 0) {
    return { ...base, status: 'tested', reason: 'no account holds privileges: owner renounced and no privileged address found in storage' }
  }
  if (fns.length === 0) return { ...base, status: 'tested', reason: target ? 'it has no state-changing function' : 'the contract has no state-changing function beyond standard ERC-20 and ownership' }
  const pool = pools[0]
  const route = pool ? quoteRoute(ctx, d, pool.quote) : undefined
  const usablePool = pool && route ? pool : undefined
  const actors = powerActors(candidates)
  const donors = candidates.map((c) => c.address)
  const named = [...slotAccounts.map((x) => x.address), ...logic.addresses].filter((a) => !sameAddress(a, ctx.token))
  const watch = watchList(ctx.token, pools.map((p) => p.address), ctx.chain.burnAddresses, candidates, named, holders, d.basics.decimals)
  const grants = grantCalls(fns, roleConstants(logic))
  const namedLabels = [
    ...slotAccounts.map((x) => ({ address: x.address, label: `${x.address} (${slotLabel(x)})` })),
    ...logic.addresses.map((a) => ({ address: a, label: `${a} (a constant in its code)` })),
    ...holders.slice(0, 2).map((a) => ({ address: a, label: `the holder ${a}` })),
  ].filter((x) => !sameAddress(x.address, ctx.token))
  const pairLabels = ownPairs.map((a) => ({ address: a, label: `the token's own pair ${a}` }))
  const argumentList = argumentAccounts(ctx.token, pools.map((p) => p.address), candidates, [...pairLabels, ...namedLabels])
  const slot = d.selfBalanceSlot
  const mapping = 'slot' in slot ? slot.mapping : undefined
  const mappingWhy = 'why' in slot ? slot.why : 'its balances are not kept in a plain mapping'
  const setters = fns.flatMap((fn) => {
    const setter = searchableSetter(fn)
    return setter ? [{ fn, setter }] : []
  })
  let eventsUnread = ''
  let funded = false
  const askedAgain: Hex[] = []
  const results = await Promise.all(
    fns.map(async (fn) => {
      const variants = functionVariants(fn, argumentList)
      const flags = flagCalls(fns, fn)
      const params = {
        token: ctx.token,
        weth: ctx.chain.wrappedNative,
        pool: usablePool ? probePool(ctx, usablePool) : undefined,
        route: route ?? NO_ROUTE,
        candidates: candidates.map((c) => c.address),
        donors,
        watch: watch.accounts,
        variants: variants.map((v) => v.data),
        grants,
        flags,
        ...(target ? { target: target.address } : {}),
      }
      // A numeric setter is also searched to its reach (beside its siblings at their extremes).
      const setter = usablePool ? searchableSetter(fn) : undefined
      const siblings = setter ? setters.filter((x) => x.fn !== fn).slice(0, MAX_SIBLINGS).map((x) => x.setter) : []
      const search = setter
        ? callProbe(ctx.rpc, { what: 'fee reach', data: encodeReach(params, setter, siblings, SEARCH_GRID), gas: ctx.gasCap, block, actors, state: REJECTER_STATE, pool: params.pool }).then(
            (raw) => decodeProbe('fee reach', raw, decodeReach),
            (error: Error) => {
              ctx.log.warn({ chainId: ctx.chain.chainId, token: ctx.token, selector: fn.selector, err: error.message }, 'fee reach search failed')
              return undefined
            },
          )
        : undefined
      // The traced replay goes out in the same tick as the isolated experiments: same round trip.
      // Awaited together, so that a failure of one never leaves the other's unhandled.
      const [raw, replay, reach] = await Promise.all([
        callProbe(ctx.rpc, { what: 'owner-power', data: encodePowers(params), gas: ctx.gasCap, block, actors, state: REJECTER_STATE, pool: params.pool }),
        traceReplay(ctx, encodePowersReplay(params), actors, block, mapping, mappingWhy, watch.accounts),
        search,
      ])
      const first = decodeProbe('owner-power', raw, decodePowers)
      const r = await askHoldersOfRecord(ctx, watch, first, (extra) => {
        askedAgain.push(fn.selector)
        return callProbe(ctx.rpc, { what: 'owner-power (holders of record acting)', data: encodePowers(params), gas: ctx.gasCap, block, actors: [...actors, ...extra], state: REJECTER_STATE, pool: params.pool }).then((x) =>
          decodeProbe('owner-power (holders of record acting)', x, decodePowers),
        )
      })
      const unmeasured = unmeasuredAttempts(r)
      assertGasNotCapped('owner-power', ctx.gasCap, r.startGas, !r.measured || unmeasured.some((a) => isStarved(a.err)))
      funded ||= r.funded
      const read = reach && r.measured ? readReach(reach, candidates, watch) : undefined
      const findings = r.measured ? withReach(interpretPowers(fn, candidates, r, !!usablePool, watch, grants, variants.map((v) => v.label), flags, variants.map((v) => v.argument)), fn, read) : []
      // Events matter only where a call went through: a function nobody could call did nothing.
      const someCalled = r.attempts.some((a) => a.called) || r.delegateAttempts.some((a) => a.called)
      if (!replay.traced) {
        if (someCalled) eventsUnread ||= replay.why
      }
      else if (r.measured) {
        const effect = eventEffect(replay, watch.accounts)
        if (effect.unread && someCalled) eventsUnread ||= effect.unread
        findings.push(...eventFindings(fn, candidates, r, effect))
      }
      // Without a baseline, or with attempts the probe could not finish, the function says nothing.
      // (Chained attempts the probe could not finish leave the chain unmeasured, not the function.)
      if (!r.measured || unmeasured.length > 0 || (r.twoStep && r.grantsMade.length > 0 && !r.grantMeasured)) {
        const why = !r.measured ? 'the baseline could not be measured' : unmeasured[0] ? decodeRevert(unmeasured[0].err) : 'the two-step baseline could not be measured'
        ctx.log.warn({ chainId: ctx.chain.chainId, token: ctx.token, selector: fn.selector, why }, 'owner-power simulation incomplete')
        return { fn, ok: false as const, findings }
      }
      return { fn, ok: true as const, findings }
    }),
  )
  const on = (evidence: string) => (target ? `on ${target.label}, ${evidence}` : evidence)
  const findings = results.flatMap((r) => r.findings).map((f) => ({ ...f, evidence: on(f.evidence), ...(target ? { on: target.address } : {}) }))
  return {
    ...base,
    status: 'tested',
    reason: '',
    functionsTried: results.filter((r) => r.ok).map((r) => r.fn.selector),
    functionsFailed: results.filter((r) => !r.ok).map((r) => r.fn.selector),
    findings: findings.filter((f) => f.kind !== 'ownMove'),
    ownMoves: findings.filter((f) => f.kind === 'ownMove').map((f) => f.evidence),
    funded,
    withPool: !!usablePool,
    ...(usablePool ? { measuredPool: usablePool.address } : {}),
    ...(eventsUnread ? { eventsUnread } : {}),
    ...(askedAgain.length > 0 ? { askedAgain } : {}),
  }
}

/**
 * The watched bystanders whose balance shown a call lowered with nothing moving (no watched
 * balance rose, the supply stayed) and that the probe did not find not held, by index into the
 * watch list; empty when the call was refused, the supply moved or some balance rose.
 */
function quietFalls(watch: Watch, base: Measure, at: Attempt): number[] {
  if (!at.called || !base.supplyRead || !at.m.supplyRead || !isDust(base.supply, at.m.supply, watch.dust)) return []
  const fell: number[] = []
  let rose = false
  watch.accounts.forEach((a, i) => {
    const before = balanceRead(base, i)
    const after = balanceRead(at.m, i)
    if (before === undefined || after === undefined || isDust(before, after, watch.dust)) return
    if (after > before) rose = true
    else if (after < before && watch.bystanders.has(a.toLowerCase()) && !shownNotHeld(i, at.m)) fell.push(i)
  })
  return rose ? [] : fell
}

/** Whether watched account `i` is a test holder (A or B): asked in every experiment. */
const isTestHolder = (watch: Watch, i: number) => sameAddress(watch.accounts[i], PROBE_ADDRESSES.a) || sameAddress(watch.accounts[i], PROBE_ADDRESSES.b)

/**
 * Holders of record whose balance shown a call lowered with nothing moving, that the probe could
 * not ask whether they held it: it acts for the test holders only, since an account given code can
 * be treated differently by the token (a sweep that spares contracts). Each attempt's indexes into
 * the watch list.
 */
export function unaskedFalls(watch: Watch, base: Measure, attempts: readonly Attempt[]): Map<number, number[]> {
  const out = new Map<number, number[]>()
  attempts.forEach((at, k) => {
    const fell = quietFalls(watch, base, at).filter((i) => !isTestHolder(watch, i))
    const rose = quietRises(watch, base, at)
    if (fell.length > 0 || rose.length > 0) out.set(k, [...fell, ...rose])
  })
  return out
}

/**
 * The holders of record (pools aside) whose balance shown a call raised with nothing moving, where
 * the test holders' rise was found not held (a display multiplied): the probe could not ask them
 * whether they hold it. Empty when no test holder's rise was found not held (a credit is asked
 * nothing more), when something fell or the supply moved. Indexes into the watch list.
 */
function quietRises(watch: Watch, base: Measure, at: Attempt): number[] {
  if (!at.called || !base.supplyRead || !at.m.supplyRead || !isDust(base.supply, at.m.supply, watch.dust)) return []
  const rose: number[] = []
  let fell = false
  let displayed = false
  watch.accounts.forEach((a, i) => {
    const before = balanceRead(base, i)
    const after = balanceRead(at.m, i)
    if (before === undefined || after === undefined || isDust(before, after, watch.dust)) return
    if (after < before) fell = true
    else if (shownNotHeld(i, at.m)) displayed ||= isTestHolder(watch, i)
    else if (watch.bystanders.has(a.toLowerCase()) && !isTestHolder(watch, i) && !isPoolLabel(watch.labels.get(a.toLowerCase()) ?? '')) rose.push(i)
  })
  return fell || !displayed ? [] : rose
}

/** Whether the call lowered a test holder's balance with nothing moving and the probe found it held (taken). */
function takenFromTestHolder(watch: Watch, base: Measure, at: Attempt): boolean {
  return quietFalls(watch, base, at).some((i) => isTestHolder(watch, i))
}

/**
 * Where a call lowered the balance shown of holders of record with nothing moving (a display
 * balance revealed, or a silent take), the same experiment is made again with those holders acting
 * for themselves (one more round trip, only then, and not when a test holder was found taken from
 * with nothing moving: the function takes already): a fall the second run measures the same, and
 * finds not held, is taken as not held in the first. A token that treats accounts with code
 * differently does not lower theirs the same way in the second run, and their fall stays taken.
 * The same for a call that raised the balance shown of holders of record where the test holders'
 * rise was found not held (a display multiplied): a rise the second run finds not held is no credit.
 */
async function askHoldersOfRecord(
  ctx: CollectContext,
  watch: Watch,
  r: PowerResult,
  again: (holders: Address[]) => Promise<PowerResult>,
): Promise<PowerResult> {
  if (!r.measured) return r
  const sets: [Measure, readonly Attempt[], (x: PowerResult) => readonly Attempt[]][] = [
    [r.baseline, r.attempts, (x) => x.attempts],
    [r.grantBaseline, r.delegateAttempts, (x) => x.delegateAttempts],
    [r.chainBaseline, r.chainAttempts, (x) => x.chainAttempts],
  ]
  // A test holder already found taken from, with nothing moving, settles the function: no second run.
  if (sets.some(([base, attempts]) => attempts.some((at) => takenFromTestHolder(watch, base, at)))) return r
  const falls = sets.map(([base, attempts]) => unaskedFalls(watch, base, attempts))
  const holders = [...new Set(falls.flatMap((f) => [...f.values()].flat()))].map((i) => watch.accounts[i])
  if (holders.length === 0) return r
  let second: PowerResult
  try {
    second = await again(holders)
  } catch (error) {
    ctx.log.warn({ chainId: ctx.chain.chainId, token: ctx.token, err: (error as Error).message }, 'holders of record could not be asked')
    return r
  }
  if (!second.measured) return r
  const merged = sets.map(([, attempts, pick], n) =>
    attempts.map((at, k): Attempt => {
      const fell = falls[n].get(k)
      const twin = pick(second)[k]
      if (!fell || !twin || !twin.called || !sameAddress(twin.candidate, at.candidate) || twin.variant !== at.variant) return at
      let notHeld = at.m.notHeld
      for (const i of fell) if (balanceRead(twin.m, i) !== undefined && balanceRead(twin.m, i) === balanceRead(at.m, i) && shownNotHeld(i, twin.m)) notHeld |= 1n << BigInt(i)
      return notHeld === at.m.notHeld ? at : { ...at, m: { ...at.m, notHeld } }
    }),
  )
  return { ...r, attempts: merged[0], delegateAttempts: merged[1], chainAttempts: merged[2] }
}

/**
 * Findings of a traced replay about accounts only its Transfer events name: tokens created there
 * without the supply showing them (a mint), or taken from there (a balance changed at will). The
 * first candidate that could call the function is named; in two steps, the appointed account.
 */
function eventFindings(fn: CodeFunction, candidates: PowerCandidate[], r: PowerResult, e: EventEffect): PowerFinding[] {
  if (e.minted.length === 0 && e.taken.length === 0) return []
  const caller = candidates.find((c) => r.attempts.some((a) => a.called && sameAddress(a.candidate, c.address)))
  const candidate = caller ?? (r.delegateAttempts.some((a) => a.called) ? DELEGATE : undefined)
  if (!candidate) return []
  const appointedBy = candidate === DELEGATE ? candidates.find((c) => r.grantors.some((g) => sameAddress(g, c.address))) : undefined
  const via = candidate === DELEGATE ? 'in two steps (then the appointed account called it): ' : `as ${candidate.address} (${candidate.source}), `
  const signature = signatureOf(fn.selector)
  const out: PowerFinding[] = []
  if (e.minted.length > 0) {
    const where = e.minted.map((m) => `${m.amount} (raw units) to ${m.account}`).join(', ')
    out.push({ kind: 'mint', candidate, appointedBy, selector: fn.selector, signature, evidence: `${via}${labelOf(fn)} created ${where} without raising the total supply (an account named only in its Transfer events; balance measured in storage)` })
  }
  if (e.taken.length > 0) {
    const from = e.taken.map((t) => `${t.amount} (raw units) from ${t.account}`).join(', ')
    out.push({ kind: 'changeBalance', candidate, appointedBy, selector: fn.selector, signature, evidence: `${via}${labelOf(fn)} took ${from}, which never sent or approved them (an account named only in its Transfer events; balance measured in storage)` })
  }
  return out
}

/**
 * The token's owner powers and those found on the contracts its pools run beside it (a V4 pool's
 * hook), as one fact: their findings side by side (each saying the contract it was found on), the
 * functions tried and failed of all. A contract whose functions were not tried (a proxy whose
 * implementation is not read, code that could not be read) is said in `unmeasuredContracts`:
 * what concerns trading is then unknown, never a "0". One with no one to call its functions adds
 * that to the token's reason where the token has one, and clears it where the token's were tried.
 */
export function mergePowers(
  token: PowersFact,
  others: readonly { contract: PoolContract & { unread?: string }; fact: PowersFact }[],
  /** Powers over those contracts found otherwise (their code replaced): beside their functions'. */
  more: readonly PowerFinding[] = [],
): PowersFact {
  if (others.length === 0 && more.length === 0) return token
  const tested = others.filter((o) => o.fact.status === 'tested')
  const untested = others.filter((o) => o.fact.status !== 'tested')
  const all = [token, ...tested.map((o) => o.fact)]
  const tried = tested.filter((o) => !o.fact.reason)
  const reasons = [token.reason, ...tested.filter((o) => o.fact.reason).map((o) => `on ${o.contract.label}: ${o.fact.reason}`)].filter((r) => r)
  const reason = token.status !== 'tested' ? token.reason : token.reason && tried.length === 0 ? reasons.join('; ') : ''
  const unmeasuredContracts = untested.map((o) => `the functions of ${o.contract.label} were not tried: ${o.contract.unread || o.fact.reason}`).join('; ')
  const candidates: PowerCandidate[] = []
  for (const c of all.flatMap((p) => p.candidates)) if (!candidates.some((x) => sameAddress(x.address, c.address))) candidates.push(c)
  const eventsUnread = all.map((p) => p.eventsUnread).find((x) => x)
  const askedAgain = all.flatMap((p) => p.askedAgain ?? [])
  const ownMoves = all.flatMap((p) => p.ownMoves ?? [])
  const measuredPool = all.map((p) => p.measuredPool).find((x) => x)
  return {
    ...token,
    reason,
    candidates,
    functionsTried: all.flatMap((p) => p.functionsTried),
    functionsFailed: all.flatMap((p) => p.functionsFailed),
    findings: [...all.flatMap((p) => p.findings), ...more],
    funded: all.some((p) => p.funded),
    withPool: all.some((p) => p.withPool),
    ...(ownMoves.length > 0 ? { ownMoves } : {}),
    ...(measuredPool ? { measuredPool } : {}),
    ...(eventsUnread ? { eventsUnread } : {}),
    ...(askedAgain.length > 0 ? { askedAgain } : {}),
    ...(unmeasuredContracts ? { unmeasuredContracts } : {}),
  }
}
