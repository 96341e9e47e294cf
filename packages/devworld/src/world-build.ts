import { getAddress } from 'viem/utils'
import type { Abi, Address } from 'viem'
import { erc20Abi } from './erc20-abi.ts'
import { loadArtifact, worldEvmVersion } from './compile.ts'
import { DEAD_ADDRESS, type WorldAccounts } from './accounts.ts'
import type { Deployment, WorldChain } from './chain.ts'
import { deployDex, FAR_DEADLINE, V3_FEE, V3_MAX_TICK, V3_MIN_TICK, type DexAddresses } from './dex.ts'
import { loadDexArtifact } from './dex-artifacts.ts'
import { bigintSqrt, quoteAddress, seedVenuePool } from './venues.ts'
import { approveAll, units, USD_SPEC, ZOO, zooSupply, type StoryPoint, type ZooContext, type ZooPoolSpec, type ZooTokenSpec } from './zoo.ts'

const HOUR = 3600
const DAY = 24 * HOUR

/**
 * The world's history, in seconds before the moment it is ready (the anchor). Trading happens at
 * each of these times; owners act at the named story points.
 */
export const HISTORY = {
  /** Deployment, liquidity, first transfers. */
  setup: 7 * DAY,
  phases: [6 * DAY, 5 * DAY, 4 * DAY, 3 * DAY, 2 * DAY, 20 * HOUR, 14 * HOUR, 8 * HOUR, 3 * HOUR, 1 * HOUR],
  /** Phases after which owners act (indexes into `phases`). */
  story: { 'history-1': 1, 'history-2': 3, 'history-3': 4 } as Record<Exclude<StoryPoint, 'setup' | 'end'>, number>,
  /** The early LP lock: created at setup, unlocks at this offset, withdrawn in the phase after it. */
  expiredLockUnlock: 3 * DAY - 600,
  /** Future LP locks of the lp-locked token: unlock times after the anchor, share of the LP supply. */
  futureLocks: [
    { after: 30 * DAY, percent: 20n },
    { after: 90 * DAY, percent: 15n },
    { after: 365 * DAY, percent: 10n },
  ],
  expiredLockPercent: 5n,
  burnPercent: 40n,
} as const

/** Seed of each pool: the token share of the supply and the quote amount (0.15 USD a token). */
export const POOL_SEED = {
  tokenPercent: 30n,
  weth: 15n * 10n ** 18n,
  usd: 45_000n * 10n ** 6n,
} as const

/** The pool types whose pools the history trades in (through their routers). */
const HISTORY_TRADED: readonly ZooPoolSpec['type'][] = ['uniswap-v2', 'uniswap-v3']

/** How many traders and receivers hold each token. */
const TRADERS_PER_TOKEN = 10
const RECEIVERS_PER_TOKEN = 16
/** Buys per token per phase and sells per token per phase. */
const BUYS_PER_PHASE = 3
const SELLS_PER_PHASE = 1

export interface BuiltToken {
  spec: Omit<ZooTokenSpec, 'deploy'>
  address: Address
  creation: Deployment
  implementation?: Address
}

export interface BuiltWorld {
  anchor: number
  accounts: WorldAccounts
  dex: DexAddresses
  locker: Address
  feeSink: Address
  tokens: BuiltToken[]
  transactions: number
}

/** A small deterministic generator, so that every build makes the same trades (within a block, different senders' transactions may run in another order). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}


const routerAbi = (): Abi => loadDexArtifact('UniswapV2Router02').abi
const lockerAbi = (): Abi => loadArtifact('LpLocker').abi as Abi

interface TokenState {
  built: BuiltToken
  spec: ZooTokenSpec
  traders: Address[]
  receivers: Address[]
  /** Traders who hold some (bought or were given), who may sell. */
  holders: Set<Address>
  approved: Set<string>
}

/**
 * Builds the whole world on a fresh anvil whose genesis is before `anchor - HISTORY.setup`:
 * DEX, money, zoo, liquidity, and a history of transfers and swaps spread over simulated days,
 * ending with an empty block at `anchor`.
 */
