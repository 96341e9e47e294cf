import { encodeAbiParameters, getAddress, parseAbiParameters, type AbiParameter, type Address, type Hex } from 'viem'
import type { CodeAnalysis, CodeFunction } from '../chain/bytecode.ts'
import { addressFromWord } from '../chain/proxy.ts'
import { decodeRevert, isProbeReason } from '../chain/revert.ts'
import { isStandardSelector, signatureOf } from '../chain/signatures.ts'
import {
  AMOUNT_PLACEHOLDER,
  NO_ROUTE,
  PROBE_ADDRESSES,
  assertGasNotCapped,
  callProbe,
  decodePowers,
  decodeProbe,
  encodePowers,
  isStarved,
  type Measure,
  type Outcome,
  type PowerResult,
} from '../chain/probe.ts'
import type { PoolFact, PowerCandidate, PowerFinding, PowerKind, PowersFact } from '../facts.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import type { Discovery } from './discovery.ts'
import { HIDDEN_OWNER_SLOTS } from './discovery.ts'
import { probePool, quoteRoute } from './trades.ts'

/** Privileged-account candidates tried at most. */
export const MAX_CANDIDATES = 6
/** Candidate owner functions simulated at most (one `eth_call` each, all in one round trip). */
export const MAX_POWER_FUNCTIONS = 48
/** Two measured tax ratios differing by more than this (0.005 percentage points) differ. */
const TAX_EPSILON = 0.00005
/** Small number given to uint arguments (a fee of 20 %, 2 %, 0.2 % depending on the denominator). */
const SMALL_UINT = 20n

/** Candidate owner functions of a contract: every state-changing function that is not standard ERC-20. */
export function candidateFunctions(logic: CodeAnalysis): CodeFunction[] {
  const fns = logic.functions.filter((f) => f.stateMutability !== 'view' && f.stateMutability !== 'pure' && !isStandardSelector(f.selector))
  // Known names first, so that the cap drops the least telling ones.
  return fns.sort((a, b) => Number(!!signatureOf(b.selector)) - Number(!!signatureOf(a.selector))).slice(0, MAX_POWER_FUNCTIONS)
}

/**
 * Privileged-account candidates: owner()/getOwner(), the proxy admin, the creator and deployer,
 * and address-like words in the first storage slots (owners no getter reveals).
 */
export function powerCandidates(
  ctx: CollectContext,
  d: Discovery,
  extra: { admin?: Address; creator?: Address; deployer?: Address; implementation?: Address; pools: PoolFact[] },
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
  for (let i = 0; i < HIDDEN_OWNER_SLOTS; i++) {
    const word = d.slots[`0x${i.toString(16)}`]
    if (!word) continue
    const v = BigInt(word)
    // An address alone in its slot, or packed below small flags (e.g. owner + a bool).
    const low = v & ((1n << 160n) - 1n)
    if (low < 1n << 120n || v >> 160n >= 1n << 16n) continue
    add(addressFromWord(`0x${low.toString(16).padStart(64, '0')}`), `storage slot ${i}`)
  }
  return out.slice(0, MAX_CANDIDATES)
}

type Value = unknown

function defaultValue(param: AbiParameter, choice: { uint: 'zero' | 'small' | 'amount'; bool: boolean }, addresses: Address[]): Value {
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
  if (t === 'address') return addresses.shift() ?? PROBE_ADDRESSES.a
  if (t === 'bool') return choice.bool
  if (t.startsWith('int')) return choice.uint === 'zero' ? 0n : SMALL_UINT
  if (t.startsWith('uint')) {
    const bits = Number(t.replace(/^uint/, '') || 256)
    if (choice.uint === 'zero') return 0n
    if (choice.uint === 'small' || bits < 128) return SMALL_UINT
    return BigInt(AMOUNT_PLACEHOLDER)
  }
  if (t === 'string') return ''
  if (t === 'bytes') return '0x'
  if (t.startsWith('bytes')) return `0x${'00'.repeat(Number(t.slice(5)))}`
  return 0n
}

/**
 * Calldata variants of a function: the target holder A as the first address (then the fresh
 * account F, so that a `(from, to, amount)` moves A's tokens away), and uint/bool arguments
 * spanning 0, a small number, and half of A's balance (substituted by the probe at run time).
 */
