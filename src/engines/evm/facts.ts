import type { Address, Hex } from 'viem'
import type { CurveRef, FourMemeCurveRef, V4PoolRef } from './venues/venue.ts'
import type { ChainEntry, DexType } from '../../config/chains.ts'
import type { CodeAnalysis } from './chain/bytecode.ts'
import type { ProxyInfo } from './chain/proxy.ts'
import type { MetadataFacts } from '../../metadata/providers.ts'

/**
 * Everything the collect stage learned about a token: the only input of the checks, the score
 * and the render. Values that could not be learned are `undefined` (rendered as "").
 */
export interface EvmFacts {
  chain: ChainEntry
  token: Address
  /**
   * Block every read was made at, its timestamp (unix seconds), and when it was read (epoch ms,
   * this machine's clock): when the report was measured (`lastUpdated`).
   */
  block: { number: bigint; timestamp: number; readAt: number }
  basics: TokenBasics
  /** What is wrong with the token as a token (core getters that revert...), for the report's flags. */
  anomalies: string[]
  code: CodeFacts
  owner: OwnerFacts
  creation: CreationFacts
  markets: MarketFacts
  trades: TradeFact[]
  powers: PowersFact
  externalCalls: ExternalCallFact
  holders: HoldersFact
  liquidity: LiquidityFact
  metadata: MetadataFacts
  /** Whether an explorer publishes the verified source of the code that runs. */
  source: SourceFact
  /** The pools the token treats as its own pair (getters, storage, AMM-pair mappings). */
  ownPairs?: OwnPairsFact
  /** The largest holders of record selling their whole balance from the real state. */
  holderSells?: HolderSellsFact
  /** Balances of accounts the token names that no Transfer event explains (placed at creation without one). */
  unexplainedBalances?: { list: UnexplainedBalanceFact[]; note: string }
  /** Balances written at creation that no Transfer event of the creation explains. */
  creationSupply?: CreationSupplyFact
  /** The contracts transfers call, made hostile (reverting, extreme answers): what that does to holders. */
  dependencies?: {
    list: DependencyFact[]
    note: string
    /**
     * Why contracts transfers call (or may call) were not all made hostile and measured: no pool
     * to trade on, a simulation the node failed, more of them than are tried. A "0" of the checks
     * that rest on them is then not given. Absent when every one was measured (or there is none).
     */
    unmeasured?: string
  }
}

/** Balances the token's creation wrote that its Transfer events do not explain. */
export interface CreationSupplyFact {
  /** How the creation's balances were read: its transaction traced, its code run again, or '' (not read: `note` says why). */
  method: 'trace' | 're-run' | ''
  list: {
    address: Address
    /** Its balance right after the creation. */
    balance: bigint
    /** What the creation's Transfer events credited it. */
    transferred: bigint
    /** The part no event explains, as a share of the total supply, percent. */
    percentOfSupply: number
  }[]
  /** All of them together, percent of the total supply (undefined: not measured). */
  percentOfSupply: number | undefined
  note: string
}

/** An account holding tokens that never reached it in a Transfer event. */
export interface UnexplainedBalanceFact {
  address: Address
  balance: bigint
  /** What Transfer events credit it. */
  explained: bigint
  /** The unexplained part as a share of the total supply, percent. */
  percentOfSupply: number
}

/** A contract a transfer calls, and what hostile code there does to holders. */
export interface DependencyFact {
  address: Address
  /** Selectors the token called it with (traced; none where transfers could not be traced). */
  selectors: string[]
  /** Where transfers could not be traced: how the token names it ("in its code", "in storage slot 2"). */
  named?: string
  /** What stopped when its code reverted or answered extreme values ('' when nothing did). */
  stops: string
  /** What trades delivered differently ('' when nothing changed). */
  changesAmounts: string
  /** How its code can change: a proxy and who upgrades it, a self-destruct ('' when none was found). */
  upgradeable: string
  /**
   * Who can point the token at another contract, measured: the setter, the caller, and the trades a
   * reverting contract put there stopped while naming this one kept them working ('' when no call
   * was seen to).
   */
  repointable: string
  /** Where `repointable` is '': where the token keeps the address, and how a repoint was looked for (or why it was not). */
  repointNote?: string
  /** Why its address cannot change ('' when that is not known). */
  immutable: string
  /** Whether the explorer publishes its verified source (closed when it does not; unknown without an explorer). */
  source: SourceFact
}

