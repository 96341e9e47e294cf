/**
 * The token zoo of the local world: one token per behaviour a scanner must see, each with a
 * clean twin that differs only in that behaviour. Sources are under contracts/zoo/.
 *
 * | key                   | contract                          | behaviour (risky checks)                        | twin            |
 * |-----------------------|-----------------------------------|-------------------------------------------------|-----------------|
 * | clean                 | ZooClean                          | none; pools WETH and USD; LP kept by deployer   | —               |
 * | tax-3-7-1             | ZooTax                            | fixed 3 % buy / 7 % sell / 1 % transfer tax     | clean           |
 * | fee-forward           | ZooFeeForward                     | same taxes, fee sink called (externalCall)      | tax-3-7-1       |
 * | tax-modifiable        | ZooTaxModifiable                  | owner sets taxes up to 100 % (slippageModifiable, Critical; transferPausable: at 100 % no sale works) | tax-3-7-1 |
 * | tax-per-address       | ZooTaxPerAddress                  | owner taxes one address up to 100 % (personalSlippage…, isBlacklisted) | tax-3-7-1 |
 * | honeypot              | ZooHoneypot                       | sells revert but the deployer's (cannotSellAll) | clean           |
 * | pool-honeypot         | ZooPoolHoneypot                   | WETH and USD pools, only the USD pool traps     | clean           |
 * | blacklist             | ZooBlacklist                      | owner blocks addresses (personalSlippage…, isBlacklisted) | clean |
 * | pausable              | ZooPausable                       | owner pauses transfers (transferPausable)       | clean           |
 * | mintable              | ZooMintable                       | owner mints (isMintable)                        | clean           |
 * | owner-change-balance  | ZooForceTransfer                  | owner moves anyone's tokens (ownerChangeBalance)| clean           |
 * | self-destruct         | ZooSelfDestruct                   | owner can SELFDESTRUCT (selfDestruct)           | clean           |
 * | hidden-owner          | ZooHiddenOwner                    | renounced, hidden admin mints (isMintable, hiddenOwner) | mintable |
 * | proxy-transparent     | ZooTransparentProxy → ZooMintableLogic | EIP-1967 transparent proxy, mintable (isProxy, isMintable) | mintable |
 * | proxy-uups            | ZooUupsProxy → ZooBlacklistUupsLogic   | UUPS proxy, blacklist (isProxy, personalSlippage…, isBlacklisted) | blacklist |
 * | clone-1167            | EIP-1167 clone → ZooCleanInitializable | minimal proxy of the clean token (isProxy)                 | clean     |
 * | cooldown              | ZooCooldown                       | 60 s between buys (tradingCooldown)             | clean           |
 * | max-tx                | ZooMaxTx                          | 1 % max transaction (isAntiWhale)               | clean           |
 * | max-wallet            | ZooMaxWallet                      | 2 % max wallet (isAntiWhale)                    | clean           |
 * | cannot-sell-all       | ZooCannotSellAll                  | selling 100 % reverts (cannotSellAll)           | clean           |
 * | no-buy                | ZooNoBuy                          | buying reverts (cannotBuy)                      | clean           |
 * | self-credit           | ZooSelfCredit                     | owner writes its own balance in assembly: a mint the supply misses (isMintable) | airdrop |
 * | airdrop               | ZooAirdrop                        | owner airdrops from its own balance (nothing)   | clean           |
 * | tax-capped            | ZooTaxCapped                      | owner sets taxes, capped at 10 % (slippageModifiable, not Critical) | tax-modifiable |
 * | vault-mint            | ZooVaultMint                      | owner appoints a vault that mints: two steps (isMintable) | fixed-minter |
 * | fixed-minter          | ZooFixedMinter                    | a minter fixed at deployment that cannot call (nothing) | clean   |
 * | sell-hook-trap        | ZooSellHookTrap                   | owner points the sell hook at a reverting contract (externalCall, transferPausable) | sell-hook-safe |
 * | sell-hook-safe        | ZooSellHookSafe                   | a replaceable sell hook whose failure is ignored (externalCall) | clean |
 * | quiet-list            | ZooQuietList                      | "reward exclusion" that blocks addresses (personalSlippage…, isBlacklisted) | fee-exempt |
 * | fee-exempt            | ZooFeeExempt                      | owner exempts addresses from taxes (personalSlippage…, isWhitelisted) | tax-3-7-1 |
 * | swap-back-trap        | ZooSwapBackTrap                   | sells revert once the contract holds its swap-back threshold (cannotSellAll, honeypot) | swap-back |
 * | swap-back             | ZooSwapBack                       | swap-back that works (nothing)                  | clean           |
 * | max-tx-adjustable     | ZooMaxTxAdjustable                | owner sets the max transaction, 0 included (isAntiWhale, antiwhaleModifiable, Critical; transferPausable: at 0 no sale works) | max-tx |
 * | holder-sweep          | ZooHolderSweep                    | owner moves every listed holder's balance to itself (ownerChangeBalance) | holder-reward |
 * | holder-reward         | ZooHolderReward                   | owner pays listed holders from its own balance (nothing) | clean |
 * | reserve-credit        | ZooReserveCredit                  | owner credits an account named only in the Transfer it emits, supply unmoved (isMintable) | reserve-fund |
 * | reserve-fund          | ZooReserveFund                    | owner pays the same account from its own balance (nothing) | clean |
 * | sell-switch           | ZooSellSwitch                     | owner's "swap" switch stops every holder's sales (transferPausable) | launch-once |
 * | launch-once           | ZooLaunchOnce                     | owner opened trading once, for good (nothing)   | clean           |
 * | own-pair-…, approve-…, frozen-holders, renounced-holders | ZooTrades.sol (see zoo-trades.ts) | own pair, router path, real holders' sells | |
 * | bytes32-metadata      | ZooBytes32Meta                    | bytes32 name() and symbol()                     | clean           |
 * | no-bool-return        | ZooNoReturn                       | transfer/approve return nothing                 | clean           |
 * | decimals-0            | ZooClean                          | 0 decimals                                      | clean           |
 * | decimals-24           | ZooClean                          | 24 decimals                                     | clean           |
 * | empty-symbol          | ZooClean                          | symbol ""                                       | clean           |
 * | v3-only               | ZooClean                          | only liquidity is a Uniswap V3 pool             | clean           |
 * | lp-locked             | ZooClean                          | LP partly burned, partly in LpLocker            | clean           |
 * | usd                   | DevUsd                            | the world's stablecoin (6 decimals, no owner)   | clean           |
 *
 * The tokens of the owner's reach are listed in zoo-reach.ts, those of its arguments and callers in
 * zoo-arguments.ts, those shaped after real tokens (extreme values, dust, appointed helpers, setters
 * given the pool) in zoo-real-reach.ts.
 *
 * Every token but `usd` has a supply of 1,000,000 whole tokens minted to the deployer.
 */
