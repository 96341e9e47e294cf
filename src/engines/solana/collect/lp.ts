import { decodeTokenProgramAccount } from '../decode/token.ts'
import { tokenProgramName } from '../programs.ts'
import { MAX_LARGEST_ACCOUNTS, resolveHolders } from './holders.ts'
import { known, unknown, type Known, type LpFacts, type PoolFacts } from './facts.ts'
import type { CollectContext } from './context.ts'

/**
 * LP tokens of the token's deepest constant-product pool: the LP mint's supply and largest
 * holders (who could pull the liquidity), and what the pool counts as issued (the gap is burned).
 */
export async function readLiquidityProviders(ctx: CollectContext, pool: PoolFacts): Promise<Known<LpFacts>> {
  if (!pool.lpMint) return unknown(`${pool.dex} pools have no LP token`)
  const lpMint = pool.lpMint
  const [mintAccount, largest] = await Promise.all([ctx.loader.load(lpMint), ctx.client.getTokenLargestAccounts(lpMint, ctx.signal)])
  if (!mintAccount) return unknown(`the LP mint ${lpMint} does not exist`)
  const program = tokenProgramName(mintAccount.owner)
  if (!program) return unknown(`the LP mint ${lpMint} is not owned by a token program`)
  const decoded = decodeTokenProgramAccount(mintAccount.data, program)
  if (decoded.kind !== 'mint') return unknown(`${lpMint} is not a mint`)
  const holders = await resolveHolders(ctx, lpMint, mintAccount.owner, largest.map((l) => l.address))
  if (!holders.ok) return holders
  return known({ pool: pool.address, lpMint, decimals: decoded.mint.decimals, supply: decoded.mint.supply, issued: pool.lpIssued, holders: holders.value, complete: largest.length < MAX_LARGEST_ACCOUNTS })
}
