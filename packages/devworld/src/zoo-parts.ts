/*
 * The parts every zoo list builds its tokens from: a pool spec, a deployment by contract name, an
 * owner's call. The lists (zoo.ts, zoo-reach.ts, zoo-trades.ts, zoo-arguments.ts) take them from
 * here rather than each keeping its own copy.
 */
import type { Abi, Address } from 'viem'
import { loadArtifact } from './compile.ts'
import type { QuoteKey, ZooContext, ZooPoolSpec, ZooTokenSpec } from './zoo.ts'

/** A Uniswap V2 pool of the token against `quote`, untaxed and tradable unless `overrides` say otherwise. */
export function zooPool(quote: QuoteKey, overrides: Partial<ZooPoolSpec> = {}): ZooPoolSpec {
  return { quote, type: 'uniswap-v2', buyTax: '0', sellTax: '0', transferTax: '0', honeypotReason: '', buyable: true, ...overrides }
}

/** Deploys a zoo contract by name with constructor arguments derived from the spec. */
export function deployWith(contract: string, args: (ctx: ZooContext, spec: ZooTokenSpec) => unknown[]): ZooTokenSpec['deploy'] {
  return async (ctx, spec) => {
    const creation = await ctx.chain.deploy(ctx.accounts.deployer, loadArtifact(contract), args(ctx, spec), `deploy ${spec.key}`)
    return { address: creation.address, creation }
  }
}

/** A call of the zoo contract's `fn` on `token`, sent by the deployer (the owner) unless `from` is given. */
export async function ownerSends(ctx: ZooContext, token: Address, contract: string, fn: string, args: unknown[], from?: Address): Promise<void> {
  await ctx.chain.send(from ?? ctx.accounts.deployer, token, loadArtifact(contract).abi as Abi, fn, args, { label: `${contract}.${fn}` })
}
