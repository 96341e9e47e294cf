/**
 * Zoo tokens of the owner's reach as real tokens shape it: a balance written to exactly 2^256 - 1
 * (no value may mean "unknown"), re-ratings whose rounding moves dust or a real share, a helper the
 * owner appoints draining the pool in a second step, setters that act only when given the token's
 * own pool. Each abusive token has its legitimate twin. Listed in ZOO (zoo.ts); sources in
 * contracts/zoo/ZooRealReach.sol.
 *
 * | key             | contract          | behaviour (risky checks)                                                     | twin          |
 * |-----------------|-------------------|------------------------------------------------------------------------------|---------------|
 * | max-credit      | ZooMaxCredit      | renounced; a keeper written into storage at construction writes its balance to any amount, 2^256 - 1 included (isMintable, hiddenOwner) | max-trim |
 * | max-trim        | ZooMaxTrim        | renounced; the same keeper may only lower its own balance, burning in the open (nothing) | clean |
 * | reflect-dust    | ZooReflectDust    | reflection; rerate(holder) rounds the holder to a thousandth of a token: dust moves (nothing) | reflect-include |
 * | reflect-skim    | ZooReflectSkim    | reflection; rerate(holder) rounds the holder to a thousand tokens: a real share taken (ownerChangeBalance) | reflect-dust |
 * | helper-drain    | ZooHelperDrain    | the owner appoints a master chef, whose harvest moves tokens out of the pool and syncs it (ownerChangeBalance) | helper-reward |
 * | helper-reward   | ZooHelperReward   | the same appointment; the harvest pays out of the token contract's own reserve (nothing) | clean |
 * | pair-gate       | ZooPairGate       | setPair(pool): transfers to it from anyone not listed revert, every sale (transferPausable) | pair-record |
 * | pair-record     | ZooPairRecord     | setPair(pool) only records the pair (nothing)                                | clean         |
 * | recipient-block | ZooRecipientBlock | a blacklist of recipients; given the pool every sale reverts (transferPausable) | pair-record |
 */
import type { ZooContext, ZooTokenSpec } from './zoo.ts'
import { deployWith, ownerSends, zooPool } from './zoo-parts.ts'

const SUPPLY = 1_000_000n * 10n ** 18n

const wethPool = zooPool('WETH')
/** Arguments of a token that creates its own WETH pool: name, symbol, supply, factory, quotes. */
const pooled = (ctx: ZooContext, s: ZooTokenSpec): unknown[] => [s.name, s.symbol, SUPPLY, ctx.dex.v2Factory, [ctx.dex.weth]]
/** The same, and the keeper written into storage at construction (a world account, with a nonce). */
const withKeeper = (ctx: ZooContext, s: ZooTokenSpec): unknown[] => [...pooled(ctx, s), ctx.accounts.hiddenAdmin]

