import type { Hex } from 'viem'
import { concentratedVenue } from './uniswap-v3.ts'

/**
 * keccak256("Swap(address,address,int256,int256,uint160,uint128,int24,uint128,uint128)") —
 * PancakeSwap V3 pools add the protocol fees of both tokens to Uniswap V3's event.
 */
export const PANCAKE_V3_SWAP_TOPIC: Hex = '0x19b47279256b2a23a1665c810c8d55a1758940ee09377d4f8d26497a3577dc83'

/**
 * PancakeSwap V3: Uniswap V3's pool interface with its own tiers (100, 500, 2500 and 10000 by
 * default: 2500 where Uniswap has 3000), pools
 * created by a separate pool deployer (their addresses derive from it, not from the factory) and
 * `pancakeV3SwapCallback`; the factory's `getPool` finds them as Uniswap's does.
 */
export const pancakeV3 = concentratedVenue('pancake-v3', PANCAKE_V3_SWAP_TOPIC)
