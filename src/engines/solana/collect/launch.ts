import { isOffCurveAddress, type Address } from '@solana/kit'
import type { TransactionBalances } from '../rpc/client.ts'
import { BURN_ADDRESSES, WRAPPED_SOL_MINT } from '../programs.ts'
import { known, unknown, type CreationFacts, type CreatorHistory, type Known, type LaunchFacts, type LaunchWallet } from './facts.ts'
import { curvesByCreatorSearch, decodePumpCurve, pumpCurveAddress, PUMP_PROGRAM } from '../venues/pump-curve.ts'
import { isRefusal } from '../rpc/errors.ts'
import type { CollectContext } from './context.ts'
import { MAX_LAUNCH_TRANSACTIONS } from './creation.ts'

/** Seconds after the creation in which a buy counts as a snipe. */
export const SNIPE_SECONDS = 15
/** The creator's transactions before the creation read for the wallets it funded and its earlier mints. */
export const MAX_CREATOR_TRANSACTIONS = 20
/** Earlier mints checked for life (one getSignaturesForAddress each, their curves in one read). */
export const MAX_EARLIER_MINTS_CHECKED = 10
/** Signatures asked of an earlier mint: more than its creation shows it traded. */
const LIFE_SIGNATURES = 2

/**
 * Who bought at launch, from the mint's first transactions (their signatures come with the
 * creation, at most MAX_LAUNCH_TRANSACTIONS, read in one round trip) and the creator's last
 * transactions before the creation (one call for their signatures, MAX_CREATOR_TRANSACTIONS
 * reads): a wallet whose balance rose while a pool's or curve's vault (an account owned by a
 * program address) fell bought from it. Bought in the creation slot: bundled; in the first
 * SNIPE_SECONDS after it: a sniper; funded with SOL by the creator before the launch, or sent
 * tokens by the creator: an insider. Unknown when the creation (history) is unknown.
 */
export async function readLaunch(ctx: CollectContext, mint: string, creationPromise: Promise<Known<CreationFacts>>): Promise<Known<LaunchFacts>> {
  const creation = await creationPromise
  if (!creation.ok) return unknown(`the mint's history is not available: ${creation.reason}`)
  const c = creation.value
  let creatorSignatureCount = 0
  const curves = readCreatorCurves(ctx, mint, c.creator)
  curves.catch(() => undefined)
  const [mintTransactions, creatorTransactions] = await Promise.all([
    Promise.all(c.firstSignatures.map((s) => ctx.client.getTransactionBalances(s.signature, ctx.signal).then((t) => ({ signature: s.signature, t })))),
    ctx.client.getSignaturesForAddress(c.creator, { before: c.signature, limit: MAX_CREATOR_TRANSACTIONS }, ctx.signal).then((list) => {
      creatorSignatureCount = list.length
      return Promise.all(list.filter((s) => !s.failed).map((s) => ctx.client.getTransactionBalances(s.signature, ctx.signal).then((t) => ({ signature: s.signature, t }))))
    }),
  ])

  // Wallets the creator paid SOL to before the launch; mints it created, and pools it emptied.
  const funded = new Map<string, string>()
  const earlierMints = new Map<string, string>()
  const pulled = new Map<string, string>()
  for (const { signature, t } of creatorTransactions) {
    if (!t) continue
    for (const m of t.initializedMints) if (m !== mint) earlierMints.set(m, signature)
    // Out of program-owned vaults to the creator: the token and the quote (SOL, wrapped or a stablecoin) together.
    const outOfVaults = t.tokens.filter((b) => b.post < b.pre && b.owner !== '' && !isWallet(b.owner))
    const toCreator = t.tokens.filter((b) => b.owner === c.creator && b.post > b.pre)
    const quotes = new Set([WRAPPED_SOL_MINT, ...ctx.pricing.stablecoins.map((q) => q.mint)])
    const quoteOut = outOfVaults.some((b) => quotes.has(b.mint) && toCreator.some((r) => r.mint === b.mint))
    for (const b of outOfVaults) if (!quotes.has(b.mint) && quoteOut && toCreator.some((r) => r.mint === b.mint)) pulled.set(b.mint, signature)
    const creatorPaid = t.lamports.some((l) => l.account === c.creator && l.post < l.pre)
    if (!creatorPaid) continue
    for (const l of t.lamports) if (l.account !== c.creator && l.post > l.pre && isWallet(l.account)) funded.set(l.account, signature)
  }

  const bundled: LaunchWallet[] = []
  const snipers: LaunchWallet[] = []
  const insiders = new Map<string, LaunchWallet>()
  const seen = new Set<string>()
  let lastTime: number | null = null
  for (const { signature, t } of mintTransactions) {
    if (!t) continue
    lastTime = t.blockTime ?? lastTime
    const changes = t.tokens.filter((b) => b.mint === mint)
    const fromVenue = changes.some((b) => b.post < b.pre && b.owner !== '' && !isWallet(b.owner))
    const creatorSent = changes.some((b) => b.owner === c.creator && b.post < b.pre)
    for (const b of changes) {
      if (b.post <= b.pre || b.owner === c.creator || !isWallet(b.owner) || BURN_ADDRESSES.includes(b.owner)) continue
      const wallet = { wallet: b.owner, slot: t.slot, signature }
      if (creatorSent && !insiders.has(b.owner)) insiders.set(b.owner, { ...wallet, evidence: `the creator sent it tokens in ${signature}` })
      if (!fromVenue || seen.has(b.owner)) continue
      seen.add(b.owner)
      if (t.slot === c.slot) bundled.push({ ...wallet, evidence: `bought in the creation slot ${t.slot}` })
      else if (withinSnipe(t, c)) snipers.push({ ...wallet, evidence: `bought ${t.blockTime! - c.blockTime!} s after the creation, slot ${t.slot}` })
      const fundedBy = funded.get(b.owner)
      if (fundedBy && !insiders.has(b.owner)) insiders.set(b.owner, { ...wallet, evidence: `funded by the creator in ${fundedBy} before the launch; bought in slot ${t.slot}` })
    }
  }
  const checked = [...earlierMints.keys()].slice(0, MAX_EARLIER_MINTS_CHECKED)
  const [deadMints, pumpCurves] = await Promise.all([readDeadMints(ctx, checked), curves])
  const allRead = c.firstSignatures.length < MAX_LAUNCH_TRANSACTIONS
  const windowCovered = allRead || (lastTime !== null && c.blockTime !== null && lastTime > c.blockTime + SNIPE_SECONDS)
  return known({
    creationSlot: c.slot,
    creationTime: c.blockTime,
    transactionsRead: mintTransactions.length,
    creatorTransactionsRead: creatorTransactions.length,
    windowCovered,
    bundled,
    snipers,
    insiders: [...insiders.values()],
    creatorHistory: {
      earlierMints: [...earlierMints].map(([m, signature]) => ({ mint: m, signature })),
      liquidityPulled: [...pulled].filter(([m]) => earlierMints.has(m)).map(([m, signature]) => ({ mint: m, signature })),
      complete: creatorSignatureCount < MAX_CREATOR_TRANSACTIONS,
      deadMints,
      mintsChecked: checked.length,
      pumpCurves,
    },
  })
}

