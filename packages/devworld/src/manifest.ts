import type { EvmCheckName } from 'tokenrisk/contract/checks'

/**
 * Ground truth of the local world, written to `<DATA_DIR>/devnet/manifest.json` whenever the
 * world starts. The token engine's tests compare reports with it field by field, so every value
 * here is what a correct report must say — measured facts of the chain, never wishes.
 */
export interface DevnetManifest {
  version: 1
  chainId: number
  rpcUrl: string
  /** Block number and timestamp (unix seconds) at which the world was complete. */
  readyBlock: number
  readyTimestamp: number
  deployer: `0x${string}`
  contracts: {
    weth: `0x${string}`
    /** USD stablecoin, 6 decimals. */
    usd: `0x${string}`
    multicall3: `0x${string}`
    v2Factory: `0x${string}`
    v2Router: `0x${string}`
    /** Uniswap V3 contracts, when the world deploys them. */
    v3Factory?: `0x${string}`
    v3Quoter?: `0x${string}`
    v3SwapRouter?: `0x${string}`
    v3PositionManager?: `0x${string}`
    /** PancakeSwap V3 and Uniswap V4, when the world deploys them. */
    pancakeV3Factory?: `0x${string}`
    pancakeV3PoolDeployer?: `0x${string}`
    v4PoolManager?: `0x${string}`
    /** Our Aerodrome-interface (Solidly-style) factory, when the world deploys it. */
    solidlyFactory?: `0x${string}`
    slipstreamFactory?: `0x${string}`
    /** Our bonding-curve launchpad. */
    launchpad?: `0x${string}`
    /** A Uniswap V2 factory the local chain entry does not list. */
    unlistedV2Factory?: `0x${string}`
    /** Our four.meme-interface launchpad: its manager (every curve) and its helper (getTokenInfo). */
    fourMemeManager?: `0x${string}`
    fourMemeHelper?: `0x${string}`
    /** Our timelock LP locker. */
    locker: `0x${string}`
    /** The WETH/USD Uniswap V2 pool that prices ether. */
    wethUsdPair?: `0x${string}`
    /** The contract the fee-forwarding token calls during its transfers. */
    feeCollector?: `0x${string}`
  }
  /**
   * Addresses treated as burn addresses (tokens sent there are gone): the zero address and
   * 0x…dEaD. Uniswap V2 pools keep their first 1,000 LP units at the zero address.
   */
  burnAddresses: `0x${string}`[]
  /** USD price of one ether at `readyBlock`, from the WETH/USD pool's reserves. */
  ethUsd?: string
  /** Roles of the world's accounts (anvil dev accounts, in `eth_accounts` order, and key-less receivers). */
  accounts?: {
    deployer: `0x${string}`
    /** The hidden-owner token's second admin. */
    hiddenAdmin: `0x${string}`
    /** Receives the tax tokens' fees. */
    feeWallet: `0x${string}`
    /** Adds liquidity next to the deployer. */
    lpProvider: `0x${string}`
    /** Ordinary addresses that bought, sold and transferred (anvil dev accounts, keys known). */
    traders: `0x${string}`[]
    /** Ordinary addresses that only received tokens (no key). */
    receivers: `0x${string}`[]
  }
  tokens: ManifestToken[]
}

export interface ManifestPool {
  dex: string
  /** 'uniswap-v2' | 'uniswap-v3' */
  type: string
  pairAddress: `0x${string}`
  /** The two token addresses of the pool, as the pool orders them (token0, token1). */
  pair: [`0x${string}`, `0x${string}`]
  /** The other side of the pool (WETH or USD, ...). */
  quoteToken: `0x${string}`
  quoteSymbol: string
  /**
   * Percentages as decimal strings, e.g. "3" for 3 %: the taxes as the token is designed, for an
   * ordinary address ("0" where none). When the trade itself reverts (a sell where
   * `isPairHoneypot` is "1", a buy of a token whose `cannotBuy` is "1") no tax can be measured,
   * and a report saying "" for it is right too.
   */
  buyTax: string
  sellTax: string
  transferTax: string
  isPairHoneypot: '0' | '1'
  /** Why a honeypot pool cannot be sold into ('' when not a honeypot). */
  honeypotReason: string
  /**
   * USD value of both sides of the pool at `readyBlock`, decimal string with 2 places: the quote
   * side at its USD price (USD = 1, WETH at `ethUsd`), the token side at this pool's own spot
   * price (so a V2 pool is worth twice its quote side). V2 from reserves, V3 from the pool's
   * balances and `slot0` price.
   */
  liquidityUsd: string
  /** USD price of one whole token implied by this pool at `readyBlock` (spot, not an execution price). */
  priceUsd?: string
  /** Uniswap V3 fee tier (e.g. 3000 = 0.3 %); absent for V2. */
  fee?: number
  /** A Uniswap V4 pool's hook (its pairAddress is the PoolManager's, which holds every V4 pool). */
  hook?: `0x${string}`
  /** A launchpad curve's (either interface's) progress to graduation: the ether it raised and the ether it must raise (wei). */
  curve?: { raisedWei: string; targetWei: string }
  /** Swap events of the pool up to `readyBlock`: all of them, and those of the 24 h before `readyTimestamp`. */
  swaps?: { total: number; last24h: number }
}

