import { ORCA_LOCK_CONFIG, ORCA_POSITION } from './program-layouts.ts'
import type { PositionVenue } from './position.ts'
import { expectLayout, fieldReader } from './venue.ts'

/**
 * Orca Whirlpool positions: a `Position` per position NFT (its liquidity in the pool), and the
 * program's own `LockConfig`, which locks a position for good (its only lock type, Permanent).
 * Layouts from the program's IDL.
 */
export const ORCA_WHIRLPOOL_POSITIONS: PositionVenue = {
  amm: 'orca-whirlpool',
  programId: ORCA_POSITION.program,
  lockName: 'Orca position lock',
  lockProgramId: ORCA_LOCK_CONFIG.program,
  positionSearch: (pool) => ({ dataSize: ORCA_POSITION.size!, memcmp: [{ offset: ORCA_POSITION.fields.whirlpool.offset, bytes: pool }] }),
  decodePosition(data) {
    const what = 'Orca Whirlpool position'
    expectLayout(ORCA_POSITION, data, what, true)
    const f = fieldReader(ORCA_POSITION, data, what)
    return { pool: f.address('whirlpool'), nftMint: f.address('position_mint'), liquidity: f.u128('liquidity') }
  },
  lockSearch: (pool) => ({ dataSize: ORCA_LOCK_CONFIG.size!, memcmp: [{ offset: ORCA_LOCK_CONFIG.fields.whirlpool.offset, bytes: pool }] }),
  decodeLock(data) {
    const what = 'Orca Whirlpool lock'
    expectLayout(ORCA_LOCK_CONFIG, data, what, true)
    const f = fieldReader(ORCA_LOCK_CONFIG, data, what)
    return { pool: f.address('whirlpool'), position: f.address('position') }
  },
}
