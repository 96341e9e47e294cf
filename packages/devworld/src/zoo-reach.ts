/**
 * Zoo tokens of the owner's reach: storage read at every byte offset, fee setters searched to
 * their limit, powers that stop sales, clamped sells. Each abusive token has its legitimate twin.
 * Listed in ZOO (zoo.ts); sources under contracts/zoo/.
 *
 * | key              | contract          | behaviour (risky checks)                                        | twin        |
 * |------------------|-------------------|-----------------------------------------------------------------|-------------|
 * | packed-admins    | ZooPackedAdmins   | renounced; admins packed behind a bool and a uint8 mint (isMintable, hiddenOwner) | packed-records |
 * | packed-records   | ZooPackedRecords  | renounced; the same layout, the packed accounts hold no power (nothing) | clean |
 * | fee-stack        | ZooFeeStack       | five uncapped fee setters, paid to an owner-set wallet (slippageModifiable Critical, transferPausable) | fee-stack-capped |
 * | fee-stack-capped | ZooFeeStackCapped | the same five fees, each capped at 5 % (slippageModifiable) | clean |
 * | close-trade      | ZooCloseTrade     | closeTrade() makes every trade a 99 % tax (slippageModifiable Critical, transferPausable) | tax-capped |
 * | clamp-90         | ZooClamp90        | a sale moves at most 90 % of a balance, silently (cannotSellAll) | clean |
 * | freeze-reads     | ZooFreezeReads    | "maintenance" makes transfers and balance reads revert (transferPausable; nothing taken) | pausable |
 * | seize-all        | ZooSeizeAll       | owner takes a holder's whole balance (ownerChangeBalance; the emptied holder is not blacklisted) | owner-change-balance |
 * | one-shot-mint    | ZooOneShotMint    | owner claims a fixed 50,000 once (isMintable, said to be once) | mintable |
 * | display-balance  | ZooDisplayBalance | holders shown a quarter more than they hold; reveal() shows the real balance and takes nothing (cannotSellAll: the shown balance never sells whole) | clean |
 * | silent-take      | ZooSilentTake     | reveal() halves a holder's balance with no Transfer and no one credited (ownerChangeBalance) | display-balance |
 * | display-promo    | ZooDisplayPromo   | every holder shown a fifth more until endPromotion(), which takes nothing from any of them (cannotSellAll) | clean |
 * | haircut          | ZooHaircut        | haircut() cuts what every holder holds by a fifth, no Transfer, no one credited (ownerChangeBalance) | display-promo |
 */
import type { Address } from 'viem'
import { loadArtifact } from './compile.ts'
import type { ZooContext, ZooTokenSpec } from './zoo.ts'
import { deployWith, zooPool } from './zoo-parts.ts'

const SUPPLY = 1_000_000n * 10n ** 18n

const wethPool = zooPool('WETH')
/** Arguments of a token that creates its own WETH pool: name, symbol, supply, factory, quotes. */
const pooled = (ctx: ZooContext, s: ZooTokenSpec): unknown[] => [s.name, s.symbol, SUPPLY, ctx.dex.v2Factory, [ctx.dex.weth]]

async function renounce(ctx: ZooContext, token: Address, contract: string): Promise<void> {
  await ctx.chain.send(ctx.accounts.deployer, token, loadArtifact(contract).abi as never, 'renounceOwnership', [], { label: `${contract}.renounceOwnership` })
}

