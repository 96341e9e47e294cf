import type { PositionVenue } from '../venues/position.ts'
import { tokenProgramName } from '../programs.ts'
import { MAX_LARGEST_ACCOUNTS, resolveHolders } from './holders.ts'
import { known, unknown, type HolderAccount, type Known, type LpFacts, type LpLockFacts, type PoolFacts } from './facts.ts'
import { reasonOf, type CollectContext } from './context.ts'

/**
 * The liquidity providers of a pool that holds its liquidity in positions: its positions and
 * their locks (one search each), then the holder of each position NFT, the largest positions
 * first, at most MAX_LARGEST_ACCOUNTS (largest account of each NFT, the NFT mints, the token
 * accounts, their owners: four round trips after the pools). Each holder's amount is its
 * position's liquidity; the pool's is the sum of its positions'. A locked position is held for
 * good. Unknown when the pool has no position to read.
 */
export async function readPositionHolders(ctx: CollectContext, pool: PoolFacts, venue: PositionVenue): Promise<Known<LpFacts>> {
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
  const [largest, mints] = await Promise.all([Promise.all(read.map((p) => ctx.client.getTokenLargestAccounts(p.nftMint, ctx.signal))), ctx.loader.loadMany(read.map((p) => p.nftMint))])
  const held = await Promise.all(
    read.map(async (p, i) => {
      const program = mints[i] && tokenProgramName(mints[i]!.owner) ? mints[i]!.owner : undefined
      const account = largest[i].find((l) => l.amount > 0n)
      if (!program || !account) return []
      const holders = await resolveHolders(ctx, p.nftMint, program, [account.address])
      return holders.ok ? holders.value.map((h): HolderAccount & { position: string } => ({ ...h, amount: p.liquidity, position: p.address })) : []
    }),
  )
  const holders = held.flat()
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
  holders.sort((a, b) => (a.amount === b.amount ? (a.tokenAccount < b.tokenAccount ? -1 : 1) : a.amount > b.amount ? -1 : 1))
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