export function functionVariants(fn: CodeFunction): Hex[] {
  let params: readonly AbiParameter[]
  try {
    params = fn.arguments ? parseAbiParameters(fn.arguments.replace(/,/g, ', ')) : []
  } catch {
    return [fn.selector]
  }
  const hasUint = /int/.test(fn.arguments)
  const hasBool = /bool/.test(fn.arguments)
  const uints: ('zero' | 'small' | 'amount')[] = hasUint ? ['zero', 'small', 'amount'] : ['small']
  const bools = hasBool ? [true, false] : [true]
  const out = new Set<Hex>()
  for (const uint of uints) {
    for (const bool of bools) {
      const addresses: Address[] = [PROBE_ADDRESSES.a, PROBE_ADDRESSES.f, PROBE_ADDRESSES.a, PROBE_ADDRESSES.a]
      try {
        const values = params.map((p) => defaultValue(p, { uint, bool }, addresses))
        out.add(`${fn.selector}${encodeAbiParameters(params, values as never).slice(2)}` as Hex)
      } catch {
        out.add(fn.selector)
      }
    }
  }
  return [...out]
}

function ratio(o: Outcome): number | undefined {
  return o.ok && o.sent > 0n ? Number((o.received * 1_000_000_000n) / o.sent) / 1_000_000_000 : undefined
}

function taxChanged(before: Outcome, after: Outcome): { changed: boolean; from?: number; to?: number } {
  const a = ratio(before)
  const b = ratio(after)
  if (a === undefined || b === undefined) return { changed: false }
  return { changed: Math.abs(a - b) > TAX_EPSILON, from: (1 - a) * 100, to: (1 - b) * 100 }
}

const pct = (x: number | undefined) => (x === undefined ? '?' : `${Math.round(x * 100) / 100}%`)

interface Effect {
  kind: PowerKind
  text: string
}

/** What one successful owner call changed, compared with the baseline measurement. */
export function effectsOf(base: Measure, m: Measure, funded: boolean, withPool: boolean): Effect[] {
  const out: Effect[] = []
  const supplyDelta = m.supply - base.supply
  if (supplyDelta > 0n) out.push({ kind: 'mint', text: `raised the total supply by ${supplyDelta} (raw units)` })
  if (!funded) return out
  const incA = m.balA > base.balA ? m.balA - base.balA : 0n
  const incB = m.balB > base.balB ? m.balB - base.balB : 0n
  if (m.balA < base.balA) out.push({ kind: 'changeBalance', text: `took ${base.balA - m.balA} (raw units) from a holder without its approval` })
  else if (m.balB < base.balB) out.push({ kind: 'changeBalance', text: `lowered a bystander's balance by ${base.balB - m.balB} (raw units)` })
  else if (incA + incB > (supplyDelta > 0n ? supplyDelta : 0n)) out.push({ kind: 'changeBalance', text: `raised a holder's balance by ${incA + incB} without minting it` })

  const bBlocked = (base.bTransfer.ok && !m.bTransfer.ok) || (withPool && base.bSell.ok && !m.bSell.ok)
  if (bBlocked) out.push({ kind: 'pause', text: 'stopped transfers of a holder it was not given' })
  const bTransfer = taxChanged(base.bTransfer, m.bTransfer)
  const bSell = withPool ? taxChanged(base.bSell, m.bSell) : { changed: false }
  const bBuy = withPool ? taxChanged(base.bBuy, m.bBuy) : { changed: false }
  const bChanged = bTransfer.changed || bSell.changed || bBuy.changed
  if (bChanged) {
    const which = bSell.changed ? ['sell', bSell] : bBuy.changed ? ['buy', bBuy] : ['transfer', bTransfer]
    const fig = which[1] as { from?: number; to?: number }
    out.push({ kind: 'feeAll', text: `changed everyone's ${which[0]} tax from ${pct(fig.from)} to ${pct(fig.to)}` })
  }
  const aBlocked = (base.aTransfer.ok && !m.aTransfer.ok) || (withPool && base.aSell.ok && !m.aSell.ok)
  const aTransfer = taxChanged(base.aTransfer, m.aTransfer)
  const aSell = withPool ? taxChanged(base.aSell, m.aSell) : { changed: false }
  if ((aBlocked || aTransfer.changed || aSell.changed) && !bBlocked && !bChanged) {
    const text = aBlocked
      ? 'blocked one address from transferring or selling'
      : aSell.changed
        ? `changed one address's sell tax from ${pct(aSell.from)} to ${pct(aSell.to)}`
        : `changed one address's transfer tax from ${pct(aTransfer.from)} to ${pct(aTransfer.to)}`
    out.push({ kind: 'feePersonal', text })
  }
  return out
}

/**
 * Attempts the probe could not finish (short of gas, or failed in the probe itself): not a call
 * the token refused, so they leave the function undetermined.
 */