import { encodeFunctionData } from 'viem/utils'
import type { Abi, Address, Hex } from 'viem'
import { erc20Abi } from './erc20-abi.ts'
import { loadArtifact } from './compile.ts'
import type { EvmCheckName } from 'tokenrisk/contract/checks'
import { DEAD_ADDRESS, type WorldAccounts } from './accounts.ts'
import { REACH_ZOO } from './zoo-reach.ts'
import { ARGUMENTS_ZOO } from './zoo-arguments.ts'
import { REAL_REACH_ZOO } from './zoo-real-reach.ts'
import type { Deployment, WorldChain } from './chain.ts'
import type { DexAddresses } from './dex.ts'
import { TRADE_ZOO } from './zoo-trades.ts'
import { VENUE_ZOO } from './zoo-venues.ts'
import { deployWith as direct, ownerSends, zooPool as pool } from './zoo-parts.ts'

/** The pool's other side: WETH, the USD stablecoin, the native coin itself (Uniswap V4 only), or another zoo token (`quoteToken`). */
export type QuoteKey = 'WETH' | 'USD' | 'ETH' | 'ZOO'
export type DexType = 'uniswap-v2' | 'uniswap-v3' | 'pancake-v3' | 'uniswap-v4' | 'solidly-volatile' | 'solidly-stable' | 'slipstream' | 'launchpad' | 'unlisted-v2' | 'four-meme'

/** A Uniswap V4 pool's hook: a zoo contract deployed at an address carrying `flags`. */
export interface ZooHookSpec {
  contract: string
  /** Its permission bits (see HOOK_FLAGS in venues.ts). */
  flags: number
  args(ctx: Pick<ZooContext, 'dex' | 'feeSink' | 'accounts'>, token: Address): unknown[]
  /** A contract deployed before the hook (CREATE2, salt 0) that its arguments name: a proxy hook's implementation. */
  implementation?: { contract: string; args(ctx: Pick<ZooContext, 'dex' | 'feeSink' | 'accounts'>, token: Address): unknown[] }
}

/** Supply of every zoo token, in whole tokens. */
export const ZOO_SUPPLY_WHOLE = 1_000_000n

export interface ZooPoolSpec {
  quote: QuoteKey
  type: DexType
  /** Taxes as the token is designed, percent; '' where a tax cannot be measured (the trade or transfer reverts). */
  buyTax: string
  sellTax: string
  transferTax: string
  /** The exact revert string of a sell by an ordinary holder; '' when selling works. */
  honeypotReason: string
  /** Whether an ordinary address can buy here (false: the buy reverts). */
  buyable: boolean
  /** A Uniswap V4 pool's hook. */
  hook?: ZooHookSpec
  /** The tokens seeded, raw units, when not the usual share of the supply (a launchpad curve holds most of it). */
  tokenAmount?: bigint
  /** A Uniswap V4 pool's key fee when not the usual 0.3 % (V4_DYNAMIC_FEE: its hook sets it). */
  v4Fee?: number
  /** The quote seeded, raw units, when not the usual amount (a stable pool's dollar for dollar). */
  quoteAmount?: bigint
  /** The zoo token (its key) a `ZOO` pool stands against; it is deployed earlier in the zoo. */
  quoteToken?: string
  /**
   * False: the history does not trade in this pool. The history's random draws are shared by every
   * token, phase after phase: a pool added to the zoo and traded would change every other token's
   * history.
   */
  traded?: boolean
}

export interface ZooContext {
  chain: WorldChain
  dex: DexAddresses
  /** The zoo tokens deployed so far, by key. */
  tokens: Map<string, Address>
  accounts: WorldAccounts
  /** The contract that receives the fee-forwarding token's fees. */
  feeSink: Address
}

/** The ordinary addresses that hold one token: its traders and its receivers. */
export interface ZooCast {
  traders: Address[]
  receivers: Address[]
}

export interface ZooDeployed {
  address: Address
  creation: Deployment
  /** For proxies: where the logic lives. */
  implementation?: Address
}

/** A point of the world's history where a token's owner acts (see `world-build.ts`). */
export type StoryPoint = 'setup' | 'history-1' | 'history-2' | 'history-3' | 'end'

