import type { Address, Hex } from 'viem'
import type { DexConfig, DexType } from '../../../config/chains.ts'
import type { DexQuery, PoolInfo, ProbePool, ProbeRoute, V4PoolKey } from '../chain/probe.ts'
import type { PoolFact, TradeFact } from '../facts.ts'
import type { CollectContext } from '../collect/context.ts'

/** A Uniswap V4 pool: its id and key in the PoolManager, and the permissions its hook's address grants. */
export interface V4PoolRef {
  id: Hex
  key: V4PoolKey
  manager: Address
  permissions: string[]
}

/**
 * A pool as discovery finds it: the probe lens's fields, and a V4 pool's key. A `pending` pool is
 * known by its key before its state is read (its reserves and price are not known yet).
 */
export type FoundPool = PoolInfo & { v4?: V4PoolRef; curve?: CurveRef; fourMeme?: FourMemeCurveRef; pending?: true }

/** A token's bonding curve on a launchpad: its virtual reserve (its price) and how far it is from graduating. */
export interface CurveRef {
  launchpad: Address
  creator: Address
  /** The curve's virtual native reserve (wei): its price is (virtual + raised) / tokens on the curve. */
  virtualNative: bigint
  /** The native coin the curve raised (wei). */
  raised: bigint
  /** The native coin it must raise to graduate (wei). */
  target: bigint
}

/** A token's curve on a four.meme-interface launchpad, as its helper's getTokenInfo answered it (raw units). */
export interface FourMemeCurveRef {
  /** The manager that holds the curve (the pool's address), and the helper that described it. */
  manager: Address
  helper: Address
  /** The manager's interface version (four.meme's TokenManager2: 2). */
  version: bigint
  /** The curve's last price: quote units (raw) per whole token. */
  lastPrice: bigint
  /** The least fee of a trade, quote units (raw). */
  minFee: bigint
  /** Tokens left on offer, and those put on the curve. */
  offers: bigint
  maxOffers: bigint
  /** The quote raised, and what the curve raises before graduating. */
  funds: bigint
  maxFunds: bigint
  /** Why the probe does not trade this curve (a token quote, another manager interface). */
  untraded?: string
}

/** Pools against other tokens listed at most (in creation order), per source, when the token has none against the chain's quote assets. */
export const MAX_OTHER_QUOTE_POOLS = 3

/**
 * What a venue that finds pools by itself (not through the probe's lens) found, and what it could
 * not search. Its pools may be `pending`: `state` reads them (a round trip after the finding, which
 * only what needs their figures waits for).
 */
export interface VenueFind {
  pools: FoundPool[]
  /**
   * Pools of the token against tokens that are none of the quote assets, `pending`: markets when
   * the token has no pool against a quote asset (the other token priced through its own pools).
   * `state` reads them with the others.
   */
  others?: FoundPool[]
  note: string
  state?: Promise<FoundPool[]>
}

/**
 * One family of exchanges where EVM tokens trade (Uniswap V2-style pairs, V3-style pools, ...):
 * how its pools are found, priced and traded by the probe. The collectors iterate venues through
 * `venueOf(dex.type)`; adding a family adds a module here, never a branch in collect/.
 */
export interface Venue {
  readonly type: DexType
  /** What the pool's liquidity is, said where the report has no LP token to describe. */
  readonly liquidityForm: string
  /** Whether the pool's liquidity is a fungible LP token (its holders, locks and burns are read). */
  readonly fungibleLp: boolean
  /**
   * The probe's kinds of pool (see `holderPools`) that an account answering as a pool of this family
   * is, and how the report names an exchange of this family the chain entry does not list.
   */
  readonly holderKinds?: readonly number[]
  readonly holderName?: string
  /**
   * The venue keeps every pool's tokens in one contract, its factory (Uniswap V4's PoolManager):
   * how the report names that contract and how the venue finds its pools. When it holds the token
   * and none of its pools was found, the holding is said as a market of the token whose figures
   * are unknown, never as no pool.
   */
  readonly custodian?: { name: string; finding: string }
  /** Whether its pools may stand against the native coin itself (address zero), which is then a quote asset. */
  readonly nativeQuote?: boolean
  /** How the probe's pool lens asks this exchange for the token's pools (first round trip), unless the venue finds them itself. */
  lensQuery?(dex: DexConfig): DexQuery
  /**
   * Venues whose pools the lens cannot list (Uniswap V4: no factory to ask) find them themselves,
   * starting in the first round trip; their pools go beside the lens's. `storage` is the token's
   * first storage words (slots 0, 1, … in order), read in that same round trip, where a token may
   * name its own pool (a V4 pool key it keeps): no read of its own.
   */
  find?(ctx: CollectContext, dex: DexConfig, dexIndex: number, token: Address, quotes: Address[], storage: Promise<readonly Hex[]>): Promise<VenueFind>
  /** Price of `asset` in whole quote units per whole asset, from the pool's state. */
  price(info: PoolInfo, asset: Address, assetDecimals: number, quoteDecimals: number): number | undefined
  /** The pool's fee as reports show it (V2: basis points; V3: hundredths of a basis point); undefined when it could not be read. */
  fee(dex: DexConfig, info: PoolInfo): number | undefined
  /** How the probe trades through one of the token's pools. */
  probePool(pool: PoolFact, dex: DexConfig | undefined): ProbePool
  /** How the probe obtains a quote asset through one of this venue's pools (undefined: it cannot). */
  route(info: PoolInfo, dex: DexConfig | undefined): ProbeRoute | undefined
  /** Facts of the pool beyond the lens's common ones (a Solidly pool's curve). */
  extra?(info: PoolInfo): Partial<PoolFact>
  /** The router wallets trade through, when the probe can trade through it too. */
  router(dex: DexConfig): Address | undefined
  /**
   * A read that shows the venue's contract answers at the configured address (`tokenrisk chains
   * check`): its calldata, and what the answer says (undefined when it is not this venue's).
   */
  probeCall(dex: DexConfig): { call: string; data: Hex; read(answer: Hex): string | undefined; /** Where the read goes, when not the factory (a launchpad's helper). */ to?: Address }
  /** What the report says of the pool beside its verdict (a V4 pool's hook and what it was measured to do). */
  describe?(trade: TradeFact): string
  /**
   * Contracts beside the token that every trade through the pool runs (a V4 pool's hook), each
   * with the words that name it: their own privileged functions are tried as owner powers over the
   * token's trading, like the token's.
   */
  poolContracts?(pool: PoolFact): PoolContract[]
  /**
   * The factory's event announcing a new pool, whose first two indexed topics are the pool's two
   * tokens and whose data holds the pool's address at `poolWord` (pools against any other token).
   */
  readonly creation?: { topic: Hex; poolWord: number }
  /** The topics (lowercase) of the events the pool emits on every trade, buys and sells (the 24 h price range). */
  readonly swapTopics: readonly Hex[]
  /** The token's price in quote units after the swap an event records. */
  priceFromLog(data: Hex, tokenIs0: boolean, tokenDecimals: number, quoteDecimals: number, pool: PoolFact): number | undefined
}

/** A contract a pool's trades run beside the token, and how reports name it ("the hook 0x… of the Uniswap V4 pool 0x…"). */
export interface PoolContract {
  address: Address
  label: string
}

/** A uint256 answer as a decimal string, or undefined when the answer is not one word. */
export function wordAnswer(answer: Hex): bigint | undefined {
  return /^0x[0-9a-fA-F]{64}$/.test(answer) ? BigInt(answer) : undefined
}

export function units(raw: bigint, decimals: number): number {
  return Number(raw) / 10 ** decimals
}
