import { getAddress } from 'viem/utils'
import type { Abi, Address } from 'viem'
import { erc20Abi } from './erc20-abi.ts'
import { loadArtifact } from './compile.ts'
import type { WorldChain, Deployment } from './chain.ts'
import { loadDexArtifact } from './dex-artifacts.ts'

/** Multicall3's address on public chains; the world puts our compatible contract there. */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'
/** Deadline passed to routers: far enough never to matter. */
export const FAR_DEADLINE = 10_000_000_000n
/** Fee tier of the world's Uniswap V3 pools (0.3 %), and its tick spacing. */
export const V3_FEE = 3000
export const V3_TICK_SPACING = 60
/** The widest ticks usable at that spacing (a full-range position). */
export const V3_MIN_TICK = -887220
export const V3_MAX_TICK = 887220

/** The WETH/USD pool: 1,000 WETH against 3,000,000 USD prices ether at 3,000 USD. */
export const WETH_USD_SEED = { weth: 1_000n * 10n ** 18n, usd: 3_000_000n * 10n ** 6n }
/** The USD stablecoin's supply (6 decimals). */
export const USD_SUPPLY = 1_000_000_000n * 10n ** 6n

/** PancakeSwap V3's 0.25 % tier (the world's PancakeSwap pools) and its tick spacing. */
export const PANCAKE_V3_FEE = 2500
export const PANCAKE_V3_TICK_SPACING = 50
/** The widest ticks usable at that spacing. */
export const PANCAKE_V3_MAX_TICK = 887250
/** The world's Slipstream-interface pools: tick spacing 200, whose fee the factory sets at 0.3 %; full-range ticks. */
export const SLIPSTREAM_TICK_SPACING = 200
export const SLIPSTREAM_FEE = 3000
export const SLIPSTREAM_MAX_TICK = 887200
/** Uniswap V4 pools of the world: the static 0.3 % fee and its tick spacing; full-range ticks. */
export const V4_FEE = 3000
export const V4_TICK_SPACING = 60
export const V4_MAX_TICK = 887220

/**
 * The world's bonding-curve launchpad (ours): a curve graduates once it raised 40 ether; every curve
 * starts with a virtual reserve of 10 ether; 1 % of the native coin of every trade is kept.
 */
export const LAUNCHPAD = { graduationTarget: 40n * 10n ** 18n, virtualNative: 10n * 10n ** 18n, feeBps: 100n } as const
/** The first buys from a zoo token's curve (two traders'): 4 of its 40 ether to graduation. */
export const LAUNCHPAD_SEED_BUYS = [25n * 10n ** 17n, 15n * 10n ** 17n] as const

/**
 * The world's four.meme-interface launchpad (ours, behind four.meme's public trading interface): a
 * curve graduates once it raised 24 ether; it prices with a virtual reserve of 8 ether; 1 % of the
 * native coin of every trade is kept, never less than 0.0001 ether.
 */
export const FOUR_MEME = { maxFunds: 24n * 10n ** 18n, virtualFunds: 8n * 10n ** 18n, tradingFeeRate: 100n, minTradingFee: 10n ** 14n } as const
/** The first buys from a zoo token's four.meme-interface curve (two traders'): 3 of its 24 ether to graduation. */
export const FOUR_MEME_SEED_BUYS = [2n * 10n ** 18n, 1n * 10n ** 18n] as const
/** A buy that graduates a four.meme-interface curve: 25 ether, 24.75 of it raised after the 1 % fee. */
export const FOUR_MEME_GRADUATING_BUY = 25n * 10n ** 18n