export async function buildWorld(chain: WorldChain, accounts: WorldAccounts, anchor: number, log: (line: string) => void): Promise<BuiltWorld> {
  const { deployer } = accounts
  await chain.begin()
  await chain.mine(anchor - HISTORY.setup)

  const dexDeployment = await deployDex(chain, deployer)
  const dex = dexDeployment.addresses
  const locker = (await chain.deploy(deployer, loadArtifact('LpLocker'), [], 'deploy LpLocker')).address
  const feeSink = (await chain.deploy(deployer, loadArtifact('ZooFeeCollector'), [], 'deploy ZooFeeCollector')).address
  const ctx: ZooContext = { chain, dex, accounts, feeSink, tokens: new Map() }
  log(`devnet: DEX deployed (${chain.txCount()} transactions)`)

  // Tokens.
  const states: TokenState[] = []
  // Uniswap V4 keeps its locks in transient storage (Cancun): a world on an older EVM has no V4
  // pools, and leaves out the tokens that trade only there.
  const zoo = worldEvmVersion() === 'cancun' ? ZOO : ZOO.filter((spec) => !spec.pools.some((p) => p.type === 'uniswap-v4'))
  for (const [index, spec] of zoo.entries()) {
    const deployed = await spec.deploy(ctx, spec)
    ctx.tokens.set(spec.key, deployed.address)
    const traders = [accounts.traders[0], accounts.traders[1]]
    for (let k = 0; traders.length < TRADERS_PER_TOKEN; k++) {
      const t = accounts.traders[2 + ((index * 3 + k) % (accounts.traders.length - 2))]
      if (!traders.includes(t)) traders.push(t)
    }
    const receivers: Address[] = []
    for (let k = 0; k < RECEIVERS_PER_TOKEN; k++) receivers.push(accounts.receivers[(index * 5 + k) % accounts.receivers.length])
    states.push({
      built: { spec, address: deployed.address, creation: deployed.creation, implementation: deployed.implementation },
      spec,
      traders,
      receivers,
      holders: new Set(),
      approved: new Set(),
    })
  }
  log(`devnet: ${states.length} zoo tokens deployed (${chain.txCount()} transactions)`)

  await seedLiquidity(ctx, states)
  await runStory(ctx, states, 'setup')
  await distribute(ctx, states, locker, anchor)
  await chain.mine()
  log(`devnet: pools seeded, tokens distributed (${chain.txCount()} transactions)`)

  const random = seededRandom(31337)
  for (const [phase, before] of HISTORY.phases.entries()) {
    await tradePhase(ctx, states, phase, random)
    if (phase === 0) await addExtraLiquidity(ctx, states)
    if (before < HISTORY.expiredLockUnlock && HISTORY.phases[phase - 1] >= HISTORY.expiredLockUnlock) {
      await withdrawExpiredLock(ctx, states, locker)
    }
    await chain.mine(anchor - before)
    // Owners act in a block of their own, after the phase's trades (a pause must not fall
    // between two trades of the same block).
    for (const [point, at] of Object.entries(HISTORY.story)) {
      if (at === phase) await runStory(ctx, states, point as StoryPoint)
    }
    await chain.mine()
  }
  await runStory(ctx, states, 'end')
  await chain.end(anchor)
  log(`devnet: history written (${chain.txCount()} transactions)`)

  const usdToken: BuiltToken = { spec: USD_SPEC, address: dex.usd, creation: dexDeployment.usdCreation }
  return {
    anchor,
    accounts,
    dex,
    locker,
    feeSink,
    tokens: [...states.map((s) => s.built), usdToken],
    transactions: chain.txCount(),
  }
}

function quoteOf(ctx: ZooContext, pool: ZooPoolSpec): Address {
  return quoteAddress(ctx, pool)
}

async function approveOnce(ctx: ZooContext, state: TokenState, owner: Address, token: Address, spender: Address): Promise<void> {
  const key = `${owner}:${token}:${spender}`
  if (state.approved.has(key)) return
  state.approved.add(key)
  await approveAll(ctx.chain, owner, token, spender, `approve ${state.spec.key}`)
}

