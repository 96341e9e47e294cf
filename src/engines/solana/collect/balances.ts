import { decodeTokenAccountBase } from '../decode/token.ts'
import { known, type Known } from './facts.ts'
import type { CollectContext } from './context.ts'

/** Total balance of `mint` over every token account `owner` has (getTokenAccountsByOwner). */
export async function readOwnerBalance(ctx: CollectContext, owner: string, mint: string): Promise<Known<bigint>> {
  const accounts = await ctx.client.getTokenAccountsByOwner(owner, mint, ctx.signal)
  let total = 0n
  for (const { data } of accounts) {
    const account = decodeTokenAccountBase(data)
    if (account.mint === mint && account.owner === owner) total += account.amount
  }
  return known(total)
}
