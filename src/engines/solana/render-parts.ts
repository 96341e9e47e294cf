import type { SolanaReport } from '../../contract/solana-report.ts'
import { percent, share as sharePercent } from '../../report/format.ts'
import type { HolderAccount, LaunchWallet, PoolFacts, SolanaFacts } from './collect/facts.ts'
import { MAX_LARGEST_ACCOUNTS } from './collect/holders.ts'
import { WRAPPED_SOL_MINT } from './programs.ts'
import { lpLocks } from './score.ts'

/**
 * Parts of the Solana body the render stage fills from the launch, lock and metadata facts (pure):
 * the launch curve, who bought at launch, locked liquidity and its unlocks, the off-chain
 * document's state; and how amounts are written.
 */

type Report = SolanaReport
type LockedDetails = Report['marketChecks']['marketCheckDescription']['liquidityDescription']['aggregatedInformation']['liquidityLockedDetails']

/**
 * Locked liquidity of the pools that hold it in positions, of the pools whose LP tokens (or
 * positions) lock programs hold (the token's liquidity providers' pool and the next ones read for
 * their locks; burned LP counts as locked for good), and the unlocks still to come.
 */
export function renderLocks(facts: SolanaFacts): LockedDetails {
  if (!facts.locks.ok) return { upcomingUnlockDetails: [], lockedPools: [], reason: facts.locks.reason }
  const lp = facts.lp?.ok ? facts.lp.value : undefined
  if (lp && !lp.lockers.ok) return { upcomingUnlockDetails: [], lockedPools: [], reason: lp.lockers.reason }
  const pct = (part: bigint, total: bigint): number | '' => (total === 0n ? '' : Number((part * 1_000_000n + total / 2n) / total) / 10_000)
  const upcoming = facts.locks.value.flatMap((l) =>
    l.unlocks
      .filter((u) => u.time === null || u.time > facts.observedAt)
      .map((u) => ({ time: u.time === null ? '' : new Date(u.time * 1000).toISOString(), percent: pct(u.liquidity, l.total), pool: l.pool, slot: u.slot === null ? '' : u.slot.toString() })),
  )
  const lockedPools: LockedDetails['lockedPools'] = facts.locks.value.map((l) => ({ pool: l.pool, dexName: l.dex, lockedPercent: pct(l.permanent + l.vesting, l.total), permanentPercent: pct(l.permanent, l.total), vestingPercent: pct(l.vesting, l.total), lockers: [] }))
  // The pool of the token's liquidity providers, then the next pools whose providers were read for their locks.
  const others = facts.otherLps.flatMap((o) => (o.ok && o.value.lockers.ok ? [o.value] : []))
  // A next pool whose providers or locks could not be read: what was read is listed, and why that pool is not.
  const unread = facts.otherLps.flatMap((o) => (!o.ok ? [o.reason] : !o.value.lockers.ok ? [`the locks on pool ${o.value.pool}: ${o.value.lockers.reason}`] : []))
  for (const providers of lp ? [lp, ...others] : others) {
    const held = lpLocks(providers)
    if (held.lockers.length === 0) continue
    const dex = facts.pools.ok ? (facts.pools.value.find((p) => p.address === providers.pool)?.dex ?? '') : ''
    const { base } = held
    lockedPools.push({
      pool: providers.pool,
      dexName: dex,
      lockedPercent: pct(held.permanent + held.vesting, base),
      permanentPercent: pct(held.permanent, base),
      vestingPercent: pct(held.vesting, base),
      lockers: held.lockers.map((l) => ({ locker: l.locker, address: l.address, holder: l.holder, recipient: l.recipient, lockedPercent: pct(l.locked, base), permanent: l.permanent ? '1' : '0', notLocked: l.notLocked }))
    })
    for (const l of held.lockers) for (const u of l.unlocks) if (u.time > facts.observedAt) upcoming.push({ time: new Date(u.time * 1000).toISOString(), percent: pct(u.amount, base), pool: providers.pool, slot: '' })
  }
  return {
    upcomingUnlockDetails: upcoming.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0)),
    lockedPools,
    reason: unread.length > 0 ? `not read for every pool: ${unread.join('; ')}` : '',
  }
}

