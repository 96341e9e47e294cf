/**
 * Zoo tokens of the owner's reach through its arguments and its callers: levers that act only on
 * accounts the token flags (its pair, a fee wallet that must accept the native coin), preconditions
 * (flag then act; exclude, trade, include), accounts written into the code or granted a role,
 * three calls in order, allowances over holders' tokens. Each abusive token has its legitimate
 * twin. Listed in ZOO (zoo.ts); sources in contracts/zoo/ZooArguments.sol.
 *
 * | key                 | contract             | behaviour (risky checks)                                                  | twin               |
 * |---------------------|----------------------|---------------------------------------------------------------------------|--------------------|
 * | fee-wallet-trap     | ZooFeeWalletTrap     | every sale pays a wallet the owner sets; one refusing the native coin stops every sale (externalCall, transferPausable) | fee-wallet-safe |
 * | fee-wallet-safe     | ZooFeeWalletSafe     | the same payment, its failure ignored (externalCall)                      | clean              |
 * | pair-burn           | ZooPairBurn          | owner burns tokens out of the token's own pair, and only there (ownerChangeBalance) | pair-sync |
 * | pair-sync           | ZooPairSync          | owner may only sync the token's own pair (nothing)                        | clean              |
 * | blacklist-burn      | ZooBlacklistBurn     | blacklist, then burn a blacklisted holder's balance (personalSlippage…, isBlacklisted, ownerChangeBalance) | blacklist |
 * | reflect-include-bug | ZooReflectIncludeBug | reflection; exclude, trade, include hands the account the reflections of the trade: dust, below the token's rounding (nothing; reflect-skim in zoo-real-reach.ts takes a real share) | reflect-include |
 * | reflect-include     | ZooReflectInclude    | reflection with a correct include (nothing)                               | clean              |
 * | devteam-mint        | ZooDevteamMint       | renounced; a team address hard-coded in the code mints (isMintable, hiddenOwner) | devteam-fee  |
 * | devteam-fee         | ZooDevteamFee        | renounced; the same hard-coded address got 5 % at creation, may only announce (nothing) | clean           |
 * | three-step-drain    | ZooThreeStepDrain    | appoint a reward pair, then a distributor, which moves any holder's tokens (ownerChangeBalance) | three-step-reward |
 * | three-step-reward   | ZooThreeStepReward   | the same appointments; the distributor pays from the contract's reserve (nothing) | clean        |
 * | allowance-grant     | ZooAllowanceGrant    | owner sets any holder's allowance to any spender (ownerChangeBalance)     | allowance-treasury |
 * | allowance-treasury  | ZooAllowanceTreasury | owner approves spenders of the contract's own treasury (nothing)          | clean              |
 * | allowance-backdoor  | ZooAllowanceBackdoor | increaseAllowance by a hard-coded account credits it an allowance over the named holder (ownerChangeBalance, hiddenOwner) | allowance-treasury |
 * | role-minter         | ZooRoleMinter        | renounced; a minter named only in a RoleGranted log mints (isMintable, hiddenOwner) | role-revoked |
 * | role-revoked        | ZooRoleMinter        | renounced; the same minter's role revoked (nothing)                       | clean              |
 * | role-quiet-minter   | ZooQuietRoleToken    | renounced; a supply keeper granted without any event, listed only by getRoleMember, mints (isMintable, hiddenOwner) | role-quiet-herald |
 * | role-quiet-herald   | ZooQuietRoleToken    | renounced; the same getters list a herald, who may only announce (nothing) | clean             |
 * | proxy-quiet-minter  | ZooQuietRoleLogic    | transparent proxy; renounced; a MINTER_ROLE holder granted without any event mints (isProxy, isMintable, hiddenOwner) | proxy-quiet-operator |
 * | proxy-quiet-operator| ZooQuietRoleLogic    | transparent proxy; renounced; the OPERATOR_ROLE holder may only announce (isProxy) | role-quiet-herald |
 */
import { encodeFunctionData, keccak256, stringToBytes } from 'viem/utils'
import type { Abi, Address, Hex } from 'viem'
import { loadArtifact } from './compile.ts'
import type { ZooContext, ZooDeployed, ZooTokenSpec } from './zoo.ts'
import { deployWith, ownerSends, zooPool } from './zoo-parts.ts'

const SUPPLY = 1_000_000n * 10n ** 18n
const MINTER_ROLE = keccak256(stringToBytes('MINTER_ROLE'))

const wethPool = zooPool('WETH')
/** Arguments of a token that creates its own WETH pool: name, symbol, supply, factory, quotes. */
const pooled = (ctx: ZooContext, s: ZooTokenSpec): unknown[] => [s.name, s.symbol, SUPPLY, ctx.dex.v2Factory, [ctx.dex.weth]]

