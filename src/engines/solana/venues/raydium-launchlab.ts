import type { AmmDefinition } from '../decode/pools.ts'
import { RAYDIUM_LAUNCHLAB_POOL_STATE as L } from './program-layouts.ts'
import { expectLayout, fieldReader } from './venue.ts'

/** `status` of a LaunchLab pool still selling on its curve (1: migrating, 2: migrated, trading elsewhere). */
const STATUS_FUNDING = 0
const PERCENT = 100

/**
 * Raydium LaunchLab (the launchpad program): a `PoolState` per token on its curve, as Raydium's
 * SDK lays it out. The curve sells `totalSellA` of token A for B, priced on its virtual reserves
 * as a constant product: (virtualB + realB) / (virtualA − realA), B per A in base units (the
 * default constant-product curve; fixed-price and linear curves, set in the pool's config, are not
 * read). Its reserves are the tokens left to sell and the quote raised.
 */
export const RAYDIUM_LAUNCHLAB: AmmDefinition = {
  id: 'raydium-launchlab',
  name: 'Raydium LaunchLab',
  programId: L.program,
  // Token A only: a LaunchLab pool sells its own token (A) for a quote (B); searching B would list every
  // launch paid in a quote token (SOL, a stablecoin), unbounded.
  searches: (mint) => [{ dataSize: L.size!, memcmp: [{ offset: L.fields.mintA.offset, bytes: mint }] }],
  decode(data) {
    const what = 'Raydium LaunchLab pool'
    expectLayout(L, data, what, true)
    const f = fieldReader(L, data, what)
    const [virtualA, virtualB, realA, realB, totalSellA] = [f.u64('virtualA'), f.u64('virtualB'), f.u64('realA'), f.u64('realB'), f.u64('totalSellA')]
    const complete = f.u8('status') !== STATUS_FUNDING
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
      rawPriceBPerA: virtualA > realA ? Number(virtualB + realB) / Number(virtualA - realA) : undefined,
      reserves: { a: totalSellA > realA ? totalSellA - realA : 0n, b: realB },
      swapEnabled: !complete,
      curve: {
        complete,
        creator: f.address('creator'),
        progressPercent: complete ? PERCENT : totalSellA > 0n ? Math.min(PERCENT, Number((realA * 10_000n) / totalSellA) / PERCENT) : undefined,
        virtualToken: virtualA,
        virtualQuote: virtualB,
      },
    }
  },
}
