/**
 * The zoo of the venues where tokens trade now, each token with its legitimate twin. Every token is
 * the clean token; what differs is where it trades, and the hook of its Uniswap V4 pool.
 *
 * | key                  | where it trades                                   | behaviour (risky checks)                            | twin            |
 * |----------------------|---------------------------------------------------|-----------------------------------------------------|-----------------|
 * | pancake-v3-2500      | only a PancakeSwap V3 WETH pool, 0.25 % tier      | none                                                | clean           |
 * | v4-sell-gate         | only a V4 WETH pool, hook ZooHookSellGate         | the hook refuses sells (cannotSellAll, honeypot)    | v4-hook-counter |
 * | v4-hook-counter      | only a V4 WETH pool, hook ZooHookCounter          | a hook that counts swaps (none)                     | clean           |
 * | v4-sell-tax          | only a V4 WETH pool, hook ZooHookSellTax          | the hook takes 10 % of every sell (sell tax 10)     | v4-fixed-fee    |
 * | v4-fixed-fee         | only a V4 WETH pool, hook ZooHookFixedFee         | an immutable 0.3 % of sells (sell tax 0.3)          | clean           |
 * | v4-native            | only a V4 pool against the native coin, no hook   | none                                                | clean           |
 * | v4-owner-fee         | only a dynamic-fee V4 WETH pool, ZooHookOwnedFee  | its owner raises the LP fee to 100 % (slippageModifiable, transferPausable; sell tax 0.3) | v4-steady-fee |
 * | v4-steady-fee        | only a dynamic-fee V4 WETH pool, ZooHookSteadyFee | a dynamic fee its code holds at 0.3 % (sell tax 0.3) | clean          |
 * | v4-pausable          | only a V4 WETH pool, hook ZooHookPausable         | its owner pauses every swap (transferPausable)      | v4-hook-counter |
 * | v4-after-tax         | only a V4 WETH pool, hook ZooHookAfterTax         | afterSwap keeps 10 % of what sells are paid (sell tax 10) | v4-after-zero |
 * | v4-after-zero        | only a V4 WETH pool, hook ZooHookAfterZero        | afterSwap with a returned delta of zero (none)      | clean           |
 * | v4-routed            | only a V4 WETH pool, hook ZooHookRouted           | its owner points the hook at another rule contract (transferPausable) | v4-fixed-rule |
 * | v4-fixed-rule        | only a V4 WETH pool, hook ZooHookFixedRule        | the same rule, fixed at deployment (none)           | clean           |
 * | v4-pause-beside-v2   | a V2 WETH pool, and a V4 WETH pool hooked by ZooHookPausable | its hook's owner pauses the V4 pool (transferPausable, measured on that pool) | v4-hook-counter |
 * | v4-proxy-hook        | only a V4 WETH pool, its hook behind an EIP-1967 proxy | its admin can replace the hook's code (transferPausable; the implementation's functions unread) | v4-hook-counter |
 * | solidly-volatile     | only a volatile (x·y=k) Aerodrome-style WETH pool | none                                                | clean           |
 * | solidly-stable       | only a stable (x³y+y³x) Aerodrome-style USD pool  | none (priced 1 USD, the curve's spot price)         | clean           |
 * | paired-base          | a V2 WETH pool; the quote of paired-only          | none                                                | clean           |
 * | paired-only          | only a V2 pair against paired-base (no WETH, no stablecoin) | none                                      | clean           |
 * | slipstream-only      | only an Aerodrome Slipstream-interface WETH pool, tick spacing 200 | none                               | clean           |
 * | curve-clean          | only its curve on our launchpad (90 % of the supply), no pool | none                                    | clean           |
 * | curve-honeypot       | only its curve on the same launchpad              | sells back to the curve revert (cannotSellAll, honeypot) | curve-clean |
 * | holder-pair          | only a V2 WETH pair of a factory the chain entry does not list (found among its holders) | none | clean |
 * | holder-pair-base     | only a V2 pair against paired-base of the same unlisted factory (found among its holders) | none | holder-pair |
 * | holder-vesting       | a V2 WETH pool; 20 % held by a vesting contract with a token0() that is no pair | none (the vesting contract is no pool) | holder-pair |
 * | fourmeme-clean       | only its curve on our four.meme-interface launchpad (90 % of the supply), no pool | none                   | clean           |
 * | fourmeme-honeypot    | only its curve on the same four.meme-interface launchpad | sells back to the curve revert (cannotSellAll, honeypot) | fourmeme-clean |
 * | fourmeme-graduated   | a V2 WETH pool; its four.meme-interface curve graduated (liquidity added) | none (the closed curve is no market) | fourmeme-clean |
 * | v4-stored-key        | only a V4 WETH pool, no hook; the token keeps the pool's key in its storage (slots 6-8) | none (found from the key when the PoolManager's logs are refused) | clean |
 * | v4-stored-look-alike | only a V4 WETH pool, no hook; its storage keeps the key of a pool never created (another fee and tick spacing) | none (the key is verified, adds no pool) | v4-stored-key |
 * | v4-paired            | only a V4 pool against paired-base (no WETH, no stablecoin), hook ZooHookCounter | none                   | clean           |
 * | v4-paired-gate       | only a V4 pool against paired-base, hook ZooHookSellGate | the hook refuses sells (cannotSellAll, honeypot) | v4-paired    |
 * | v4-paired-pausable   | only a V4 pool against paired-base, hook ZooHookPausable | its owner pauses every swap (transferPausable: the powers sell through that pool, buying paired-base first) | v4-paired |
 */
