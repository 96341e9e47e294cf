import type { DecodedMint } from '../decode/token.ts'
import type { EmbeddedTokenMetadata } from '../decode/extensions.ts'
import type { MetaplexMetadata } from '../decode/metaplex.ts'
import type { OffChainMetadata } from '../decode/offchain-metadata.ts'
import type { AmmId, PoolCurve } from '../decode/pools.ts'
import type { TokenProgramName } from '../programs.ts'
import type { WellKnownToken } from '../../../metadata/providers.ts'

/** A fact that was read, or why it could not be: checks turn the reason into their evidence. */
export type Known<T> = { ok: true; value: T } | { ok: false; reason: string }

export const known = <T>(value: T): Known<T> => ({ ok: true, value })
export const unknown = <T = never>(reason: string): Known<T> => ({ ok: false, reason })

export type ClusterName = 'mainnet-beta' | 'devnet' | 'testnet' | 'unknown'

export interface HookProgramFacts {
  programId: string
  /** false when no account exists at the program id (every transfer would fail). */
  exists: boolean
  executable: boolean
  /** The loader that owns the program account. */
  loader: string
  upgradeable: boolean
  /** Who can replace the program's code; null when no one can. */
  upgradeAuthority: string | null
}

export interface HolderAccount {
  tokenAccount: string
  owner: string
  amount: bigint
  frozen: boolean
  /** The owner is a program-derived address: only a program can move these tokens. */
  ownerIsOffCurve: boolean
  /** The owner is itself a program (executable account); null when not read. */
  ownerExecutable: boolean | null
}

export interface CreationFacts {
  signature: string
  /** Unix seconds; null when the node does not know the block time. */
  blockTime: number | null
  /** Fee payer of the transaction that initialised the mint. */
  creator: string
  /** The slot of that transaction. */
  slot: bigint
  /** The mint's first successful transactions the node keeps, oldest first (at most MAX_LAUNCH_TRANSACTIONS). */
  firstSignatures: { signature: string; slot: bigint; blockTime: number | null }[]
}

/** A wallet seen at launch, with the transaction that shows it. */
export interface LaunchWallet {
  wallet: string
  slot: bigint
  signature: string
  evidence: string
}

/** Who bought at launch: from the mint's first transactions and the creator's before them, within a budget of calls. */
export interface LaunchFacts {
  creationSlot: bigint
  creationTime: number | null
  /** Transactions of the mint read (its first ones), and of the creator before the creation. */
  transactionsRead: number
  creatorTransactionsRead: number
  /** The transactions read reach past the sniping window (or are all the mint has): "none found" is a finding. */
  windowCovered: boolean
  /** Bought from a pool or curve in the creation slot, other than the creator. */
  bundled: LaunchWallet[]
  /** Bought in the first seconds after the creation slot. */
  snipers: LaunchWallet[]
  /** Wallets the creator funded with SOL before the launch, or sent tokens to, that bought or hold the token. */
  insiders: LaunchWallet[]
  /** The creator's earlier mints, from its transactions before this creation (the same reads). */
  creatorHistory: CreatorHistory
}

/** What the creator's transactions before this mint show of its earlier mints. */
export interface CreatorHistory {
  /** Mints the creator initialised before this one. */
  earlierMints: { mint: string; signature: string }[]
  /** Earlier mints whose liquidity the creator pulled: it took the token and SOL (or a quote) out of a pool's vaults in one transaction. */
  liquidityPulled: { mint: string; signature: string }[]
  /** Every transaction of the creator before this creation was read (fewer than the budget): none found is a finding. */
  complete: boolean
  /**
   * Earlier mints that are dead, of the first MAX_EARLIER_MINTS_CHECKED: never traded (their only
   * transaction is their creation) or a pump.fun curve no one bought from.
   */
  deadMints: { mint: string; evidence: string }[]
  /** Earlier mints checked for life. */
  mintsChecked: number
  /**
   * The creator's pump.fun curves of any age (one search; this mint's own excluded): how many,
   * how many graduated, how many no one bought from. null when the search was refused or is off.
   */
  pumpCurves: { created: number; graduated: number; dead: number } | null
}

export interface PoolFacts {
  amm: AmmId
  dex: string
  address: string
  /** The pool's two mints in pool order. */
  mints: [string, string]
  quoteMint: string
  quoteSymbol: string
  /** The pool's vault of this token (a holder the report tags as the pool). */
  tokenVault: string
  /** Reserves in base units (vault balance minus fees owed). */
  tokenReserve: bigint
  quoteReserve: bigint
  /** Price of one whole token in quote tokens; undefined when the pool cannot say. */
  priceInQuote: number | undefined
  /** USD value of one whole quote token; undefined when not known. */
  quoteUsd: number | undefined
  /** USD value of both sides; undefined when the quote is not priced. */
  liquidityUsd: number | undefined
  /** The token's vault is frozen: the pool cannot pay out this token. */
  tokenVaultFrozen: boolean
  swapEnabled: boolean | null
  lpMint: string | null
  lpIssued: bigint | null
  /** A launchpad curve found by search (LaunchLab, DBC): the launch it carries. */
  curve?: PoolCurve
}

