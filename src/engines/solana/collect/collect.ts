import type { Address } from '@solana/kit'
import { extensionName, type EmbeddedTokenMetadata } from '../decode/extensions.ts'
import type { DecodedMint } from '../decode/token.ts'
import { readMint } from './mint.ts'
import { readClusterTime } from './cluster-time.ts'
import { MAX_LARGEST_ACCOUNTS, resolveHolders } from './holders.ts'
import { countHolders } from './holder-count.ts'
import { readCreation } from './creation.ts'
import { readOwnerBalance } from './balances.ts'
import { readHookProgram } from './hook-program.ts'
import { candidateOf, curveOfPools, describePools, readSolUsd, searchPools, type FoundPools, type PoolCandidate } from './pools.ts'
import type { PoolFacts } from './facts.ts'
import { readPumpCurve } from './curve.ts'
import { readLaunch } from './launch.ts'
import { MAX_LOCK_POOLS, hasPositionLocks, readPoolLocks } from './locks.ts'
import { readLiquidityProviders } from './lp.ts'
import { readPositionHolders } from './positions.ts'
import { POSITION_VENUES } from '../venues/registry.ts'
import { known, unknown, type ClusterName, type CurveFacts, type Known, type SolanaFacts } from './facts.ts'
import { reasonOf, type CollectContext } from './context.ts'
import { DeadlineError } from '../../../errors.ts'
import { nameKey, type WellKnownToken } from '../../../metadata/providers.ts'
import { WRAPPED_SOL_MINT } from '../programs.ts'
import { SolanaRpcError, isRefusal } from '../rpc/errors.ts'

export interface CollectOptions {
  cluster: ClusterName
  /**
   * Time after which facts other than the mint itself are given up and reported unknown, so a
   * slow optional read (a huge getProgramAccounts) cannot cost the whole report.
   */
  optionalBudgetMs: number
}

/**
 * Collects every fact of a report in one stage of concurrent reads. The mint read is required:
 * its errors (NotFoundError, SolanaRpcError, DeadlineError) are the report's. Every other fact is
 * optional: the node refusing the read (a method it does not offer, an answer too large), data
 * that is not what it should be, or the budget running out make that fact unknown, with the
 * reason. A fault of the node (down, erring, answering garbage) fails the report instead: it
 * must never read as a fact about the token.
 *
 * Round trips, with concurrent requests: (1) mint + Metaplex metadata + SOL reference pools +
 * launch curve, largest accounts, signatures, pool searches; (2) token accounts, holder count,
 * hook program, epoch, balances, creation transaction, vaults, and the off-chain metadata JSON
 * (when a reader is given); (3) owners, program data, the mint's first
 * transactions and the creator's signatures before the creation; (4) the creator's transactions
 * (the launch reads: at most MAX_LAUNCH_TRANSACTIONS + 1 + MAX_CREATOR_TRANSACTIONS calls), beside
 * them one search for the creator's pump.fun curves; (5) when the creator made earlier mints, one
 * getSignaturesForAddress for each of the first MAX_EARLIER_MINTS_CHECKED and their curves. The
 * pools' own extra reads start from the pool search (round 1), before the pools are priced and
 * ranked, for the first pools with liquidity providers or locks (see `startedEarly`), and end by
 * round 4: (2) an LP mint with its largest accounts and the lock programs' searches of it (a DAMM v1
 * pool's lock escrows searched by the pool beside them), a position venue's positions and their
 * locks, a DAMM v2 pool's positions; (3) the LP's token accounts, the position NFTs' accounts, the
 * DAMM v2 vesting schedules; (4) their owners. A DBC curve's config and a DAMM v1 pool's vaults are
 * read with the pools (two reads).
 */
/** Pools with liquidity providers read beyond the deepest one, for the locks on their liquidity. */
export const MAX_OTHER_LP_POOLS = 2
/**
 * Pools whose liquidity providers (or locks) are read as soon as the search found them, beyond
 * those the ranking will keep: when the search finds no more, the ranked pools' reads have started
 * one round trip before the ranking; more pools than these are read once ranked.
 */
export const EARLY_SPARE_POOLS = 2

/**
 * A read of a pool started for the first `count` pools of `candidates` as soon as they are known:
 * asked for a pool later, it answers the read already started, or starts it then (a pool the
 * search listed beyond `count`). The reads never asked for are not awaited: their failures are not
 * unhandled.
 */
function startedEarly<T>(candidates: Promise<PoolCandidate[]>, count: number, read: (pool: PoolCandidate) => Promise<T>): (pool: PoolCandidate) => Promise<T> {
  const started = candidates.then(
    (list) =>
      new Map(
        list.slice(0, count).map((pool) => {
          const reading = read(pool)
          reading.catch(() => undefined)
          return [pool.address, reading] as const
        }),
      ),
  )
  started.catch(() => undefined)
  return async (pool) => (await started).get(pool.address) ?? read(pool)
}

