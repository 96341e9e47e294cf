/**
 * Zoo tokens whose rules show only where wallets trade (contracts/zoo/ZooTrades.sol), each with
 * its look-alike:
 *
 * | key                | contract         | behaviour (risky checks)                                                  | twin              |
 * |--------------------|------------------|---------------------------------------------------------------------------|-------------------|
 * | own-pair-trap      | ZooOwnPairTrap   | sells into the pair it records (on an unlisted exchange) revert (cannotSellAll) | own-pair-fair |
 * | own-pair-fair      | ZooOwnPairFair   | records the same kind of pair and treats it like any pool (nothing)       | clean             |
 * | approve-gate       | ZooApproveGate   | only the owner may approve: no router can sell for a wallet (cannotSellAll) | approve-reset   |
 * | approve-reset      | ZooApproveReset  | an allowance must return to zero before it changes (nothing)              | clean             |
 * | frozen-holders     | ZooFrozenHolders | the owner froze a holder, then renounced (isBlacklisted)                  | renounced-holders |
 * | renounced-holders  | ZooFrozenHolders | the same contract, renounced without freezing anyone (nothing)            | clean             |
 * | guard-upgradeable  | ZooGuardedToken  | every transfer asks a guard behind a proxy its admin can upgrade (externalCall, transferPausable) | guard-fixed |
 * | hidden-allocation  | ZooHiddenAllocation | 5 % of the supply written to a stash at creation without a Transfer (an anomaly: nothing else) | open-allocation |
 * | open-allocation    | ZooOpenAllocation | the same 5 % minted to the stash with its Transfer (nothing)             | clean             |
 * | arg-allocation     | ZooArgAllocation | 5 % written at creation to an account only its constructor's arguments name (an anomaly, found from the creation) | hidden-allocation |
 * | guard-fixed        | ZooGuardedToken  | the same token asking a fixed guard: no state, no owner, not a proxy (externalCall) | clean |
 * | guard-repointable  | ZooRepointableGuardToken | every transfer asks a guard the owner can replace with setGuard (kept in a mapping) (externalCall, transferPausable) | guard-stored |
 * | guard-stored       | ZooStoredGuardToken | the guard's address kept in storage slot 7 by an owned token with no setter (externalCall) | guard-fixed |
 * | fee-oracle-repointable | ZooFeeOracleToken | every trade's fee (3 %, capped at 25 %) asked of an oracle the owner can replace with setFeeOracle; a reverting oracle stops nothing (externalCall, ownerChangeBalance) | fee-oracle-stored |
 * | fee-oracle-stored  | ZooStoredFeeOracleToken | the same oracle kept in plain storage by an owned token with no setter (externalCall) | tax-3-7-1 |
 */
import { encodeFunctionData, parseAbi } from 'viem/utils'
import type { Address } from 'viem'
import { erc20Abi } from './erc20-abi.ts'
import { loadArtifact } from './compile.ts'
import { loadDexArtifact } from './dex-artifacts.ts'
import { deployWith, zooPool } from './zoo-parts.ts'
import { zooSupply, type ZooContext, type ZooPoolSpec, type ZooTokenSpec } from './zoo.ts'

/** What the token and the world each put in the recorded pair on the unlisted exchange. */
export const RECORDED_PAIR_SEED = { tokenPercent: 10n, weth: 5n * 10n ** 18n } as const
export const OWN_PAIR_TRAP_REASON = 'ZooOwnPairTrap: selling to the pair is disabled'
export const APPROVE_GATE_REASON = 'ZooApproveGate: approvals are disabled'

const PAIR_ABI = parseAbi(['function mint(address to) returns (uint256)'])
const WETH_ABI = parseAbi(['function deposit() payable'])

const v2Pool = (overrides: Partial<ZooPoolSpec> = {}): ZooPoolSpec => zooPool('WETH', overrides)

const pooled = (ctx: ZooContext, s: ZooTokenSpec): unknown[] => [s.name, s.symbol, zooSupply(s), ctx.dex.v2Factory, [ctx.dex.weth]]

/**
 * Deploys a token that records a pair on a second Uniswap V2 factory (an exchange the chain's
 * registry does not list), then seeds that pair from the deployer.
 */
