import { ORCA_WHIRLPOOL, RAYDIUM_AMM_V4, RAYDIUM_CPMM, type AmmDefinition } from '../decode/pools.ts'
import { METEORA_DAMM_V2 } from './meteora-damm-v2.ts'
import { METEORA_DLMM } from './meteora-dlmm.ts'
import { METEORA_DBC } from './meteora-dbc.ts'
import { METEORA_DAMM_V1 } from './meteora-damm-v1.ts'
import { RAYDIUM_LAUNCHLAB } from './raydium-launchlab.ts'
import { PUMPSWAP } from './pumpswap.ts'
import { RAYDIUM_CLMM } from './raydium-clmm.ts'
import { JUPITER_LOCK } from './jupiter-lock.ts'
import type { LockerDefinition } from './locker.ts'
import { RAYDIUM_LP_LOCK } from './raydium-lp-lock.ts'
import { STREAMFLOW } from './streamflow.ts'
import { METEORA_DAMM_V1_LOCK } from './meteora-damm-v1-lock.ts'
import { ORCA_WHIRLPOOL_POSITIONS } from './orca-whirlpool-positions.ts'
import { RAYDIUM_CLMM_POSITIONS } from './raydium-clmm-positions.ts'
import type { PositionVenue } from './position.ts'

/**
 * The venues searched for a token's pools, in report order. Each is one module answering the
 * same questions (how to find the pools of a mint, how to read one); launchpad curves found by
 * search (LaunchLab, DBC) are pools while they sell; the pump.fun bonding curve is not searched
 * but derived from the mint (pump-curve.ts).
 */
export const POOL_VENUES: readonly AmmDefinition[] = [RAYDIUM_AMM_V4, RAYDIUM_CPMM, RAYDIUM_CLMM, ORCA_WHIRLPOOL, PUMPSWAP, METEORA_DAMM_V2, METEORA_DLMM, METEORA_DAMM_V1, RAYDIUM_LAUNCHLAB, METEORA_DBC]

/** The lock programs whose hold on a pool's LP tokens is read (collect/locks.ts). */
export const LP_LOCKERS: readonly LockerDefinition[] = [STREAMFLOW, JUPITER_LOCK, RAYDIUM_LP_LOCK, METEORA_DAMM_V1_LOCK]

/** The venues whose liquidity providers are the holders of position NFTs (collect/positions.ts). */
export const POSITION_VENUES: readonly PositionVenue[] = [ORCA_WHIRLPOOL_POSITIONS, RAYDIUM_CLMM_POSITIONS]