/**
 * A holder at `readyBlock`. Lists of holders leave out the zero address (what sits there is
 * burned, e.g. a V2 pool's first 1,000 LP units) and any address with a zero balance.
 */
export interface ManifestHolder {
  address: `0x${string}`
  /** Balance in raw units (no decimals applied), decimal string. */
  balance: string
  isContract: boolean
  /** Held by our locker or a burn address. */
  isLocked: boolean
}

export interface ManifestUnlock {
  /** Unix seconds. */
  unlockTime: number
  /** LP tokens, raw units, decimal string. */
  amount: string
}

export interface ManifestLiquidity {
  /** LP token (the V2 pair) whose holders these are. */
  pairAddress: `0x${string}`
  totalLpSupply: string
  /**
   * Shares of the LP supply, percent as decimal strings (rounded to 6 places): `lockedPercent`
   * in the locker's locks not yet withdrawn, `burnedPercent` at the burn addresses (the zero
   * address's 1,000 units included).
   */
  lockedPercent: string
  burnedPercent: string
  /** The locks not yet withdrawn, earliest unlock first. */
  unlocks: ManifestUnlock[]
  /** Every LP holder, largest first. */
  holders: ManifestHolder[]
}

export interface ManifestToken {
  /** Stable identifier within the world, e.g. 'tax-3-7-1'. */
  key: string
  /** Key of the clean twin that differs only in this token's behaviour ('' for the clean token itself). */
  twin: string
  name: string
  symbol: string
  decimals: number
  address: `0x${string}`
  /** For proxies: the implementation that holds the logic (EIP-1967 slot, or the clone's target). */
  implementation?: `0x${string}`
  /** Behaviour tags, e.g. ['honeypot'], ['tax'], ['proxy-1967-transparent', 'upgradeable', 'mintable']. */
  behaviours: string[]
  /**
   * What the token's `owner()` (or else `getOwner()`) returns: the zero address when ownership
   * was renounced, '' when the token has neither function.
   */
  owner: `0x${string}` | ''
  /** For the hidden-owner token: the account that still holds the owner's powers after renouncing. */
  hiddenOwner?: `0x${string}`
  /** For EIP-1967 transparent proxies: the proxy admin (a ProxyAdmin contract) and the account that owns it. */
  proxyAdmin?: `0x${string}`
  proxyAdminOwner?: `0x${string}`
  /** For proxies: whether the implementation can be replaced (false for an EIP-1167 clone). */
  upgradeable?: boolean
  /** The account that sent the transaction creating the token (for proxies: the proxy). */
  creator: `0x${string}`
  /** Block of that transaction. */
  creationBlock: number
  /** Raw units, decimal string. */
  totalSupply: string
  /**
   * Expected status of every code check of the contract ("1" = risky capability present, "" = it
   * cannot be measured on this token), as its current code stands: an upgradeable proxy's owner
   * could install any code, which `isProxy` and `upgradeable` say, but the other checks judge the
   * implementation in place.
   */
  codeChecks: Record<EvmCheckName, '0' | '1' | ''>
  /** Risky checks whose finding is graver than the check's usual tier: expected risk "Critical". */
  criticalChecks: EvmCheckName[]
  pools: ManifestPool[]
  holders: {
    /** Addresses with a non-zero balance. */
    count: number
    /** Largest holders first (ties by address), at least the top ten; the world lists them all. */
    top: ManifestHolder[]
  }
  /** LP of the token's main Uniswap V2 pool (its first V2 pool, WETH where it has one); absent without a V2 pool. */
  liquidity?: ManifestLiquidity
  /** Free-form notes for humans (how the behaviour works). */
  notes?: string
}

/**
 * The zoo token listed under `key`; throws when the world has none (a test or benchmark names a
 * token the zoo does not hold).
 */
export function zooToken(manifest: Pick<DevnetManifest, 'tokens'>, key: string): ManifestToken {
  const found = manifest.tokens.find((t) => t.key === key)
  if (!found) throw new Error(`no zoo token ${key}`)
  return found
}