/** A pool the token recognises as its pair, and whether the probe could trade there. */
export interface OwnPairFact {
  address: Address
  /** How the token names it: the getters, storage slots or mappings that answered it. */
  how: string[]
  /** Whether the probe could trade on it (a contract, a V2 pair of the token, with reserves). */
  tradable: boolean
  /** Why it is not tradable ('' when it is). */
  problem: string
  /** Whether it is among the pools of the chain's listed exchanges. */
  listed: boolean
}

export interface OwnPairsFact {
  pairs: OwnPairFact[]
  /** Why the token's pairs are unknown ('' when they were read). */
  note: string
}

/** Why a holder of record could not sell its whole balance. */
export type HolderSellOutcome = 'sold' | 'clamped' | 'limit' | 'blocked' | 'unknown'

export interface HolderSellFact {
  address: Address
  balance: bigint
  outcome: HolderSellOutcome
  /** Share of what it sold that the pool did not receive (a tax), percent; undefined when it sold nothing. */
  taxPercent: number | undefined
  /** Share of its balance left after a whole sell that went through (a clamp), percent. */
  leftPercent: number | undefined
  /** The revert, or what was seen. */
  reason: string
}

export interface HolderSellsFact {
  /** The pool the holders sold on (undefined: none was tried, `note` says why). */
  pool: PoolFact | undefined
  /** 'router' when they sold as wallets do (approve + transferFrom), 'pair' by a transfer to the pair. */
  path: 'router' | 'pair' | ''
  holders: HolderSellFact[]
  note: string
}

export interface SourceFact {
  /** true or false as the explorer answers; undefined when no explorer is configured or it failed. */
  verified: boolean | undefined
  /** The contract asked about: the implementation of a proxy, else the token. */
  address: Address | undefined
  /** Why it is unknown, or which explorer answered. */
  note: string
}

export interface TokenBasics {
  name: string | undefined
  symbol: string | undefined
  decimals: number | undefined
  /** Raw units. */
  totalSupply: bigint | undefined
}

export interface CodeFacts {
  /** The token's own code. */
  token: CodeAnalysis
  proxy: ProxyInfo | undefined
  /** The implementation's code when the token is a proxy (what gets analysed). */
  implementation: CodeAnalysis | undefined
  /** Whether the proxy can be pointed at new logic, and by whom (evidence for isProxy). */
  upgradeable: boolean | undefined
  upgradeNote: string
  /** The code whose selectors and opcodes describe the token's behaviour. */
  logic: CodeAnalysis | undefined
}

export interface OwnerFacts {
  /** owner() / getOwner() answer (zero address kept: it means renounced). */
  declared: Address | undefined
  /** The account reported as owner: the declared owner, else the proxy admin. */
  reported: Address | undefined
  /** Where `reported` came from. */
  source: 'owner()' | 'getOwner()' | 'proxy admin' | ''
  /** Raw balance of the reported owner. */
  balance: bigint | undefined
}

export interface CreationFacts {
  /** The account that sent the creation transaction. */
  creator: Address | undefined
  /** The address that ran the creation: a factory contract, or the creator itself. */
  deployer: Address | undefined
  txHash: Hex | undefined
  blockNumber: bigint | undefined
  /** Unix seconds. */
  timestamp: number | undefined
  creatorBalance: bigint | undefined
  method: 'ots_getContractCreator' | 'getCode search' | 'explorer' | 'first Transfer' | 'stored' | ''
}

export interface PoolFact {
  dex: string
  dexType: DexType
  /** V2 fee in basis points, or the V3 fee tier; undefined when a Solidly factory's fee could not be read. */
  fee: number | undefined
  address: Address
  /** The pool's sides in its own order; undefined when its token0() could not be read. */
  token0: Address | undefined
  token1: Address | undefined
  quote: Address
  quoteSymbol: string
  quoteDecimals: number | undefined
  /** Raw units of the token held by the pool (V2 reserve, V3 balance); undefined when not read (unknown, never 0). */
  tokenReserve: bigint | undefined
  quoteReserve: bigint | undefined
  /** V2 LP supply. */
  lpSupply: bigint | undefined
  /** Token price in quote units per whole token, from the pool's own state. */
  priceInQuote: number | undefined
  priceUsd: number | undefined
  /** USD value of both sides. */
  liquidityUsd: number | undefined
  /** A Uniswap V4 pool's id, key and hook permissions (its `address` is the PoolManager's). */
  v4?: V4PoolRef
  /**
   * The token's balance in the contract that keeps every pool of an exchange (a Uniswap V4
   * PoolManager) when none of those pools was found: the fact's `address` is that contract's, its
   * figures are unknown, and its `quote` names no asset (it repeats the contract's address).
   */
  custody?: { balance: bigint }
  /** A Solidly-style pool's curve: stable (x³y + y³x) rather than volatile (x·y). */
  stable?: boolean
  /** A launchpad's bonding curve (its `address` is the launchpad's): its virtual reserve and graduation. */
  curve?: CurveRef
  /** A four.meme-interface curve (its `address` is the manager's): its progress, fee floor and price. */
  fourMeme?: FourMemeCurveRef
}