export interface DexAddresses {
  weth: Address
  usd: Address
  multicall3: Address
  v2Factory: Address
  v2Router: Address
  v3Factory: Address
  v3Quoter: Address
  v3SwapRouter: Address
  v3PositionManager: Address
  wethUsdPair: Address
  pancakeV3Factory: Address
  pancakeV3PoolDeployer: Address
  /** Our helper that adds liquidity to V3-style pools (answers their mint callbacks). */
  v3Liquidity: Address
  v4PoolManager: Address
  /** Uniswap V4's own test router that adds liquidity (PoolModifyLiquidityTest). */
  v4LiquidityRouter: Address
  /** Our CREATE2 deployer: hooks at addresses carrying their permission bits. */
  create2: Address
  /** Our Solidly-style (Aerodrome-interface) factory: volatile and stable pools. */
  solidlyFactory: Address
  /** Our Aerodrome Slipstream-interface factory (concentrated pools named by tick spacing). */
  slipstreamFactory: Address
  /** Our bonding-curve launchpad: tokens sold from a curve for the native coin until they graduate. */
  launchpad: Address
  /** A second Uniswap V2 factory, one the local chain entry does not list: its pairs are found among holders only. */
  unlistedV2Factory: Address
  /** Our four.meme-interface launchpad: the manager holding every curve (buyTokenAMAP, sellToken) and its helper (getTokenInfo). */
  fourMemeManager: Address
  fourMemeHelper: Address
}

export interface DexDeployment {
  addresses: DexAddresses
  /** The USD stablecoin's creation, for the manifest. */
  usdCreation: Deployment
}

/**
 * Deploys the money and the exchanges from published artifacts (WETH9, Uniswap V2 and V3), our
 * Multicall3-compatible contract at its canonical address, the USD stablecoin and the WETH/USD
 * pool.
 */
