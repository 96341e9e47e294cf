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
 */
import type { Abi, Address } from 'viem'
import { loadArtifact } from './compile.ts'
import { erc20Abi } from './erc20-abi.ts'
import { deployWith, zooPool } from './zoo-parts.ts'
import { FOUR_MEME_GRADUATING_BUY } from './dex.ts'
import { HOOK_FLAGS } from './venues.ts'
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
const hook = (contract: string, flags: number, args = managerAndToken): ZooHookSpec => ({ contract, flags, args })

function venueToken(key: string, twin: string, name: string, symbol: string, pools: ZooTokenSpec['pools'], notes: string, risky: ZooTokenSpec['risky'] = []): ZooTokenSpec {
  return {
    key,
    twin,
    name,
    symbol,
    decimals: 18,
    behaviours: [key],
    risky,
    ...(risky.includes('cannotSellAll') ? { critical: ['cannotSellAll' as const] } : {}),
    pools,
    lpPlan: 'deployer',
    notes,
    deploy: clean,
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
]
