import type { PositionVenue } from '../venues/position.ts'
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM, tokenProgramName } from '../programs.ts'
import { MAX_LARGEST_ACCOUNTS, holdersOfAccounts, withOwnerKinds } from './holders.ts'
import { known, unknown, type HolderAccount, type Known, type LpFacts, type LpLockFacts } from './facts.ts'
import { reasonOf, type CollectContext } from './context.ts'
import type { PoolCandidate } from './pools.ts'
import { tokenAccountSearches } from './holder-count.ts'
import { SolanaRpcError, isRefusal } from '../rpc/errors.ts'

/**
 * The liquidity providers of a pool that holds its liquidity in positions: its positions and
 * their locks (one search each, the round trip after the pool search), then the holder of each
 * position NFT, the largest positions first, at most MAX_LARGEST_ACCOUNTS, and the holders' kind
 * (two round trips more; see `nftHolders`). Each holder's amount is its position's liquidity; the
 * pool's is the sum of its positions'. A locked position is held for good. Unknown when the pool
 * has no position to read.
 */
export async function readPositionHolders(ctx: CollectContext, pool: PoolCandidate, venue: PositionVenue): Promise<Known<LpFacts>> {
  const [positionAccounts, lockAccounts] = await Promise.all([
    ctx.client.getProgramAccounts(venue.programId, venue.positionSearch(pool.address), undefined, ctx.signal),
    ctx.client.getProgramAccounts(venue.lockProgramId, venue.lockSearch(pool.address), undefined, ctx.signal),
  ])
  const positions = positionAccounts
    .flatMap((a) => {
      try {
        const p = venue.decodePosition(a.data)
        return p.pool === pool.address && p.liquidity > 0n ? [{ address: a.address, ...p }] : []
      } catch (error) {
        ctx.logger.warn({ position: a.address, reason: reasonOf(error) }, 'skipping a malformed position')
        return []
      }
    })
    .sort((a, b) => (a.liquidity === b.liquidity ? (a.address < b.address ? -1 : 1) : a.liquidity > b.liquidity ? -1 : 1))
  if (positions.length === 0) return unknown(`${pool.dex} pool ${pool.address} has no position with liquidity to read`)
  const total = positions.reduce((s, p) => s + p.liquidity, 0n)
  const read = positions.slice(0, MAX_LARGEST_ACCOUNTS)
  const nftHeld = await nftHolders(ctx, read.map((p) => p.nftMint))
  const holders = await withOwnerKinds(
    ctx,
    read.flatMap((p, i): (HolderAccount & { position: string })[] => {
      const h = nftHeld[i]
      return h ? [{ ...h, amount: p.liquidity, position: p.address }] : []
    }),
  )
  const locked = new Set(
    lockAccounts.flatMap((a) => {
      try {
        const lock = venue.decodeLock(a.data)
        return lock.pool === pool.address ? [lock.position] : []
      } catch (error) {
        ctx.logger.warn({ lock: a.address, reason: reasonOf(error) }, 'skipping a malformed position lock')
        return []
      }
    }),
  )
  const lockers: LpLockFacts[] = holders
    .filter((h) => locked.has(h.position))
    .map((h) => ({ locker: venue.lockName, address: h.position, holder: h.tokenAccount, recipient: '', locked: h.amount, permanent: true, unlocks: [], notLocked: '' }))
  return known({
    pool: pool.address,
    lpMint: '',
    decimals: 0,
    supply: total,
    issued: null,
    holders: holders.map(({ position: _position, ...h }) => h),
    complete: positions.length <= MAX_LARGEST_ACCOUNTS && holders.length === read.length,
    lockers: known(lockers),
  })
}

/** The node named an account of a position NFT that is not one. */
const lyingAbout = (method: string) => (what: string) => new SolanaRpcError(method, 'malformed', `the node's accounts of a position NFT are not its: ${what}`)

/**
 * The account holding each position NFT (null: none holds it), its owner's kind not read yet.
 * Where the node answers the token programs' searches by mint (the holder count's), one round
 * trip: the accounts of each NFT under either token program, with their owners. Otherwise, or
 * when the node refuses them: the NFTs' largest accounts and mints, then those accounts (two).
 */
async function nftHolders(ctx: CollectContext, nfts: string[]): Promise<(HolderAccount | null)[]> {
  if (ctx.limits.countHolders) {
    const searched = await Promise.allSettled(
      nfts.map(async (nft) => {
        const answers = await Promise.all(
          [TOKEN_PROGRAM, TOKEN_2022_PROGRAM].flatMap((program) =>
            tokenAccountSearches(program, nft).map(async (filter) => {
              const accounts = await ctx.client.getProgramAccounts(program, filter, undefined, ctx.signal)
              return holdersOfAccounts(nft, program, accounts.map((account) => ({ address: account.address, account })), lyingAbout('getProgramAccounts'))
            }),
          ),
        )
        return largestOf(answers.flat())
      }),
    )
    const failed = searched.find((s): s is PromiseRejectedResult => s.status === 'rejected')
    if (failed && !isRefusal(failed.reason)) throw failed.reason
    if (!failed) return searched.map((s) => (s.status === 'fulfilled' ? s.value : null))
    ctx.logger.debug({ reason: reasonOf(failed.reason) }, 'position NFT holders: token account search refused, reading largest accounts')
  }
  const [largest, mints] = await Promise.all([Promise.all(nfts.map((nft) => ctx.client.getTokenLargestAccounts(nft, ctx.signal))), ctx.loader.loadMany(nfts)])
  const chosen = nfts.map((_, i) => {
    const program = mints[i] && tokenProgramName(mints[i]!.owner) ? mints[i]!.owner : undefined
    const account = largest[i].find((l) => l.amount > 0n)
    return program && account ? { program, address: account.address } : null
  })
  const accounts = await ctx.loader.loadMany(chosen.flatMap((c) => (c ? [c.address] : [])))
  let next = 0
  return chosen.map((c, i) => {
    if (!c) return null
    const account = accounts[next++]
    return largestOf(holdersOfAccounts(nfts[i], c.program, [{ address: c.address, account }], lyingAbout('getTokenLargestAccounts')))
  })
}

/** The account with the most of the NFT (an NFT has one; more is not an NFT's supply, the largest is taken), null when none holds it. */
function largestOf(holders: HolderAccount[]): HolderAccount | null {
  return holders.reduce<HolderAccount | null>((best, h) => (!best || h.amount > best.amount || (h.amount === best.amount && h.tokenAccount < best.tokenAccount) ? h : best), null)
}