export async function deployDex(chain: WorldChain, deployer: Address): Promise<DexDeployment> {
  const multicall = loadArtifact('WorldMulticall3')
  await chain.rpc.request('anvil_setCode', [MULTICALL3_ADDRESS, multicall.deployedBytecode])

  const weth = await chain.deploy(deployer, loadDexArtifact('WETH9'), [], 'deploy WETH9')
  const v2Factory = await chain.deploy(deployer, loadDexArtifact('UniswapV2Factory'), [deployer], 'deploy UniswapV2Factory')
  const v2Router = await chain.deploy(
    deployer,
    loadDexArtifact('UniswapV2Router02'),
    [v2Factory.address, weth.address],
    'deploy UniswapV2Router02',
  )
  const v3Factory = await chain.deploy(deployer, loadDexArtifact('UniswapV3Factory'), [], 'deploy UniswapV3Factory')
  const v3SwapRouter = await chain.deploy(
    deployer,
    loadDexArtifact('SwapRouter'),
    [v3Factory.address, weth.address],
    'deploy SwapRouter',
  )
  const v3Quoter = await chain.deploy(deployer, loadDexArtifact('QuoterV2'), [v3Factory.address, weth.address], 'deploy QuoterV2')
  // The position manager's token descriptor only serves tokenURI(); the world leaves it unset.
  const v3PositionManager = await chain.deploy(
    deployer,
    loadDexArtifact('NonfungiblePositionManager'),
    [v3Factory.address, weth.address, '0x0000000000000000000000000000000000000000'],
    'deploy NonfungiblePositionManager',
  )

  // PancakeSwap V3: the published factory and pool; the pool deployer is ours (the package ships
  // none), holding the published pool's creation code as the code of an account it copies from.
  const pancakePoolCode = '0x00000000000000000000000000000000ca3e0003' as Address
  await chain.rpc.request('anvil_setCode', [pancakePoolCode, loadDexArtifact('PancakeV3Pool').bytecode])
  const pancakeV3PoolDeployer = await chain.deploy(deployer, loadArtifact('WorldPancakePoolDeployer'), [pancakePoolCode], 'deploy PancakeV3PoolDeployer')
  const pancakeV3Factory = await chain.deploy(deployer, loadDexArtifact('PancakeV3Factory'), [pancakeV3PoolDeployer.address], 'deploy PancakeV3Factory')
  await chain.send(deployer, pancakeV3PoolDeployer.address, loadArtifact('WorldPancakePoolDeployer').abi as Abi, 'setFactoryAddress', [pancakeV3Factory.address], {
    label: 'PancakeV3PoolDeployer.setFactoryAddress',
  })
  const v3Liquidity = await chain.deploy(deployer, loadArtifact('WorldV3Liquidity'), [], 'deploy WorldV3Liquidity')
  // Uniswap V4: the published PoolManager and its liquidity test router.
  const v4PoolManager = await chain.deploy(deployer, loadDexArtifact('PoolManager'), [deployer], 'deploy PoolManager')
  const v4LiquidityRouter = await chain.deploy(deployer, loadDexArtifact('PoolModifyLiquidityTest'), [v4PoolManager.address], 'deploy PoolModifyLiquidityTest')
  const create2 = await chain.deploy(deployer, loadArtifact('WorldCreate2'), [], 'deploy WorldCreate2')
  const solidlyFactory = await chain.deploy(deployer, loadArtifact('WorldSolidlyFactory'), [], 'deploy WorldSolidlyFactory')
  const unlistedV2Factory = await chain.deploy(deployer, loadDexArtifact('UniswapV2Factory'), [deployer], 'deploy an unlisted UniswapV2Factory')
  const launchpad = await chain.deploy(deployer, loadArtifact('WorldLaunchpad'), [LAUNCHPAD.graduationTarget, LAUNCHPAD.virtualNative, LAUNCHPAD.feeBps], 'deploy WorldLaunchpad')

  const usd = await chain.deploy(deployer, loadArtifact('DevUsd'), [USD_SUPPLY], 'deploy DevUsd')
  await chain.send(deployer, usd.address, erc20Abi, 'approve', [v2Router.address, 2n ** 256n - 1n], { label: 'approve USD' })
  await chain.send(
    deployer,
    v2Router.address,
    loadDexArtifact('UniswapV2Router02').abi,
    'addLiquidityETH',
    [usd.address, WETH_USD_SEED.usd, 0n, 0n, deployer, FAR_DEADLINE],
    { value: WETH_USD_SEED.weth, label: 'seed WETH/USD' },
  )
  await chain.mine()
  const wethUsdPair = await chain.read<Address>(v2Factory.address, loadDexArtifact('UniswapV2Factory').abi, 'getPair', [
    weth.address,
    usd.address,
  ])
  // Aerodrome Slipstream's interface: our factory, the published Uniswap V3 pool's code for its pools.
  const slipstreamPoolCode = '0x00000000000000000000000000000000c1a50003' as Address
  await chain.rpc.request('anvil_setCode', [slipstreamPoolCode, loadDexArtifact('UniswapV3Pool').bytecode])
  const slipstreamFactory = await chain.deploy(deployer, loadArtifact('WorldSlipstreamFactory'), [slipstreamPoolCode], 'deploy WorldSlipstreamFactory')
  const fourMemeManager = await chain.deploy(
    deployer,
    loadArtifact('WorldFourMemeManager'),
    [FOUR_MEME.maxFunds, FOUR_MEME.virtualFunds, FOUR_MEME.tradingFeeRate, FOUR_MEME.minTradingFee],
    'deploy WorldFourMemeManager',
  )
  const fourMemeHelper = await chain.deploy(deployer, loadArtifact('WorldFourMemeHelper'), [fourMemeManager.address], 'deploy WorldFourMemeHelper')

  return {
    addresses: {
      weth: weth.address,
      usd: usd.address,
      multicall3: MULTICALL3_ADDRESS,
      v2Factory: v2Factory.address,
      v2Router: v2Router.address,
      v3Factory: v3Factory.address,
      v3Quoter: v3Quoter.address,
      v3SwapRouter: v3SwapRouter.address,
      v3PositionManager: v3PositionManager.address,
      wethUsdPair: getAddress(wethUsdPair),
      pancakeV3Factory: pancakeV3Factory.address,
      pancakeV3PoolDeployer: pancakeV3PoolDeployer.address,
      v3Liquidity: v3Liquidity.address,
      v4PoolManager: v4PoolManager.address,
      v4LiquidityRouter: v4LiquidityRouter.address,
      create2: create2.address,
      solidlyFactory: solidlyFactory.address,
      slipstreamFactory: slipstreamFactory.address,
      launchpad: launchpad.address,
      unlistedV2Factory: unlistedV2Factory.address,
      fourMemeManager: fourMemeManager.address,
      fourMemeHelper: fourMemeHelper.address,
    },
    usdCreation: usd,
  }
}
