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
 * | keeper-fee      | ZooKeeperHolderFee| renounced; the storage keeper sets one holder's sell fee, paid to itself, above 100 % a block (personalSlippageModifiable, isBlacklisted, hiddenOwner) | keeper-own-fee |
 * | keeper-own-fee  | ZooKeeperOwnFee   | renounced; the same keeper's setHolderFee only lowers its own fee (nothing) | clean |
 * | reflect-dust    | ZooReflectDust    | reflection; rerate(holder) rounds the holder to a thousandth of a token: dust moves (nothing) | reflect-include |
 * | reflect-skim    | ZooReflectSkim    | reflection; rerate(holder) rounds the holder to a thousand tokens: a real share taken (ownerChangeBalance) | reflect-dust |
 * | helper-drain    | ZooHelperDrain    | the owner appoints a master chef, whose harvest moves tokens out of the pool and syncs it (ownerChangeBalance) | helper-reward |
 * | helper-reward   | ZooHelperReward   | the same appointment; the harvest pays out of the token contract's own reserve (nothing) | clean |
 * | pair-gate       | ZooPairGate       | setPair(pool): transfers to it from anyone not listed revert, every sale (transferPausable) | pair-record |
 * | pair-record     | ZooPairRecord     | setPair(pool) only records the pair (nothing)                                | clean         |
 * | recipient-block | ZooRecipientBlock | a blacklist of recipients; given the pool every sale reverts (transferPausable) | pair-record |
 * | display-hundred | ZooDisplayHundred | holders shown 100× what they hold; setBoost(false) shows what is held and takes nothing (cannotSellAll) | display-promo |
 * | hidden-credit   | ZooHiddenCredit   | renounced; a manager written into the code at construction credits any account through addLiquidity(account, amount) (isMintable, ownerChangeBalance, hiddenOwner) | hidden-liquidity |
 * | hidden-liquidity| ZooHiddenLiquidity| renounced; the same manager's addLiquidity moves its own tokens to the pool (nothing) | clean |
 * | keeper-exact-sell | ZooKeeperExactSell | renounced; the storage keeper's setSellAmount(amount) lets a sale be that amount only: every other sale reverts (transferPausable, antiwhaleModifiable, hiddenOwner) | keeper-own-sell |
 * | keeper-own-sell | ZooKeeperOwnSell  | renounced; the same keeper's setSellAmount rules only its own sales (nothing) | clean |
 * | route-gate      | ZooRouteGate      | setRoute(router, pair): given the pool as the pair (the second address), every sale reverts (transferPausable) | route-record |
 * | route-record    | ZooRouteRecord    | setRoute(router, pair) only records both (nothing)                           | clean         |
 * | display-multiplier | ZooDisplayMultiplier | setMultiplier(n) shows every holder n times what it holds: display only, never a mint nor a take (nothing) | multiplier-credit |
 * | multiplier-credit | ZooMultiplierCredit | setMultiplier(n) credits the owner n - 1 hundredths of the supply, in the open (isMintable) | clean |
 * | hidden-credit-flag | ZooHiddenCreditFlag | renounced; the code-immutable manager's addLiquidity(account, amount, lock) credits any account (isMintable, ownerChangeBalance, hiddenOwner) | hidden-liquidity-flag |
 * | hidden-liquidity-flag | ZooHiddenLiquidityFlag | renounced; the same manager's three-argument addLiquidity moves its own tokens to the pool (nothing) | clean |
 */
import type { ZooContext, ZooTokenSpec } from './zoo.ts'
import { deployWith, ownerSends, zooPool } from './zoo-parts.ts'

const SUPPLY = 1_000_000n * 10n ** 18n
/** Why a sale of display-hundred fails: a share of the balance shown is more than is held. */
export const DISPLAY_HUNDRED_REASON = 'ERC20: transfer amount exceeds balance'

