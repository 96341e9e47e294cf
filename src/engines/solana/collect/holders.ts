import { isOffCurveAddress, type Address } from '@solana/kit'
import { decodeTokenAccountBase } from '../decode/token.ts'
import { SolanaRpcError } from '../rpc/errors.ts'
import { known, type HolderAccount, type Known } from './facts.ts'
import type { CollectContext } from './context.ts'

/** getTokenLargestAccounts answers at most this many accounts. */
export const MAX_LARGEST_ACCOUNTS = 20

/**
 * The largest token accounts of `mint` (getTokenLargestAccounts: at most 20), resolved to their
 * owners, each owner marked when it is program-controlled (off-curve) or a program itself. Every
 * account is checked to belong to `mint` under `tokenProgram`: a node that lies about it fails
 * the report (SolanaRpcError, 503) rather than making a list wrong or leaving it unknown.
 */
export async function readLargestHolders(ctx: CollectContext, mint: string, tokenProgram: string): Promise<Known<HolderAccount[]>> {
  const largest = await ctx.client.getTokenLargestAccounts(mint, ctx.signal)
  return resolveHolders(ctx, mint, tokenProgram, largest.map((l) => l.address))
}

/** The node named a largest account that is not one of the mint's. */
const lying = (what: string) => new SolanaRpcError('getTokenLargestAccounts', 'malformed', `the node's largest accounts are not the mint's: ${what}`)

/** Reads token accounts and their owners (one batched call each). */
export async function resolveHolders(ctx: CollectContext, mint: string, tokenProgram: string, tokenAccounts: string[]): Promise<Known<HolderAccount[]>> {
  const accounts = await ctx.loader.loadMany(tokenAccounts)
  const holders = holdersOfAccounts(
    mint,
    tokenProgram,
    accounts.map((account, i) => ({ address: tokenAccounts[i], account })),
    lying,
  )
  return known(await withOwnerKinds(ctx, holders))
}

/**
 * The holders the token accounts of `mint` name (those with a balance), each checked to be an
 * account of `mint` under `tokenProgram`: an answer that is not fails with `lie(what)`. Their owners'
 * kind is not read yet (see `withOwnerKinds`).
 */
export function holdersOfAccounts(
  mint: string,
  tokenProgram: string,
  accounts: { address: string; account: { owner: string; data: Uint8Array } | null }[],
  lie: (what: string) => Error,
): HolderAccount[] {
  const holders: HolderAccount[] = []
  for (const { address, account } of accounts) {
    if (!account) continue // closed between the two reads
    if (account.owner !== tokenProgram) throw lie(`token account ${address} is owned by ${account.owner}, not by the mint's program`)
    const decoded = decodeTokenAccountBase(account.data)
    if (decoded.mint !== mint) throw lie(`token account ${address} belongs to mint ${decoded.mint}, not ${mint}`)
    if (decoded.amount === 0n) continue
    holders.push({
      tokenAccount: address,
      owner: decoded.owner,
      amount: decoded.amount,
      frozen: decoded.state === 'frozen',
      ownerIsOffCurve: isOffCurveAddress(decoded.owner as Address),
      ownerExecutable: null,
    })
  }
  return holders
}

/** The holders with their owners' kind (a program itself or not: one batched read), largest first. */
export async function withOwnerKinds<T extends HolderAccount>(ctx: CollectContext, holders: T[]): Promise<T[]> {
  const owners = [...new Set(holders.map((h) => h.owner))]
  const ownerAccounts = await ctx.loader.loadMany(owners)
  const executable = new Map(owners.map((o, i) => [o, ownerAccounts[i]?.executable ?? false]))
  for (const h of holders) h.ownerExecutable = executable.get(h.owner) ?? null
  holders.sort(largestFirst)
  return holders
}

/** Holders largest first; equal balances in token-account order, so a list does not depend on the node. */
export function largestFirst(a: HolderAccount, b: HolderAccount): number {
  return a.amount === b.amount ? (a.tokenAccount < b.tokenAccount ? -1 : 1) : a.amount > b.amount ? -1 : 1
}