import { toFunctionSelector, type Abi, type Address } from 'viem'
import { loadArtifact } from './compile.ts'
import { erc20Abi } from './erc20-abi.ts'
import { deployWith, zooPool } from './zoo-parts.ts'
import { FOUR_MEME_GRADUATING_BUY } from './dex.ts'
import { HOOK_FLAGS, V4_DYNAMIC_FEE, create2Zero, v4PoolKey } from './venues.ts'
import type { EvmCheckName } from 'tokenrisk/contract/checks'
import { zooSupply, type ZooContext, type ZooHookSpec, type ZooTokenSpec } from './zoo.ts'

/** The revert of a sell back to the curve of the launchpad honeypot. */
export const CURVE_GATE_REASON = 'ZooCurveGate: selling to the curve is disabled'
/**
 * The tokens a launched token puts on its curve: 900,000 whole tokens, 90 % of the zoo's supply
 * (written out: this list is read while zoo.ts, which holds the supply, is still loading); the rest
 * pays the receivers of the history.
 */
const CURVE_TOKENS = 900_000n * 10n ** 18n
/** The tokens the graduated token put on its four.meme-interface curve: 100,000 whole tokens (10 % of the supply). */
const GRADUATED_CURVE_TOKENS = 100_000n * 10n ** 18n
/** The vesting contract's share: 200,000 whole tokens (20 % of the supply), released far in the future. */
const VESTED_TOKENS = 200_000n * 10n ** 18n
const VESTING_RELEASE = 10_000_000_000n
const onCurve = (overrides: Partial<ZooTokenSpec['pools'][number]> = {}) => zooPool('ETH', { type: 'launchpad', tokenAmount: CURVE_TOKENS, ...overrides })
const onFourMemeCurve = (overrides: Partial<ZooTokenSpec['pools'][number]> = {}) => zooPool('ETH', { type: 'four-meme', tokenAmount: CURVE_TOKENS, ...overrides })

/** The revert of a sell refused by the gate hook. */
export const HOOK_SELL_GATE_REASON = 'ZooHookSellGate: sells are closed'

const cleanArgs = (_ctx: ZooContext, s: ZooTokenSpec): unknown[] => [s.name, s.symbol, s.decimals, zooSupply(s)]
const clean = deployWith('ZooClean', cleanArgs)
const managerAndToken = (ctx: Pick<ZooContext, 'dex' | 'feeSink'>, token: Address): unknown[] => [ctx.dex.v4PoolManager, token]
/** The implementation behind the proxy hook: the counting hook (its immutables in its code, its count in the proxy). */
const COUNTER_IMPLEMENTATION = { contract: 'ZooHookCounter', args: managerAndToken }

/** The call the proxy makes of its implementation when created (the proxy requires one): the counter's `swaps()`, a read. */
const PROXY_FIRST_CALL = toFunctionSelector('function swaps()')

