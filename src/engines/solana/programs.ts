/**
 * Addresses of the programs and well-known accounts the Solana engine reads or recognises.
 * Program ids are the same on every cluster; mints and pools listed as mainnet defaults are only
 * defaults (the service takes its pricing references as options).
 */

export const SYSTEM_PROGRAM = '11111111111111111111111111111111'
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'
export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'
export const METAPLEX_TOKEN_METADATA_PROGRAM = 'metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s'

/** Loaders: who owns a program account decides whether it can be upgraded. */
export const BPF_LOADER_UPGRADEABLE = 'BPFLoaderUpgradeab1e11111111111111111111111'
export const BPF_LOADER_2 = 'BPFLoader2111111111111111111111111111111111'
export const BPF_LOADER_1 = 'BPFLoader1111111111111111111111111111111111'
export const LOADER_V4 = 'LoaderV411111111111111111111111111111111111'
export const NATIVE_LOADER = 'NativeLoader1111111111111111111111111111111'

/** AMMs whose pools the engine can find and read through plain JSON-RPC. */
export const RAYDIUM_AMM_V4_PROGRAM = '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8'
export const RAYDIUM_CPMM_PROGRAM = 'CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C'
export const ORCA_WHIRLPOOL_PROGRAM = 'whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc'

/** Wrapped SOL: the mint pools use for SOL. */
export const WRAPPED_SOL_MINT = 'So11111111111111111111111111111111111111112'
export const MAINNET_USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
export const MAINNET_USDT_MINT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BxUZ1EB'
/** Mainnet SOL/USDC pools read to price SOL in USD (Raydium AMM v4, Orca Whirlpool). */
export const MAINNET_SOL_USD_POOLS = ['58oQChx4yWmvKdwLLZzBi4ChoCc2fqCUWBkwMihLYQo2', 'Czfq3xZZDmsdGdUyrNLtRhGc47cXcZtLG4crryfu44zE']

/**
 * Owners whose tokens no one can ever move: the incinerator (no private key; the runtime burns
 * what it holds) and the System Program (an address, not a signer).
 */
export const BURN_ADDRESSES: readonly string[] = ['1nc1nerator11111111111111111111111111111111', SYSTEM_PROGRAM]

/** Genesis hashes of the public clusters, to name the cluster behind an RPC URL. */
export const CLUSTER_GENESIS_HASHES: Record<string, 'mainnet-beta' | 'devnet' | 'testnet'> = {
  '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d': 'mainnet-beta',
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG: 'devnet',
  '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY': 'testnet',
}

export type TokenProgramName = 'spl-token' | 'token-2022'

export function tokenProgramName(owner: string): TokenProgramName | undefined {
  if (owner === TOKEN_PROGRAM) return 'spl-token'
  if (owner === TOKEN_2022_PROGRAM) return 'token-2022'
  return undefined
}