export interface MarketFacts {
  pools: PoolFact[]
  /** USD prices of quote assets (by lowercased address), as used for the figures. */
  quoteUsd: Record<string, number>
  priceUsd: number | undefined
  marketCapUsd: number | undefined
  liquidityUsd: number | undefined
  dayHighUsd: number | undefined
  dayLowUsd: number | undefined
  /** How the 24 h range was obtained, or why it is unknown. */
  dayRangeNote: string
  /**
   * What the search for the token's pools could not cover ('' when it covered everything): a node
   * refusing a venue's log range, holders not read as pools, a curve that has graduated. Said with
   * the trade checks, so that "no pool" is never stated where pools may have gone unseen.
   */
  searchNote: string
}

export interface TaxFigure {
  /** Percent, e.g. 3 for 3 %. */
  percent: number | undefined
  note: string
}

export interface TradeFact {
  pool: PoolFact
  /** Whether the probe could run on this pool (false: everything below is unknown). */
  simulated: boolean
  error: string
  buyOk: boolean | undefined
  buyReason: string
  buyTax: TaxFigure
  sellTax: TaxFigure
  transferTax: TaxFigure
  /** Selling part of a balance failed (or lost ≥ 95 %). */
  honeypot: boolean | undefined
  honeypotReason: string
  sellAllOk: boolean | undefined
  sellAllReason: string
  sell99Ok: boolean | undefined
  /** A whole-balance sale that went through while part of it never reached the pool: percent lost, against half a balance's. */
  sellAllShortfall?: { percent: number; partPercent: number }
  buyAgainOk: boolean | undefined
  buyAgainReason: string
  bigBuyOk: boolean | undefined
  bigBuyReason: string
  /** Share of the pool's token balance the large buy asked for (percent). */
  bigBuyPercentOfPool: number
  /** How the sells were tried again with the token holding a large balance of itself, or why not. */
  loadedNote?: string
  /** How the token recognises this pool as its own pair ('' or absent when it does not). */
  ownPair?: string
  /** Where the pool lives and what runs on its swaps, as measured (a V4 pool's id, fee and hook). */
  venue?: string
  /** Buys and sells through the DEX's router (approve + transferFrom), as wallets make them. */
  router?: RouterTradeFact
  /** Who gained over a sale among the accounts of the contracts the pool runs (a V4 pool's hook); absent for other pools. */
  proceeds?: PoolProceeds
  /** The contracts the pool runs beside the token (a V4 pool's hook): how their code can be replaced, and the powers found on them. */
  contracts?: PoolContractNote[]
}

/** A contract a pool runs beside the token, as the pool's words say it. */
export interface PoolContractNote {
  address: Address
  /** How its code can be replaced ('' when it cannot). */
  upgrade: string
  /** The powers found on its functions, in short words ("setPaused(bool) [0x16c38b3c] stops trading"). */
  powers: string[]
  /** Why its functions were not tried ('' when they were). */
  unread: string
}

/** The accounts seen paid over one sale into a pool: the contracts it runs beside the token, their owners, the addresses in their code. */
export interface PoolProceeds {
  /** Whether the sale was made and the balances read (false: `note` says why; nothing is known of who is paid). */
  measured: boolean
  /** The watched accounts that gained, with what they gained in raw units of the token and of the quote. */
  paidTo: { address: Address; label: string; token: bigint; quote: bigint }[]
  /** What was watched, or why it was not measured; the accounts whose balances could not be read. */
  note: string
}

export interface RouterTradeFact {
  /** The router traded through; undefined when none was (`note` says why). */
  address: Address | undefined
  buyOk: boolean | undefined
  buyReason: string
  sellOk: boolean | undefined
  /** Which step of the router sell failed: the holder's approve, or the swap (the router's transferFrom). */
  sellStep: 'approve' | 'swap' | ''
  sellReason: string
  sellTax: TaxFigure
  note: string
}