/** Liquidity of a pool held in positions, and how much of it is locked (Meteora DAMM v2). */
export interface PoolLockFacts {
  pool: string
  dex: string
  /** Liquidity of every position of the pool. */
  total: bigint
  permanent: bigint
  vesting: bigint
  /** Unlocks still to come: unix seconds (null when the pool counts in slots) or slot, and liquidity. */
  unlocks: { time: number | null; slot: bigint | null; liquidity: bigint }[]
}

/** A launchpad curve the token was created on (pump.fun, Raydium LaunchLab, Meteora DBC): where it trades until it graduates. */
export interface CurveFacts {
  venue: string
  address: string
  /** The curve's token account: a holder the report tags as the curve, outside concentration. */
  tokenVault: string
  complete: boolean
  /** Who launched the token on the curve. */
  creator: string
  quoteMint: string
  virtualTokenReserve: bigint
  virtualQuoteReserve: bigint
  realTokenReserve: bigint
  realQuoteReserve: bigint
  /** Percent of the curve's tokens sold (100 once complete); undefined when the launchpad's settings could not be read. */
  progressPercent: number | undefined
  /** The exchanges its token moves to when it graduates (see `PoolCurve.graduatesTo`). */
  graduatesTo: string[]
}

export interface LpFacts {
  pool: string
  lpMint: string
  decimals: number
  supply: bigint
  issued: bigint | null
  holders: HolderAccount[]
  /** The largest-accounts answer was shorter than its limit: `holders` lists every LP holder. */
  complete: boolean
  /** LP tokens held by lock programs (Streamflow, Jupiter Lock, Raydium's LP lock); unknown when their search was refused. */
  lockers: Known<LpLockFacts[]>
}

/** LP tokens one lock account (or a permanent locker's authority) holds. */
export interface LpLockFacts {
  locker: string
  /** The lock account; the locker's authority for a permanent locker. */
  address: string
  /** The token account holding the LP, or its owner: the LP holder the report tags as the lock. */
  holder: string
  /** Who receives the LP as it unlocks ("" for a permanent lock). */
  recipient: string
  /** LP still locked now (0 when `notLocked` says why the lock holds none). */
  locked: bigint
  permanent: boolean
  /** Unlocks still to come: unix seconds and LP tokens. */
  unlocks: { time: number; amount: bigint }[]
  /** Why the lock's LP is not locked (cancelable, cancelled, closed); "" when it is. */
  notLocked: string
}

/** What the configured token list says about a mint, links already made safe ("" when absent). */
export interface ListedMetadata {
  imageUrl: string
  categories: string[]
  codeHostLinks: string[]
  microblog: string
  messenger: string
  /** Facebook: a handle or an https link. */
  socialNetwork: string
  forum: string
  website: string
  discord: string
  reddit: string
  coinGeckoId: string
  marketAggregatorLink: string
}

/** Everything the checks, the score and the renderer know about one mint. */
export interface SolanaFacts {
  address: string
  /**
   * Unix seconds when the facts were read, by the cluster's clock (this machine's when the node
   * did not give it): the token's age and the unlocks to come are taken against it.
   */
  observedAt: number
  cluster: ClusterName
  tokenProgram: string
  programName: TokenProgramName
  mint: DecodedMint
  extensionNames: string[]
  /** Current epoch, read only when a transfer fee needs it. */
  epoch: Known<bigint> | null
  metaplex: Known<{ address: string; metadata: MetaplexMetadata | null }>
  embeddedMetadata: EmbeddedTokenMetadata | null
  /** The off-chain JSON at the metadata uri; null when there is no uri or no fetcher. */
  offChainMetadata: Known<OffChainMetadata> | null
  /** The token list's entry for the mint; null when no list is configured or it does not name the mint. */
  listed: ListedMetadata | null
  /**
   * Well-known tokens sharing the mint's symbol or name (the configured reference tokens, the
   * bundled lists and TOKEN_LIST of its cluster): a mint that is not one of them imitates them.
   */
  sameName: Known<WellKnownToken[]>
  /** null when the mint has no transfer-hook program. */
  hookProgram: Known<HookProgramFacts> | null
  creation: Known<CreationFacts>
  holders: Known<HolderAccount[]>
  holderCount: Known<number>
  /** Tokens held by the mint authority; null when there is no mint authority. */
  ownerBalance: Known<bigint> | null
  /** Tokens held by the creator; null when the creator is not known. */
  creatorBalance: Known<bigint> | null
  pools: Known<PoolFacts[]>
  /** Buyers at launch (bundles, snipers, insiders); unknown when the node keeps no history. */
  launch: Known<LaunchFacts>
  /** Locked liquidity of the pools that hold it in positions (DAMM v2); [] when none of its pools does. */
  locks: Known<PoolLockFacts[]>
  /** The token's launch curve; null when it has none (the curve account does not exist). */
  curve: Known<CurveFacts | null>
  lp: Known<LpFacts> | null
  /** Liquidity providers of the token's next pools that have them (at most MAX_OTHER_LP_POOLS, deepest first), read for the locks on them. */
  otherLps: Known<LpFacts>[]
}