async function seedLiquidity(ctx: ZooContext, states: TokenState[]): Promise<void> {
  const { chain, dex, accounts } = ctx
  const { deployer } = accounts
  await approveAll(chain, deployer, dex.weth, dex.v3PositionManager, 'approve WETH for V3')
  await chain.send(deployer, dex.weth, loadDexArtifact('WETH9').abi, 'deposit', [], { value: 100n * 10n ** 18n, label: 'wrap WETH' })
  for (const state of states) {
    const token = state.built.address
    const amount = (zooSupply(state.spec) * POOL_SEED.tokenPercent) / 100n
    for (const pool of state.spec.pools) {
      if ((pool.type !== 'uniswap-v2' && pool.type !== 'uniswap-v3') || pool.quote === 'ZOO') {
        await seedVenuePool(ctx, pool, token, pool.tokenAmount ?? amount, pool.quoteAmount ?? (pool.quote === 'USD' ? POOL_SEED.usd : POOL_SEED.weth), state.spec.key)
      } else if (pool.type === 'uniswap-v2') {
        await approveOnce(ctx, state, deployer, token, dex.v2Router)
        if (pool.quote === 'WETH') {
          await chain.send(deployer, dex.v2Router, routerAbi(), 'addLiquidityETH', [token, amount, 0n, 0n, deployer, FAR_DEADLINE], {
            value: POOL_SEED.weth,
            label: `seed ${state.spec.key}/WETH`,
          })
        } else {
          await chain.send(
            deployer,
            dex.v2Router,
            routerAbi(),
            'addLiquidity',
            [token, dex.usd, amount, POOL_SEED.usd, 0n, 0n, deployer, FAR_DEADLINE],
            { label: `seed ${state.spec.key}/USD` },
          )
        }
      } else {
        await approveOnce(ctx, state, deployer, token, dex.v3PositionManager)
        const quote = quoteOf(ctx, pool)
        const quoteAmount = pool.quote === 'WETH' ? POOL_SEED.weth : POOL_SEED.usd
        const tokenIsZero = BigInt(token) < BigInt(quote)
        const [token0, token1] = tokenIsZero ? [token, quote] : [quote, token]
        const [amount0, amount1] = tokenIsZero ? [amount, quoteAmount] : [quoteAmount, amount]
        const sqrtPriceX96 = bigintSqrt((amount1 << 192n) / amount0)
        const pm = loadDexArtifact('NonfungiblePositionManager').abi
        await chain.send(deployer, dex.v3PositionManager, pm, 'createAndInitializePoolIfNecessary', [token0, token1, V3_FEE, sqrtPriceX96], {
          label: `create ${state.spec.key} V3 pool`,
        })
        await chain.send(
          deployer,
          dex.v3PositionManager,
          pm,
          'mint',
          [
            {
              token0,
              token1,
              fee: V3_FEE,
              tickLower: V3_MIN_TICK,
              tickUpper: V3_MAX_TICK,
              amount0Desired: amount0,
              amount1Desired: amount1,
              amount0Min: 0n,
              amount1Min: 0n,
              recipient: deployer,
              deadline: FAR_DEADLINE,
            },
          ],
          { label: `seed ${state.spec.key} V3 position` },
        )
      }
    }
  }
  // Every trader holds USD for the USD pools, approved to the router once.
  for (const trader of accounts.traders) {
    await chain.send(deployer, dex.usd, erc20Abi, 'transfer', [trader, 50_000n * 10n ** 6n], { label: 'fund trader with USD' })
    await approveAll(chain, trader, dex.usd, dex.v2Router, 'trader approves USD')
  }
  await chain.mine()
}

async function pairOf(ctx: ZooContext, token: Address, quote: Address): Promise<Address> {
  return getAddress(await ctx.chain.read<Address>(ctx.dex.v2Factory, loadDexArtifact('UniswapV2Factory').abi, 'getPair', [token, quote]))
}

/** Deployer transfers to receivers (and to the traders of tokens that cannot be bought); LP burns and locks. */
async function distribute(ctx: ZooContext, states: TokenState[], locker: Address, anchor: number): Promise<void> {
  const { chain, accounts } = ctx
  const random = seededRandom(7)
  for (const state of states) {
    const token = state.built.address
    for (const receiver of state.receivers) {
      const amount = units(state.spec, BigInt(200 + Math.floor(random() * 4800)))
      await chain.send(accounts.deployer, token, erc20Abi, 'transfer', [receiver, amount], { label: `give ${state.spec.key}` })
    }
    if (state.spec.pools.some((p) => !p.buyable)) {
      for (const trader of state.traders) {
        const amount = units(state.spec, BigInt(1000 + Math.floor(random() * 4000)))
        await chain.send(accounts.deployer, token, erc20Abi, 'transfer', [trader, amount], { label: `give ${state.spec.key} to trader` })
        state.holders.add(trader)
      }
    }
    if (state.spec.extraLiquidity) {
      const amount = units(state.spec, 20_000n)
      await chain.send(accounts.deployer, token, erc20Abi, 'transfer', [accounts.lpProvider, amount], { label: `give ${state.spec.key} to LP provider` })
    }
    if (state.spec.lpPlan === 'burn-and-lock') await burnAndLock(ctx, state, locker, anchor)
  }
}