/** The account granted the minter role: a trader of the world, named nowhere but in the role's logs. */
const minter = (ctx: ZooContext): Address => ctx.accounts.traders[ctx.accounts.traders.length - 2]
/** The account granted a role without an event: a trader of the world, named only in the role's member list. */
const quietHolder = (ctx: ZooContext): Address => ctx.accounts.traders[ctx.accounts.traders.length - 3]
/** Roles of ZooQuietRoleToken (constants of its code; no usual role name). */
const SUPPLY_KEEPER = keccak256(stringToBytes('tokenrisk.zoo.SUPPLY_KEEPER'))
const HERALD = keccak256(stringToBytes('tokenrisk.zoo.HERALD'))

/**
 * ZooQuietRoleLogic behind a transparent proxy (its admin the deployer's), initialised with the
 * whole supply to the deployer and `role` granted to the quiet holder without an event.
 */
const quietProxy =
  (role: Hex) =>
  async (ctx: ZooContext, spec: ZooTokenSpec): Promise<ZooDeployed> => {
    const { deployer } = ctx.accounts
    const logic = await ctx.chain.deploy(deployer, loadArtifact('ZooQuietRoleLogic'), [], `deploy ${spec.key} logic`)
    const init = encodeFunctionData({
      abi: loadArtifact('ZooQuietRoleLogic').abi as Abi,
      functionName: 'initialize',
      args: [spec.name, spec.symbol, SUPPLY, deployer, role, quietHolder(ctx)],
    })
    const creation = await ctx.chain.deploy(deployer, loadArtifact('ZooTransparentProxy'), [logic.address, deployer, init], `deploy ${spec.key}`)
    return { address: creation.address, creation, implementation: logic.address }
  }

