import { getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { analyzeCode, type CodeAnalysis } from '../chain/bytecode.ts'
import { PROXY_SLOTS } from '../chain/proxy.ts'
import { decodeRevert, isProbeReason } from '../chain/revert.ts'
import {
  PROBE_ADDRESSES,
  callProbe,
  decodePresence,
  decodeProbe,
  decodeTrade,
  encodePresence,
  encodeTrade,
  type Outcome,
  type StateOverride,
  type TradeResult,
} from '../chain/probe.ts'
import type { DependencyFact, ExternalCallFact, PoolFact } from '../facts.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import { HIDDEN_OWNER_SLOTS, type Discovery } from './discovery.ts'
import { slotLabel, type SlotAccount } from './slot-accounts.ts'
import { lookupSource } from './source.ts'
import { probePool, quoteRoute } from './trades.ts'

/** Dependencies tried with hostile code in one report (the first the traced transfers called, or the token names). */
export const MAX_DEPENDENCIES = 4

/** Runtime code that reverts whatever it is asked: PUSH1 0 PUSH1 0 REVERT. */
export const REVERTING_CODE: Hex = '0x60006000fd'
/** Runtime code that answers every call with one word of all ones (the largest uint256, an invalid bool): PUSH32 … MSTORE RETURN. */
export const EXTREME_CODE: Hex = `0x7f${'ff'.repeat(32)}60005260206000f3`

/**
 * Where transfers cannot be traced, what the token names that may be a contract it calls: the
 * code (the logic's, behind a proxy) and its first storage slots (the accounts found there), and
 * the accounts that are not candidates (the trade's own path, the probe's actors, the token).
 */
export interface NamedContracts {
  logic: CodeAnalysis | undefined
  slotAccounts: SlotAccount[]
  exclude: Address[]
}

/** A contract to make hostile: the selectors transfers called it with (traced), or how the token names it. */
interface Target {
  address: Address
  selectors: string[]
  named?: string
}

/** An address-shaped 32-byte constant (an immutable address): its first 12 bytes zero, not a small number. */
function constantAddress(word: Hex): Address | undefined {
  const v = BigInt(word)
  return v >= 1n << 120n && v < 1n << 160n ? getAddress(`0x${v.toString(16).padStart(40, '0')}`) : undefined
}

/**
 * The contracts the token names (addresses in its code, PUSH20 or an immutable's PUSH32, and in its
 * first storage slots) that have code, the trade's own contracts and the probe's actors left out:
 * one presence read for the code's addresses (the storage's are already read).
 */
async function namedTargets(ctx: CollectContext, named: NamedContracts, block: Hex): Promise<Target[]> {
  const skip = new Set([ctx.token, ...named.exclude, ...Object.values(PROBE_ADDRESSES)].map((a) => a.toLowerCase()))
  const seen = new Set<string>()
  const fresh = (a: Address) => {
    const key = a.toLowerCase()
    if (skip.has(key) || seen.has(key)) return false
    seen.add(key)
    return true
  }
  const logic = named.logic
  const inCode = [...(logic?.addresses ?? []), ...(logic?.constants32 ?? []).map(constantAddress).filter((a): a is Address => !!a)].filter(fresh)
  const inSlots = named.slotAccounts.filter((a) => (a.codeSize ?? 0n) > 0n && fresh(a.address))
  let sizes: readonly bigint[] = []
  if (inCode.length > 0) {
    const raw = await callProbe(ctx.rpc, { what: 'code reads of the addresses in the token code', data: encodePresence(ctx.token, inCode), gas: ctx.gasCap, block })
    sizes = decodeProbe('code reads of the addresses in the token code', raw, decodePresence).codeSizes
  }
  return [
    ...inCode.filter((_, i) => (sizes[i] ?? 0n) > 0n).map((address): Target => ({ address, selectors: [], named: "in its code" })),
    ...inSlots.map((a): Target => ({ address: a.address, selectors: [], named: `in ${slotLabel(a)}` })),
  ]
}

/**
 * Hostile dependencies: every contract a transfer calls (found by the traced simulation) has its
 * code replaced, by state override, with one that reverts and one that answers extreme values;
 * a buy, a transfer and a sell are made each time and compared with the same trades against the
 * real code. Where the dependency's code or address can change (a proxy, an address the token
 * keeps in storage while it has an owner), what the hostile code did is what its controller can
 * do to holders. One round trip (the simulations, the dependency's code and proxy slots), and
 * beside it the explorer's answer on whether each dependency's source is published.
 *
 * Where the node cannot trace calls, the contracts the token names (`named`: in its code and its
 * first storage slots, with code) are made hostile the same way: a trade one of them stops is the
 * same evidence. Which contracts transfers call is still not known then, so a "0" never rests on
 * them (`unmeasured`).
 */
export async function collectDependencies(
  ctx: CollectContext,
  d: Discovery,
  pool: PoolFact | undefined,
  donors: Address[],
  external: ExternalCallFact,
  block: Hex,
  named?: () => Promise<NamedContracts>,
): Promise<{ dependencies: DependencyFact[]; note: string; unmeasured?: string }> {
  const traced = external.method === 'trace'
  let targets: Target[]
  if (traced) {
    targets = [...new Set(external.calls.map((c) => getAddress(c.to)))]
      .filter((a) => !Object.values(PROBE_ADDRESSES).some((p) => sameAddress(p, a)))
      .map((address) => ({ address, selectors: external.calls.filter((c) => sameAddress(c.to, address)).map((c) => c.selector) }))
    if (targets.length === 0) return { dependencies: [], note: 'transfers call no other contract' }
  } else {
    const untraced = `no traced calls: ${external.note}`
    if (!named || ctx.rpc.capabilities?.stateOverride === 'no') return { dependencies: [], note: untraced, unmeasured: untraced }
    targets = await namedTargets(ctx, await named(), block)
    if (targets.length === 0) return { dependencies: [], note: `${untraced}; the token names no other contract in its code or first storage slots`, unmeasured: untraced }
  }
  const route = pool ? quoteRoute(ctx, d, pool.quote) : undefined
  if (!pool || !route) {
    const note = traced ? 'no pool where the probe could trade: the contracts transfers call were not made hostile' : 'no pool where the probe could trade: the contracts the token names were not made hostile'
    return { dependencies: [], note, unmeasured: note }
  }
  const tried = targets.slice(0, MAX_DEPENDENCIES)
  const data = encodeTrade({ token: ctx.token, weth: ctx.chain.wrappedNative, pool: probePool(ctx, pool), route, donors, sellsOnly: true })
  const actors = [PROBE_ADDRESSES.w1, PROBE_ADDRESSES.w2, PROBE_ADDRESSES.w3, ...donors]
  // Asked beside the simulations, not after them: the explorer is not a round trip of the node's.
  const sources = Promise.all(tried.map((t) => lookupSource(ctx, t.address)))
  const simulate = async (what: string, state?: StateOverride) =>
    decodeProbe(what, await callProbe(ctx.rpc, { what, data, gas: ctx.gasCap, block, actors, state }), decodeTrade)
  const [baseline, ...rest] = await Promise.all([
    simulate('trade (real dependencies)'),
    ...tried.flatMap(({ address: a }) => [
      simulate('trade (a dependency reverting)', { [a]: { code: REVERTING_CODE } }),
      simulate('trade (a dependency answering extreme values)', { [a]: { code: EXTREME_CODE } }),
    ]),
    ...tried.map(async ({ address: a }) => {
      const [code, impl, admin, beacon] = await Promise.all([
        ctx.rpc.request<Hex>('eth_getCode', [a, block]),
        ctx.rpc.request<Hex>('eth_getStorageAt', [a, PROXY_SLOTS.eip1967Implementation, block]),
        ctx.rpc.request<Hex>('eth_getStorageAt', [a, PROXY_SLOTS.eip1967Admin, block]),
        ctx.rpc.request<Hex>('eth_getStorageAt', [a, PROXY_SLOTS.eip1967Beacon, block]),
      ])
      return { code, impl, admin, beacon }
    }),
  ])
  const sims = rest.slice(0, tried.length * 2) as TradeResult[]
  const codes = rest.slice(tried.length * 2) as { code: Hex; impl: Hex; admin: Hex; beacon: Hex }[]
  const owned = !!d.owner.owner && d.owner.owner !== ZERO_ADDRESS
  const source = await sources
  const dependencies = tried.map(({ address, selectors, named: how }, i): DependencyFact => {
    const reverting = harm(baseline, sims[i * 2])
    const extreme = harm(baseline, sims[i * 2 + 1])
    return {
      address,
      selectors,
      ...(how ? { named: how } : {}),
      stops: reverting.stops || extreme.stops,
      changesAmounts: reverting.amounts || extreme.amounts,
      ...control(ctx, d, address, codes[i], owned),
      source: source[i],
    }
  })
  if (!traced) {
    const note = `${tried.length} contract(s) the token names (transfers could not be traced) given reverting and extreme code`
    return { dependencies, note, unmeasured: `no traced calls: ${external.note}` }
  }
  const note = `${tried.length} contract(s) called by transfers given reverting and extreme code`
  return { dependencies, note, ...measuredAll(baseline, targets.length - tried.length) }
}

/**
 * Why the hostile trades do not measure every contract transfers call: none of the trades with
 * the real contracts went through (nothing to compare), or more contracts than are tried.
 */
function measuredAll(baseline: TradeResult, untried: number): { unmeasured?: string } {
  const went = [baseline.buy, baseline.transfer, baseline.sellPart].some((o) => o.ok && o.sent !== 0n)
  if (!went) return { unmeasured: 'no trade with the real contracts went through: what hostile ones would do was not measured' }
  if (untried > 0) return { unmeasured: `${untried} more contract(s) transfers call were not made hostile (at most ${MAX_DEPENDENCIES} are)` }
  return {}
}

/** What hostile code did to trades that work with the real one: stopped them, or changed their amounts. */
function harm(real: TradeResult, hostile: TradeResult): { stops: string; amounts: string } {
  const steps: [string, Outcome, Outcome][] = [
    ['a buy', real.buy, hostile.buy],
    ['a transfer', real.transfer, hostile.transfer],
    ['a sell', real.sellPart, hostile.sellPart],
  ]
  const stopped: string[] = []
  const changed: string[] = []
  for (const [what, r, h] of steps) {
    if (!r.ok || r.sent === 0n) continue
    if (!h.ok) {
      const reason = decodeRevert(h.err)
      if (!isProbeReason(reason)) stopped.push(`${what} fails (${reason})`)
      continue
    }
    if (h.sent === 0n) continue
    const share = (o: Outcome) => Number((o.received * 10_000n) / o.sent) / 100
    if (Math.abs(share(h) - share(r)) > AMOUNT_TOLERANCE_PP) changed.push(`${what} delivers ${share(h)}% instead of ${share(r)}%`)
  }
  if (real.seller !== ZERO_ADDRESS && hostile.seller === ZERO_ADDRESS && stopped.length === 0) stopped.push('no holder could get tokens to sell')
  return { stops: stopped.join('; '), amounts: changed.join('; ') }
}

/** Percentage points by which a hostile dependency must change what a trade delivers to count. */
const AMOUNT_TOLERANCE_PP = 1

/** Who can change what the dependency does: its proxy's admin, or the token's owner through a stored address. */
function control(
  ctx: CollectContext,
  d: Discovery,
  address: Address,
  c: { code: Hex; impl: Hex; admin: Hex; beacon: Hex },
  owned: boolean,
): Pick<DependencyFact, 'upgradeable' | 'repointable' | 'immutable'> {
  const word = (h: Hex) => (h && BigInt(h) !== 0n && BigInt(h) < 1n << 160n ? getAddress(`0x${BigInt(h).toString(16).padStart(40, '0')}`) : undefined)
  const impl = word(c.impl)
  const admin = word(c.admin)
  const beacon = word(c.beacon)
  let upgradeable = ''
  if (beacon) upgradeable = `a beacon proxy: the owner of its beacon ${beacon} can change its code`
  else if (impl) upgradeable = admin ? `an EIP-1967 proxy (implementation ${impl}) its admin ${admin} can upgrade` : `an EIP-1967 proxy (implementation ${impl}) that may be upgraded through its implementation`
  else if (c.code && c.code !== '0x' && analyzeCode(c.code).reachable.selfDestruct) upgradeable = 'its code can self-destruct, after which calls to it succeed and answer nothing'
  let slot: number | undefined
  for (let i = 0; i < HIDDEN_OWNER_SLOTS; i++) {
    const w = d.slots[`0x${i.toString(16)}`]
    if (w && BigInt(w) === BigInt(address)) slot = i
  }
  const inCode = d.code.toLowerCase().includes(address.slice(2).toLowerCase())
  const repointable = slot !== undefined && owned ? `the token keeps it in storage slot ${slot} and has an owner (${d.owner.owner}) who may point it elsewhere` : ''
  const immutable = inCode && slot === undefined ? "its address is written in the token's code" : ''
  return { upgradeable, repointable, immutable }
}

