/*
 * The world's venues beyond Uniswap V2 and V3: PancakeSwap V3 pools (tier 2500, our pool deployer),
 * Slipstream-interface concentrated pools (our factory, the published Uniswap V3 pool's code),
 * Solidly-style volatile and stable pools (our Aerodrome-interface exchange) and Uniswap V4 pools (the published PoolManager, hooks of the zoo at CREATE2 addresses that carry
 * their permission bits). Seeding a pool, its key and its state, for the world and its manifest.
 */
import { concat, encodeAbiParameters, encodeDeployData, getAddress, keccak256, parseAbi, toHex } from 'viem/utils'
import type { Abi, Address, Hex } from 'viem'
import { loadArtifact } from './compile.ts'
import { loadDexArtifact } from './dex-artifacts.ts'
import { FAR_DEADLINE, FOUR_MEME_SEED_BUYS, LAUNCHPAD_SEED_BUYS, PANCAKE_V3_FEE, PANCAKE_V3_MAX_TICK, SLIPSTREAM_MAX_TICK, SLIPSTREAM_TICK_SPACING, V4_FEE, V4_MAX_TICK, V4_TICK_SPACING } from './dex.ts'
import type { ZooContext, ZooPoolSpec } from './zoo.ts'

export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000'
/** Uniswap V4's hook permission bits (the low 14 bits of a hook's address). */
export const HOOK_FLAGS = { beforeSwap: 1 << 7, afterSwap: 1 << 6, beforeSwapReturnDelta: 1 << 3, afterSwapReturnDelta: 1 << 2 } as const
/** A V4 key's fee when its hook sets the LP fee (LPFeeLibrary.DYNAMIC_FEE_FLAG). */
export const V4_DYNAMIC_FEE = 0x800000
const ALL_HOOK_MASK = (1n << 14n) - 1n
/** The PoolManager's storage slot of `mapping(PoolId => Pool.State) pools`. */
export const V4_POOLS_SLOT = 6n
const Q96 = 1n << 96n

export interface V4PoolKey {
  currency0: Address
  currency1: Address
  fee: number
  tickSpacing: number
  hooks: Address
}

/** The integer square root (Newton's method). */
export function bigintSqrt(value: bigint): bigint {
  if (value < 2n) return value
  let x = value
  let y = (x + 1n) / 2n
  while (y < x) {
    x = y
    y = (x + value / x) / 2n
  }
  return x
}

/** The quote asset of a zoo pool: WETH, the USD stablecoin, the native coin (V4's address zero), or another zoo token. */
export function quoteAddress(ctx: Pick<ZooContext, 'dex' | 'tokens'>, pool: ZooPoolSpec): Address {
  if (pool.quote === 'ZOO') {
    const address = pool.quoteToken ? ctx.tokens.get(pool.quoteToken) : undefined
    if (!address) throw new Error(`the zoo token ${pool.quoteToken ?? '(none named)'} a pool stands against is not deployed before it`)
    return address
  }
  return pool.quote === 'WETH' ? ctx.dex.weth : pool.quote === 'USD' ? ctx.dex.usd : ZERO_ADDRESS
}

/** A zoo hook's creation code for `token`, and the first CREATE2 salt whose address carries exactly its permission bits. */
export function hookDeployment(ctx: Pick<ZooContext, 'dex' | 'feeSink' | 'tokens' | 'accounts'>, pool: ZooPoolSpec, token: Address): { address: Address; salt: Hex; initCode: Hex } | undefined {
  if (!pool.hook) return undefined
  const artifact = loadArtifact(pool.hook.contract)
  const initCode = encodeDeployData({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args: pool.hook.args(ctx, token) })
  const codeHash = keccak256(initCode)
  const prefix = concat(['0xff', ctx.dex.create2])
  for (let i = 0n; ; i++) {
    const salt = toHex(i, { size: 32 })
    const address = `0x${keccak256(concat([prefix, salt, codeHash])).slice(26)}` as Address
    if ((BigInt(address) & ALL_HOOK_MASK) === BigInt(pool.hook.flags)) return { address: getAddress(address), salt, initCode }
  }
}

