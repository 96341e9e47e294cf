import { getAddressDecoder } from '@solana/kit'
import { TOKEN_ACCOUNT_SIZE } from '../decode/token.ts'
import { TOKEN_2022_PROGRAM } from '../programs.ts'
import type { ProgramAccountsFilter } from '../rpc/client.ts'
import { known, type Known } from './facts.ts'
import type { CollectContext } from './context.ts'

/** Offsets in a token account: mint at 0, owner at 32, amount at 64. */
const OWNER_OFFSET = 32
const OWNER_AND_AMOUNT_LENGTH = 40
/** Token-2022 accounts with extensions carry AccountType::Account (2) right after the base. */
const TOKEN_2022_ACCOUNT_TYPE_BYTE = '3' // base58 of [2]

/**
 * Number of distinct owners holding a non-zero balance of `mint`, from getProgramAccounts over
 * the mint's program (filtered by mint, sliced to owner and amount). Token-2022 accounts with
 * extensions are longer than 165 bytes, so that program is asked twice (plain and extended).
 * Throws when the node refuses or the answer is too large; the caller reports the count unknown.
 */
export async function countHolders(ctx: CollectContext, mint: string, tokenProgram: string): Promise<Known<number>> {
  const slice = { offset: OWNER_OFFSET, length: OWNER_AND_AMOUNT_LENGTH }
  const queries = tokenAccountSearches(tokenProgram, mint).map((filter) => ctx.client.getProgramAccounts(tokenProgram, filter, slice, ctx.signal))
  const results = (await Promise.all(queries)).flat()
  const decoder = getAddressDecoder()
  const owners = new Set<string>()
  const seen = new Set<string>()
  for (const { address, data } of results) {
    if (seen.has(address) || data.length < OWNER_AND_AMOUNT_LENGTH) continue
    seen.add(address)
    const amount = new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(32, true)
    if (amount > 0n) owners.add(decoder.decode(data.subarray(0, 32)))
  }
  return known(owners.size)
}

/**
 * The searches (getProgramAccounts filters) that list every token account of `mint` under
 * `tokenProgram`, in the shapes nodes answer from their index of token accounts by mint: 165-byte
 * accounts with the mint at offset 0, and for Token-2022 also the longer ones with extensions.
 */
export function tokenAccountSearches(tokenProgram: string, mint: string): ProgramAccountsFilter[] {
  if (tokenProgram !== TOKEN_2022_PROGRAM) return [plainTokenAccountSearch(mint)]
  return [plainTokenAccountSearch(mint), extendedTokenAccountSearch(mint)]
}

/** Token accounts of `mint` of 165 bytes (every SPL Token account; a Token-2022 one without extensions). */
export function plainTokenAccountSearch(mint: string): ProgramAccountsFilter {
  return { dataSize: TOKEN_ACCOUNT_SIZE, memcmp: [{ offset: 0, bytes: mint }] }
}

/** Token-2022 accounts of `mint` with extensions (an associated account: its owner immutable). */
export function extendedTokenAccountSearch(mint: string): ProgramAccountsFilter {
  return { memcmp: [{ offset: 0, bytes: mint }, { offset: TOKEN_ACCOUNT_SIZE, bytes: TOKEN_2022_ACCOUNT_TYPE_BYTE }] }
}