/** A hook owned by the world's deployer (an account, not the CREATE2 factory that deploys it). */
const ownedByDeployer = (ctx: Pick<ZooContext, 'dex' | 'accounts'>, token: Address): unknown[] => [ctx.dex.v4PoolManager, token, ctx.accounts.deployer]
const hook = (contract: string, flags: number, args: ZooHookSpec['args'] = managerAndToken): ZooHookSpec => ({ contract, flags, args })

function venueToken(
  key: string,
  twin: string,
  name: string,
  symbol: string,
  pools: ZooTokenSpec['pools'],
  notes: string,
  risky: ZooTokenSpec['risky'] = [],
  critical: EvmCheckName[] = risky.includes('cannotSellAll') ? ['cannotSellAll'] : [],
): ZooTokenSpec {
  return {
    key,
    twin,
    name,
    symbol,
    decimals: 18,
    behaviours: [key],
    risky,
    ...(critical.length > 0 ? { critical } : {}),
    pools,
    lpPlan: 'deployer',
    notes,
    deploy: clean,
  }
}

/** The fee and tick spacing of the look-alike key a token keeps: a pool of its currencies never created (its pool is 0.3 %, spacing 60). */
const LOOK_ALIKE_FEE = 500
const LOOK_ALIKE_TICK_SPACING = 10

/**
 * The token's owner records the key of its V4 pool in the token's storage (after the pool is
 * created, as a launchpad records where its token graduated), or a look-alike key of a pool never created.
 */
const recordPoolKey =
  (lookAlike: boolean) =>
  async (ctx: ZooContext, token: Address, spec: ZooTokenSpec): Promise<void> => {
    const key = v4PoolKey(ctx, spec.pools[0], token)
    const recorded = lookAlike ? { ...key, fee: LOOK_ALIKE_FEE, tickSpacing: LOOK_ALIKE_TICK_SPACING } : key
    await ctx.chain.send(ctx.accounts.deployer, token, loadArtifact('ZooStoredPoolKey').abi as Abi, 'recordPoolKey', [recorded], { label: `record ${spec.key}'s pool key` })
  }

/** The clean token with only a hookless V4 WETH pool, keeping in its storage that pool's key or a look-alike of none. */
function storedKeyToken(key: string, twin: string, name: string, symbol: string, lookAlike: boolean, notes: string): ZooTokenSpec {
  return {
    ...venueToken(key, twin, name, symbol, [zooPool('WETH', { type: 'uniswap-v4' })], notes),
    deploy: deployWith('ZooStoredPoolKey', cleanArgs),
    story: { setup: recordPoolKey(lookAlike) },
  }
}

/** A stable pool's USD side: the 300,000 tokens seeded against as many dollars. */
const STABLE_POOL_USD = 300_000n * 10n ** 6n

/** The base token seeded against the token paired only with it: 100,000 whole tokens. */
const PAIRED_BASE_AMOUNT = 100_000n * 10n ** 18n