export interface ZooTokenSpec {
  key: string
  twin: string
  name: string
  symbol: string
  decimals: number
  behaviours: string[]
  /** Code checks whose expected status is "1"; every other check is "0" unless `undetermined`. */
  risky: EvmCheckName[]
  /** Code checks that cannot be measured on this token by design (expected status ""). */
  undetermined?: EvmCheckName[]
  /** Risky checks whose finding is graver than the check's usual tier (expected risk "Critical"). */
  critical?: EvmCheckName[]
  /** Pools in the order they are created; the first is the token's main pool. */
  pools: ZooPoolSpec[]
  /** The main V2 pool's LP: kept by the deployer, or partly burned and partly locked. */
  lpPlan: 'deployer' | 'burn-and-lock'
  /** Whether the lpProvider account adds liquidity to the main pool during the history. */
  extraLiquidity?: boolean
  notes: string
  deploy(ctx: ZooContext, spec: ZooTokenSpec): Promise<ZooDeployed>
  /** What the owner (or the hidden admin) does at points of the history. */
  story?: Partial<Record<StoryPoint, (ctx: ZooContext, token: Address, spec: ZooTokenSpec, cast: ZooCast) => Promise<void>>>
}

export const HONEYPOT_REASON = 'ZooHoneypot: selling is disabled'
export const SWAP_BACK_REASON = 'ZooSwapBackTrap: swap back failed'
export const POOL_HONEYPOT_REASON = 'ZooPoolHoneypot: selling into this pool is disabled'

/** Amount in raw units of `whole` tokens of a spec. */
export function units(spec: Pick<ZooTokenSpec, 'decimals'>, whole: bigint): bigint {
  return whole * 10n ** BigInt(spec.decimals)
}

export function zooSupply(spec: Pick<ZooTokenSpec, 'decimals'>): bigint {
  return units(spec, ZOO_SUPPLY_WHOLE)
}

const TAXED = { buyTax: '3', sellTax: '7', transferTax: '1' } as const

function quoteAddress(ctx: ZooContext, quote: QuoteKey): Address {
  return quote === 'WETH' ? ctx.dex.weth : ctx.dex.usd
}

/** The quotes of a spec's V2 pools, for tokens that create their own pools. */
function v2Quotes(ctx: ZooContext, spec: ZooTokenSpec): Address[] {
  return spec.pools.filter((p) => p.type === 'uniswap-v2').map((p) => quoteAddress(ctx, p.quote))
}

const cleanArgs = (_ctx: ZooContext, s: ZooTokenSpec): unknown[] => [s.name, s.symbol, s.decimals, zooSupply(s)]
const ownedArgs = (_ctx: ZooContext, s: ZooTokenSpec): unknown[] => [s.name, s.symbol, zooSupply(s)]
const pooledArgs = (ctx: ZooContext, s: ZooTokenSpec): unknown[] => [s.name, s.symbol, zooSupply(s), ctx.dex.v2Factory, v2Quotes(ctx, s)]

/**
 * Deploys `logicContract`, then `proxyContract` in front of it, initialised in the proxy's
 * constructor with the logic's `initialize(name, symbol, supply, deployer)`.
 */
async function deployBehindProxy(
  ctx: ZooContext,
  spec: ZooTokenSpec,
  logicContract: string,
  proxyContract: string,
  proxyArgs: (logic: Address, init: Hex) => unknown[],
): Promise<ZooDeployed> {
  const { deployer } = ctx.accounts
  const logic = await ctx.chain.deploy(deployer, loadArtifact(logicContract), [], `deploy ${spec.key} logic`)
  const init = encodeFunctionData({
    abi: abiOf(logicContract),
    functionName: 'initialize',
    args: [spec.name, spec.symbol, zooSupply(spec), deployer],
  })
  const creation = await ctx.chain.deploy(deployer, loadArtifact(proxyContract), proxyArgs(logic.address, init), `deploy ${spec.key}`)
  return { address: creation.address, creation, implementation: logic.address }
}

function abiOf(contract: string): Abi {
  return loadArtifact(contract).abi as Abi
}

/** EIP-1167 minimal proxy creation code for `implementation`. */
export function cloneInitCode(implementation: Address): Hex {
  const runtime = `363d3d373d3d3d363d73${implementation.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3`
  return `0x3d602d80600a3d3981f3${runtime}`
}

