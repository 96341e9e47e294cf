import { getAddress } from 'viem/utils'
import type { Address } from 'viem'
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
    },
    usdCreation: usd,
  }
}