async function burnAndLock(ctx: ZooContext, state: TokenState, locker: Address, anchor: number): Promise<void> {
  const { chain, accounts } = ctx
  const pair = await pairOf(ctx, state.built.address, ctx.dex.weth)
  const total = await chain.read<bigint>(pair, erc20Abi, 'totalSupply')
  const share = (percent: bigint): bigint => (total * percent) / 100n
  await chain.send(accounts.deployer, pair, erc20Abi, 'transfer', [DEAD_ADDRESS, share(HISTORY.burnPercent)], { label: 'burn LP' })
  await approveAll(chain, accounts.deployer, pair, locker, 'approve LP to locker')
  for (const lock of HISTORY.futureLocks) {
    await chain.send(accounts.deployer, locker, lockerAbi(), 'lock', [pair, share(lock.percent), BigInt(anchor + lock.after)], { label: 'lock LP' })
  }
  await chain.send(
    accounts.deployer,
    locker,
    lockerAbi(),
    'lock',
    [pair, share(HISTORY.expiredLockPercent), BigInt(anchor - HISTORY.expiredLockUnlock)],
    { label: 'lock LP (short)' },
  )
}

async function withdrawExpiredLock(ctx: ZooContext, states: TokenState[], locker: Address): Promise<void> {
  for (const state of states) {
    if (state.spec.lpPlan !== 'burn-and-lock') continue
    const pair = await pairOf(ctx, state.built.address, ctx.dex.weth)
    await ctx.chain.send(ctx.accounts.deployer, locker, lockerAbi(), 'withdraw', [pair, BigInt(HISTORY.futureLocks.length)], {
      label: 'withdraw expired LP lock',
    })
  }
}

async function addExtraLiquidity(ctx: ZooContext, states: TokenState[]): Promise<void> {
  const { chain, dex, accounts } = ctx
  for (const state of states) {
    if (!state.spec.extraLiquidity) continue
    const token = state.built.address
    await approveOnce(ctx, state, accounts.lpProvider, token, dex.v2Router)
    // Tokens and ether at about the pool's price: the router takes what matches.
    await chain.send(
      accounts.lpProvider,
      dex.v2Router,
      routerAbi(),
      'addLiquidityETH',
      [token, units(state.spec, 10_000n), 0n, 0n, accounts.lpProvider, FAR_DEADLINE],
      { value: 10n ** 18n, label: `LP provider adds to ${state.spec.key}` },
    )
  }
}

async function runStory(ctx: ZooContext, states: TokenState[], point: StoryPoint): Promise<void> {
  for (const state of states) {
    const act = state.spec.story?.[point]
    if (act) await act(ctx, state.built.address, state.spec, { traders: state.traders, receivers: state.receivers })
  }
}