export const REACH_ZOO: ZooTokenSpec[] = [
  {
    key: 'packed-admins',
    twin: 'packed-records',
    name: 'Packed Admins Token',
    symbol: 'PACK',
    decimals: 18,
    behaviours: ['hidden-owner', 'mintable', 'packed-admins'],
    risky: ['isMintable', 'hiddenOwner'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'Ownership renounced at setup; a guardian kept one byte up in its slot behind a bool (launched), and a keeper one byte up behind a uint8 (feeLevel), can each mint.',
    deploy: deployWith('ZooPackedAdmins', (ctx, s) => [s.name, s.symbol, SUPPLY, ctx.accounts.hiddenAdmin, ctx.accounts.lpProvider]),
    story: { setup: (ctx, t) => renounce(ctx, t, 'ZooPackedAdmins') },
  },
  {
    key: 'packed-records',
    twin: 'clean',
    name: 'Packed Records Token',
    symbol: 'PREC',
    decimals: 18,
    behaviours: ['packed-records'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'Ownership renounced at setup; a marketing wallet behind a bool and a treasury behind a uint8, packed as in packed-admins, hold no power over the token.',
    deploy: deployWith('ZooPackedRecords', (ctx, s) => [s.name, s.symbol, SUPPLY, ctx.accounts.feeWallet, ctx.accounts.lpProvider]),
    story: { setup: (ctx, t) => renounce(ctx, t, 'ZooPackedRecords') },
  },
  {
    key: 'fee-stack',
    twin: 'fee-stack-capped',
    name: 'Fee Stack Token',
    symbol: 'STACK',
    decimals: 18,
    behaviours: ['tax', 'tax-modifiable', 'fee-stack-uncapped'],
    risky: ['slippageModifiable', 'transferPausable'],
    critical: ['slippageModifiable'],
    pools: [{ ...wethPool, buyTax: '5', sellTax: '5' }],
    lpPlan: 'deployer',
    notes: 'Five fees of 1 % each (marketing, liquidity, dev, reward, buyback) summed on buys and sells and paid to a marketing wallet the owner can replace. No setter is capped: one fee at 95 takes 99 % of every trade; past 100 % in all, every trade reverts.',
    deploy: deployWith('ZooFeeStack', (ctx, s) => [...pooled(ctx, s), ctx.accounts.feeWallet]),
  },
  {
    key: 'fee-stack-capped',
    twin: 'clean',
    name: 'Capped Fee Stack Token',
    symbol: 'CSTACK',
    decimals: 18,
    behaviours: ['tax', 'tax-modifiable-capped', 'fee-stack-capped'],
    risky: ['slippageModifiable'],
    pools: [{ ...wethPool, buyTax: '5', sellTax: '5' }],
    lpPlan: 'deployer',
    notes: 'The same five fees, each capped at 5 %: one setter alone reaches 9 %, all five together 25 %.',
    deploy: deployWith('ZooFeeStackCapped', (ctx, s) => [...pooled(ctx, s), ctx.accounts.feeWallet]),
  },
  {
    key: 'close-trade',
    twin: 'tax-capped',
    name: 'Close Trade Token',
    symbol: 'CLOSE',
    decimals: 18,
    behaviours: ['tax', 'tax-modifiable', 'trade-closable'],
    risky: ['slippageModifiable', 'transferPausable'],
    critical: ['slippageModifiable'],
    pools: [{ ...wethPool, buyTax: '3', sellTax: '7', transferTax: '1' }],
    lpPlan: 'deployer',
    notes: 'Fixed 3 / 7 / 1 % taxes to the fee wallet; closeTrade() makes every buy and sell a 99 % tax (trading stopped under another name) until openTrade().',
    deploy: deployWith('ZooCloseTrade', (ctx, s) => [...pooled(ctx, s), ctx.accounts.feeWallet]),
  },
  {
    key: 'clamp-90',
    twin: 'clean',
    name: 'Clamp Ninety Token',
    symbol: 'CLAMP',
    decimals: 18,
    behaviours: ['sell-clamp'],
    risky: ['cannotSellAll'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'A sale into its pool moves at most 90 % of the seller\'s balance: asked for the whole balance it moves 90 % without reverting, and a tenth stays behind.',
    deploy: deployWith('ZooClamp90', pooled),
  },
  {
    key: 'freeze-reads',
    twin: 'pausable',
    name: 'Freeze Reads Token',
    symbol: 'FRZ',
    decimals: 18,
    behaviours: ['pausable', 'unreadable-when-paused'],
    risky: ['transferPausable'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'setMaintenance(true) makes every transfer and every balanceOf() revert: trading stops, and no balance can be read, but nothing moves (no one is taken from).',
    deploy: deployWith('ZooFreezeReads', (_ctx, s) => [s.name, s.symbol, SUPPLY]),
  },
  {
    key: 'seize-all',
    twin: 'owner-change-balance',
    name: 'Seize All Token',
    symbol: 'SEIZE',
    decimals: 18,
    behaviours: ['owner-change-balance', 'whole-balance'],
    risky: ['ownerChangeBalance'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'seize(holder) moves the whole balance of any holder to the owner. The emptied holder has nothing left to send, which is no blacklist.',
    deploy: deployWith('ZooSeizeAll', (_ctx, s) => [s.name, s.symbol, SUPPLY]),
  },
  {
    key: 'one-shot-mint',
    twin: 'mintable',
    name: 'One Shot Mint Token',
    symbol: 'ONCE',
    decimals: 18,
    behaviours: ['mintable', 'one-shot-emission'],
    risky: ['isMintable'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'claimTeamAllocation() lets the owner mint a fixed 50,000 tokens, once: still a mint, of a known amount, that cannot be repeated.',
    deploy: deployWith('ZooOneShotMint', (_ctx, s) => [s.name, s.symbol, SUPPLY]),
  },
  {
    key: 'display-balance',
    twin: 'clean',
    name: 'Display Balance Token',
    symbol: 'SHOW',
    decimals: 18,
    behaviours: ['display-balance', 'cannot-sell-all'],
    risky: ['cannotSellAll'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes:
      'balanceOf() shows every holder but the pools and the deployer a quarter more than it holds; transfers move only what is held, so the balance shown never sells whole. The owner\'s reveal(holder) shows the real balance: the balance shown falls, nothing moves, and the holder can send exactly what it could before (no taking).',
    deploy: deployWith('ZooDisplayBalance', pooled),
  },
  {
    key: 'silent-take',
    twin: 'display-balance',
    name: 'Silent Take Token',
    symbol: 'STAKE',
    decimals: 18,
    behaviours: ['owner-change-balance', 'silent-take'],
    risky: ['ownerChangeBalance'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'The same reveal(holder), taking: it halves what the holder holds, with no Transfer event and no one credited (the supply still counts the lost half). The holder can no longer send what it held.',
    deploy: deployWith('ZooSilentTake', pooled),
  },
  {
    key: 'display-promo',
    twin: 'clean',
    name: 'Display Promo Token',
    symbol: 'PROMO',
    decimals: 18,
    behaviours: ['display-balance', 'cannot-sell-all'],
    risky: ['cannotSellAll'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes:
      "While its promotion runs, balanceOf() shows every holder but the pools and the deployer a fifth more than it holds; the owner's endPromotion() shows every balance as held at once (the test holders, the holders of record): the balances shown fall, nothing moves, and each holder can send exactly what it could before (no taking).",
    deploy: deployWith('ZooDisplayPromo', pooled),
  },
  {
    key: 'haircut',
    twin: 'display-promo',
    name: 'Haircut Token',
    symbol: 'CUT',
    decimals: 18,
    behaviours: ['owner-change-balance', 'silent-take'],
    risky: ['ownerChangeBalance'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: "haircut() cuts what every holder but the pools and the deployer holds by a fifth, with no Transfer event and no one credited (the supply still counts the cut): each holder can send less than before.",
    deploy: deployWith('ZooHaircut', pooled),
  },
]