/** Who bought at launch, and what they still hold. */
export function renderLaunch(facts: SolanaFacts, holders: HolderAccount[] | undefined): Report['marketChecks']['marketCheckDescription']['holdersDescription']['launch'] {
  if (!facts.launch.ok) {
    return { bundledCount: '', sniperCount: '', insiderCount: '', heldPercent: '', bundled: [], snipers: [], insiders: [], creationSlot: '', transactionsRead: '', reason: facts.launch.reason }
  }
  const l = facts.launch.value
  const wallets = (list: LaunchWallet[]) => list.map((w) => ({ wallet: w.wallet, slot: w.slot.toString(), signature: w.signature, evidence: w.evidence }))
  const flagged = new Set([...l.bundled, ...l.snipers, ...l.insiders].map((w) => w.wallet))
  const listed = new Set((holders ?? []).map((h) => h.owner))
  const complete = holders !== undefined && holders.length < MAX_LARGEST_ACCOUNTS
  const held = holders && [...flagged].every((w) => listed.has(w) || complete) ? holders.filter((h) => flagged.has(h.owner)).reduce((s, h) => s + h.amount, 0n) : undefined
  return {
    bundledCount: l.bundled.length,
    sniperCount: l.snipers.length,
    insiderCount: l.insiders.length,
    heldPercent: percent(sharePercent(held, facts.mint.supply)),
    bundled: wallets(l.bundled),
    snipers: wallets(l.snipers),
    insiders: wallets(l.insiders),
    creationSlot: l.creationSlot.toString(),
    transactionsRead: `${l.transactionsRead} + ${l.creatorTransactionsRead}`,
    reason: '',
  }
}

export function renderCurve(facts: SolanaFacts, pools: PoolFacts[] | undefined): Report['marketChecks']['marketCheckDescription']['liquidityDescription']['aggregatedInformation']['launchCurve'] {
  const none = { venue: '', address: '', complete: '', progressPercent: '', creator: '', tokenReserve: '', quoteReserve: '', graduatedPool: '', reason: '' }
  if (!facts.curve.ok) return { ...none, state: '', reason: facts.curve.reason }
  const c = facts.curve.value
  if (!c) return { ...none, state: 'none' }
  // The deepest pool of the exchange the curve's own settings send it to.
  const graduatedPool = c.complete ? (pools?.find((p) => c.graduatesTo.includes(p.dex))?.address ?? '') : ''
  return {
    state: c.complete ? 'graduated' : 'on curve',
    venue: c.venue,
    address: c.address,
    complete: c.complete ? '1' : '0',
    progressPercent: c.progressPercent === undefined ? '' : String(c.progressPercent),
    creator: c.creator,
    tokenReserve: formatUnits(c.realTokenReserve, facts.mint.decimals),
    quoteReserve: c.quoteMint === WRAPPED_SOL_MINT ? formatUnits(c.realQuoteReserve, SOL_DECIMALS) : '',
    graduatedPool,
    reason: '',
  }
}

const SOL_DECIMALS = 9

/**
 * Whether the document the metadata points to could be read: "read"; "missing" when the metadata
 * names no uri (or the token has no metadata); "unreachable" with the reason when the fetch failed
 * or the document is not metadata; "" when it was not fetched (METADATA_FETCH off) or the
 * metadata account could not be read.
 */
export function offChainStatus(facts: SolanaFacts, uri: string, metadataKnown: boolean): { offChainStatus: string; offChainReason: string } {
  if (!metadataKnown) return { offChainStatus: '', offChainReason: 'the metadata account could not be read' }
  if (!uri) return { offChainStatus: 'missing', offChainReason: 'the metadata names no off-chain document' }
  const doc = facts.offChainMetadata
  if (!doc) return { offChainStatus: '', offChainReason: 'off-chain metadata is not fetched by this service' }
  return doc.ok ? { offChainStatus: 'read', offChainReason: '' } : { offChainStatus: 'unreachable', offChainReason: doc.reason }
}

/** Base units → whole tokens, exact, without trailing zeros. */
export function formatUnits(amount: bigint, decimals: number): string {
  const negative = amount < 0n
  const abs = negative ? -amount : amount
  const scale = 10n ** BigInt(decimals)
  const whole = abs / scale
  const fraction = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}

