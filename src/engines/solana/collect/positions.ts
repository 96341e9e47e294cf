import type { PositionVenue } from '../venues/position.ts'
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM, tokenProgramName } from '../programs.ts'
import { MAX_LARGEST_ACCOUNTS, holdersOfAccounts, largestFirst, withOwnerKinds } from './holders.ts'
import { known, unknown, type HolderAccount, type Known, type LpFacts, type LpLockFacts } from './facts.ts'
import { reasonOf, type CollectContext } from './context.ts'
import type { PoolCandidate } from './pools.ts'
import { extendedTokenAccountSearch, plainTokenAccountSearch } from './holder-count.ts'
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
 * Position NFTs whose holder is searched by mint, at most (the largest positions); the others' are
 * read by largest account. Two searches each: the requests stay about those of reading them all by
 * largest account.
 */
export const MAX_SEARCHED_POSITION_NFTS = 10
/**
 * How long those searches may take before the NFTs' holders are read by largest account instead: a
 * node without an index of token accounts by mint scans the whole program, which the report must not
 * wait for.
 */
export const NFT_SEARCH_MS = 2_000

/** The token programs' searches of position NFTs took longer than NFT_SEARCH_MS. */
class NftSearchTooSlow extends Error {
  override name = 'NftSearchTooSlow'
}

/**
 * The account holding each position NFT (null: none holds it), its owner's kind not read yet.
 * Where the node answers the token programs' searches by mint (the holder count's), one round trip
 * for the largest MAX_SEARCHED_POSITION_NFTS positions: each NFT's accounts of 165 bytes under SPL
 * Token and its extended ones under Token-2022 (the associated accounts that hold NFTs), with their
 * owners. The other positions, an NFT neither search finds, and every one when the node refuses the
 * searches, takes longer than NFT_SEARCH_MS or they are turned off: the NFT's largest account and
 * mint, then that account (two).
 */
async function nftHolders(ctx: CollectContext, nfts: string[]): Promise<(HolderAccount | null)[]> {
  const searchedCount = ctx.limits.countHolders ? Math.min(nfts.length, MAX_SEARCHED_POSITION_NFTS) : 0
  // The positions beyond the searched ones are read by largest account from the start.
  const beyond = nftsByLargestAccount(ctx, nfts.slice(searchedCount))
  beyond.catch(() => undefined)
  const slow = new AbortController()
  const timer = setTimeout(() => slow.abort(new NftSearchTooSlow(`the token programs' searches took more than ${NFT_SEARCH_MS} ms`)), NFT_SEARCH_MS)
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, slow.signal]) : slow.signal
  const searched = await Promise.allSettled(
    nfts.slice(0, searchedCount).map(async (nft) => {
      const searches = [
        [TOKEN_PROGRAM, plainTokenAccountSearch(nft)],
        [TOKEN_2022_PROGRAM, extendedTokenAccountSearch(nft)],
      ] as const
      const answers = await Promise.all(
        searches.map(async ([program, filter]) => {
          const accounts = await ctx.client.getProgramAccounts(program, filter, undefined, signal)
          return holdersOfAccounts(nft, program, accounts.map((account) => ({ address: account.address, account })), lyingAbout('getProgramAccounts'))
        }),
      )
      return largestOf(answers.flat())
    }),
  )
  clearTimeout(timer)
  // The report's own deadline passing is its failure; the searches' time running out is not.
  const fault = searched.find((s): s is PromiseRejectedResult => s.status === 'rejected' && !isRefusal(s.reason) && !(s.reason instanceof NftSearchTooSlow))
  if (fault) throw fault.reason
  const failed = searched.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failed) ctx.logger.debug({ reason: reasonOf(failed.reason) }, 'position NFT holders: token account search refused or too slow, reading largest accounts')
  const found = searched.map((s) => (s.status === 'fulfilled' ? s.value : null))
  // Not found by the search (refused, or held in an account of another shape): by largest account.
  const missing = found.flatMap((h, i) => (h ? [] : [i]))
  const again = await nftsByLargestAccount(ctx, missing.map((i) => nfts[i]))
  missing.forEach((i, k) => (found[i] = again[k]))
  return [...found, ...(await beyond)]
}

/** The account holding each NFT by its largest account (the NFT's mint read beside it for its program), then that account: two round trips. */
async function nftsByLargestAccount(ctx: CollectContext, nfts: string[]): Promise<(HolderAccount | null)[]> {
  if (nfts.length === 0) return []
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
  return [...holders].sort(largestFirst)[0] ?? null
}