/**
 * Which earlier mints are dead: their only transaction is their creation (never traded), or
 * their pump.fun curve exists, is not complete and holds no quote (no one bought). One
 * getSignaturesForAddress per mint, their curves in one read.
 */
async function readDeadMints(ctx: CollectContext, mints: string[]): Promise<{ mint: string; evidence: string }[]> {
  if (mints.length === 0) return []
  const curveAddresses = await Promise.all(mints.map(pumpCurveAddress))
  const [signatures, curves] = await Promise.all([Promise.all(mints.map((m) => ctx.client.getSignaturesForAddress(m, { limit: LIFE_SIGNATURES }, ctx.signal))), ctx.loader.loadMany(curveAddresses)])
  return mints.flatMap((m, i) => {
    const curve = curves[i]
    if (curve && curve.owner === PUMP_PROGRAM) {
      try {
        const decoded = decodePumpCurve(curve.data)
        if (!decoded.complete && decoded.realQuoteReserve === 0n) return [{ mint: m, evidence: `its pump.fun curve ${curveAddresses[i]} is not complete and no one bought from it` }]
        return []
      } catch {
        // Not a curve this engine reads: judged by its transactions.
      }
    }
    return signatures[i].length < LIFE_SIGNATURES ? [{ mint: m, evidence: 'its only transaction is its creation: it never traded' }] : []
  })
}

/** The creator's pump.fun curves (one search), this mint's excluded; null when the node refuses the search or searches are off. */
async function readCreatorCurves(ctx: CollectContext, mint: string, creator: string): Promise<CreatorHistory['pumpCurves']> {
  if (!ctx.limits.searchPools) return null
  const own = await pumpCurveAddress(mint)
  try {
    const accounts = await ctx.client.getProgramAccounts(PUMP_PROGRAM, curvesByCreatorSearch(creator), undefined, ctx.signal)
    const curves = accounts.filter((a) => a.address !== own).flatMap((a) => {
      try {
        return [decodePumpCurve(a.data)]
      } catch {
        return []
      }
    })
    return { created: curves.length, graduated: curves.filter((x) => x.complete).length, dead: curves.filter((x) => !x.complete && x.realQuoteReserve === 0n).length }
  } catch (error) {
    if (isRefusal(error)) return null
    throw error
  }
}

const withinSnipe = (t: TransactionBalances, c: CreationFacts) => t.blockTime !== null && c.blockTime !== null && t.blockTime - c.blockTime <= SNIPE_SECONDS

/** A wallet: an address on the curve (a key pair), not one a program owns. */
function isWallet(address: string): boolean {
  try {
    return !isOffCurveAddress(address as Address)
  } catch {
    return false
  }
}