/** Buys and sells of one phase: a few per token, by its traders, in each of its tradable pools. */
async function tradePhase(ctx: ZooContext, states: TokenState[], phase: number, random: () => number): Promise<void> {
  const { chain, dex } = ctx
  for (const state of states) {
    const token = state.built.address
    // What each holder has already committed to sell or send this phase: its balance is read as the
    // phase began (this phase's trades are not mined yet), and shares of it must not add up past it.
    const committed = new Map<Address, bigint>()
    const available = async (holder: Address) =>
      (await chain.read<bigint>(token, erc20Abi, 'balanceOf', [holder])) - (committed.get(holder) ?? 0n)
    for (const [poolIndex, pool] of state.spec.pools.entries()) {
      // Two-pool tokens trade in their second pool every other phase.
      if (poolIndex > 0 && phase % 2 === 1) continue
      // The venues' pools (PancakeSwap V3, Uniswap V4) are seeded, not traded, in the history.
      if (!HISTORY_TRADED.includes(pool.type) || pool.quote === 'ZOO' || pool.traded === false) continue
      if (pool.buyable) {
        for (let k = 0; k < BUYS_PER_PHASE; k++) {
          const trader = state.traders[(phase * BUYS_PER_PHASE + k + poolIndex) % state.traders.length]
          await buy(ctx, pool, token, trader, random, state.spec.key)
          state.holders.add(trader)
        }
      }
      if (pool.honeypotReason === '' && phase > 0) {
        const sellers = [...state.holders]
        for (let k = 0; k < SELLS_PER_PHASE && sellers.length > 0; k++) {
          const trader = sellers[(phase + k) % sellers.length]
          const balance = await available(trader)
          const amount = (balance * BigInt(20 + Math.floor(random() * 30))) / 100n
          if (amount <= 0n) continue
          committed.set(trader, (committed.get(trader) ?? 0n) + amount)
          const spender = pool.type === 'uniswap-v3' ? dex.v3SwapRouter : dex.v2Router
          await approveOnce(ctx, state, trader, token, spender)
          await sell(ctx, pool, token, trader, amount, state.spec.key)
        }
      }
    }
    // A wallet-to-wallet transfer now and then (the transfer tax applies to it).
    if (phase % 3 === 2) {
      const from = state.traders[phase % state.traders.length]
      if (state.holders.has(from)) {
        const balance = await available(from)
        if (balance > 10n) {
          await chain.send(from, token, erc20Abi, 'transfer', [state.receivers[phase % state.receivers.length], balance / 10n], {
            label: `transfer ${state.spec.key}`,
          })
        }
      }
    }
  }
  // The WETH/USD pool trades a little too.
  const trader = ctx.accounts.traders[phase % ctx.accounts.traders.length]
  if (phase % 2 === 0) {
    await chain.send(trader, dex.v2Router, routerAbi(), 'swapExactETHForTokens', [0n, [dex.weth, dex.usd], trader, FAR_DEADLINE], {
      value: BigInt(1 + Math.floor(random() * 5)) * 10n ** 17n,
      label: 'buy USD',
    })
  } else {
    await chain.send(
      trader,
      dex.v2Router,
      routerAbi(),
      'swapExactTokensForETH',
      [BigInt(100 + Math.floor(random() * 400)) * 10n ** 6n, 0n, [dex.usd, dex.weth], trader, FAR_DEADLINE],
      { label: 'sell USD' },
    )
  }
}

/** A Uniswap V3 exact-input swap through the SwapRouter (ether sent along is wrapped by it). */
async function v3Swap(ctx: ZooContext, trader: Address, tokenIn: Address, tokenOut: Address, amountIn: bigint, value: bigint, label: string): Promise<void> {
  await ctx.chain.send(
    trader,
    ctx.dex.v3SwapRouter,
    loadDexArtifact('SwapRouter').abi,
    'exactInputSingle',
    [{ tokenIn, tokenOut, fee: V3_FEE, recipient: trader, deadline: FAR_DEADLINE, amountIn, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }],
    { value, label },
  )
}

async function buy(ctx: ZooContext, pool: ZooPoolSpec, token: Address, trader: Address, random: () => number, key: string): Promise<void> {
  const { chain, dex } = ctx
  const label = `buy ${key} (${pool.quote}, ${pool.type})`
  // 0.02 to 0.10 ether, or 60 to 300 USD: up to about 2,000 tokens at 0.15 USD.
  const fraction = BigInt(2 + Math.floor(random() * 9))
  if (pool.type === 'uniswap-v3') {
    const amountIn = fraction * 10n ** 16n
    await v3Swap(ctx, trader, dex.weth, token, amountIn, amountIn, label)
  } else if (pool.quote === 'WETH') {
    await chain.send(trader, dex.v2Router, routerAbi(), 'swapExactETHForTokensSupportingFeeOnTransferTokens', [0n, [dex.weth, token], trader, FAR_DEADLINE], {
      value: fraction * 10n ** 16n,
      label,
    })
  } else {
    await chain.send(
      trader,
      dex.v2Router,
      routerAbi(),
      'swapExactTokensForTokensSupportingFeeOnTransferTokens',
      [fraction * 30n * 10n ** 6n, 0n, [dex.usd, token], trader, FAR_DEADLINE],
      { label },
    )
  }
}

async function sell(ctx: ZooContext, pool: ZooPoolSpec, token: Address, trader: Address, amount: bigint, key: string): Promise<void> {
  const { chain, dex } = ctx
  const label = `sell ${key} (${pool.quote}, ${pool.type})`
  if (pool.type === 'uniswap-v3') {
    await v3Swap(ctx, trader, token, dex.weth, amount, 0n, label)
  } else {
    const quote = pool.quote === 'WETH' ? dex.weth : dex.usd
    const fn = pool.quote === 'WETH' ? 'swapExactTokensForETHSupportingFeeOnTransferTokens' : 'swapExactTokensForTokensSupportingFeeOnTransferTokens'
    await chain.send(trader, dex.v2Router, routerAbi(), fn, [amount, 0n, [token, quote], trader, FAR_DEADLINE], { label })
  }
}