/** Where a contract deployed through the world's CREATE2 factory at salt 0 lands, and its creation code. */
export function create2Zero(create2: Address, contract: string, args: unknown[]): { address: Address; salt: Hex; initCode: Hex } {
  const artifact = loadArtifact(contract)
  const initCode = encodeDeployData({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args })
  const salt = toHex(0n, { size: 32 })
  const address = getAddress(`0x${keccak256(concat(['0xff', create2, salt, keccak256(initCode)])).slice(26)}`)
  return { address, salt, initCode }
}

/** A zoo hook's implementation (a proxy hook's), deployed before it; undefined for hooks without one. */
export function hookImplementation(ctx: Pick<ZooContext, 'dex' | 'feeSink' | 'accounts'>, pool: ZooPoolSpec, token: Address): ReturnType<typeof create2Zero> | undefined {
  const impl = pool.hook?.implementation
  return impl ? create2Zero(ctx.dex.create2, impl.contract, impl.args(ctx, token)) : undefined
}

/** The V4 pool key of a zoo pool. */
export function v4PoolKey(ctx: Pick<ZooContext, 'dex' | 'feeSink' | 'tokens' | 'accounts'>, pool: ZooPoolSpec, token: Address): V4PoolKey {
  const quote = quoteAddress(ctx, pool)
  const [currency0, currency1] = BigInt(token) < BigInt(quote) ? [token, quote] : [quote, token]
  return { currency0, currency1, fee: pool.v4Fee ?? V4_FEE, tickSpacing: V4_TICK_SPACING, hooks: hookDeployment(ctx, pool, token)?.address ?? ZERO_ADDRESS }
}

export function v4PoolId(key: V4PoolKey): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }],
      [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks],
    ),
  )
}

/** The storage slot of a V4 pool's state (slot0; its liquidity is 3 slots further). */
export function v4StateSlot(id: Hex): bigint {
  return BigInt(keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [id, V4_POOLS_SLOT])))
}

/** Full-range amounts at a price: liquidity L gives L·2^96/√P of currency0 and L·√P/2^96 of currency1. */
export function fullRangeAmounts(sqrtPriceX96: bigint, liquidity: bigint): { amount0: bigint; amount1: bigint } {
  if (sqrtPriceX96 === 0n) return { amount0: 0n, amount1: 0n }
  return { amount0: (liquidity * Q96) / sqrtPriceX96, amount1: (liquidity * sqrtPriceX96) / Q96 }
}

const approveAbi = parseAbi(['function approve(address, uint256) returns (bool)'])
const wethAbi = parseAbi(['function deposit() payable'])
const transferAbi = parseAbi(['function transfer(address, uint256) returns (bool)'])
const MAX = 2n ** 256n - 1n

/**
 * Seeds one PancakeSwap V3, Uniswap V4 or Solidly-style pool, or a launchpad curve, of `token` with `amount` tokens against `quoteAmount`
 * of its quote (a full-range position), deploying the pool's hook first when it has one.
 */
