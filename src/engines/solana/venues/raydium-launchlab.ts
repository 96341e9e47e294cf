import { RAYDIUM_AMM_V4, RAYDIUM_CPMM, type AmmDefinition, type DecodedPool } from '../decode/pools.ts'
import { RAYDIUM_LAUNCHLAB_CONFIG as C, RAYDIUM_LAUNCHLAB_POOL_STATE as L } from './program-layouts.ts'
import { expectLayout, fieldReader } from './venue.ts'
import { MalformedAccountError } from '../decode/reader.ts'

/** `status` of a LaunchLab pool still selling on its curve (1: migrating, 2: migrated, trading elsewhere). */
const STATUS_FUNDING = 0
const PERCENT = 100
/** `curveType` of a LaunchLab config, as Raydium's SDK numbers its curves. */
const CURVE_CONSTANT_PRODUCT = 0
const CURVE_FIXED_PRICE = 1
const CURVE_LINEAR_PRICE = 2
/** Where a LaunchLab pool's `migrateType` sends its liquidity when its sale completes, as Raydium's SDK numbers it. */
const MIGRATES_TO: Record<number, string[]> = { 0: [RAYDIUM_AMM_V4.name], 1: [RAYDIUM_CPMM.name] }
/** A linear curve's slope (`virtualA`) is Q64.64. */
const Q64 = 2 ** 64

/**
 * Raydium LaunchLab (the launchpad program): a `PoolState` per token on its curve, as Raydium's
 * SDK lays it out, and the launchpad config it names (`configId`, read after the search), whose
 * `curveType` says how the curve prices, B per A in base units, as Raydium's SDK does:
 * constant product on virtual reserves, (virtualB + realB) / (virtualA − realA); fixed price,
 * virtualB / virtualA; linear price, virtualA (a Q64.64 slope) times the tokens sold (realA).
 * The curve sells `totalSellA` of token A for B; its reserves are the tokens left to sell and
 * the quote raised.
 */
export const RAYDIUM_LAUNCHLAB: AmmDefinition = {
  id: 'raydium-launchlab',
  name: 'Raydium LaunchLab',
  programId: L.program,
  // Token A only: a LaunchLab pool sells its own token (A) for a quote (B); searching B would list every
  // launch paid in a quote token (SOL, a stablecoin), unbounded.
  searches: (mint) => [{ dataSize: L.size!, memcmp: [{ offset: L.fields.mintA.offset, bytes: mint }] }],
  decode: (data) => decodeLaunchLab(data, null),
  related: {
    address: (data) => fieldReader(L, data, 'Raydium LaunchLab pool').address('configId'),
    decode: (data, config) => decodeLaunchLab(data, config),
  },
}

function decodeLaunchLab(data: Uint8Array, config: Uint8Array | null): DecodedPool {
  const what = 'Raydium LaunchLab pool'
  expectLayout(L, data, what, true)
  const f = fieldReader(L, data, what)
  if (!config) throw new MalformedAccountError(`${what}: read without its config`)
  expectLayout(C, config, 'Raydium LaunchLab config', true)
  const curveType = fieldReader(C, config, 'Raydium LaunchLab config').u8('curveType')
  const [virtualA, virtualB, realA, realB, totalSellA] = [f.u64('virtualA'), f.u64('virtualB'), f.u64('realA'), f.u64('realB'), f.u64('totalSellA')]
  const complete = f.u8('status') !== STATUS_FUNDING
  const constantProduct = curveType === CURVE_CONSTANT_PRODUCT
  return {
    mintA: f.address('mintA'),
    mintB: f.address('mintB'),
    vaultA: f.address('vaultA'),
    vaultB: f.address('vaultB'),
    feesOwedA: 0n,
    feesOwedB: 0n,
    lpMint: null,
    lpIssued: null,
    sqrtPriceX64: null,
    rawPriceBPerA: curvePrice(curveType, virtualA, virtualB, realA, realB),
    reserves: { a: totalSellA > realA ? totalSellA - realA : 0n, b: realB },
    swapEnabled: !complete,
    curve: {
      complete,
      creator: f.address('creator'),
      progressPercent: complete ? PERCENT : totalSellA > 0n ? Math.min(PERCENT, Number((realA * 10_000n) / totalSellA) / PERCENT) : undefined,
      // Only a constant-product curve prices on virtual reserves.
      virtualToken: constantProduct ? virtualA : 0n,
      virtualQuote: constantProduct ? virtualB : 0n,
      graduatesTo: MIGRATES_TO[f.u8('migrateType')] ?? [RAYDIUM_AMM_V4.name, RAYDIUM_CPMM.name],
    },
  }
}

/** B per A in base units on the curve; undefined for a curve type this engine does not know (no price rather than a wrong one). */
function curvePrice(curveType: number, virtualA: bigint, virtualB: bigint, realA: bigint, realB: bigint): number | undefined {
  switch (curveType) {
    case CURVE_CONSTANT_PRODUCT:
      return virtualA > realA ? Number(virtualB + realB) / Number(virtualA - realA) : undefined
    case CURVE_FIXED_PRICE:
      return virtualA > 0n ? Number(virtualB) / Number(virtualA) : undefined
    case CURVE_LINEAR_PRICE:
      return (Number(virtualA) * Number(realA)) / Q64
    default:
      return undefined
  }
}
