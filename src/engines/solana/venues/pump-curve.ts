import { getAddressEncoder, getProgramDerivedAddress, type Address } from '@solana/kit'
import { ASSOCIATED_TOKEN_PROGRAM, SYSTEM_PROGRAM, WRAPPED_SOL_MINT } from '../programs.ts'
import { PUMP_BONDING_CURVE, PUMP_GLOBAL } from './program-layouts.ts'
import type { PoolSearch } from '../decode/pools.ts'
import { discriminatorFilter, expectLayout, fieldReader } from './venue.ts'

/** The pump.fun launchpad program. */
export const PUMP_PROGRAM = PUMP_BONDING_CURVE.program
export const PUMP_CURVE_NAME = 'pump.fun bonding curve'

const enc = getAddressEncoder()
const text = (s: string) => new TextEncoder().encode(s)

/** The bonding curve of a mint: the PDA of ["bonding-curve", mint] under the pump.fun program. */
export async function pumpCurveAddress(mint: string): Promise<string> {
  const [pda] = await getProgramDerivedAddress({ programAddress: PUMP_PROGRAM as Address, seeds: [text('bonding-curve'), enc.encode(mint as Address)] })
  return pda
}

/** The pump.fun curves a creator launched: one search, bounded by the curve's discriminator and the creator at its offset. */
export function curvesByCreatorSearch(creator: string): PoolSearch {
  return { memcmp: [discriminatorFilter(PUMP_BONDING_CURVE), { offset: PUMP_BONDING_CURVE.fields.creator.offset, bytes: creator }] }
}

/** The launchpad's settings: the PDA of ["global"] (it holds the curve's initial reserves). */
export async function pumpGlobalAddress(): Promise<string> {
  const [pda] = await getProgramDerivedAddress({ programAddress: PUMP_PROGRAM as Address, seeds: [text('global')] })
  return pda
}

/** The associated token account of `owner` for `mint` under `tokenProgram` (the curve's token vault). */
export async function associatedTokenAddress(owner: string, mint: string, tokenProgram: string): Promise<string> {
  const [pda] = await getProgramDerivedAddress({
    programAddress: ASSOCIATED_TOKEN_PROGRAM as Address,
    seeds: [enc.encode(owner as Address), enc.encode(tokenProgram as Address), enc.encode(mint as Address)],
  })
  return pda
}

export interface DecodedCurve {
  virtualTokenReserve: bigint
  virtualQuoteReserve: bigint
  realTokenReserve: bigint
  realQuoteReserve: bigint
  tokenTotalSupply: bigint
  complete: boolean
  creator: string
  /** The quote the curve sells against: wrapped SOL for curves that name none. */
  quoteMint: string
}

/** A `BondingCurve` account, as the program's IDL lays it out (older, shorter curves included). */
export function decodePumpCurve(data: Uint8Array): DecodedCurve {
  const what = 'pump.fun bonding curve'
  const L = PUMP_BONDING_CURVE
  const f = fieldReader(L, data, what)
  const withQuote = data.length >= L.fields.quote_mint.offset + 32
  // Curves created before the quote mint existed end after `creator`.
  expectLayout({ ...L, fields: withQuote ? L.fields : { creator: L.fields.creator } }, data, what)
  const quote = withQuote ? f.address('quote_mint') : SYSTEM_PROGRAM
  return {
    virtualTokenReserve: f.u64('virtual_token_reserves'),
    virtualQuoteReserve: f.u64(f.has('virtual_quote_reserves') ? 'virtual_quote_reserves' : 'virtual_sol_reserves'),
    realTokenReserve: f.u64('real_token_reserves'),
    realQuoteReserve: f.u64(f.has('real_quote_reserves') ? 'real_quote_reserves' : 'real_sol_reserves'),
    tokenTotalSupply: f.u64('token_total_supply'),
    complete: f.bool('complete'),
    creator: f.address('creator'),
    quoteMint: quote === SYSTEM_PROGRAM ? WRAPPED_SOL_MINT : quote,
  }
}

/** The tokens a new curve sells before it graduates, from the launchpad's `Global` account. */
export function decodePumpInitialRealTokens(data: Uint8Array): bigint {
  const what = 'pump.fun global settings'
  expectLayout(PUMP_GLOBAL, data, what)
  return fieldReader(PUMP_GLOBAL, data, what).u64('initial_real_token_reserves')
}