export async function seedVenuePool(ctx: ZooContext, pool: ZooPoolSpec, token: Address, amount: bigint, quoteAmount: bigint, key: string): Promise<void> {
  const { chain, dex, accounts } = ctx
  const deployer = accounts.deployer
  const quote = quoteAddress(ctx, pool)
  if (pool.type === 'uniswap-v2') {
    // A V2 pair against another zoo token, through the router.
    const router = loadDexArtifact('UniswapV2Router02').abi
    await chain.send(deployer, token, approveAbi, 'approve', [dex.v2Router, MAX], { label: `approve ${key}` })
    await chain.send(deployer, quote, approveAbi, 'approve', [dex.v2Router, MAX], { label: 'approve the quote token' })
    await chain.send(deployer, dex.v2Router, router, 'addLiquidity', [token, quote, amount, quoteAmount, 0n, 0n, deployer, FAR_DEADLINE], { label: `seed ${key}/${pool.quoteToken}` })
    return
  }
  if (pool.type === 'four-meme') {
    // On the four.meme-interface curve: the tokens put on it by their creator, then the first buyers' ether.
    const manager = loadArtifact('WorldFourMemeManager').abi as Abi
    await chain.send(deployer, token, approveAbi, 'approve', [dex.fourMemeManager, MAX], { label: `approve ${key}` })
    await chain.send(deployer, dex.fourMemeManager, manager, 'launch', [token, amount], { label: `launch ${key} on its four.meme-interface curve` })
    for (const [i, value] of FOUR_MEME_SEED_BUYS.entries()) {
      const buyer = accounts.traders[i]
      await chain.send(buyer, dex.fourMemeManager, manager, 'buyTokenAMAP', [token, buyer, value, 0n], { value, label: `buy ${key} from its four.meme-interface curve` })
    }
    return
  }
  if (pool.type === 'launchpad') {
    // On the curve: the tokens put on it by their creator, then the first buyers' ether.
    const launchpad = loadArtifact('WorldLaunchpad').abi as Abi
    await chain.send(deployer, token, approveAbi, 'approve', [dex.launchpad, MAX], { label: `approve ${key}` })
    await chain.send(deployer, dex.launchpad, launchpad, 'launch', [token, amount], { label: `launch ${key} on its curve` })
    for (const [i, value] of LAUNCHPAD_SEED_BUYS.entries()) {
      const buyer = accounts.traders[i]
      await chain.send(buyer, dex.launchpad, launchpad, 'buy', [token, buyer, 0n], { value, label: `buy ${key} from its curve` })
    }
    return
  }
  if (quote === dex.weth) await chain.send(deployer, dex.weth, wethAbi, 'deposit', [], { value: quoteAmount, label: 'wrap WETH' })
  if (pool.type === 'unlisted-v2') {
    // A pair of the V2 factory the chain entry does not list, seeded by hand (no router knows it).
    const factoryAbi = loadDexArtifact('UniswapV2Factory').abi
    await chain.send(deployer, dex.unlistedV2Factory, factoryAbi, 'createPair', [token, quote], { label: `create ${key} unlisted pair` })
    await chain.mine()
    const pair = await chain.read<Address>(dex.unlistedV2Factory, factoryAbi, 'getPair', [token, quote])
    await chain.send(deployer, token, transferAbi, 'transfer', [pair, amount], { label: `fund ${key} unlisted pair` })
    await chain.send(deployer, quote, transferAbi, 'transfer', [pair, quoteAmount], { label: 'fund unlisted pair quote' })
    await chain.send(deployer, pair, loadDexArtifact('UniswapV2Pair').abi, 'mint', [deployer], { label: `seed ${key} unlisted pair` })
    return
  }
  const tokenIs0 = BigInt(token) < BigInt(quote)
  const [amount0, amount1] = tokenIs0 ? [amount, quoteAmount] : [quoteAmount, amount]
  const sqrtPriceX96 = bigintSqrt((amount1 << 192n) / amount0)
  // Slightly under the amounts given: full-range amounts round up.
  const liquidity = (bigintSqrt(amount0 * amount1) * 999n) / 1000n
  if (pool.type === 'solidly-volatile' || pool.type === 'solidly-stable') {
    const stable = pool.type === 'solidly-stable'
    const factoryAbi = loadArtifact('WorldSolidlyFactory').abi as Abi
    await chain.send(deployer, dex.solidlyFactory, factoryAbi, 'createPool', [token, quote, stable], { label: `create ${key} ${stable ? 'stable' : 'volatile'} pool` })
    await chain.mine()
    const address = await chain.read<Address>(dex.solidlyFactory, factoryAbi, 'getPool', [token, quote, stable])
    await chain.send(deployer, token, transferAbi, 'transfer', [address, amount], { label: `fund ${key} pool` })
    await chain.send(deployer, quote, transferAbi, 'transfer', [address, quoteAmount], { label: 'fund pool quote' })
    await chain.send(deployer, address, loadArtifact('WorldSolidlyPool').abi as Abi, 'mint', [deployer], { label: `seed ${key} pool` })
    return
  }
  if (pool.type === 'slipstream') {
    // The factory creates and initializes the pool at the seed's price; a full-range position follows.
    const factoryAbi = loadArtifact('WorldSlipstreamFactory').abi as Abi
    await chain.send(deployer, dex.slipstreamFactory, factoryAbi, 'createPool', [token, quote, SLIPSTREAM_TICK_SPACING, sqrtPriceX96], { label: `create ${key} Slipstream pool` })
    await chain.mine()
    const address = await chain.read<Address>(dex.slipstreamFactory, factoryAbi, 'getPool', [token, quote, SLIPSTREAM_TICK_SPACING])
    await chain.send(deployer, token, approveAbi, 'approve', [dex.v3Liquidity, MAX], { label: `approve ${key}` })
    await chain.send(deployer, quote, approveAbi, 'approve', [dex.v3Liquidity, MAX], { label: 'approve quote' })
    await chain.send(deployer, dex.v3Liquidity, loadArtifact('WorldV3Liquidity').abi as Abi, 'mint', [address, -SLIPSTREAM_MAX_TICK, SLIPSTREAM_MAX_TICK, liquidity], {
      label: `seed ${key} Slipstream position`,
    })
    return
  }
  if (pool.type === 'pancake-v3') {
    const [token0, token1] = tokenIs0 ? [token, quote] : [quote, token]
    const factoryAbi = loadDexArtifact('PancakeV3Factory').abi
    await chain.send(deployer, dex.pancakeV3Factory, factoryAbi, 'createPool', [token0, token1, PANCAKE_V3_FEE], { label: `create ${key} PancakeSwap V3 pool` })
    await chain.mine()
    const address = await chain.read<Address>(dex.pancakeV3Factory, factoryAbi, 'getPool', [token0, token1, PANCAKE_V3_FEE])
    await chain.send(deployer, address, loadDexArtifact('PancakeV3Pool').abi, 'initialize', [sqrtPriceX96], { label: `initialize ${key} PancakeSwap V3 pool` })
    await chain.send(deployer, token, approveAbi, 'approve', [dex.v3Liquidity, MAX], { label: `approve ${key}` })
    await chain.send(deployer, quote, approveAbi, 'approve', [dex.v3Liquidity, MAX], { label: 'approve quote' })
    await chain.send(deployer, dex.v3Liquidity, loadArtifact('WorldV3Liquidity').abi as Abi, 'mint', [address, -PANCAKE_V3_MAX_TICK, PANCAKE_V3_MAX_TICK, liquidity], {
      label: `seed ${key} PancakeSwap V3 position`,
    })
    return
  }
  const implementation = hookImplementation(ctx, pool, token)
  if (implementation) {
    await chain.send(deployer, dex.create2, loadArtifact('WorldCreate2').abi as Abi, 'deploy', [implementation.salt, implementation.initCode], { label: `deploy ${key} hook's implementation` })
    // The proxy's constructor checks that its implementation has code: mined before it is sent.
    await chain.mine()
  }
  const hook = hookDeployment(ctx, pool, token)
  if (hook) await chain.send(deployer, dex.create2, loadArtifact('WorldCreate2').abi as Abi, 'deploy', [hook.salt, hook.initCode], { label: `deploy ${key} hook` })
  const poolKey = v4PoolKey(ctx, pool, token)
  const manager = loadDexArtifact('PoolManager').abi
  await chain.send(deployer, dex.v4PoolManager, manager, 'initialize', [poolKey, sqrtPriceX96], { label: `initialize ${key} V4 pool` })
  await chain.send(deployer, token, approveAbi, 'approve', [dex.v4LiquidityRouter, MAX], { label: `approve ${key}` })
  if (quote !== ZERO_ADDRESS) await chain.send(deployer, quote, approveAbi, 'approve', [dex.v4LiquidityRouter, MAX], { label: 'approve quote' })
  const params = { tickLower: -V4_MAX_TICK, tickUpper: V4_MAX_TICK, liquidityDelta: liquidity, salt: toHex(0n, { size: 32 }) }
  await chain.send(deployer, dex.v4LiquidityRouter, loadDexArtifact('PoolModifyLiquidityTest').abi, 'modifyLiquidity', [poolKey, params, '0x'], {
    value: quote === ZERO_ADDRESS ? quoteAmount : 0n,
    label: `seed ${key} V4 position`,
  })
}