export async function collectSolanaFacts(ctx: CollectContext, address: Address, options: CollectOptions): Promise<SolanaFacts> {
  const budget = AbortSignal.timeout(options.optionalBudgetMs)
  const budgetReached = new Promise<void>((resolve) => budget.addEventListener('abort', () => resolve(), { once: true }))
  const optional = <T>(label: string, run: () => Promise<Known<T>>): Promise<Known<T>> => {
    const attempt = run().catch((error: unknown) => {
      if (isFault(error)) throw error
      ctx.logger.debug({ mint: address, fact: label, reason: reasonOf(error) }, 'solana fact unknown')
      return unknown<T>(`${label}: ${reasonOf(error)}`)
    })
    const fact = Promise.race([attempt, budgetReached.then(() => unknown<T>(`${label}: not read within ${options.optionalBudgetMs} ms`))])
    // A report that fails early (no mint) leaves facts nobody awaits: their faults are not unhandled.
    fact.catch(() => undefined)
    return fact
  }

  // Stage 1: everything that needs only the address. The SOL price is awaited at the end too, so
  // that a fault reading it fails the report even when no pool asks for it.
  const solUsd = readSolUsd(ctx)
  solUsd.catch(() => undefined)
  // Read beside the mint: no round trip of its own. Without it, this machine's clock stands in.
  const clusterTime = readClusterTime(ctx).catch(() => null)
  const largest = optional('largest accounts', async () => known(await ctx.client.getTokenLargestAccounts(address, ctx.signal)))
  const creation = optional('creation', () => readCreation(ctx, address))
  const launch = optional('launch', () => readLaunch(ctx, address, creation))
  const curve = optional('launch curve', () => readPumpCurve(ctx, address))
  // The pools found (first round trip), then read and ranked by their liquidity (second): what
  // reads their liquidity providers and locks starts from the first, the deepest pools take theirs.
  const searched = optional('pools', () => searchPools(ctx, address, curve))
  const found = searched.then((s): Promise<Known<FoundPools>> => (s.ok ? optional('pools', async () => known(await describePools(ctx, s.value, address, solUsd))) : Promise.resolve(s)))
  const pools = found.then((f): Known<PoolFacts[]> => (f.ok ? known(f.value.pools) : f))
  const candidates = searched.then((s) => (s.ok ? s.value.found.map(candidateOf) : []))
  const poolLocks = startedEarly(candidates.then((list) => list.filter(hasPositionLocks)), MAX_LOCK_POOLS + EARLY_SPARE_POOLS, (pool) => readPoolLocks(ctx, pool))
  const locks = optional('locked liquidity', async () => {
    const p = await pools
    return p.ok ? known(await Promise.all(p.value.filter(hasPositionLocks).slice(0, MAX_LOCK_POOLS).map(poolLocks))) : p
  })
  // A token without a pump.fun curve may sell on a launchpad curve its pool search found, or have graduated from one.
  const launchCurve = Promise.all([curve, found]).then(([c, p]): Known<CurveFacts | null> => {
    if (!c.ok || c.value !== null) return c
    return p.ok ? known(curveOfPools(p.value.pools) ?? p.value.completedCurves[0] ?? null) : unknown(`no pump.fun curve; the launchpad curves searched with the pools are unknown: ${p.reason}`)
  })
  // A fault reading the pools fails the report where it is awaited; this copy of it is not unhandled.
  launchCurve.catch(() => undefined)
  const mint = await readMint(ctx, address)
  const embedded = embeddedMetadataOf(mint.mint.extensions, address)
  const metaplex = mint.metaplex.ok ? mint.metaplex.value.metadata : null

  // The off-chain JSON: needs only the uri, so it runs beside stages 2 and 3.
  const uri = embedded ? embedded.uri : (metaplex?.uri ?? '')
  const reader = ctx.offChain
  const offChainMetadata = reader && uri ? optional('off-chain metadata', () => reader.read(uri, ctx.signal)) : Promise.resolve(null)

  // Stage 2 and 3: what depends on the mint, its program and the stage-1 answers.
  const program = mint.tokenProgram
  const ext = mint.mint.extensions
  const holders = optional('holders', async () => {
    const l = await largest
    return l.ok ? resolveHolders(ctx, address, program, l.value.map((x) => x.address)) : l
  })
  const holderCount = ctx.limits.countHolders
    ? optional('holder count', () => countHolders(ctx, address, program))
    : Promise.resolve(unknown<number>('holder count: getProgramAccounts is turned off for this RPC'))
  // When the node refuses getProgramAccounts, a largest-accounts answer shorter than its limit
  // still lists every holder.
  const holderTotal = holderCount.then(async (count) => {
    if (count.ok) return count
    const [l, h] = await Promise.all([largest, holders])
    if (l.ok && h.ok && l.value.length < MAX_LARGEST_ACCOUNTS) return known(new Set(h.value.map((x) => x.owner)).size)
    return count
  })
  const hookProgramId = ext.transferHook?.programId
  const hookProgram = hookProgramId ? optional('transfer-hook program', () => readHookProgram(ctx, hookProgramId)) : Promise.resolve(null)
  const epoch = ext.transferFeeConfig ? optional('epoch', async () => known(await ctx.client.getEpoch(ctx.signal))) : Promise.resolve(null)
  const mintAuthority = mint.mint.mintAuthority
  const ownerBalance = mintAuthority ? optional('owner balance', () => readOwnerBalance(ctx, mintAuthority, address)) : Promise.resolve(null)
  const creatorBalance = creation.then((c) => (c.ok ? optional('creator balance', () => readOwnerBalance(ctx, c.value.creator, address)) : null))
  // The pools with liquidity providers to read: an LP token's holders, or a position venue's NFT holders.
  const hasProviders = (pool: PoolCandidate) => !!pool.lpMint || POSITION_VENUES.some((v) => v.amm === pool.amm)
  const providers = startedEarly(candidates.then((list) => list.filter(hasProviders)), 1 + MAX_OTHER_LP_POOLS + EARLY_SPARE_POOLS, (pool) => {
    const venue = POSITION_VENUES.find((v) => v.amm === pool.amm)
    return pool.lpMint || !venue ? readLiquidityProviders(ctx, pool) : readPositionHolders(ctx, pool, venue)
  })
  const providersOf = (pool: PoolCandidate, label: string) => optional(label, () => providers(pool))
  const withProviders = pools.then((p) => (p.ok ? p.value.filter(hasProviders) : []))
  // The deepest one's are the token's liquidity providers; the next ones' are read beside them, for their locks.
  const lp = withProviders.then((list) => (list[0] ? providersOf(list[0], 'liquidity providers') : null))
  const otherLps = withProviders.then((list) => Promise.all(list.slice(1, 1 + MAX_OTHER_LP_POOLS).map((pool) => providersOf(pool, `liquidity providers of ${pool.address}`))))

  // Once one fact fails the report, the others are not awaited: their failures are not unhandled.
  for (const p of [epoch, offChainMetadata, hookProgram, creation, holders, holderTotal, ownerBalance, creatorBalance, found, pools, curve, launchCurve, launch, locks, lp, otherLps]) p.catch(() => undefined)
  const facts: SolanaFacts = {
    address,
    observedAt: (await clusterTime) ?? Math.floor(Date.now() / 1000),
    cluster: options.cluster,
    tokenProgram: program,
    programName: mint.programName,
    mint: mint.mint,
    extensionNames: mint.mint.extensionTypes.map(extensionName),
    epoch: await epoch,
    metaplex: mint.metaplex,
    embeddedMetadata: embedded,
    offChainMetadata: await offChainMetadata,
    listed: null,
    sameName: sameNameReferences(ctx, embedded, mint.metaplex),
    hookProgram: await hookProgram,
    creation: await creation,
    holders: await holders,
    holderCount: await holderTotal,
    ownerBalance: await ownerBalance,
    creatorBalance: await creatorBalance,
    pools: await pools,
    curve: await launchCurve,
    launch: await launch,
    locks: await locks,
    lp: await lp,
    otherLps: await otherLps,
  }
  await solUsd
  return facts
}