export const VENUE_ZOO: ZooTokenSpec[] = [
  venueToken(
    'paired-base',
    'clean',
    'Paired Base Token',
    'PBASE',
    [zooPool('WETH', { traded: false })],
    'The clean token with a V2 WETH pool (not traded in the history); the token paired-only trades against it and nothing else (as agent tokens trade against their launchpad token).',
  ),
  venueToken(
    'paired-only',
    'clean',
    'Paired Only Token',
    'PONLY',
    [zooPool('ZOO', { quoteToken: 'paired-base', quoteAmount: PAIRED_BASE_AMOUNT })],
    'The clean token whose only pool is a V2 pair against another zoo token (paired-base), neither WETH nor a stablecoin: found by its factory\'s announcement, priced through paired-base\'s own WETH pool, traded by buying paired-base first.',
  ),
  venueToken(
    'solidly-volatile',
    'clean',
    'Volatile Pool Token',
    'AEROV',
    [zooPool('WETH', { type: 'solidly-volatile' })],
    'The clean token whose only pool is a volatile (x·y = k) pool of an Aerodrome-interface exchange against WETH, its 0.3 % fee set by the factory.',
  ),
  venueToken(
    'solidly-stable',
    'clean',
    'Stable Pool Token',
    'AEROS',
    [zooPool('USD', { type: 'solidly-stable', quoteAmount: STABLE_POOL_USD })],
    'The clean token whose only pool is a stable (x³y + y³x = k) pool of an Aerodrome-interface exchange against USD, seeded dollar for dollar, its 0.05 % fee set by the factory.',
  ),
  venueToken(
    'pancake-v3-2500',
    'clean',
    'Pancake Tier Token',
    'PCK25',
    [zooPool('WETH', { type: 'pancake-v3' })],
    'The clean token whose only liquidity is a full-range position in a PancakeSwap V3 WETH pool on the 0.25 % tier (a tier Uniswap V3 does not have), created through its pool deployer.',
  ),
  venueToken(
    'v4-sell-gate',
    'v4-hook-counter',
    'Gated Hook Token',
    'HGATE',
    [zooPool('WETH', { type: 'uniswap-v4', hook: hook('ZooHookSellGate', HOOK_FLAGS.beforeSwap), honeypotReason: HOOK_SELL_GATE_REASON })],
    "The clean token whose only pool is a Uniswap V4 WETH pool whose hook refuses every sell but those of the routers its owner lists (none): the token is sound, its only market is a honeypot.",
    ['cannotSellAll'],
  ),
  venueToken(
    'v4-hook-counter',
    'clean',
    'Counted Hook Token',
    'HCOUNT',
    [zooPool('WETH', { type: 'uniswap-v4', hook: hook('ZooHookCounter', HOOK_FLAGS.beforeSwap) })],
    'The clean token whose only pool is a Uniswap V4 WETH pool whose hook counts swaps (an oracle-like hook) and refuses nothing.',
  ),
  venueToken(
    'v4-sell-tax',
    'v4-fixed-fee',
    'Taxing Hook Token',
    'HTAX',
    [zooPool('WETH', { type: 'uniswap-v4', hook: hook('ZooHookSellTax', HOOK_FLAGS.beforeSwap | HOOK_FLAGS.beforeSwapReturnDelta), sellTax: '10' })],
    "The clean token whose only pool is a Uniswap V4 WETH pool whose hook takes 10 % of every sell's tokens through its returned delta, for its owner.",
  ),
  venueToken(
    'v4-fixed-fee',
    'clean',
    'Fixed Fee Hook Token',
    'HFEE',
    [
      zooPool('WETH', {
        type: 'uniswap-v4',
        hook: hook('ZooHookFixedFee', HOOK_FLAGS.beforeSwap | HOOK_FLAGS.beforeSwapReturnDelta, (ctx, token) => [ctx.dex.v4PoolManager, token, ctx.feeSink]),
        sellTax: '0.3',
      }),
    ],
    'The clean token whose only pool is a Uniswap V4 WETH pool whose hook takes a fixed, immutable 0.3 % of sells for a recipient set at deployment; no owner.',
  ),
  venueToken(
    'v4-native',
    'clean',
    'Native Pool Token',
    'NATV',
    [zooPool('ETH', { type: 'uniswap-v4' })],
    'The clean token whose only pool is a hookless Uniswap V4 pool against the native coin itself (currency0 is address zero), not WETH.',
  ),
  venueToken(
    'curve-clean',
    'clean',
    'Curve Launch Token',
    'CURVE',
    [onCurve()],
    'The clean token still on its bonding curve: 90 % of its supply put on our launchpad, 4 of the 40 ether to graduation raised by two buyers; no DEX pool yet. Bought from and sold back to the curve for the native coin, 1 % of it kept by the launchpad.',
  ),
  {
    ...venueToken(
      'curve-honeypot',
      'curve-clean',
      'Curve Gate Token',
      'CGATE',
      [onCurve({ honeypotReason: CURVE_GATE_REASON })],
      "A token on the same launchpad's curve whose transfers into the launchpad revert for everyone but its deployer: buys from the curve work, no holder can sell back to it.",
      ['cannotSellAll'],
    ),
    deploy: deployWith('ZooCurveGate', (ctx, s) => [s.name, s.symbol, zooSupply(s), ctx.dex.launchpad]),
  },
  venueToken(
    'holder-pair',
    'clean',
    'Holder Pair Token',
    'HPAIR',
    [zooPool('WETH', { type: 'unlisted-v2', traded: false })],
    'The clean token whose only pool is a V2 WETH pair of a factory the chain entry does not list (no factory announcement tokenrisk reads names it): found among its largest holders, traded there.',
  ),
  {
    ...venueToken(
      'holder-vesting',
      'holder-pair',
      'Holder Vesting Token',
      'HVEST',
      [zooPool('WETH', { traded: false })],
      'The clean token with a V2 WETH pool, 20 % of its supply held by a vesting contract whose token0() names the token (and no token1(), no reserves): a contract holder that is no pool.',
    ),
    story: {
      setup: async (ctx, token) => {
        const { deployer } = ctx.accounts
        const vesting = await ctx.chain.deploy(deployer, loadArtifact('ZooVesting'), [token, deployer, VESTING_RELEASE], 'deploy ZooVesting')
        await ctx.chain.send(deployer, token, erc20Abi, 'transfer', [vesting.address, VESTED_TOKENS], { label: 'fund ZooVesting' })
      },
    },
  },
  venueToken(
    'holder-pair-base',
    'holder-pair',
    'Holder Pair Base Token',
    'HPBASE',
    [zooPool('ZOO', { type: 'unlisted-v2', quoteToken: 'paired-base', quoteAmount: PAIRED_BASE_AMOUNT, traded: false })],
    "The clean token whose only pool is a V2 pair of the unlisted factory against paired-base (neither WETH nor a stablecoin): found among its holders, paired-base bought and priced through paired-base's own WETH pool in the same call.",
  ),
  venueToken(
    'slipstream-only',
    'clean',
    'Slipstream Pool Token',
    'SLIP',
    [zooPool('WETH', { type: 'slipstream' })],
    'The clean token whose only liquidity is a full-range position in a concentrated pool of an Aerodrome Slipstream-interface factory against WETH: named by its tick spacing (200), its 0.3 % fee the factory\'s for that spacing.',
  ),
  venueToken(
    'v4-owner-fee',
    'v4-steady-fee',
    'Owned Fee Hook Token',
    'HOFEE',
    [zooPool('WETH', { type: 'uniswap-v4', v4Fee: V4_DYNAMIC_FEE, hook: hook('ZooHookOwnedFee', HOOK_FLAGS.beforeSwap, ownedByDeployer), sellTax: '0.3' })],
    "The clean token whose only pool is a dynamic-fee Uniswap V4 WETH pool whose hook sets the LP fee of every swap, 0.3 % now, and whose owner can raise it to the PoolManager's 100 %: a sale can be made to pay everything to the pool.",
    ['slippageModifiable', 'transferPausable'],
    ['slippageModifiable', 'transferPausable'],
  ),
  venueToken(
    'v4-steady-fee',
    'clean',
    'Steady Fee Hook Token',
    'HSFEE',
    [zooPool('WETH', { type: 'uniswap-v4', v4Fee: V4_DYNAMIC_FEE, hook: hook('ZooHookSteadyFee', HOOK_FLAGS.beforeSwap), sellTax: '0.3' })],
    'The clean token whose only pool is a dynamic-fee Uniswap V4 WETH pool whose hook holds the LP fee at 0.3 % in its code, with no owner and no function to change it.',
  ),
  venueToken(
    'v4-pausable',
    'v4-hook-counter',
    'Pausable Hook Token',
    'HPAUSE',
    [zooPool('WETH', { type: 'uniswap-v4', hook: hook('ZooHookPausable', HOOK_FLAGS.beforeSwap, ownedByDeployer) })],
    "The clean token whose only pool is a Uniswap V4 WETH pool whose hook's owner can pause it: every swap then reverts (not paused now).",
    ['transferPausable'],
    ['transferPausable'],
  ),
  venueToken(
    'v4-after-tax',
    'v4-after-zero',
    'After Tax Hook Token',
    'HATAX',
    [zooPool('WETH', { type: 'uniswap-v4', hook: hook('ZooHookAfterTax', HOOK_FLAGS.afterSwap | HOOK_FLAGS.afterSwapReturnDelta), sellTax: '10' })],
    "The clean token whose only pool is a Uniswap V4 WETH pool whose hook keeps 10 % of what every sale is paid, on the output side (afterSwap with a returned delta), for itself.",
  ),
  venueToken(
    'v4-after-zero',
    'clean',
    'After Zero Hook Token',
    'HAZERO',
    [zooPool('WETH', { type: 'uniswap-v4', hook: hook('ZooHookAfterZero', HOOK_FLAGS.afterSwap | HOOK_FLAGS.afterSwapReturnDelta) })],
    'The clean token whose only pool is a Uniswap V4 WETH pool whose afterSwap hook records what each sale is paid and returns a delta of zero.',
  ),
  venueToken(
    'v4-routed',
    'v4-fixed-rule',
    'Routed Hook Token',
    'HROUTE',
    [zooPool('WETH', { type: 'uniswap-v4', hook: hook('ZooHookRouted', HOOK_FLAGS.beforeSwap, ownedByDeployer) })],
    "The clean token whose only pool is a Uniswap V4 WETH pool whose hook asks a rule contract on every swap (everyone may trade now), and whose owner can point the hook at any other contract: one that refuses, or an account with no code, stops every swap.",
    ['transferPausable'],
    ['transferPausable'],
  ),
  venueToken(
    'v4-fixed-rule',
    'clean',
    'Fixed Rule Hook Token',
    'HFRULE',
    [zooPool('WETH', { type: 'uniswap-v4', hook: hook('ZooHookFixedRule', HOOK_FLAGS.beforeSwap) })],
    'The clean token whose only pool is a Uniswap V4 WETH pool whose hook asks a rule contract fixed at deployment (everyone may trade), with no owner.',
  ),
  {
    ...venueToken(
      'v4-proxy-hook',
      'v4-hook-counter',
      'Proxy Hook Token',
      'HPROXY',
      [
        zooPool('WETH', {
          type: 'uniswap-v4',
          hook: {
            contract: 'ZooTransparentProxy',
            flags: HOOK_FLAGS.beforeSwap,
            implementation: COUNTER_IMPLEMENTATION,
            args: (ctx, token) => [create2Zero(ctx.dex.create2, COUNTER_IMPLEMENTATION.contract, COUNTER_IMPLEMENTATION.args(ctx, token)).address, ctx.accounts.deployer, PROXY_FIRST_CALL],
          },
        }),
      ],
      "The clean token whose only pool is a Uniswap V4 WETH pool whose hook is an EIP-1967 transparent proxy (to the counting hook) whose admin can replace the hook's code: what runs on every swap is the admin's to change. Its implementation's own functions are not read within a report's round trips, so the powers a hook's functions could hold are unknown.",
      ['transferPausable'],
      ['transferPausable'],
    ),
    undetermined: ['slippageModifiable', 'personalSlippageModifiable', 'isBlacklisted', 'isWhitelisted', 'antiwhaleModifiable'],
  },
  venueToken(
    'v4-pause-beside-v2',
    'v4-hook-counter',
    'Paused Beside Token',
    'HPBV2',
    [zooPool('WETH', { traded: false }), zooPool('WETH', { type: 'uniswap-v4', hook: hook('ZooHookPausable', HOOK_FLAGS.beforeSwap, ownedByDeployer) })],
    "The clean token with a V2 WETH pool (not traded in the history) and a Uniswap V4 WETH pool whose hook's owner can pause it: the hook's powers are measured on the pool that runs it, not on the token's first pool.",
    ['transferPausable'],
    ['transferPausable'],
  ),
  venueToken(
    'fourmeme-clean',
    'clean',
    'Four Curve Token',
    'FCURVE',
    [onFourMemeCurve()],
    'The clean token still on its bonding curve behind four.meme\'s trading interface: 90 % of its supply put on our four.meme-interface manager, 3 of the 24 ether to graduation raised by two buyers; no DEX pool yet. Bought with buyTokenAMAP and sold back with sellToken for the native coin, 1 % of it (at least 0.0001 ether) kept by the manager.',
  ),
  {
    ...venueToken(
      'fourmeme-honeypot',
      'fourmeme-clean',
      'Four Curve Gate Token',
      'FGATE',
      [onFourMemeCurve({ honeypotReason: CURVE_GATE_REASON })],
      "A token on the same four.meme-interface curve whose transfers into the manager revert for everyone but its deployer: buys from the curve work, no holder can sell back to it.",
      ['cannotSellAll'],
    ),
    deploy: deployWith('ZooCurveGate', (ctx, s) => [s.name, s.symbol, zooSupply(s), ctx.dex.fourMemeManager]),
  },
  {
    ...venueToken(
      'fourmeme-graduated',
      'fourmeme-clean',
      'Four Graduated Token',
      'FGRAD',
      [zooPool('WETH')],
      'The clean token with a V2 WETH pool whose curve on the four.meme-interface launchpad graduated: 10 % of its supply put on the curve, then a 25 ether buy raised more than its 24 ether, so the manager closed it (liquidity added). The closed curve is no market: only the V2 pool is.',
    ),
    story: {
      setup: async (ctx, token) => {
        const { deployer, traders } = ctx.accounts
        const manager = loadArtifact('WorldFourMemeManager').abi as Abi
        await ctx.chain.send(deployer, token, erc20Abi, 'approve', [ctx.dex.fourMemeManager, GRADUATED_CURVE_TOKENS], { label: 'approve the four.meme-interface manager' })
        await ctx.chain.send(deployer, ctx.dex.fourMemeManager, manager, 'launch', [token, GRADUATED_CURVE_TOKENS], { label: 'launch fourmeme-graduated on its curve' })
        await ctx.chain.send(traders[0], ctx.dex.fourMemeManager, manager, 'buyTokenAMAP', [token, traders[0], FOUR_MEME_GRADUATING_BUY, 0n], {
          value: FOUR_MEME_GRADUATING_BUY,
          label: 'graduate fourmeme-graduated',
        })
      },
    },
  },
  storedKeyToken(
    'v4-stored-key',
    'clean',
    'Stored Key Token',
    'SKEY',
    false,
    "The clean token whose only pool is a hookless Uniswap V4 WETH pool, whose key the token keeps in its storage (slots 6 to 8, recorded by its owner once the pool exists, as launchpads' tokens record where they graduated): found from that key when the PoolManager's logs cannot be read, and verified against the PoolManager.",
  ),
  storedKeyToken(
    'v4-stored-look-alike',
    'v4-stored-key',
    'Stored Look-alike Token',
    'SLOOK',
    true,
    'The clean token whose only pool is a hookless Uniswap V4 WETH pool (found by its Initialize log), while its storage keeps a well-formed key of the same currencies with another fee and tick spacing, a pool never created: a stored key is verified, not trusted, and adds no pool.',
  ),
  venueToken(
    'v4-paired',
    'clean',
    'V4 Paired Token',
    'V4PAIR',
    [zooPool('ZOO', { type: 'uniswap-v4', quoteToken: 'paired-base', quoteAmount: PAIRED_BASE_AMOUNT, hook: hook('ZooHookCounter', HOOK_FLAGS.beforeSwap) })],
    "The clean token whose only pool is a Uniswap V4 pool against paired-base (neither WETH nor a stablecoin), its hook counting swaps: found by the PoolManager's Initialize log, priced through paired-base's own WETH pool, traded by buying paired-base first.",
  ),
  venueToken(
    'v4-paired-gate',
    'v4-paired',
    'V4 Paired Gate Token',
    'V4PGATE',
    [zooPool('ZOO', { type: 'uniswap-v4', quoteToken: 'paired-base', quoteAmount: PAIRED_BASE_AMOUNT, hook: hook('ZooHookSellGate', HOOK_FLAGS.beforeSwap), honeypotReason: HOOK_SELL_GATE_REASON })],
    'The clean token whose only pool is a Uniswap V4 pool against paired-base whose hook refuses every sell: the pool against a token that is no quote asset is traded and measured like any other, a honeypot.',
    ['cannotSellAll'],
  ),
  venueToken(
    'v4-paired-pausable',
    'v4-paired',
    'V4 Paired Pausable Token',
    'V4PPAUSE',
    [zooPool('ZOO', { type: 'uniswap-v4', quoteToken: 'paired-base', quoteAmount: PAIRED_BASE_AMOUNT, hook: hook('ZooHookPausable', HOOK_FLAGS.beforeSwap, ownedByDeployer) })],
    "The clean token whose only pool is a Uniswap V4 pool against paired-base whose hook's owner can pause it (not paused now): the owner powers are tried through that pool, paired-base bought first, so the pause is found on a pool against a token that is no quote asset.",
    ['transferPausable'],
    ['transferPausable'],
  ),
]
