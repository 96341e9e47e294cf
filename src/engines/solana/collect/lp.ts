import { decodeTokenProgramAccount } from '../decode/token.ts'
import { tokenProgramName } from '../programs.ts'
import { MAX_LARGEST_ACCOUNTS, resolveHolders } from './holders.ts'
import { known, unknown, type HolderAccount, type Known, type LpFacts, type LpLockFacts } from './facts.ts'
import type { PoolCandidate } from './pools.ts'
import { reasonOf, type CollectContext } from './context.ts'
import { LP_LOCKERS } from '../venues/registry.ts'
import { isRefusal } from '../rpc/errors.ts'

/**
 * LP tokens of the token's deepest constant-product pool: the LP mint's supply and largest
 * holders (who could pull the liquidity), what the pool counts as issued (the gap is burned), and
 * the LP held by lock programs: the lock accounts of the LP mint (one search per locker with a
 * schedule, beside the largest accounts), the pool's own lock accounts (one search, for an AMM
 * that locks its LP itself) and what a permanent locker's authority holds among the largest holders.
 */
export async function readLiquidityProviders(ctx: CollectContext, pool: PoolCandidate): Promise<Known<LpFacts>> {
  if (!pool.lpMint) return unknown(`${pool.dex} pools have no LP token`)
  const lpMint = pool.lpMint
  const lockSearch = searchLocks(ctx, lpMint, pool)
  lockSearch.catch(() => undefined)
  const [mintAccount, largest] = await Promise.all([ctx.loader.load(lpMint), ctx.client.getTokenLargestAccounts(lpMint, ctx.signal)])
  if (!mintAccount) return unknown(`the LP mint ${lpMint} does not exist`)
  const program = tokenProgramName(mintAccount.owner)
  if (!program) return unknown(`the LP mint ${lpMint} is not owned by a token program`)
  const decoded = decodeTokenProgramAccount(mintAccount.data, program)
  if (decoded.kind !== 'mint') return unknown(`${lpMint} is not a mint`)
  const holders = await resolveHolders(ctx, lpMint, mintAccount.owner, largest.map((l) => l.address))
  if (!holders.ok) return holders
  const scheduled = await lockSearch
  const lockers = scheduled.ok ? known([...scheduled.value, ...permanentLocks(holders.value)]) : scheduled
  return known({ pool: pool.address, lpMint, decimals: decoded.mint.decimals, supply: decoded.mint.supply, issued: pool.lpIssued, holders: holders.value, complete: largest.length < MAX_LARGEST_ACCOUNTS, lockers })
}

/**
 * Lock accounts of the LP mint in the lockers that keep a schedule, and of the pool in its AMM's
 * own lock (locked for good); a node refusing a search leaves them unknown.
 */
async function searchLocks(ctx: CollectContext, lpMint: string, pool: PoolCandidate): Promise<Known<LpLockFacts[]>> {
  if (!ctx.limits.searchPools) return unknown('program account searches are turned off for this RPC')
  const now = Math.floor(Date.now() / 1000)
  const searches = LP_LOCKERS.flatMap((locker) =>
    locker.kind === 'pool'
      ? locker.amm !== pool.amm
        ? []
        : locker.searches(pool.address).map(async (search) => {
            const accounts = await ctx.client.getProgramAccounts(locker.programId, search, undefined, ctx.signal)
            return accounts.flatMap((a): LpLockFacts[] => {
              try {
                const lock = locker.decode(a.address, a.data)
                if (lock.pool !== pool.address) return []
                // The lock account owns the LP token account it keeps: the LP holders' owners read it no more.
                if (!a.sliced) ctx.loader.remember(a)
                return [{ locker: locker.name, address: a.address, holder: lock.holder, recipient: lock.recipient, locked: lock.locked, permanent: true, unlocks: [], notLocked: '' }]
              } catch (error) {
                ctx.logger.warn({ lock: a.address, locker: locker.id, reason: reasonOf(error) }, 'skipping a malformed lock account')
                return []
              }
            })
          })
      : locker.kind !== 'schedule'
      ? []
      : locker.searches(lpMint).map(async (search) => {
          const accounts = await ctx.client.getProgramAccounts(locker.programId, search, undefined, ctx.signal)
          return accounts.flatMap((a): LpLockFacts[] => {
            try {
              const lock = locker.decode(a.address, a.data, now)
              if (lock.mint !== lpMint) return []
              // A lock whose unlocks are all past holds what its recipient can take: nothing is locked.
              const notLocked = lock.notLocked || (lock.locked === 0n ? 'every unlock is past' : '')
              return [{ locker: locker.name, address: a.address, holder: lock.holder, recipient: lock.recipient, locked: notLocked ? 0n : lock.locked, permanent: false, unlocks: notLocked ? [] : lock.unlocks, notLocked }]
            } catch (error) {
              ctx.logger.warn({ lock: a.address, locker: locker.id, reason: reasonOf(error) }, 'skipping a malformed lock account')
              return []
            }
          })
        }),
  )
  const settled = await Promise.allSettled(searches)
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failed && !isRefusal(failed.reason)) throw failed.reason
  if (failed) return unknown(`lock search failed: ${reasonOf(failed.reason)}`)
  return known(settled.flatMap((s) => (s.status === 'fulfilled' ? s.value : [])))
}

/** What the authorities of permanent lockers hold among the LP's largest holders. */
function permanentLocks(holders: HolderAccount[]): LpLockFacts[] {
  return LP_LOCKERS.flatMap((locker) =>
    locker.kind !== 'permanent'
      ? []
      : holders
          .filter((h) => h.owner === locker.authority)
          .map((h) => ({ locker: locker.name, address: locker.authority, holder: h.tokenAccount, recipient: '', locked: h.amount, permanent: true, unlocks: [], notLocked: '' })),
  )
}
