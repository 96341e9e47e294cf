/*
 * Where the share a pool's own contracts keep of a sale goes (a V4 pool's hook taking a cut), by
 * balance change: a funded holder sells into the pool, nothing changed before, and the balances
 * of the token and of the quote are read around the sale for the contracts the pool runs beside
 * the token, their owners, the addresses written into their code and the token's privileged
 * accounts. A contract whose code can be replaced (a proxy) is given reverting code in a second
 * sale: if the sale then fails, whoever replaces its code can stop trading on the pool. One or two
 * simulations per such pool, beside the owner powers.
 */
import type { Address, Hex } from 'viem'
import { PROBE_ADDRESSES, REJECTER_STATE, REJECTING_CODE, callProbe, decodeProbe, decodeSaleGains, encodeSaleGains, type SaleGains } from '../chain/probe.ts'
import { signatureOf } from '../chain/signatures.ts'
import { NO_OVERRIDE_REASON } from '../chain/capabilities.ts'
import type { PoolContractNote, PoolFact, PoolProceeds, PowerCandidate, PowerFinding, PowerKind, TradeFact } from '../facts.ts'
import { venueOf } from '../venues/registry.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import type { Discovery } from './discovery.ts'
import type { PoolContractFact } from './pool-contracts.ts'
import { powerActors } from './powers.ts'
import { probePool, quoteRoute } from './trades.ts'

/** Accounts watched over the sale, at most (the probe reads each in the token and in the quote, twice). */
export const MAX_PROCEEDS_WATCH = 24

interface Watched {
  address: Address
  label: string
}

/** The accounts a pool's contracts may pay: each contract itself, its owners, the addresses in its code, then the token's privileged accounts. */
export function proceedsWatch(pool: PoolFact, contracts: readonly PoolContractFact[], tokenCandidates: readonly PowerCandidate[], exclude: readonly Address[]): Watched[] {
  const out: Watched[] = []
  const add = (address: Address, label: string) => {
    if (sameAddress(address, ZERO_ADDRESS) || [...exclude, pool.address, pool.quote].some((x) => sameAddress(x, address))) return
    if (!out.some((w) => sameAddress(w.address, address))) out.push({ address, label })
  }
  for (const c of contracts) {
    add(c.address, `${c.label} itself`)
    for (const o of c.owners) add(o.address, `${o.address} (${o.source})`)
    for (const a of c.logic?.addresses ?? []) add(a, `${a} (an address written into the code of ${c.label})`)
  }
  for (const c of tokenCandidates) add(c.address, `${c.address} (${c.source})`)
  return out.slice(0, MAX_PROCEEDS_WATCH)
}

const bit = (mask: bigint, i: number) => i < 256 && ((mask >> BigInt(i)) & 1n) === 1n

/** Reads a sale's gains: who among the watched gained, and which balances could not be read. */
export function readProceeds(watch: readonly Watched[], g: SaleGains): PoolProceeds {
  if (!g.funded) return { measured: false, paidTo: [], note: 'no holder could be given tokens to sell' }
  if (!g.sell.ok) return { measured: false, paidTo: [], note: 'the sale failed' }
  const paidTo = watch
    .map((w, i) => ({ ...w, token: bit(g.tokenRead, i) ? g.tokenGains[i] : 0n, quote: bit(g.quoteRead, i) ? g.quoteGains[i] : 0n }))
    .filter((x) => x.token > 0n || x.quote > 0n)
  const unread = watch.filter((_, i) => !bit(g.tokenRead, i) || !bit(g.quoteRead, i))
  const watched = `watched over a sale: ${watch.map((w) => w.label).join(', ')}`
  return { measured: true, paidTo, note: unread.length > 0 ? `${watched}; the balances of ${unread.length} of them could not be read (unknown)` : watched }
}

/** Who can replace a contract's code, as a finding names the account: its admin, else the contract itself (through its implementation). */
function replacer(c: PoolContractFact): PowerCandidate {
  return c.admin ? { address: c.admin, source: `the admin of ${c.label}`, ownerOf: c.address } : { address: c.address, source: `whoever upgrades ${c.label} through its implementation`, ownerOf: c.address }
}

/**
 * Who gains over a sale into each pool that runs contracts beside the token, by the pool's key
 * (`proceedsKey`), and the `pause` findings of those contracts whose code can be replaced and
 * whose reverting code stops the sale; pools without such contracts are not asked.
 */