export function unmeasuredAttempts(r: PowerResult): PowerResult['attempts'][number][] {
  return r.attempts.filter((a) => !a.called && a.err !== '0x' && isProbeReason(decodeRevert(a.err)))
}

/** Reads the findings of one function's simulation. */
export function interpretPowers(fn: CodeFunction, candidates: PowerCandidate[], r: PowerResult, withPool: boolean): PowerFinding[] {
  const findings: PowerFinding[] = []
  const signature = signatureOf(fn.selector)
  const label = signature ? `${signature} [${fn.selector}]` : `function ${fn.selector}(${fn.arguments})`
  const hasUint = /int/.test(fn.arguments)
  for (const candidate of candidates) {
    const attempts = r.attempts.filter((a) => sameAddress(a.candidate, candidate.address) && a.called)
    if (attempts.length === 0) continue
    const effects = attempts.map((a) => effectsOf(r.baseline, a.m, r.funded, withPool))
    const seen = new Set<PowerKind>()
    effects.forEach((list) => {
      for (const e of list) {
        if (seen.has(e.kind)) continue
        // A uint argument that blocks transfers only at some values is a limit setter, not a switch.
        if (e.kind === 'pause' && hasUint && !effects.every((l) => l.some((x) => x.kind === 'pause'))) continue
        seen.add(e.kind)
        findings.push({
          kind: e.kind,
          candidate,
          selector: fn.selector,
          signature,
          evidence: `as ${candidate.address} (${candidate.source}), ${label} ${e.text}`,
        })
      }
    })
  }
  return findings
}

/**
 * Measures owner powers: every candidate function is called as every candidate account, with a
 * few argument variants, each from the same funded state, and what changed (supply, a holder's
 * balance, transfers, taxes) is compared with a baseline. One `eth_call` per function.
 */
export async function collectPowers(
  ctx: CollectContext,
  d: Discovery,
  logic: CodeAnalysis | undefined,
  candidates: PowerCandidate[],
  pool: PoolFact | undefined,
  block: Hex,
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
  const fns = candidateFunctions(logic)
  if (candidates.length === 0) {
    return { ...base, status: 'tested', reason: 'no account holds privileges: owner renounced and no privileged address found in storage' }
  }
  if (fns.length === 0) return { ...base, status: 'tested', reason: 'the contract has no state-changing function beyond standard ERC-20 and ownership' }
  const route = pool ? quoteRoute(ctx, d, pool.quote) : undefined
  const usablePool = pool && route ? pool : undefined
  const actors = [PROBE_ADDRESSES.a, PROBE_ADDRESSES.b, ...candidates.map((c) => c.address)]
  const donors = candidates.map((c) => c.address)
  let funded = false
  const results = await Promise.all(
    fns.map(async (fn) => {
      const variants = functionVariants(fn)
      const data = encodePowers({
        token: ctx.token,
        weth: ctx.chain.wrappedNative,
        pool: usablePool ? probePool(ctx, usablePool) : undefined,
        route: route ?? NO_ROUTE,
        candidates: candidates.map((c) => c.address),
        donors,
        variants,
      })
      const raw = await callProbe(ctx.rpc, { what: 'owner-power', data, gas: ctx.gasCap, block, actors })
      const r = decodeProbe('owner-power', raw, decodePowers)
      const unmeasured = unmeasuredAttempts(r)
      assertGasNotCapped('owner-power', ctx.gasCap, r.startGas, !r.measured || unmeasured.some((a) => isStarved(a.err)))
      funded ||= r.funded
      // Without a baseline, or with attempts the probe could not finish, the function says nothing.
      if (!r.measured || unmeasured.length > 0) {
        const why = !r.measured ? 'the baseline could not be measured' : decodeRevert(unmeasured[0].err)
        ctx.log.warn({ chainId: ctx.chain.chainId, token: ctx.token, selector: fn.selector, why }, 'owner-power simulation incomplete')
        return { fn, ok: false as const, findings: interpretPowers(fn, candidates, r, !!usablePool) }
      }
      return { fn, ok: true as const, findings: interpretPowers(fn, candidates, r, !!usablePool) }
    }),
  )
  return {
    ...base,
    status: 'tested',
    reason: '',
    functionsTried: results.filter((r) => r.ok).map((r) => r.fn.selector),
    functionsFailed: results.filter((r) => !r.ok).map((r) => r.fn.selector),
    findings: results.flatMap((r) => r.findings),
    funded,
    withPool: !!usablePool,
  }
}