export const ZOO: readonly ZooTokenSpec[] = [
  {
    key: 'clean',
    twin: '',
    name: 'Clean Token',
    symbol: 'CLEAN',
    decimals: 18,
    behaviours: ['clean'],
    risky: [],
    pools: [pool('WETH'), pool('USD')],
    lpPlan: 'deployer',
    extraLiquidity: true,
    notes: 'A standard ERC-20 whose owner has no power over it. Its WETH LP is held, unlocked, by the deployer (and a little by the LP provider).',
    deploy: direct('ZooClean', cleanArgs),
  },
  {
    key: 'tax-3-7-1',
    twin: 'clean',
    name: 'Taxed Token',
    symbol: 'TAX',
    decimals: 18,
    behaviours: ['tax'],
    risky: [],
    pools: [pool('WETH', TAXED)],
    lpPlan: 'deployer',
    notes: 'Fixed taxes (constants): 3 % of a buy, 7 % of a sell, 1 % of a wallet-to-wallet transfer go to the fee wallet, an EOA. The deployer is exempt.',
    deploy: direct('ZooTax', (ctx, s) => [...pooledArgs(ctx, s), ctx.accounts.feeWallet]),
  },
  {
    key: 'fee-forward',
    twin: 'tax-3-7-1',
    name: 'Fee Forward Token',
    symbol: 'FWD',
    decimals: 18,
    behaviours: ['tax', 'external-call'],
    risky: ['externalCall'],
    pools: [pool('WETH', TAXED)],
    lpPlan: 'deployer',
    notes: 'The 3 / 7 / 1 % taxes of tax-3-7-1, but the fees go to a ZooFeeCollector contract whose onTokenFee() the token calls during every taxed transfer.',
    deploy: direct('ZooFeeForward', (ctx, s) => [...pooledArgs(ctx, s), ctx.feeSink]),
  },
  {
    key: 'tax-modifiable',
    twin: 'tax-3-7-1',
    name: 'Modifiable Tax Token',
    symbol: 'MTAX',
    decimals: 18,
    behaviours: ['tax', 'tax-modifiable'],
    risky: ['slippageModifiable', 'transferPausable'],
    critical: ['slippageModifiable'],
    pools: [pool('WETH', TAXED)],
    lpPlan: 'deployer',
    notes: 'Taxes start at 3 / 7 / 1 %; the owner can set each up to 100 % with setTaxes(). During the history it raised them to 5 / 10 / 2 % and set them back to 3 / 7 / 1 %.',
    deploy: direct('ZooTaxModifiable', (ctx, s) => [...pooledArgs(ctx, s), ctx.accounts.feeWallet]),
    story: {
      'history-1': (ctx, t) => ownerSends(ctx, t, 'ZooTaxModifiable', 'setTaxes', [500n, 1000n, 200n]),
      'history-3': (ctx, t) => ownerSends(ctx, t, 'ZooTaxModifiable', 'setTaxes', [300n, 700n, 100n]),
    },
  },
  {
    key: 'tax-per-address',
    twin: 'tax-3-7-1',
    name: 'Per Address Tax Token',
    symbol: 'PTAX',
    decimals: 18,
    behaviours: ['tax', 'per-address-tax'],
    risky: ['personalSlippageModifiable', 'isBlacklisted'],
    pools: [pool('WETH', TAXED)],
    lpPlan: 'deployer',
    notes: 'The 3 / 7 / 1 % taxes for everyone, plus an extra tax the owner can put on any one address with setAccountTax(), up to 100 % (a blacklist by another name: that address can no longer sell); the first trader carries an extra 20 % since the history.',
    deploy: direct('ZooTaxPerAddress', (ctx, s) => [...pooledArgs(ctx, s), ctx.accounts.feeWallet]),
    story: {
      'history-2': (ctx, t, _s, cast) => ownerSends(ctx, t, 'ZooTaxPerAddress', 'setAccountTax', [cast.traders[0], 2000n]),
    },
  },
  {
    key: 'honeypot',
    twin: 'clean',
    name: 'Honeypot Token',
    symbol: 'HONEY',
    decimals: 18,
    behaviours: ['honeypot'],
    risky: ['cannotSellAll'],
    critical: ['cannotSellAll'],
    pools: [pool('WETH', { honeypotReason: HONEYPOT_REASON })],
    lpPlan: 'deployer',
    notes: 'Buys work; a transfer into its pool (a sell) reverts for everyone but the deployer (fixed at construction), who is also the owner.',
    deploy: direct('ZooHoneypot', pooledArgs),
  },
  {
    key: 'pool-honeypot',
    twin: 'clean',
    name: 'One Pool Honeypot',
    symbol: 'HALF',
    decimals: 18,
    behaviours: ['honeypot-one-pool'],
    risky: ['cannotSellAll'],
    critical: ['cannotSellAll'],
    pools: [pool('WETH'), pool('USD', { honeypotReason: POOL_HONEYPOT_REASON })],
    lpPlan: 'deployer',
    notes: 'Pools against WETH and USD. Selling into the WETH pool works; selling into the USD pool reverts for everyone but the deployer.',
    deploy: direct('ZooPoolHoneypot', pooledArgs),
  },
  {
    key: 'blacklist',
    twin: 'clean',
    name: 'Blacklist Token',
    symbol: 'BLOCK',
    decimals: 18,
    behaviours: ['blacklist'],
    risky: ['personalSlippageModifiable', 'isBlacklisted'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'The owner can block any address from sending and receiving with setBlacklisted(); one trader is blocked at the end of the history.',
    deploy: direct('ZooBlacklist', ownedArgs),
    story: {
      end: (ctx, t, _s, cast) => ownerSends(ctx, t, 'ZooBlacklist', 'setBlacklisted', [cast.traders[1], true]),
    },
  },
  {
    key: 'pausable',
    twin: 'clean',
    name: 'Pausable Token',
    symbol: 'PAUSE',
    decimals: 18,
    behaviours: ['pausable'],
    risky: ['transferPausable'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'The owner can stop every transfer with pause(). It paused and unpaused once during the history; it is not paused now.',
    deploy: direct('ZooPausable', ownedArgs),
    story: {
      'history-2': async (ctx, t) => {
        await ownerSends(ctx, t, 'ZooPausable', 'pause', [])
        await ownerSends(ctx, t, 'ZooPausable', 'unpause', [])
      },
    },
  },
  {
    key: 'mintable',
    twin: 'clean',
    name: 'Mintable Token',
    symbol: 'MINT',
    decimals: 18,
    behaviours: ['mintable'],
    risky: ['isMintable'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'The owner can mint any amount with mint(); it minted 50,000 tokens to itself during the history.',
    deploy: direct('ZooMintable', ownedArgs),
    story: {
      'history-1': (ctx, t, s) => ownerSends(ctx, t, 'ZooMintable', 'mint', [ctx.accounts.deployer, units(s, 50_000n)]),
    },
  },
  {
    key: 'owner-change-balance',
    twin: 'clean',
    name: 'Force Transfer Token',
    symbol: 'FORCE',
    decimals: 18,
    behaviours: ['owner-change-balance'],
    risky: ['ownerChangeBalance'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: "The owner can move anyone's tokens without approval with adminTransfer(); it took 100 tokens back from a receiver during the history.",
    deploy: direct('ZooForceTransfer', ownedArgs),
    story: {
      'history-2': (ctx, t, s, cast) =>
        ownerSends(ctx, t, 'ZooForceTransfer', 'adminTransfer', [cast.receivers[0], ctx.accounts.deployer, units(s, 100n)]),
    },
  },
  {
    key: 'self-destruct',
    twin: 'clean',
    name: 'Self Destruct Token',
    symbol: 'BOOM',
    decimals: 18,
    behaviours: ['self-destruct'],
    risky: ['selfDestruct'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'The owner can execute SELFDESTRUCT with destroy() (never called).',
    deploy: direct('ZooSelfDestruct', ownedArgs),
  },
  {
    key: 'hidden-owner',
    twin: 'mintable',
    name: 'Hidden Owner Token',
    symbol: 'HIDE',
    decimals: 18,
    behaviours: ['hidden-owner', 'mintable'],
    risky: ['isMintable', 'hiddenOwner'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'Ownership was renounced right after deployment (owner() is the zero address), but a controller kept in a private slot (see hiddenOwner) can still mint; it minted 25,000 tokens to itself during the history.',
    deploy: direct('ZooHiddenOwner', (ctx, s) => [...ownedArgs(ctx, s), ctx.accounts.hiddenAdmin]),
    story: {
      setup: (ctx, t) => ownerSends(ctx, t, 'ZooHiddenOwner', 'renounceOwnership', []),
      'history-2': (ctx, t, s) =>
        ownerSends(ctx, t, 'ZooHiddenOwner', 'mint', [ctx.accounts.hiddenAdmin, units(s, 25_000n)], ctx.accounts.hiddenAdmin),
    },
  },
  {
    key: 'proxy-transparent',
    twin: 'mintable',
    name: 'Transparent Proxy Token',
    symbol: 'TPROXY',
    decimals: 18,
    behaviours: ['proxy-1967-transparent', 'upgradeable', 'mintable'],
    risky: ['isProxy', 'isMintable'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'An EIP-1967 transparent proxy (OpenZeppelin) over a mintable logic. owner() is the token owner who mints; upgrades belong to the proxy admin (a ProxyAdmin contract, see proxyAdmin and proxyAdminOwner). It minted 50,000 tokens during the history.',
    deploy: (ctx, spec) =>
      deployBehindProxy(ctx, spec, 'ZooMintableLogic', 'ZooTransparentProxy', (logic, init) => [logic, ctx.accounts.deployer, init]),
    story: {
      'history-1': (ctx, t, s) => ownerSends(ctx, t, 'ZooMintableLogic', 'mint', [ctx.accounts.deployer, units(s, 50_000n)]),
    },
  },
  {
    key: 'proxy-uups',
    twin: 'blacklist',
    name: 'UUPS Proxy Token',
    symbol: 'UPROXY',
    decimals: 18,
    behaviours: ['proxy-uups', 'upgradeable', 'blacklist'],
    risky: ['isProxy', 'personalSlippageModifiable', 'isBlacklisted'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'An EIP-1967 proxy whose UUPS logic is the blacklist token; the owner blacklists and also upgrades (upgradeToAndCall). One trader is blocked at the end of the history.',
    deploy: (ctx, spec) => deployBehindProxy(ctx, spec, 'ZooBlacklistUupsLogic', 'ZooUupsProxy', (logic, init) => [logic, init]),
    story: {
      end: (ctx, t, _s, cast) => ownerSends(ctx, t, 'ZooBlacklistUupsLogic', 'setBlacklisted', [cast.traders[1], true]),
    },
  },
  {
    key: 'clone-1167',
    twin: 'clean',
    name: 'Clone Token',
    symbol: 'CLONE',
    decimals: 18,
    behaviours: ['proxy-1167'],
    risky: ['isProxy'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'An EIP-1167 minimal proxy (not upgradeable) of the clean token logic, created by a plain transaction of the deployer and then initialised.',
    async deploy(ctx, spec) {
      const { deployer } = ctx.accounts
      const logic = await ctx.chain.deploy(deployer, loadArtifact('ZooCleanInitializable'), [], `deploy ${spec.key} logic`)
      const creation = await ctx.chain.deployCode(deployer, cloneInitCode(logic.address), `deploy ${spec.key}`)
      await ctx.chain.send(
        deployer,
        creation.address,
        abiOf('ZooCleanInitializable'),
        'initialize',
        [spec.name, spec.symbol, spec.decimals, zooSupply(spec), deployer],
        { label: `initialize ${spec.key}` },
      )
      await ctx.chain.mine()
      return { address: creation.address, creation, implementation: logic.address }
    },
  },
  {
    key: 'cooldown',
    twin: 'clean',
    name: 'Cooldown Token',
    symbol: 'COOL',
    decimals: 18,
    behaviours: ['trading-cooldown'],
    risky: ['tradingCooldown'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'After a buy, the same address cannot buy again for 60 seconds (COOLDOWN); sells and transfers are free.',
    deploy: direct('ZooCooldown', pooledArgs),
  },
  {
    key: 'max-tx',
    twin: 'clean',
    name: 'Max Transaction Token',
    symbol: 'MAXTX',
    decimals: 18,
    behaviours: ['anti-whale-max-tx'],
    risky: ['isAntiWhale'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'No buy, sell or transfer may move more than 1 % of the supply (10,000 tokens, maxTransactionAmount); the deployer is exempt.',
    deploy: direct('ZooMaxTx', pooledArgs),
  },
  {
    key: 'max-wallet',
    twin: 'clean',
    name: 'Max Wallet Token',
    symbol: 'MAXW',
    decimals: 18,
    behaviours: ['anti-whale-max-wallet'],
    risky: ['isAntiWhale'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'No wallet but the pools and the deployer may hold more than 2 % of the supply (20,000 tokens, maxWalletAmount).',
    deploy: direct('ZooMaxWallet', pooledArgs),
  },
  {
    key: 'cannot-sell-all',
    twin: 'clean',
    name: 'Cannot Sell All Token',
    symbol: 'KEEP',
    decimals: 18,
    behaviours: ['cannot-sell-all'],
    risky: ['cannotSellAll'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'Selling a whole balance into a pool reverts ("ZooCannotSellAll: cannot sell the whole balance"); selling less works.',
    deploy: direct('ZooCannotSellAll', pooledArgs),
  },
  {
    key: 'no-buy',
    twin: 'clean',
    name: 'No Buy Token',
    symbol: 'NOBUY',
    decimals: 18,
    behaviours: ['cannot-buy'],
    risky: ['cannotBuy'],
    undetermined: ['tradingCooldown', 'isAntiWhale'],
    pools: [pool('WETH', { buyable: false })],
    lpPlan: 'deployer',
    notes: 'Buying from its pool reverts ("ZooNoBuy: buying is disabled") for everyone but the deployer; holders, who got their tokens by transfer, can sell.',
    deploy: direct('ZooNoBuy', pooledArgs),
  },
  {
    key: 'self-credit',
    twin: 'airdrop',
    name: 'Self Credit Token',
    symbol: 'SELF',
    decimals: 18,
    behaviours: ['hidden-mint'],
    risky: ['isMintable'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'The owner "rebalances" with rebalance(): it adds to its own balance by writing the balance mapping in assembly. The total supply never moves and no Transfer is emitted: a mint the supply does not show.',
    deploy: direct('ZooSelfCredit', ownedArgs),
  },
  {
    key: 'airdrop',
    twin: 'clean',
    name: 'Airdrop Token',
    symbol: 'DROP',
    decimals: 18,
    behaviours: ['owner-airdrop'],
    risky: [],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: "The owner can airdrop with airdrop(), paying each recipient out of its own balance: no token is created and no one else's balance moves. It airdropped 100 tokens to each receiver during the history.",
    deploy: direct('ZooAirdrop', ownedArgs),
    story: {
      'history-1': (ctx, t, s, cast) => ownerSends(ctx, t, 'ZooAirdrop', 'airdrop', [cast.receivers, units(s, 100n)]),
    },
  },
  {
    key: 'tax-capped',
    twin: 'tax-modifiable',
    name: 'Capped Tax Token',
    symbol: 'CTAX',
    decimals: 18,
    behaviours: ['tax', 'tax-modifiable-capped'],
    risky: ['slippageModifiable'],
    pools: [pool('WETH', TAXED)],
    lpPlan: 'deployer',
    notes: 'Taxes start at 3 / 7 / 1 %; the owner can change them with setTaxes(), but never above 10 % (MAX_TAX_BPS): the taxes can change, not confiscate.',
    deploy: direct('ZooTaxCapped', (ctx, s) => [...pooledArgs(ctx, s), ctx.accounts.feeWallet]),
  },
  {
    key: 'vault-mint',
    twin: 'fixed-minter',
    name: 'Vault Mint Token',
    symbol: 'VAULT',
    decimals: 18,
    behaviours: ['two-step-mint'],
    risky: ['isMintable'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'The owner appoints a vault with setVault(); the vault mints at will with vaultMint(). No single call of the owner raises the supply; two do.',
    deploy: direct('ZooVaultMint', ownedArgs),
  },
  {
    key: 'fixed-minter',
    twin: 'clean',
    name: 'Fixed Minter Token',
    symbol: 'FIXM',
    decimals: 18,
    behaviours: ['fixed-minter'],
    risky: [],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'minterMint() is restricted to a minter fixed at deployment (immutable): the fee collector contract, which has no way to call it. No one the owner chooses can mint.',
    deploy: direct('ZooFixedMinter', (ctx, s) => [...ownedArgs(ctx, s), ctx.feeSink]),
  },
  {
    key: 'sell-hook-trap',
    twin: 'sell-hook-safe',
    name: 'Sell Hook Trap Token',
    symbol: 'HOOKT',
    decimals: 18,
    behaviours: ['external-call', 'sell-hook-trap'],
    risky: ['externalCall', 'transferPausable'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'Every sale calls a hook contract (the fee collector) that the owner can replace with setHook(); pointed at a contract that reverts, it makes every sale revert: a pause under another name.',
    deploy: direct('ZooSellHookTrap', (ctx, s) => [...pooledArgs(ctx, s), ctx.feeSink]),
  },
  {
    key: 'sell-hook-safe',
    twin: 'clean',
    name: 'Sell Hook Safe Token',
    symbol: 'HOOKS',
    decimals: 18,
    behaviours: ['external-call', 'sell-hook'],
    risky: ['externalCall'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'Every sale calls a replaceable hook contract (setHook()), but a hook that fails is ignored (try/catch): no hook can stop a sale.',
    deploy: direct('ZooSellHookSafe', (ctx, s) => [...pooledArgs(ctx, s), ctx.feeSink]),
  },
  {
    key: 'quiet-list',
    twin: 'fee-exempt',
    name: 'Reward Exclusion Token',
    symbol: 'RWRD',
    decimals: 18,
    behaviours: ['blacklist-renamed'],
    risky: ['personalSlippageModifiable', 'isBlacklisted'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'setRewardExclusion() sounds like rewards; an excluded address can neither send nor receive: a blacklist under an innocent name.',
    deploy: direct('ZooQuietList', ownedArgs),
  },
  {
    key: 'fee-exempt',
    twin: 'tax-3-7-1',
    name: 'Fee Exempt Token',
    symbol: 'EXMT',
    decimals: 18,
    behaviours: ['tax', 'fee-exemption'],
    risky: ['personalSlippageModifiable', 'isWhitelisted'],
    pools: [pool('WETH', TAXED)],
    lpPlan: 'deployer',
    notes: 'The fixed 3 / 7 / 1 % taxes, from which the owner can exempt chosen addresses with setFeeExempt(): they favour a chosen set, and block no one.',
    deploy: direct('ZooFeeExempt', (ctx, s) => [...pooledArgs(ctx, s), ctx.accounts.feeWallet]),
  },
  {
    key: 'swap-back-trap',
    twin: 'swap-back',
    name: 'Swap Back Trap Token',
    symbol: 'SBTRAP',
    decimals: 18,
    behaviours: ['honeypot-swap-back'],
    risky: ['cannotSellAll'],
    critical: ['cannotSellAll'],
    pools: [pool('WETH', { honeypotReason: SWAP_BACK_REASON })],
    lpPlan: 'deployer',
    notes: 'Sales work while the contract holds less than its swap-back threshold (0.05 % of the supply) of itself; from then on every sale reverts ("ZooSwapBackTrap: swap back failed"): a honeypot that springs later.',
    deploy: direct('ZooSwapBackTrap', pooledArgs),
  },
  {
    key: 'swap-back',
    twin: 'clean',
    name: 'Swap Back Token',
    symbol: 'SWPB',
    decimals: 18,
    behaviours: ['swap-back'],
    risky: [],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'Once the contract holds its swap-back threshold (0.05 % of the supply) of itself, a sale sends that balance to the fee wallet and goes on.',
    deploy: direct('ZooSwapBack', (ctx, s) => [...pooledArgs(ctx, s), ctx.accounts.feeWallet]),
  },
  {
    key: 'max-tx-adjustable',
    twin: 'max-tx',
    name: 'Adjustable Max Transaction Token',
    symbol: 'ADJTX',
    decimals: 18,
    behaviours: ['anti-whale-max-tx', 'anti-whale-modifiable'],
    risky: ['isAntiWhale', 'antiwhaleModifiable', 'transferPausable'],
    critical: ['antiwhaleModifiable'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'A maximum transaction of 1 % of the supply that the owner can set to anything with setMaxTransactionAmount(), zero included: then no one but the deployer can sell.',
    deploy: direct('ZooMaxTxAdjustable', pooledArgs),
  },
  {
    key: 'holder-sweep',
    twin: 'holder-reward',
    name: 'Holder Sweep Token',
    symbol: 'SWEEP',
    decimals: 18,
    behaviours: ['owner-change-balance', 'holder-list'],
    risky: ['ownerChangeBalance'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'Keeps a list of everyone who received tokens. sweepDust() lets the owner move the whole balance of every listed account without code (the pools are spared) to itself: the victims are named nowhere but in that list.',
    deploy: direct('ZooHolderSweep', ownedArgs),
  },
  {
    key: 'holder-reward',
    twin: 'clean',
    name: 'Holder Reward Token',
    symbol: 'RWRD',
    decimals: 18,
    behaviours: ['owner-airdrop', 'holder-list'],
    risky: [],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'Keeps the same list of holders; distributeRewards() pays every listed account without code a reward out of the owner\'s own balance. Holders only gain and nothing is created.',
    deploy: direct('ZooHolderReward', ownedArgs),
  },
  {
    key: 'reserve-credit',
    twin: 'reserve-fund',
    name: 'Reserve Credit Token',
    symbol: 'RSVC',
    decimals: 18,
    behaviours: ['hidden-mint', 'masked-account'],
    risky: ['isMintable'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'Keeps a reserve account only as a masked number (no address in its storage or code). seedReserve() lets the owner add any amount to that account\'s balance without raising the total supply; the Transfer it emits, from the token itself, is the only place the account is named.',
    deploy: direct('ZooReserveCredit', (ctx, s) => [...ownedArgs(ctx, s), ctx.accounts.feeWallet]),
  },
  {
    key: 'reserve-fund',
    twin: 'clean',
    name: 'Reserve Fund Token',
    symbol: 'RSVF',
    decimals: 18,
    behaviours: ['owner-airdrop', 'masked-account'],
    risky: [],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'The same masked reserve account; fundReserve() moves tokens to it out of the owner\'s own balance. Nothing is created.',
    deploy: direct('ZooReserveFund', (ctx, s) => [...ownedArgs(ctx, s), ctx.accounts.feeWallet]),
  },
  {
    key: 'sell-switch',
    twin: 'launch-once',
    name: 'Sell Switch Token',
    symbol: 'SWTCH',
    decimals: 18,
    behaviours: ['sell-switch'],
    risky: ['transferPausable'],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'Sales work while swapEnabled is on; setSwapEnabled(false) lets the owner stop every holder\'s sales at any time (buys and transfers still work).',
    deploy: direct('ZooSellSwitch', pooledArgs),
  },
  {
    key: 'launch-once',
    twin: 'clean',
    name: 'Launch Once Token',
    symbol: 'LNCH',
    decimals: 18,
    behaviours: ['trading-launch'],
    risky: [],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'Trading was closed at deployment; the owner opened it with openTrading() before any trade, and no call closes it again.',
    deploy: direct('ZooLaunchOnce', pooledArgs),
    story: { setup: (ctx, t) => ownerSends(ctx, t, 'ZooLaunchOnce', 'openTrading', []) },
  },
  ...TRADE_ZOO,
  {
    key: 'bytes32-metadata',
    twin: 'clean',
    name: 'Bytes32 Token',
    symbol: 'B32',
    decimals: 18,
    behaviours: ['bytes32-metadata'],
    risky: [],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'name() and symbol() return bytes32 (right-padded with zero bytes), not string.',
    deploy: direct('ZooBytes32Meta', (_ctx, s) => [toBytes32(s.name), toBytes32(s.symbol), zooSupply(s)]),
  },
  {
    key: 'no-bool-return',
    twin: 'clean',
    name: 'No Return Token',
    symbol: 'NORET',
    decimals: 18,
    behaviours: ['no-bool-return'],
    risky: [],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'transfer(), transferFrom() and approve() return no data at all.',
    deploy: direct('ZooNoReturn', ownedArgs),
  },
  {
    key: 'decimals-0',
    twin: 'clean',
    name: 'Zero Decimals Token',
    symbol: 'ZERO',
    decimals: 0,
    behaviours: ['decimals-0'],
    risky: [],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'The clean token with 0 decimals.',
    deploy: direct('ZooClean', cleanArgs),
  },
  {
    key: 'decimals-24',
    twin: 'clean',
    name: 'Twenty Four Decimals Token',
    symbol: 'DEC24',
    decimals: 24,
    behaviours: ['decimals-24'],
    risky: [],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'The clean token with 24 decimals.',
    deploy: direct('ZooClean', cleanArgs),
  },
  {
    key: 'empty-symbol',
    twin: 'clean',
    name: 'Empty Symbol Token',
    symbol: '',
    decimals: 18,
    behaviours: ['empty-symbol'],
    risky: [],
    pools: [pool('WETH')],
    lpPlan: 'deployer',
    notes: 'The clean token whose symbol() is the empty string.',
    deploy: direct('ZooClean', cleanArgs),
  },
  {
    key: 'v3-only',
    twin: 'clean',
    name: 'V3 Only Token',
    symbol: 'V3O',
    decimals: 18,
    behaviours: ['v3-only'],
    risky: [],
    pools: [pool('WETH', { type: 'uniswap-v3' })],
    lpPlan: 'deployer',
    notes: 'The clean token whose only liquidity is a full-range position in a Uniswap V3 WETH pool (0.3 % fee), held by the deployer as a position NFT.',
    deploy: direct('ZooClean', cleanArgs),
  },
  {
    key: 'lp-locked',
    twin: 'clean',
    name: 'Locked Liquidity Token',
    symbol: 'LOCK',
    decimals: 18,
    behaviours: ['lp-burned', 'lp-locked'],
    risky: [],
    pools: [pool('WETH')],
    lpPlan: 'burn-and-lock',
    extraLiquidity: true,
    notes: 'The clean token whose WETH LP is partly sent to the dead address and partly locked in LpLocker with three future unlock dates; a fourth, earlier lock expired and was withdrawn during the history. The deployer also burned 50,000 tokens to the dead address.',
    deploy: direct('ZooClean', cleanArgs),
    story: {
      setup: (ctx, t, s) => ctx.chain.send(ctx.accounts.deployer, t, erc20Abi, 'transfer', [DEAD_ADDRESS, units(s, 50_000n)], { label: 'burn LOCK tokens' }),
    },
  },
  ...REACH_ZOO,
  ...ARGUMENTS_ZOO,
  ...REAL_REACH_ZOO,
  ...VENUE_ZOO,
]

/** The stablecoin's entry: deployed with the DEX (see dex.ts), listed with the tokens. */
export const USD_SPEC: Omit<ZooTokenSpec, 'deploy'> = {
  key: 'usd',
  twin: 'clean',
  name: 'Devnet USD',
  symbol: 'USD',
  decimals: 6,
  behaviours: ['stablecoin'],
  risky: [],
  pools: [pool('WETH')],
  lpPlan: 'deployer',
  notes: 'The world’s US dollar: 6 decimals, fixed supply, no owner. Its pool against WETH prices ether near 3,000 USD.',
}

export function toBytes32(text: string): Hex {
  const hex = Buffer.from(text, 'utf8').toString('hex')
  if (hex.length > 64) throw new Error(`"${text}" does not fit in bytes32`)
  return `0x${hex.padEnd(64, '0')}`
}

/** Approves `spender` for everything, whichever the token's approve() returns. */
export async function approveAll(chain: WorldChain, owner: Address, token: Address, spender: Address, label: string): Promise<void> {
  await chain.send(owner, token, erc20Abi, 'approve', [spender, 2n ** 256n - 1n], { label })
}
