import { RAYDIUM_CLMM_LOCKED_POSITION as LOCK, RAYDIUM_CLMM_PERSONAL_POSITION as POSITION } from './program-layouts.ts'
import type { PositionVenue } from './position.ts'
import { expectLayout, fieldReader } from './venue.ts'

/**
 * Raydium CLMM positions: a `PersonalPositionState` per position NFT (its liquidity in the pool),
 * and Raydium's LP lock (Burn & Earn), whose `LockedClmmPositionState` records a position it holds
 * for good (the NFT goes to the lock's authority; its owner keeps a fee NFT). Layouts from
 * Raydium's SDK.
 */
export const RAYDIUM_CLMM_POSITIONS: PositionVenue = {
  amm: 'raydium-clmm',
  programId: POSITION.program,
  lockName: 'Raydium LP lock',
  lockProgramId: LOCK.program,
  positionSearch: (pool) => ({ dataSize: POSITION.size!, memcmp: [{ offset: POSITION.fields.poolId.offset, bytes: pool }] }),
  decodePosition(data) {
    const what = 'Raydium CLMM position'
    expectLayout(POSITION, data, what, true)
    const f = fieldReader(POSITION, data, what)
    return { pool: f.address('poolId'), nftMint: f.address('nftMint'), liquidity: f.u128('liquidity') }
  },
  lockSearch: (pool) => ({ dataSize: LOCK.size!, memcmp: [{ offset: LOCK.fields.poolId.offset, bytes: pool }] }),
  decodeLock(data) {
    const what = 'Raydium CLMM locked position'
    expectLayout(LOCK, data, what, true)
    const f = fieldReader(LOCK, data, what)
    return { pool: f.address('poolId'), position: f.address('positionId') }
  },
}