export const REAL_REACH_ZOO: ZooTokenSpec[] = [
  {
    key: 'max-credit',
    twin: 'max-trim',
    name: 'Max Credit Token',
    symbol: 'MAXC',
    decimals: 18,
    behaviours: ['mintable', 'hidden-keeper', 'storage-keeper-caller', 'balance-at-uint-max'],
    risky: ['isMintable', 'hiddenOwner'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes:
      'Ownership renounced at setup; a keeper written into storage at construction (holding 5 % of the supply) may call rebase(amount), which writes its own balance in assembly to the amount given, with no Transfer and the supply unmoved. Every amount below its balance lowers it; the largest makes it exactly 2^256 - 1.',
    deploy: deployWith('ZooMaxCredit', withKeeper),
    story: { setup: (ctx, t) => ownerSends(ctx, t, 'ZooMaxCredit', 'renounceOwnership', []) },
  },
  {
    key: 'max-trim',
    twin: 'clean',
    name: 'Max Trim Token',
    symbol: 'MAXT',
    decimals: 18,
    behaviours: ['storage-keeper-holder'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'Ownership renounced at setup; the same keeper may only trim(amount): lower its own balance to the amount, burning the rest in the open. The largest amount changes nothing.',
    deploy: deployWith('ZooMaxTrim', withKeeper),
    story: { setup: (ctx, t) => ownerSends(ctx, t, 'ZooMaxTrim', 'renounceOwnership', []) },
  },
  {
    key: 'reflect-dust',
    twin: 'reflect-include',
    name: 'Reflect Dust Token',
    symbol: 'RDUST',
    decimals: 18,
    behaviours: ['tax', 'reflection', 'rerate-dust'],
    risky: [],
    pools: [{ ...wethPool, sellTax: '2' }],
    lpPlan: 'deployer',
    notes:
      "Reflection as reflect-include; the owner's rerate(holder) excludes and includes the holder again in one call, its balance rounded down to a thousandth of a token (less one raw unit): less than 10^15 raw units move from it to the other holders, below the token's own rounding.",
    deploy: deployWith('ZooReflectDust', pooled),
  },
  {
    key: 'reflect-skim',
    twin: 'reflect-dust',
    name: 'Reflect Skim Token',
    symbol: 'RSKIM',
    decimals: 18,
    behaviours: ['tax', 'reflection', 'owner-change-balance', 'rerate-real-share'],
    risky: ['ownerChangeBalance'],
    pools: [{ ...wethPool, sellTax: '2' }],
    lpPlan: 'deployer',
    notes: "The same rerate(holder), rounding to a thousand tokens: a holder's balance below a thousand tokens goes, all of it, to the other holders; a larger one loses what is above the last thousand.",
    deploy: deployWith('ZooReflectSkim', pooled),
  },
  {
    key: 'helper-drain',
    twin: 'helper-reward',
    name: 'Helper Drain Token',
    symbol: 'CHEF',
    decimals: 18,
    behaviours: ['owner-change-balance', 'appointed-helper', 'pool-drain'],
    risky: ['ownerChangeBalance'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: "The owner's setMasterChef(address) appoints a helper; only the helper may harvest(amount), which moves tokens out of the token's pool to itself and syncs the pool: a drain in two steps, the second by the appointed account.",
    deploy: deployWith('ZooHelperDrain', pooled),
  },
  {
    key: 'helper-reward',
    twin: 'clean',
    name: 'Helper Reward Token',
    symbol: 'FARM',
    decimals: 18,
    behaviours: ['appointed-helper'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: "The same appointment; the helper's harvest(amount) pays it out of the farm reserve the token contract holds (1 % of the supply, set aside at creation): no one else's balance moves.",
    deploy: deployWith('ZooHelperReward', pooled),
  },
  {
    key: 'pair-gate',
    twin: 'pair-record',
    name: 'Pair Gate Token',
    symbol: 'GATE',
    decimals: 18,
    behaviours: ['pausable', 'setter-given-the-pool'],
    risky: ['transferPausable'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: "The owner's setPair(address): transfers to that address from anyone not listed (only the deployer is) revert. Given a holder nothing shows; given the token's pool, every holder's sale reverts.",
    deploy: deployWith('ZooPairGate', pooled),
  },
  {
    key: 'pair-record',
    twin: 'clean',
    name: 'Pair Record Token',
    symbol: 'PREC2',
    decimals: 18,
    behaviours: ['setter-given-the-pool'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: "The owner's setPair(address) only records the pair the token reports its volume for (an event): given the pool, nothing changes.",
    deploy: deployWith('ZooPairRecord', pooled),
  },
  {
    key: 'recipient-block',
    twin: 'pair-record',
    name: 'Recipient Block Token',
    symbol: 'RBLK',
    decimals: 18,
    behaviours: ['pausable', 'recipient-blacklist'],
    risky: ['transferPausable'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: "The owner's blockRecipient(address) lists a recipient: a transfer to it from anyone but the deployer reverts. Given a holder, the holder still sends; given the token's pool, every holder's sale reverts while the deployer still sells.",
    deploy: deployWith('ZooRecipientBlock', pooled),
  },
]