/**
 * What an owner call was seen to do: mint; change a holder's balance; stop everyone's transfers;
 * change everyone's taxes; change one address's outcome; block one address (blacklist); favour
 * one address (whitelist); change how much may be traded (a limit); move tokens out of the
 * caller's own balance or the token contract's (an airdrop, a rescue: no power over others).
 */
export type PowerKind = 'mint' | 'changeBalance' | 'pause' | 'feeAll' | 'feePersonal' | 'blacklist' | 'whitelist' | 'limit' | 'ownMove'

export interface PowerCandidate {
  address: Address
  source: string
  /** The contract beside the token whose owner()/getOwner() names it (a pool's hook): its declared owner. */
  ownerOf?: Address
}

export interface PowerFinding {
  kind: PowerKind
  candidate: PowerCandidate
  /** For a power in two steps: the candidate that appointed the account that used it. */
  appointedBy?: PowerCandidate
  selector: Hex
  /** Known signature of the selector, when it is a common one ('' otherwise). */
  signature: string
  evidence: string
  /** Severity when graver than the check's usual tier (a confiscatory tax, sales that can be stopped). */
  tier?: 'Critical'
  /**
   * For tax setters: the highest taxes reached at the setter's extremes (percent); where the search
   * ran, the accounts the tax was seen paid to and whether a privileged call can redirect it.
   */
  reach?: { buy: number; sell: number; transfer: number; sellsStopped: boolean; paidTo?: Address[]; walletSettable?: boolean }
  /** The contract beside the token the power was found on (a pool's hook); absent for the token's own. */
  on?: Address
}

export interface PowersFact {
  /** 'tested': candidate functions were called as each candidate and their effects measured. */
  status: 'tested' | 'not-tested'
  reason: string
  candidates: PowerCandidate[]
  functionsTried: Hex[]
  /** Functions whose simulation failed as a whole (gas, node error). */
  functionsFailed: Hex[]
  findings: PowerFinding[]
  /** Calls seen moving tokens out of the caller's own balance or the token contract's (airdrops, rescues). */
  ownMoves?: string[]
  /** Whether holders A and B could be given tokens (pool or donor); without it only supply is measured. */
  funded: boolean
  /** Whether a pool was available to measure buy/sell taxes after each call. */
  withPool: boolean
  /** The pool the taxes were measured on after each call (the token's main pool); absent without one. */
  measuredPool?: Address
  /**
   * Why the accounts named only in the Transfer events of the owner calls were not measured (no
   * tracing on the node, balances not in a plain mapping); absent when every replay was traced.
   */
  eventsUnread?: string
  /** How far the role holders were read (role logs read in part, more members than read); absent when all was read. */
  rolesNote?: string
  /**
   * Why the role holders are unknown (the token lists its role members, and the list could not be
   * read): an account holding a role may hold powers no one tried. Absent when they were read.
   */
  rolesUnread?: string
  /**
   * Functions made again with the holders of record acting for themselves (a call lowered their
   * balances shown with nothing moving, and each was asked whether it held them): one more round trip.
   */
  askedAgain?: Hex[]
  /**
   * The contracts the token's pools run beside it (a V4 pool's hook) whose functions were not tried,
   * and why: a power over trading may be theirs. Absent when every such contract's were tried.
   */
  unmeasuredContracts?: string
}

export interface ExternalCallFact {
  method: 'trace' | 'bytecode' | 'none'
  /** Calls the token made to other contracts during the traced transfers. */
  calls: { to: Address; selector: string; type: string }[]
  note: string
}

export interface HolderFact {
  address: Address
  balance: bigint
  isContract: boolean | undefined
  isLocked: boolean
}

export interface HoldersFact {
  /** Whether the index covers the token's whole history. */
  complete: boolean
  count: number | undefined
  top: HolderFact[]
  note: string
}

export interface LockFact {
  locker: string
  lockerAddress: Address
  owner: Address
  amount: bigint
  unlockTime: number
  withdrawn: boolean
}

export interface LiquidityFact {
  /** The V2 pool whose LP token is described (the deepest). */
  pool: PoolFact | undefined
  totalLpSupply: bigint | undefined
  holders: HoldersFact
  locks: LockFact[]
  /** LP raw units locked in lockers (active locks) and held by burn addresses. */
  lockedAmount: bigint | undefined
  burnedAmount: bigint | undefined
  note: string
}
