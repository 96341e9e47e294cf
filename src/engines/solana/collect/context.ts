import type { AccountLoader } from '../rpc/account-loader.ts'
import type { SolanaRpcClient } from '../rpc/client.ts'
import type { SolanaLogger } from '../logger.ts'
import type { OffChainMetadataReader } from './off-chain.ts'
import { MAINNET_SOL_USD_POOLS, MAINNET_USDC_MINT, MAINNET_USDT_MINT } from '../programs.ts'

/**
 * How the engine prices what it finds in pools: stablecoins count as 1 USD, SOL is priced from
 * reference SOL/stablecoin pools. The local world publishes its own (see its manifest).
 */
export interface SolanaPricing {
  /** Mints valued at exactly 1 USD, with their symbols. */
  stablecoins: { mint: string; symbol: string }[]
  /** SOL/stablecoin pools (any supported AMM) that price wrapped SOL. */
  solUsdPools: string[]
}

export const MAINNET_PRICING: SolanaPricing = {
  stablecoins: [
    { mint: MAINNET_USDC_MINT, symbol: 'USDC' },
    { mint: MAINNET_USDT_MINT, symbol: 'USDT' },
  ],
  solUsdPools: MAINNET_SOL_USD_POOLS,
}

export interface CollectLimits {
  /** Pages of 1000 signatures walked back to the mint's first transaction. */
  maxSignaturePages: number
  /** Pools read per token (the rest are counted but not priced). */
  maxPools: number
  /** Search pools with getProgramAccounts (some providers refuse it for AMM programs). */
  searchPools: boolean
  /** Count holders with getProgramAccounts (some providers refuse it for token programs). */
  countHolders: boolean
}

export const DEFAULT_COLLECT_LIMITS: CollectLimits = {
  maxSignaturePages: 3,
  maxPools: 12,
  searchPools: true,
  countHolders: true,
}

/** What every collector gets: the RPC, the batching account loader, the request's signal. */
export interface CollectContext {
  client: SolanaRpcClient
  loader: AccountLoader
  signal: AbortSignal | undefined
  logger: SolanaLogger
  pricing: SolanaPricing
  limits: CollectLimits
  /** Reads the off-chain JSON at the metadata uri; without it the JSON is not read. */
  offChain?: OffChainMetadataReader
}

/** The reason a failed read gives in a report: the error's message, never a stack. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
