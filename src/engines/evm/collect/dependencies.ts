import { getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { analyzeCode, type CodeAnalysis, type CodeFunction } from '../chain/bytecode.ts'
import { PROXY_SLOTS, addressFromWord } from '../chain/proxy.ts'
import { decodeRevert, isProbeReason } from '../chain/revert.ts'
import {
  PROBE_ADDRESSES,
  REJECTING_CODE,
  callProbe,
  decodePowers,
  decodePresence,
  decodeProbe,
  decodeTrade,
  encodePowers,
  encodePresence,
  encodeTrade,
  type Measure,
  type Outcome,
  type PowerResult,
  type ProbeRoute,
  type StateOverride,
  type TradeResult,
} from '../chain/probe.ts'
import type { DependencyFact, ExternalCallFact, PoolFact, PowerCandidate } from '../facts.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import { HIDDEN_OWNER_SLOTS, type Discovery } from './discovery.ts'
import { slotLabel, type SlotAccount } from './slot-accounts.ts'
import { lookupSource } from './source.ts'
import { candidateFunctions, labelOf, namingCall, powerActors } from './powers.ts'
import { probePool, quoteRoute } from './trades.ts'

/** Dependencies tried with hostile code in one report (the first the traced transfers called, or the token names). */
export const MAX_DEPENDENCIES = 4

/** Runtime code that reverts whatever it is asked: PUSH1 0 PUSH1 0 REVERT. */
export const REVERTING_CODE: Hex = REJECTING_CODE
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

/**
 * Who may point the token at another contract, and its code: the owner-power experiments'
 * privileged candidates and the logic whose functions they call (known when the owner powers start).
 */
export interface Privileged {
  candidates: PowerCandidate[]
  logic: CodeAnalysis | undefined
}

/** Functions taking an address tried as repointing setters, at most (one simulation each, in one round trip). */
export const MAX_REPOINT_FUNCTIONS = 16

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
 * real code. Where the dependency's code or address can change (a proxy, a privileged call
 * measured pointing the token elsewhere), what the hostile code did is what its controller can
 * do to holders. One round trip (the simulations, the dependency's code and proxy slots), and
 * beside it the explorer's answer on whether each dependency's source is published.
 *
 * Where the node cannot trace calls, the contracts the token names (`named`: in its code and its
 * first storage slots, with code) are made hostile the same way: a trade one of them stops is the
 * same evidence. Which contracts transfers call is still not known then, so a "0" never rests on
 * them (`unmeasured`).
 *
 * Whether an owner can point the token elsewhere is measured, not inferred from where the address
 * is kept (`privileged`, once the owner powers' candidates are known, beside their round trip):
 * see `measureRepoints`.
 */
export async function collectDependencies(
  ctx: CollectContext,
  d: Discovery,
  pool: PoolFact | undefined,
  donors: Address[],
  external: ExternalCallFact,
  block: Hex,
  named?: () => Promise<NamedContracts>,
  privileged?: () => Promise<Privileged>,
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
  const tradedPool = probePool(ctx, pool)
  const data = encodeTrade({ token: ctx.token, weth: ctx.chain.wrappedNative, pool: tradedPool, route, donors, sellsOnly: true })
  const actors = [PROBE_ADDRESSES.w1, PROBE_ADDRESSES.w2, PROBE_ADDRESSES.w3, ...donors]
  // Asked beside the simulations, not after them: the explorer is not a round trip of the node's.
  const sources = Promise.all(tried.map((t) => lookupSource(ctx, t.address)))
  const simulate = async (what: string, state?: StateOverride) =>
    decodeProbe(what, await callProbe(ctx.rpc, { what, data, gas: ctx.gasCap, block, actors, state, pool: tradedPool }), decodeTrade)
  // Sent as soon as the privileged candidates are known: beside the owner powers' round trip.
  // Never rejects: a repoint that could not be measured is said, and the hostile trades still stand.
  const repoints: Promise<Repoints> = privileged
    ? privileged().then(
        (p) =>
          measureRepoints(ctx, p, tried.map((t) => t.address), pool, route, block).catch((error: Error) => ({
            why: `the simulations failed: ${error.message.slice(0, 160)}`,
          })),
        (error: Error) => ({ why: `the privileged accounts could not be read: ${error.message.slice(0, 160)}` }),
      )
    : Promise.resolve({ why: 'the privileged accounts were not given' })
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
  const source = await sources
  const measured = await repoints
  const dependencies = tried.map(({ address, selectors, named: how }, i): DependencyFact => {
    const reverting = harm(baseline, sims[i * 2])
    const extreme = harm(baseline, sims[i * 2 + 1])
    return {
      address,
      selectors,
      ...(how ? { named: how } : {}),
      stops: reverting.stops || extreme.stops,
      changesAmounts: reverting.amounts || extreme.amounts,
      ...control(d, address, codes[i], { reverting: !!(reverting.stops || reverting.amounts), extreme: !!(extreme.stops || extreme.amounts) }, measured),
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

/**
 * Who can change what the dependency does: its proxy's admin, or a privileged account that was
 * measured pointing the token elsewhere (`measureRepoints`: only where the dependency's own
 * reverting code stops trades, `stops`, so that the stop the setter caused is the dependency's).
 * An address kept in the token's first storage slots is said (`repointNote`), never taken alone
 * for a repoint.
 */
function control(
  d: Discovery,
  address: Address,
  c: { code: Hex; impl: Hex; admin: Hex; beacon: Hex },
  /** Whether the dependency's own hostile code (each kind) stopped trades or changed what they deliver. */
  harmful: Record<Hostile, boolean>,
  measured: Repoints,
): Pick<DependencyFact, 'upgradeable' | 'repointable' | 'immutable' | 'repointNote'> {
  const impl = addressFromWord(c.impl)
  const admin = addressFromWord(c.admin)
  const beacon = addressFromWord(c.beacon)
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
  const immutable = inCode && slot === undefined ? "its address is written in the token's code" : ''
  // A setter's hostile contract counts for this dependency only where the dependency's own code of the same kind did harm.
  const found = 'found' in measured ? measured.found.find((r) => sameAddress(r.dependency, address) && harmful[r.kind]) : undefined
  const repointable = found ? found.text : ''
  const kept = slot !== undefined ? `the token keeps its address in storage slot ${slot}` : ''
  let repointNote = ''
  if (!repointable) {
    const why =
      'why' in measured
        ? `whether a privileged account can point the token elsewhere was not measured (${measured.why})`
        : !harmful.reverting && !harmful.extreme
          ? 'its own hostile code changed no trade, so a hostile contract put in its place by a setter was not read as a repoint'
          : measured.tried === 0
            ? 'the token has no function taking an address that a privileged account could call to point it elsewhere'
            : `none of its ${measured.tried} function(s) taking an address, called by the ${measured.callers} privileged account(s), was measured pointing it elsewhere (a reverting contract or one answering extreme values named there changed no trade that naming this one left as it was)`
    repointNote = [kept, why].filter(Boolean).join('; ')
  }
  return { upgradeable, repointable, immutable, repointNote }
}

/** The two hostile contracts a setter is given: one whose code reverts, one answering the largest word. */
type Hostile = 'reverting' | 'extreme'

/** The accounts holding each hostile code in the repoint simulations, in the order their calls are made. */
const HOSTILE: readonly { kind: Hostile; account: Address; code: Hex; what: string }[] = [
  { kind: 'reverting', account: PROBE_ADDRESSES.rejecter, code: REVERTING_CODE, what: 'a reverting contract' },
  { kind: 'extreme', account: PROBE_ADDRESSES.extreme, code: EXTREME_CODE, what: 'a contract answering extreme values' },
]

/** A setter measured pointing the token's dependency elsewhere: what the report says of it, and with which hostile code. */
interface Repoint {
  dependency: Address
  kind: Hostile
  text: string
}

/** What the repoint simulations found, or why they did not run. */
type Repoints = { found: Repoint[]; tried: number; callers: number } | { why: string }

/** `a`, `a and b`, `a, b and c`. */
const inWords = (list: readonly string[]) => (list.length > 1 ? `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}` : (list[0] ?? ''))

/** The trades of a bystander holder (B, never named by the call) an owner-power measure makes. */
function bystanderTrades(m: Measure): [string, Outcome][] {
  return [
    ['buys', m.bBuy],
    ['transfers', m.bTransfer],
    ['sells', m.bSell],
  ]
}

/**
 * Repoints, measured: every function of the token taking an address (the owner-power
 * experiments' candidates) is called by each privileged candidate naming R, a fresh account whose
 * code reverts (the probe's rejecting account, by state override), and, as the control, naming the
 * dependency itself (a repoint to where it already points); each call from the same funded state,
 * then a holder the call did not name buys, transfers and sells (the owner-power experiment's
 * measure). A call after which trades that work in the baseline stop with R and all still work
 * with the dependency named points the token's dependency elsewhere. One simulation per function,
 * all in one round trip.
 */
async function measureRepoints(
  ctx: CollectContext,
  p: Privileged,
  dependencies: Address[],
  pool: PoolFact,
  route: ProbeRoute,
  block: Hex,
): Promise<Repoints> {
  if (!p.logic) return { why: 'the logic contract could not be read' }
  if (p.candidates.length === 0) return { why: 'no account holds privileges' }
  const fns = candidateFunctions(p.logic)
    .map((fn) => ({ fn, calls: [...HOSTILE.map((h) => h.account), ...dependencies].map((a) => namingCall(fn, a)) }))
    .filter((x): x is { fn: CodeFunction; calls: Hex[] } => x.calls.every((c) => !!c))
    .slice(0, MAX_REPOINT_FUNCTIONS)
  if (fns.length === 0) return { found: [], tried: 0, callers: p.candidates.length }
  const candidates = p.candidates.map((c) => c.address)
  const actors = powerActors(p.candidates)
  const state: StateOverride = Object.fromEntries(HOSTILE.map((h) => [h.account, { code: h.code }]))
  const results = await Promise.all(
    fns.map(async ({ fn, calls }) => {
      const traded = probePool(ctx, pool)
      const data = encodePowers({
        token: ctx.token,
        weth: ctx.chain.wrappedNative,
        pool: traded,
        route,
        candidates,
        donors: candidates,
        watch: [],
        variants: calls,
        grants: [],
      })
      const raw = await callProbe(ctx.rpc, { what: 'repoint', data, gas: ctx.gasCap, block, actors, state, pool: traded })
      return { fn, r: decodeProbe('repoint', raw, decodePowers) }
    }),
  )
  const found: Repoint[] = []
  let measured = 0
  for (const { fn, r } of results) {
    const repoint = readRepoint(fn, p.candidates, dependencies, r)
    if (!repoint) continue
    measured++
    for (const x of repoint) if (!found.some((f) => sameAddress(f.dependency, x.dependency))) found.push(x)
  }
  if (measured === 0) return { why: 'no simulation had a funded holder whose trades worked before the call' }
  return { found, tried: measured, callers: p.candidates.length }
}

/**
 * What one function's repoint simulation shows: for each candidate that could call it every way,
 * the trades working in the baseline that naming a hostile contract (reverting, or answering
 * extreme values) stopped (for a reason of the token's, not the probe's) or made deliver another
 * share, while naming the dependency left every one of them working and delivering as before.
 * Undefined when nothing could be measured (no funded holder, or no trade of its working before
 * the call).
 */
export function readRepoint(fn: CodeFunction, candidates: readonly PowerCandidate[], dependencies: readonly Address[], r: PowerResult): Repoint[] | undefined {
  if (!r.measured || !r.funded) return undefined
  const width = dependencies.length + HOSTILE.length
  const working = bystanderTrades(r.baseline).filter(([, o]) => o.ok && o.sent !== 0n)
  if (working.length === 0) return undefined
  const share = (o: Outcome) => Number(o.received) / Number(o.sent)
  const out: Repoint[] = []
  candidates.forEach((candidate, c) => {
    const at = (k: number) => r.attempts[c * width + k]
    HOSTILE.forEach((hostile, h) => {
      const withH = at(h)
      if (!withH?.called) return
      dependencies.forEach((dependency, i) => {
        const withD = at(HOSTILE.length + i)
        if (!withD?.called || out.some((x) => sameAddress(x.dependency, dependency) && x.kind === hostile.kind)) return
        const control = new Map(bystanderTrades(withD.m))
        if (!working.every(([what]) => control.get(what)?.ok)) return
        const stopped: string[] = []
        const changed: string[] = []
        for (const [what, o] of bystanderTrades(withH.m)) {
          const kept = control.get(what)
          if (!kept || !working.some(([w]) => w === what)) continue
          if (!o.ok) {
            const reason = decodeRevert(o.err)
            if (!isProbeReason(reason)) stopped.push(`${what} (${reason})`)
          } else if (o.sent !== 0n && kept.sent !== 0n && kept.received !== 0n) {
            // Against the control, relatively: a buy's received and sent are in different units.
            const relative = Math.round((share(o) / share(kept)) * 10_000) / 100
            if (Math.abs(relative - 100) > AMOUNT_TOLERANCE_PP) changed.push(`${what} deliver ${relative}%`)
          }
        }
        const effects = [
          ...(stopped.length > 0 ? [`stops ${inWords(stopped)}`] : []),
          ...(changed.length > 0 ? [`makes ${inWords(changed)} of what they deliver with ${dependency} named`] : []),
        ]
        if (effects.length === 0) return
        const who = candidate.source === 'owner()' ? `the owner (${candidate.address})` : `${candidate.address} (${candidate.source})`
        out.push({
          dependency,
          kind: hostile.kind,
          text: `${who} can point it elsewhere with ${labelOf(fn)}: measured, ${hostile.what} put there ${effects.join(' and ')}, while the same call naming ${dependency} itself leaves them as they were`,
        })
      })
    })
  })
  return out
}