const wethPool = zooPool('WETH')
/** Arguments of a token that creates its own WETH pool: name, symbol, supply, factory, quotes. */
const pooled = (ctx: ZooContext, s: ZooTokenSpec): unknown[] => [s.name, s.symbol, SUPPLY, ctx.dex.v2Factory, [ctx.dex.weth]]
/** The same, and the keeper (or manager) written at construction (a world account, with a nonce). */
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
    key: 'keeper-fee',
    twin: 'keeper-own-fee',
    name: 'Keeper Fee Token',
    symbol: 'KFEE',
    decimals: 18,
    behaviours: ['tax-per-address', 'blacklist', 'hidden-keeper', 'storage-keeper-caller'],
    risky: ['personalSlippageModifiable', 'isBlacklisted', 'hiddenOwner'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes:
      "Ownership renounced at setup; the keeper written into storage at construction may call setHolderFee(holder, percent): that holder's sales pay the percent to the keeper, and above 100 they revert.",
    deploy: deployWith('ZooKeeperHolderFee', withKeeper),
    story: { setup: (ctx, t) => ownerSends(ctx, t, 'ZooKeeperHolderFee', 'renounceOwnership', []) },
  },
  {
    key: 'keeper-own-fee',
    twin: 'clean',
    name: 'Keeper Own Fee Token',
    symbol: 'KOWN',
    decimals: 18,
    behaviours: ['storage-keeper-holder'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: "Ownership renounced at setup; the same keeper's setHolderFee(holder, percent) may only lower the keeper's own fee (the holder is recorded in an event): no one else pays anything.",
    deploy: deployWith('ZooKeeperOwnFee', withKeeper),
    story: { setup: (ctx, t) => ownerSends(ctx, t, 'ZooKeeperOwnFee', 'renounceOwnership', []) },
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
  {
    key: 'display-hundred',
    twin: 'display-promo',
    name: 'Display Hundred Token',
    symbol: 'HUNDO',
    decimals: 18,
    behaviours: ['display-balance', 'cannot-sell-all', 'honeypot'],
    risky: ['cannotSellAll'],
    // A sale of a share of the balance shown asks for more than is held: no amount a wallet reads sells.
    // A transfer of a share of it fails the same way: no transfer tax can be measured ('').
    pools: [zooPool('WETH', { honeypotReason: DISPLAY_HUNDRED_REASON, transferTax: '' })],
    lpPlan: 'deployer',
    notes:
      "While the boost is on (the owner turns it on at the end of the history), balanceOf() shows every holder but the pools and the deployer a hundred times what it holds; transfers move what is held, so the balance shown never sells whole. The owner's setBoost(false) shows every balance as held: the balances shown fall by 99 %, nothing moves, and each holder can send what it could before (no taking).",
    deploy: deployWith('ZooDisplayHundred', pooled),
    // Turned on once the history's trades are made (they sell a share of the balance shown).
    story: { end: (ctx, t) => ownerSends(ctx, t, 'ZooDisplayHundred', 'setBoost', [true]) },
  },
  {
    key: 'hidden-credit',
    twin: 'hidden-liquidity',
    name: 'Hidden Credit Token',
    symbol: 'HCRED',
    decimals: 18,
    behaviours: ['mintable', 'owner-change-balance', 'hidden-keeper', 'code-immutable-caller', 'harmless-name'],
    risky: ['isMintable', 'ownerChangeBalance', 'hiddenOwner'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes:
      'Ownership renounced at setup; a liquidity manager written into the code at construction (an immutable, holding 5 % of the supply) may call addLiquidity(account, amount), which writes the amount into the account\'s balance with no Transfer and the supply unmoved: a mint, and a balance set at will.',
    deploy: deployWith('ZooHiddenCredit', withKeeper),
    story: { setup: (ctx, t) => ownerSends(ctx, t, 'ZooHiddenCredit', 'renounceOwnership', []) },
  },
  {
    key: 'hidden-liquidity',
    twin: 'clean',
    name: 'Hidden Liquidity Token',
    symbol: 'HLIQ',
    decimals: 18,
    behaviours: ['code-immutable-holder', 'harmless-name'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: "Ownership renounced at setup; the same manager's addLiquidity(account, amount) moves its own tokens to the token's pool and syncs it: no one else's balance moves.",
    deploy: deployWith('ZooHiddenLiquidity', withKeeper),
    story: { setup: (ctx, t) => ownerSends(ctx, t, 'ZooHiddenLiquidity', 'renounceOwnership', []) },
  },
  {
    key: 'keeper-exact-sell',
    twin: 'keeper-own-sell',
    name: 'Keeper Exact Sell Token',
    symbol: 'KEXS',
    decimals: 18,
    behaviours: ['pausable', 'anti-whale-modifiable', 'hidden-keeper', 'storage-keeper-caller', 'exact-amount-rule'],
    risky: ['transferPausable', 'antiwhaleModifiable', 'hiddenOwner'],
    // Set to a few raw units, no holder sells even a tenth of its balance: a limit graver than its tier.
    critical: ['antiwhaleModifiable'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes:
      "Ownership renounced at setup; the keeper written into storage at construction may call setSellAmount(amount): from then on a sale into the pool, by anyone but the keeper and the deployer, goes through only if it is exactly that amount. Set to a few raw units, or to more than the supply, no holder's sale goes through; transfers between holders still do.",
    deploy: deployWith('ZooKeeperExactSell', withKeeper),
    story: { setup: (ctx, t) => ownerSends(ctx, t, 'ZooKeeperExactSell', 'renounceOwnership', []) },
  },
  {
    key: 'keeper-own-sell',
    twin: 'clean',
    name: 'Keeper Own Sell Token',
    symbol: 'KOWS',
    decimals: 18,
    behaviours: ['storage-keeper-holder', 'exact-amount-rule'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: "Ownership renounced at setup; the same keeper's setSellAmount(amount) sets the one amount its own sales may be (its tokens released in fixed slices): no one else's sale is ruled.",
    deploy: deployWith('ZooKeeperOwnSell', withKeeper),
    story: { setup: (ctx, t) => ownerSends(ctx, t, 'ZooKeeperOwnSell', 'renounceOwnership', []) },
  },
  {
    key: 'route-gate',
    twin: 'route-record',
    name: 'Route Gate Token',
    symbol: 'RGATE',
    decimals: 18,
    behaviours: ['pausable', 'setter-given-the-pool', 'second-address-argument'],
    risky: ['transferPausable'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: "The owner's setRoute(router, pair): when the pair (the second address) is one of the token's pools, sales into it from anyone not listed (only the deployer is) revert. Given the pool as the router, or a holder as the pair, nothing shows.",
    deploy: deployWith('ZooRouteGate', pooled),
  },
  {
    key: 'route-record',
    twin: 'clean',
    name: 'Route Record Token',
    symbol: 'RREC',
    decimals: 18,
    behaviours: ['setter-given-the-pool', 'second-address-argument'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: "The owner's setRoute(router, pair) only records both (an event): given the pool in either place, nothing changes.",
    deploy: deployWith('ZooRouteRecord', pooled),
  },
  {
    key: 'display-multiplier',
    twin: 'multiplier-credit',
    name: 'Display Multiplier Token',
    symbol: 'DMULT',
    decimals: 18,
    behaviours: ['display-balance', 'display-multiplier'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes:
      "The owner's setMultiplier(n), 1 to 1 000, makes balanceOf() show every holder but the pools and the deployer n times what it holds; transfers move what is held. The balances shown rise, nothing is created and nothing taken: each holder can send what it held, and not one unit more. Left at 1 through the history.",
    deploy: deployWith('ZooDisplayMultiplier', pooled),
  },
  {
    key: 'multiplier-credit',
    twin: 'clean',
    name: 'Multiplier Credit Token',
    symbol: 'MCRED',
    decimals: 18,
    behaviours: ['mintable', 'display-multiplier'],
    risky: ['isMintable'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: "The owner's setMultiplier(n), 1 to 1 000, credits the owner n - 1 hundredths of the supply in the open (a Transfer from zero, the supply raised): a mint, whatever the name says.",
    deploy: deployWith('ZooMultiplierCredit', pooled),
  },
  {
    key: 'hidden-credit-flag',
    twin: 'hidden-liquidity-flag',
    name: 'Hidden Credit Flag Token',
    symbol: 'HCRF',
    decimals: 18,
    behaviours: ['mintable', 'owner-change-balance', 'hidden-keeper', 'code-immutable-caller', 'harmless-name', 'three-arguments'],
    risky: ['isMintable', 'ownerChangeBalance', 'hiddenOwner'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes:
      "Ownership renounced at setup; the manager written into the code at construction (an immutable, holding 5 % of the supply) may call addLiquidity(account, amount, lock), which writes the amount into the account's balance whatever the flag, with no Transfer and the supply unmoved: a mint, and a balance set at will.",
    deploy: deployWith('ZooHiddenCreditFlag', withKeeper),
    story: { setup: (ctx, t) => ownerSends(ctx, t, 'ZooHiddenCreditFlag', 'renounceOwnership', []) },
  },
  {
    key: 'hidden-liquidity-flag',
    twin: 'clean',
    name: 'Hidden Liquidity Flag Token',
    symbol: 'HLQF',
    decimals: 18,
    behaviours: ['code-immutable-holder', 'harmless-name', 'three-arguments'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: "Ownership renounced at setup; the same manager's addLiquidity(account, amount, lock) moves its own tokens to the token's pool and syncs it: no one else's balance moves.",
    deploy: deployWith('ZooHiddenLiquidityFlag', withKeeper),
    story: { setup: (ctx, t) => ownerSends(ctx, t, 'ZooHiddenLiquidityFlag', 'renounceOwnership', []) },
  },
]