/** The configured reference tokens (stablecoins, wrapped SOL) whose symbol or name the mint's metadata shares. */
function sameNameReferences(ctx: CollectContext, embedded: EmbeddedTokenMetadata | null, metaplex: SolanaFacts['metaplex']): Known<WellKnownToken[]> {
  if (!embedded && !metaplex.ok) return unknown(`the metadata could not be read (${metaplex.reason})`)
  const own = embedded ?? (metaplex.ok ? metaplex.value.metadata : null)
  const [name, symbol] = [nameKey(own?.name), nameKey(own?.symbol)]
  const references: WellKnownToken[] = [
    ...ctx.pricing.stablecoins.map((s) => ({ address: s.mint, symbol: s.symbol, name: '', source: 'reference stablecoins' })),
    { address: WRAPPED_SOL_MINT, symbol: 'SOL', name: 'Wrapped SOL', source: 'reference tokens' },
  ]
  return known(references.filter((r) => [nameKey(r.symbol), nameKey(r.name)].some((k) => k !== '' && (k === name || k === symbol))))
}

/** A failure of the node (not a refusal of a read, not bad data): it fails the report. */
function isFault(error: unknown): boolean {
  return error instanceof DeadlineError || (error instanceof SolanaRpcError && !isRefusal(error))
}

/** Token-2022 metadata embedded in the mint, when the metadata pointer (if any) points at the mint. */
function embeddedMetadataOf(ext: DecodedMint['extensions'], address: string): EmbeddedTokenMetadata | null {
  return ext.tokenMetadata && (!ext.metadataPointer || ext.metadataPointer.metadataAddress === address) ? ext.tokenMetadata : null
}