export async function collectPoolProceeds(
  ctx: CollectContext,
  d: Discovery,
  pools: readonly PoolFact[],
  contracts: readonly PoolContractFact[],
  tokenCandidates: readonly PowerCandidate[],
  block: Hex,
): Promise<{ proceeds: Map<string, PoolProceeds>; findings: PowerFinding[] }> {
  const out = new Map<string, PoolProceeds>()
  const findings: PowerFinding[] = []
  const asked = pools.flatMap((pool) => {
    const own = venueOf(pool.dexType).poolContracts?.(pool) ?? []
    const facts = contracts.filter((c) => own.some((o) => sameAddress(o.address, c.address)))
    return facts.length > 0 ? [{ pool, facts }] : []
  })
  await Promise.all(
    asked.map(async ({ pool, facts }) => {
      if (ctx.rpc.capabilities?.stateOverride === 'no') {
        out.set(proceedsKey(pool), { measured: false, paidTo: [], note: NO_OVERRIDE_REASON })
        return
      }
      const route = quoteRoute(ctx, d, pool.quote)
      if (!route) {
        out.set(proceedsKey(pool), { measured: false, paidTo: [], note: 'the pool\'s quote could not be obtained to trade' })
        return
      }
      const watch = proceedsWatch(pool, facts, tokenCandidates, [ctx.token, ctx.chain.wrappedNative, ...Object.values(PROBE_ADDRESSES)])
      const candidates = tokenCandidates.map((c) => c.address)
      const params = {
        token: ctx.token,
        weth: ctx.chain.wrappedNative,
        pool: probePool(ctx, pool),
        route,
        candidates,
        donors: candidates,
        watch: watch.map((w) => w.address),
        variants: [],
        grants: [],
      }
      const sale = (what: string, state: typeof REJECTER_STATE) =>
        callProbe(ctx.rpc, { what, data: encodeSaleGains(params), gas: ctx.gasCap, block, actors: powerActors(tokenCandidates), state, pool: params.pool }).then((raw) => decodeProbe(what, raw, decodeSaleGains))
      const replaceable = facts.filter((c) => c.upgrade)
      try {
        // The plain sale and, beside it (same round trip), the sale with each replaceable contract's code reverting.
        const [plain, ...hostile] = await Promise.all([
          sale('sale proceeds', REJECTER_STATE),
          ...replaceable.map((c) => sale('sale with a pool contract reverting', { ...REJECTER_STATE, [c.address]: { code: REJECTING_CODE } })),
        ])
        out.set(proceedsKey(pool), readProceeds(watch, plain))
        replaceable.forEach((c, i) => {
          if (!plain.funded || !plain.sell.ok || !hostile[i].funded || hostile[i].sell.ok) return
          findings.push({
            kind: 'pause',
            candidate: replacer(c),
            selector: '0x',
            signature: '',
            evidence: `on ${c.label}, its code can be replaced (${c.upgrade}): with code that reverts in its place, a holder's sale into the pool fails (it went through before)`,
            tier: 'Critical',
            on: c.address,
          })
        })
      } catch (error) {
        if (ctx.rpc.signal?.aborted) throw error
        out.set(proceedsKey(pool), { measured: false, paidTo: [], note: `the sale could not be simulated: ${(error as Error).message.slice(0, 160)}` })
      }
    }),
  )
  return { proceeds: out, findings }
}

/** A pool's key among the token's pools: its address, and a V4 pool's id (V4 pools share the manager's address). */
export function proceedsKey(pool: Pick<PoolFact, 'address' | 'v4'>): string {
  return `${pool.address.toLowerCase()}${pool.v4 ? `:${pool.v4.id}` : ''}`
}

/** What a power found on a pool's contract does to trading, in a few words. */
const KIND_WORDS: Partial<Record<PowerKind, string>> = {
  pause: 'stops trading',
  feeAll: "changes everyone's tax",
  feePersonal: "changes one address's tax",
  blacklist: 'blocks an address',
  whitelist: 'favours an address',
  limit: 'changes how much may be traded',
}

/** The notes of a pool's contracts: how their code can be replaced, and the powers found on their functions. */
export function contractNotes(pool: PoolFact, contracts: readonly PoolContractFact[], findings: readonly PowerFinding[]): PoolContractNote[] {
  const own = venueOf(pool.dexType).poolContracts?.(pool) ?? []
  return contracts
    .filter((c) => own.some((o) => sameAddress(o.address, c.address)))
    .map((c) => {
      const powers: string[] = []
      for (const f of findings) {
        const words = KIND_WORDS[f.kind]
        if (!words || !f.on || !sameAddress(f.on, c.address) || f.selector === '0x') continue
        const fn = c.logic?.functions.find((x) => x.selector.toLowerCase() === f.selector.toLowerCase())
        const name = signatureOf(f.selector) ? `${signatureOf(f.selector)} [${f.selector}]` : `function ${f.selector}(${fn?.arguments ?? ''})`
        // An address a privileged call sets, that changes how trading goes: the contract can be pointed elsewhere.
        const pointed = fn?.arguments.split(',').includes('address') ? ': it takes an address, the contract can be pointed elsewhere' : ''
        const said = `${name} ${words} (by ${f.candidate.address}, ${f.candidate.source})${pointed}`
        if (!powers.some((p) => p.startsWith(`${name} ${words}`))) powers.push(said)
      }
      return { address: c.address, upgrade: c.upgrade, powers, unread: c.unread }
    })
}

/** The trades with who was paid over their sales and what their pools' contracts can be made to do, their venue's words said again with it. */
export function withPoolContracts(trades: readonly TradeFact[], proceeds: ReadonlyMap<string, PoolProceeds>, contracts: readonly PoolContractFact[], findings: readonly PowerFinding[]): TradeFact[] {
  return trades.map((t) => {
    const found = proceeds.get(proceedsKey(t.pool))
    const notes = contractNotes(t.pool, contracts, findings)
    if (!found && notes.length === 0) return t
    const more = { ...t, ...(found ? { proceeds: found } : {}), ...(notes.length > 0 ? { contracts: notes } : {}) }
    const venue = venueOf(t.pool.dexType).describe?.(more)
    return venue ? { ...more, venue } : more
  })
}