function withRecordedPair(contract: string): ZooTokenSpec['deploy'] {
  return async (ctx, spec) => {
    const { deployer } = ctx.accounts
    const factory = await ctx.chain.deploy(deployer, loadDexArtifact('UniswapV2Factory'), [deployer], `deploy ${spec.key} exchange`)
    const creation = await ctx.chain.deploy(deployer, loadArtifact(contract), [...pooled(ctx, spec), factory.address, ctx.dex.weth], `deploy ${spec.key}`)
    const pair = await ctx.chain.read<Address>(creation.address, parseAbi(['function uniswapV2Pair() view returns (address)']), 'uniswapV2Pair')
    const tokens = (zooSupply(spec) * RECORDED_PAIR_SEED.tokenPercent) / 100n
    await ctx.chain.send(deployer, ctx.dex.weth, WETH_ABI, 'deposit', [], { value: RECORDED_PAIR_SEED.weth, label: `wrap WETH for ${spec.key}` })
    await ctx.chain.send(deployer, ctx.dex.weth, erc20Abi, 'transfer', [pair, RECORDED_PAIR_SEED.weth], { label: `seed ${spec.key} recorded pair (WETH)` })
    await ctx.chain.send(deployer, creation.address, erc20Abi, 'transfer', [pair, tokens], { label: `seed ${spec.key} recorded pair (token)` })
    await ctx.chain.send(deployer, pair, PAIR_ABI, 'mint', [deployer], { label: `mint ${spec.key} recorded pair LP` })
    await ctx.chain.mine()
    return { address: creation.address, creation }
  }
}

const direct = (contract: string): ZooTokenSpec['deploy'] => deployWith(contract, pooled)

/** A proxy is created with a first call to its logic (OpenZeppelin refuses an uninitialised one): the guard's own check. */
const DEAD: Address = '0x000000000000000000000000000000000000dEaD'
const GUARD_INIT = encodeFunctionData({ abi: parseAbi(['function check(address,address,uint256) view returns (bool)']), functionName: 'check', args: [DEAD, DEAD, 0n] })

/** Deploys ZooOpenGuard, behind a transparent proxy (its admin owned by the deployer) or alone, then the guarded token. */
function guarded(upgradeable: boolean): ZooTokenSpec['deploy'] {
  return async (ctx, spec) => {
    const { deployer } = ctx.accounts
    const logic = await ctx.chain.deploy(deployer, loadArtifact('ZooOpenGuard'), [], `deploy ${spec.key} guard`)
    const guard = upgradeable
      ? (await ctx.chain.deploy(deployer, loadArtifact('ZooTransparentProxy'), [logic.address, deployer, GUARD_INIT], `deploy ${spec.key} guard proxy`)).address
      : logic.address
    const creation = await ctx.chain.deploy(deployer, loadArtifact('ZooGuardedToken'), [...pooled(ctx, spec), guard], `deploy ${spec.key}`)
    return { address: creation.address, creation }
  }
}

/** Deploys a plain ZooOpenGuard, then `contract` asking it before every transfer. */
function guardedBy(contract: string): ZooTokenSpec['deploy'] {
  return async (ctx, spec) => {
    const { deployer } = ctx.accounts
    const guard = await ctx.chain.deploy(deployer, loadArtifact('ZooOpenGuard'), [], `deploy ${spec.key} guard`)
    const creation = await ctx.chain.deploy(deployer, loadArtifact(contract), [...pooled(ctx, spec), guard.address], `deploy ${spec.key}`)
    return { address: creation.address, creation }
  }
}

/** Deploys the fee oracle, then `contract` asking it. */
function withFeeOracle(contract: string): ZooTokenSpec['deploy'] {
  return async (ctx, spec) => {
    const { deployer } = ctx.accounts
    const oracle = await ctx.chain.deploy(deployer, loadArtifact('ZooFeeOracle'), [], `deploy ${spec.key} fee oracle`)
    const creation = await ctx.chain.deploy(deployer, loadArtifact(contract), [...pooled(ctx, spec), oracle.address], `deploy ${spec.key}`)
    return { address: creation.address, creation }
  }
}

/** The account the allocation tokens give 5 % of their supply to (no key: it only holds). */
export const ALLOCATION_STASH: Address = '0x5ca1ab1e00000000000000000000000000005745'
/** The account arg-allocation gives 5 % to: named by its constructor's arguments only. */
export const ARGUMENT_STASH: Address = '0x5ca1ab1e00000000000000000000000000005746'

const frozenAbi = () => loadArtifact('ZooFrozenHolders').abi

