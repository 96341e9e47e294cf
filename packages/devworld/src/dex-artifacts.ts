import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Abi, Hex } from 'viem'

const require = createRequire(import.meta.url)

/** A contract of a published npm package, used as built (never recompiled). */
export interface NpmArtifact {
  abi: Abi
  /** Creation bytecode, 0x-prefixed (Uniswap V2's builds ship it without the prefix). */
  bytecode: Hex
}

/** Where each published contract the world deploys lives inside node_modules. */
export const DEX_ARTIFACT_PATHS = {
  WETH9: '@uniswap/v2-periphery/build/WETH9.json',
  UniswapV2Factory: '@uniswap/v2-core/build/UniswapV2Factory.json',
  UniswapV2Pair: '@uniswap/v2-core/build/UniswapV2Pair.json',
  UniswapV2Router02: '@uniswap/v2-periphery/build/UniswapV2Router02.json',
  UniswapV3Factory: '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json',
  UniswapV3Pool: '@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json',
  SwapRouter: '@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json',
  QuoterV2: '@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
  NonfungiblePositionManager:
    '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
  PancakeV3Factory: '@pancakeswap/v3-core/artifacts/contracts/PancakeV3Factory.sol/PancakeV3Factory.json',
  PancakeV3Pool: '@pancakeswap/v3-core/artifacts/contracts/PancakeV3Pool.sol/PancakeV3Pool.json',
  // Uniswap V4's package ships its Foundry build (out/): the PoolManager and its test routers.
  PoolManager: '@uniswap/v4-core/out/PoolManager.sol/PoolManager.json',
  PoolModifyLiquidityTest: '@uniswap/v4-core/out/PoolModifyLiquidityTest.sol/PoolModifyLiquidityTest.json',
  PoolSwapTest: '@uniswap/v4-core/out/PoolSwapTest.sol/PoolSwapTest.json',
} as const

export type DexContractName = keyof typeof DEX_ARTIFACT_PATHS

const cache = new Map<DexContractName, NpmArtifact>()

/**
 * Reads a published DEX contract from node_modules.
 *
 * @example
 * const router = loadDexArtifact('UniswapV2Router02')
 */
export function loadDexArtifact(name: DexContractName): NpmArtifact {
  const hit = cache.get(name)
  if (hit) return hit
  const raw = JSON.parse(readFileSync(require.resolve(DEX_ARTIFACT_PATHS[name]), 'utf8')) as {
    abi: Abi
    /** Hardhat and Waffle builds: a string; Foundry builds: `{ object }`. */
    bytecode: string | { object: string }
  }
  const code = typeof raw.bytecode === 'string' ? raw.bytecode : raw.bytecode.object
  const bytecode = (code.startsWith('0x') ? code : `0x${code}`) as Hex
  const artifact = { abi: raw.abi, bytecode }
  cache.set(name, artifact)
  return artifact
}

/** A digest of every published artifact the world deploys (part of the saved state's key). */
export function dexArtifactsDigest(): string {
  const hash = createHash('sha256')
  for (const name of Object.keys(DEX_ARTIFACT_PATHS) as DexContractName[]) {
    hash.update(name).update(loadDexArtifact(name).bytecode)
  }
  return hash.digest('hex')
}
