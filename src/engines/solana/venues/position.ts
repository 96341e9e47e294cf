import type { AmmId } from '../decode/pools.ts'
import type { PoolSearch } from '../decode/pools.ts'

/**
 * A venue whose liquidity is held in positions, each owned through an NFT (Orca Whirlpool,
 * Raydium CLMM): how
 * to find a pool's positions and their locks, and how to read one. The holders of the position
 * NFTs are the pool's liquidity providers, their shares the positions' liquidity.
 */
export interface PositionVenue {
  amm: AmmId
  programId: string
  /** Name of the lock that holds positions for good, in reports, and the program whose accounts record it. */
  lockName: string
  lockProgramId: string
  positionSearch(pool: string): PoolSearch
  decodePosition(data: Uint8Array): { pool: string; nftMint: string; liquidity: bigint }
  lockSearch(pool: string): PoolSearch
  /** A lock of a position: the position it holds for good. */
  decodeLock(data: Uint8Array): { pool: string; position: string }
}