export const TRADE_ZOO: readonly ZooTokenSpec[] = [
  {
    key: 'own-pair-trap',
    twin: 'own-pair-fair',
    name: 'Own Pair Trap',
    symbol: 'OPT',
    decimals: 18,
    behaviours: ['honeypot-own-pair'],
    risky: ['cannotSellAll'],
    pools: [v2Pool()],
    lpPlan: 'deployer',
    notes:
      'Records as uniswapV2Pair() a WETH pair on a second V2 exchange that the chain registry does not list (seeded with 10 % of the supply and 5 WETH); sells into that pair revert for all but the deployer. Its pool on the listed exchange is fair.',
    deploy: withRecordedPair('ZooOwnPairTrap'),
  },
  {
    key: 'own-pair-fair',
    twin: 'clean',
    name: 'Own Pair Fair',
    symbol: 'OPF',
    decimals: 18,
    behaviours: ['own-pair'],
    risky: [],
    pools: [v2Pool()],
    lpPlan: 'deployer',
    notes: 'Records the same kind of pair as own-pair-trap and only counts the sells made into it.',
    deploy: withRecordedPair('ZooOwnPairFair'),
  },
  {
    key: 'approve-gate',
    twin: 'approve-reset',
    name: 'Approve Gate',
    symbol: 'GATE',
    decimals: 18,
    behaviours: ['honeypot-router'],
    risky: ['cannotSellAll'],
    pools: [v2Pool({ honeypotReason: APPROVE_GATE_REASON })],
    lpPlan: 'deployer',
    notes: 'Only the owner may call approve(): a plain transfer to the pair sells, but no router can pull a wallet\'s tokens, so wallets cannot sell.',
    deploy: direct('ZooApproveGate'),
  },
  {
    key: 'approve-reset',
    twin: 'clean',
    name: 'Approve Reset',
    symbol: 'ARST',
    decimals: 18,
    behaviours: ['approve-safeguard'],
    risky: [],
    pools: [v2Pool()],
    lpPlan: 'deployer',
    notes: 'approve() from a non-zero allowance to another non-zero one reverts (reset to zero first); a wallet\'s fresh approve of the router works.',
    deploy: direct('ZooApproveReset'),
  },
  {
    key: 'frozen-holders',
    twin: 'renounced-holders',
    name: 'Frozen Holders',
    symbol: 'FRZ',
    decimals: 18,
    behaviours: ['blacklist-renounced'],
    risky: ['isBlacklisted'],
    pools: [v2Pool()],
    lpPlan: 'deployer',
    notes: 'The owner froze one trader at the end of the history, then renounced: no call can block anyone now, but that holder can neither send nor sell.',
    deploy: direct('ZooFrozenHolders'),
    story: {
      end: async (ctx, t, _s, cast) => {
        await ctx.chain.send(ctx.accounts.deployer, t, frozenAbi(), 'freeze', [cast.traders[1]], { label: 'ZooFrozenHolders.freeze' })
        await ctx.chain.send(ctx.accounts.deployer, t, frozenAbi(), 'renounceOwnership', [], { label: 'ZooFrozenHolders.renounceOwnership' })
      },
    },
  },
  {
    key: 'renounced-holders',
    twin: 'clean',
    name: 'Renounced Holders',
    symbol: 'RNC',
    decimals: 18,
    behaviours: ['renounced'],
    risky: [],
    pools: [v2Pool()],
    lpPlan: 'deployer',
    notes: 'The frozen-holders contract, renounced at the end of the history without freezing anyone.',
    deploy: direct('ZooFrozenHolders'),
    story: {
      end: (ctx, t) => ctx.chain.send(ctx.accounts.deployer, t, frozenAbi(), 'renounceOwnership', [], { label: 'ZooFrozenHolders.renounceOwnership' }),
    },
  },
  {
    key: 'guard-upgradeable',
    twin: 'guard-fixed',
    name: 'Upgradeable Guard',
    symbol: 'UGRD',
    decimals: 18,
    behaviours: ['external-call', 'hostile-dependency'],
    risky: ['externalCall', 'transferPausable'],
    pools: [v2Pool()],
    lpPlan: 'deployer',
    notes: 'Every transfer asks guard.check(); the guard (fixed in the token) is a transparent proxy whose admin, owned by the deployer, can upgrade it to one that refuses every transfer.',
    deploy: guarded(true),
  },
  {
    key: 'guard-fixed',
    twin: 'clean',
    name: 'Fixed Guard',
    symbol: 'FGRD',
    decimals: 18,
    behaviours: ['external-call'],
    risky: ['externalCall'],
    pools: [v2Pool()],
    lpPlan: 'deployer',
    notes: 'The same token asking a guard that is a plain contract with no state and no owner: its answer cannot change.',
    deploy: guarded(false),
  },
  {
    key: 'guard-repointable',
    twin: 'guard-stored',
    name: 'Repointable Guard',
    symbol: 'RGRD',
    decimals: 18,
    behaviours: ['external-call', 'hostile-dependency'],
    risky: ['externalCall', 'transferPausable'],
    pools: [v2Pool()],
    lpPlan: 'deployer',
    notes:
      'Every transfer asks guard.check(); the guard is a plain contract, but its address is kept in a mapping of helpers (not one of the first storage slots) and the owner can replace it with setGuard(address): a guard that refuses, put there, stops every trade.',
    deploy: guardedBy('ZooRepointableGuardToken'),
  },
  {
    key: 'guard-stored',
    twin: 'guard-fixed',
    name: 'Stored Guard',
    symbol: 'SGRD',
    decimals: 18,
    behaviours: ['external-call', 'stored-dependency'],
    risky: ['externalCall'],
    pools: [v2Pool()],
    lpPlan: 'deployer',
    notes: 'The same plain guard, its address kept in storage slot 7 of a token that has an owner, but no function writes it after the constructor: no one can point the token elsewhere.',
    deploy: guardedBy('ZooStoredGuardToken'),
  },
  {
    key: 'fee-oracle-repointable',
    twin: 'fee-oracle-stored',
    name: 'Repointable Fee Oracle',
    symbol: 'RORC',
    decimals: 18,
    behaviours: ['external-call', 'dependency-takes', 'taxed'],
    risky: ['externalCall', 'ownerChangeBalance'],
    pools: [v2Pool({ buyTax: '3', sellTax: '3' })],
    lpPlan: 'deployer',
    notes:
      "Every trade asks a fee oracle for its fee (3 %), capped at 25 %; an oracle that reverts or answers nothing leaves the 3 % default, so no oracle can stop a trade. The owner can replace the oracle (kept in a mapping of helpers) with setFeeOracle(address): one answering the cap takes a quarter of every trade.",
    deploy: withFeeOracle('ZooFeeOracleToken'),
  },
  {
    key: 'fee-oracle-stored',
    twin: 'tax-3-7-1',
    name: 'Stored Fee Oracle',
    symbol: 'SORC',
    decimals: 18,
    behaviours: ['external-call', 'stored-dependency', 'taxed'],
    risky: ['externalCall'],
    pools: [v2Pool({ buyTax: '3', sellTax: '3' })],
    lpPlan: 'deployer',
    notes: 'The same oracle and fee, its address kept in plain storage of a token that has an owner, with no function writing it after the constructor: no one can point the token elsewhere.',
    deploy: withFeeOracle('ZooStoredFeeOracleToken'),
  },
  {
    key: 'hidden-allocation',
    twin: 'open-allocation',
    name: 'Hidden Allocation',
    symbol: 'HIDE',
    decimals: 18,
    behaviours: ['hidden-allocation'],
    risky: [],
    pools: [v2Pool()],
    lpPlan: 'deployer',
    notes: 'At creation 5 % of the supply is written into the balance of a stash (an immutable) with no Transfer event; the supply counts it. The report names the stash among its anomalies.',
    deploy: async (ctx, spec) => {
      const creation = await ctx.chain.deploy(ctx.accounts.deployer, loadArtifact('ZooHiddenAllocation'), [...pooled(ctx, spec), ALLOCATION_STASH], `deploy ${spec.key}`)
      return { address: creation.address, creation }
    },
  },
  {
    key: 'open-allocation',
    twin: 'clean',
    name: 'Open Allocation',
    symbol: 'OPEN',
    decimals: 18,
    behaviours: ['allocation'],
    risky: [],
    pools: [v2Pool()],
    lpPlan: 'deployer',
    notes: 'The same 5 % minted to the stash at creation, with its Transfer event.',
    deploy: async (ctx, spec) => {
      const creation = await ctx.chain.deploy(ctx.accounts.deployer, loadArtifact('ZooOpenAllocation'), [...pooled(ctx, spec), ALLOCATION_STASH], `deploy ${spec.key}`)
      return { address: creation.address, creation }
    },
  },
  {
    key: 'arg-allocation',
    twin: 'hidden-allocation',
    name: 'Argument Allocation',
    symbol: 'ARGA',
    decimals: 18,
    behaviours: ['hidden-allocation', 'unnamed-allocation'],
    risky: [],
    pools: [v2Pool()],
    lpPlan: 'deployer',
    notes:
      'At creation 5 % of the supply is written into the balance of an account passed to the constructor and kept nowhere (no Transfer event, not in code or storage): only the creation, traced or run again, shows it. The report names it among its anomalies.',
    deploy: async (ctx, spec) => {
      const creation = await ctx.chain.deploy(ctx.accounts.deployer, loadArtifact('ZooArgAllocation'), [...pooled(ctx, spec), ARGUMENT_STASH], `deploy ${spec.key}`)
      return { address: creation.address, creation }
    },
  },
]
