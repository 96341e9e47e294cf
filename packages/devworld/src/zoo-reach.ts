/**
 * Zoo tokens of the owner's reach: storage read at every byte offset, fee setters searched to
 * their limit, powers that stop sales, clamped sells. Each abusive token has its legitimate twin.
 * Listed in ZOO (zoo.ts); sources under contracts/zoo/.
 *
 * | key              | contract          | behaviour (risky checks)                                        | twin        |
 * |------------------|-------------------|-----------------------------------------------------------------|-------------|
 * | packed-admins    | ZooPackedAdmins   | renounced; admins packed behind a bool and a uint8 mint (isMintable, hiddenOwner) | packed-records |
 * | packed-records   | ZooPackedRecords  | renounced; the same layout, the packed accounts hold no power (nothing) | clean |
 */
import type { Address } from 'viem'
import { loadArtifact } from './compile.ts'
import type { ZooContext, ZooPoolSpec, ZooTokenSpec } from './zoo.ts'

const SUPPLY = 1_000_000n * 10n ** 18n

const wethPool: ZooPoolSpec = { quote: 'WETH', type: 'uniswap-v2', buyTax: '0', sellTax: '0', transferTax: '0', honeypotReason: '', buyable: true }

function deployWith(contract: string, args: (ctx: ZooContext, spec: ZooTokenSpec) => unknown[]): ZooTokenSpec['deploy'] {
  return async (ctx, spec) => {
    const creation = await ctx.chain.deploy(ctx.accounts.deployer, loadArtifact(contract), args(ctx, spec), `deploy ${spec.key}`)
    return { address: creation.address, creation }
  }
}

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
]
