import type { AmmDefinition, DecodedPool } from '../decode/pools.ts'
import { DBC_POOL_CONFIG, DBC_VIRTUAL_POOL as L } from './program-layouts.ts'
import { expectLayout, fieldReader } from './venue.ts'
import { MalformedAccountError } from '../decode/reader.ts'
import { METEORA_DAMM_V1 } from './meteora-damm-v1.ts'
import { METEORA_DAMM_V2 } from './meteora-damm-v2.ts'

const PERCENT = 100
/** Where a DBC config's `migration_option` sends a completed curve's liquidity, as the program's IDL numbers it (MigrationOption). */
const MIGRATES_TO: Record<number, string[]> = { 0: [METEORA_DAMM_V1.name], 1: [METEORA_DAMM_V2.name] }

/**
 * Meteora DBC (the dynamic bonding curve program): a `VirtualPool` per token on its curve, as the
 * program's IDL lays it out, priced at its `sqrt_price` (Q64.64, quote per base in base units),
 * its reserves the ones it states. The quote mint and the quote to raise before migration are in
 * the pool's `PoolConfig` (read after the search); progress is the quote raised toward it.
 */
export const METEORA_DBC: AmmDefinition = {
  id: 'meteora-dbc',
  name: 'Meteora DBC',
  programId: L.program,
  // The base mint only: a DBC pool sells its own token against a quote named in its config.
  searches: (mint) => [{ dataSize: L.size!, memcmp: [{ offset: L.fields['pool_state.base_mint'].offset, bytes: mint }] }],
  decode: (data) => decodeDbc(data, null),
  related: {
    address: (data) => fieldReader(L, data, 'Meteora DBC pool').address('pool_state.config'),
    decode: (data, config) => decodeDbc(data, config),
  },
}

function decodeDbc(data: Uint8Array, config: Uint8Array | null): DecodedPool {
  const what = 'Meteora DBC pool'
  expectLayout(L, data, what, true)
  const f = fieldReader(L, data, what)
  if (!config) throw new MalformedAccountError(`${what}: read without its config`)
  expectLayout(DBC_POOL_CONFIG, config, 'Meteora DBC config', true)
  const c = fieldReader(DBC_POOL_CONFIG, config, 'Meteora DBC config')
  const quoteReserve = f.u64('pool_state.quote_reserve')
  const threshold = c.u64('migration_quote_threshold')
  const complete = f.u8('pool_state.is_migrated') !== 0
  return {
    mintA: f.address('pool_state.base_mint'),
    mintB: c.address('quote_mint'),
    vaultA: f.address('pool_state.base_vault'),
    vaultB: f.address('pool_state.quote_vault'),
    feesOwedA: 0n,
    feesOwedB: 0n,
    lpMint: null,
    lpIssued: null,
    sqrtPriceX64: f.u128('pool_state.sqrt_price'),
    reserves: { a: f.u64('pool_state.base_reserve'), b: quoteReserve },
    swapEnabled: !complete,
    curve: {
      complete,
      creator: f.address('pool_state.creator'),
      progressPercent: complete ? PERCENT : threshold > 0n ? Math.min(PERCENT, Number((quoteReserve * 10_000n) / threshold) / PERCENT) : undefined,
      virtualToken: 0n,
      virtualQuote: 0n,
      graduatesTo: MIGRATES_TO[c.u8('migration_option')] ?? [METEORA_DAMM_V1.name, METEORA_DAMM_V2.name],
    },
  }
}