export const ARGUMENTS_ZOO: ZooTokenSpec[] = [
  {
    key: 'fee-wallet-trap',
    twin: 'fee-wallet-safe',
    name: 'Fee Wallet Trap Token',
    symbol: 'FWTRAP',
    decimals: 18,
    behaviours: ['fee-wallet', 'external-call', 'fee-wallet-must-accept'],
    risky: ['externalCall', 'transferPausable'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'Every sale into its pool pays the marketing wallet (a share of the native coin the token holds) and requires the payment to go through; setMarketingWallet() takes any address, so a wallet whose code refuses the native coin stops every sale.',
    deploy: deployWith('ZooFeeWalletTrap', (ctx, s) => [...pooled(ctx, s), ctx.accounts.feeWallet]),
  },
  {
    key: 'fee-wallet-safe',
    twin: 'clean',
    name: 'Fee Wallet Safe Token',
    symbol: 'FWSAFE',
    decimals: 18,
    behaviours: ['fee-wallet', 'external-call'],
    risky: ['externalCall'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'The same payment to a wallet the owner sets, its failure ignored: no wallet can stop a sale.',
    deploy: deployWith('ZooFeeWalletSafe', (ctx, s) => [...pooled(ctx, s), ctx.accounts.feeWallet]),
  },
  {
    key: 'pair-burn',
    twin: 'pair-sync',
    name: 'Pair Burn Token',
    symbol: 'PBURN',
    decimals: 18,
    behaviours: ['owner-change-balance', 'pair-burn'],
    risky: ['ownerChangeBalance'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'burnFromPair(pair, amount) burns tokens out of one of the token\'s own pools and syncs it (the price jumps, liquidity providers lose them); any address that is not its pair is refused, so a fresh holder as argument shows nothing.',
    deploy: deployWith('ZooPairBurn', pooled),
  },
  {
    key: 'pair-sync',
    twin: 'clean',
    name: 'Pair Sync Token',
    symbol: 'PSYNC',
    decimals: 18,
    behaviours: ['pair-sync'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'syncPair(pair) only syncs one of the token\'s own pools: its reserves follow its balances, nothing moves.',
    deploy: deployWith('ZooPairSync', pooled),
  },
  {
    key: 'blacklist-burn',
    twin: 'blacklist',
    name: 'Blacklist Burn Token',
    symbol: 'BBURN',
    decimals: 18,
    behaviours: ['blacklist', 'owner-change-balance', 'flag-then-burn'],
    risky: ['personalSlippageModifiable', 'isBlacklisted', 'ownerChangeBalance'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'setBlacklisted() blocks an address; burnBlacklisted(account) then burns its whole balance, and refuses any account not blacklisted first: a power reached only through the chain.',
    deploy: deployWith('ZooBlacklistBurn', (_ctx, s) => [s.name, s.symbol, SUPPLY]),
  },
  {
    key: 'reflect-include-bug',
    twin: 'reflect-include',
    name: 'Reflect Include Bug Token',
    symbol: 'RBUG',
    decimals: 18,
    behaviours: ['tax', 'reflection', 'reflection-include-unconverted', 'rerate-dust'],
    risky: [],
    pools: [{ ...wethPool, sellTax: '2' }],
    lpPlan: 'deployer',
    notes: 'Reflection: 2 % of every sale into its pool goes to the holders not excluded. includeInReward() keeps the account\'s reflected units from before the trades made while it was excluded: exclude, trade, include hands it its share of the reflections paid meanwhile, taken from every other holder. Over the one trade an experiment makes that share is 10^11 to 10^13 raw units per holder, below the token\'s own rounding: no power is measured (the re-rating that takes a real share is reflect-skim).',
    deploy: deployWith('ZooReflectIncludeBug', pooled),
  },
  {
    key: 'reflect-include',
    twin: 'clean',
    name: 'Reflect Include Token',
    symbol: 'RFI',
    decimals: 18,
    behaviours: ['tax', 'reflection'],
    risky: [],
    pools: [{ ...wethPool, sellTax: '2' }],
    lpPlan: 'deployer',
    notes: 'The same reflection; includeInReward() converts the account\'s real balance at the current rate, so that no balance moves.',
    deploy: deployWith('ZooReflectInclude', pooled),
  },
  {
    key: 'devteam-mint',
    twin: 'devteam-fee',
    name: 'Devteam Mint Token',
    symbol: 'DEVM',
    decimals: 18,
    behaviours: ['mintable', 'hidden-owner', 'code-constant-caller'],
    risky: ['isMintable', 'hiddenOwner'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'Ownership renounced at setup; a team address written into the code (a constant, in no storage slot) can mint.',
    deploy: deployWith('ZooDevteamMint', pooled),
    story: { setup: (ctx, t) => ownerSends(ctx, t, 'ZooDevteamMint', 'renounceOwnership', []) },
  },
  {
    key: 'devteam-fee',
    twin: 'clean',
    name: 'Devteam Fee Token',
    symbol: 'DEVF',
    decimals: 18,
    behaviours: ['code-constant-holder'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'Ownership renounced at setup; the same hard-coded team address received 5 % of the supply at creation; it may only post announcements (an event), no power over the token.',
    deploy: deployWith('ZooDevteamFee', pooled),
    story: { setup: (ctx, t) => ownerSends(ctx, t, 'ZooDevteamFee', 'renounceOwnership', []) },
  },
  {
    key: 'three-step-drain',
    twin: 'three-step-reward',
    name: 'Three Step Drain Token',
    symbol: 'DRAIN3',
    decimals: 18,
    behaviours: ['owner-change-balance', 'three-step-appointment'],
    risky: ['ownerChangeBalance'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'The owner appoints a reward pair, then a distributor (refused before the pair is set); the distributor moves any holder\'s tokens into the reward pair: three calls in order.',
    deploy: deployWith('ZooThreeStepDrain', pooled),
  },
  {
    key: 'three-step-reward',
    twin: 'clean',
    name: 'Three Step Reward Token',
    symbol: 'REW3',
    decimals: 18,
    behaviours: ['three-step-reward'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'The same two appointments; the distributor pays rewards out of the contract\'s own reserve (5 % of the supply).',
    deploy: deployWith('ZooThreeStepReward', pooled),
  },
  {
    key: 'allowance-grant',
    twin: 'allowance-treasury',
    name: 'Allowance Grant Token',
    symbol: 'ALLOW',
    decimals: 18,
    behaviours: ['owner-change-balance', 'allowance-grant'],
    risky: ['ownerChangeBalance'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'setSpendingLimit(holder, spender, amount) sets the allowance any holder gives any spender: the spender then takes the holder\'s tokens with transferFrom.',
    deploy: deployWith('ZooAllowanceGrant', pooled),
  },
  {
    key: 'allowance-treasury',
    twin: 'clean',
    name: 'Allowance Treasury Token',
    symbol: 'TREAS',
    decimals: 18,
    behaviours: ['allowance-treasury'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'approveTreasury(spender, amount) approves spenders of the contract\'s own treasury (5 % of the supply) only; increaseAllowance is the standard one.',
    deploy: deployWith('ZooAllowanceTreasury', pooled),
  },
  {
    key: 'allowance-backdoor',
    twin: 'allowance-treasury',
    name: 'Allowance Backdoor Token',
    symbol: 'BACKD',
    decimals: 18,
    behaviours: ['owner-change-balance', 'hidden-allowance-backdoor'],
    risky: ['ownerChangeBalance', 'hiddenOwner'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'increaseAllowance(account, amount) called by an operations address written into the code gives that address an allowance over the named account\'s tokens, which it then takes with transferFrom.',
    deploy: deployWith('ZooAllowanceBackdoor', pooled),
  },
  {
    key: 'role-minter',
    twin: 'role-revoked',
    name: 'Role Minter Token',
    symbol: 'ROLEM',
    decimals: 18,
    behaviours: ['mintable', 'hidden-owner', 'role-holder'],
    risky: ['isMintable', 'hiddenOwner'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'The owner grants a trader the minter role (a RoleGranted log names it; no storage slot or constant does), then renounces: the minter mints.',
    deploy: deployWith('ZooRoleMinter', pooled),
    story: {
      setup: async (ctx, t) => {
        await ownerSends(ctx, t, 'ZooRoleMinter', 'grantRole', [MINTER_ROLE, minter(ctx)])
        await ownerSends(ctx, t, 'ZooRoleMinter', 'renounceOwnership', [])
      },
    },
  },
  {
    key: 'role-revoked',
    twin: 'clean',
    name: 'Role Revoked Token',
    symbol: 'ROLER',
    decimals: 18,
    behaviours: ['role-revoked'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'The same token; the minter role granted to the same trader is revoked (RoleRevoked) before the owner renounces: no one can mint.',
    deploy: deployWith('ZooRoleMinter', pooled),
    story: {
      setup: async (ctx, t) => {
        await ownerSends(ctx, t, 'ZooRoleMinter', 'grantRole', [MINTER_ROLE, minter(ctx)])
        await ownerSends(ctx, t, 'ZooRoleMinter', 'revokeRole', [MINTER_ROLE, minter(ctx)])
        await ownerSends(ctx, t, 'ZooRoleMinter', 'renounceOwnership', [])
      },
    },
  },
  {
    key: 'role-quiet-minter',
    twin: 'role-quiet-herald',
    name: 'Quiet Role Minter Token',
    symbol: 'QROLEM',
    decimals: 18,
    behaviours: ['mintable', 'hidden-owner', 'role-holder', 'role-without-event'],
    risky: ['isMintable', 'hiddenOwner'],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'The constructor grants a trader the supply-keeper role without any event (no RoleGranted log, no storage slot, no constant names it; only getRoleMember lists it), then the owner renounces: the keeper mints.',
    deploy: deployWith('ZooQuietRoleToken', (ctx, s) => [...pooled(ctx, s), SUPPLY_KEEPER, quietHolder(ctx)]),
    story: {
      setup: (ctx, t) => ownerSends(ctx, t, 'ZooQuietRoleToken', 'renounceOwnership', []),
    },
  },
  {
    key: 'role-quiet-herald',
    twin: 'clean',
    name: 'Quiet Role Herald Token',
    symbol: 'QROLEH',
    decimals: 18,
    behaviours: ['role-holder', 'role-without-event'],
    risky: [],
    pools: [wethPool],
    lpPlan: 'deployer',
    notes: 'The same token and getters; the role granted without an event to the same trader is the herald\'s, who may only post announcements: no one can mint.',
    deploy: deployWith('ZooQuietRoleToken', (ctx, s) => [...pooled(ctx, s), HERALD, quietHolder(ctx)]),
    story: {
      setup: (ctx, t) => ownerSends(ctx, t, 'ZooQuietRoleToken', 'renounceOwnership', []),
    },
  },
  {
    key: 'proxy-quiet-minter',
    twin: 'proxy-quiet-operator',
    name: 'Proxy Quiet Minter Token',
    symbol: 'PQMINT',
    decimals: 18,
    behaviours: ['proxy-1967-transparent', 'upgradeable', 'mintable', 'hidden-owner', 'role-holder', 'role-without-event'],
    risky: ['isProxy', 'isMintable', 'hiddenOwner'],
    pools: [zooPool('WETH')],
    lpPlan: 'deployer',
    notes: 'A transparent proxy whose initialiser grants a trader MINTER_ROLE without any event (only getRoleMember lists it; the role is read of the proxy before its logic is), then the owner renounces: the minter mints.',
    deploy: quietProxy(MINTER_ROLE),
    story: {
      setup: (ctx, t) => ownerSends(ctx, t, 'ZooQuietRoleLogic', 'renounceOwnership', []),
    },
  },
  {
    key: 'proxy-quiet-operator',
    twin: 'role-quiet-herald',
    name: 'Proxy Quiet Operator Token',
    symbol: 'PQOPER',
    decimals: 18,
    behaviours: ['proxy-1967-transparent', 'upgradeable', 'role-holder', 'role-without-event'],
    risky: ['isProxy'],
    pools: [zooPool('WETH')],
    lpPlan: 'deployer',
    notes: 'The same proxy and logic; the role granted without an event to the same trader is OPERATOR_ROLE, which may only post announcements: no one can mint.',
    deploy: quietProxy(keccak256(stringToBytes('OPERATOR_ROLE'))),
    story: {
      setup: (ctx, t) => ownerSends(ctx, t, 'ZooQuietRoleLogic', 'renounceOwnership', []),
    },
  },
]
