import { DAMM_V1_LOCK_ESCROW as L } from './program-layouts.ts'
import type { LockerDefinition } from './locker.ts'
import { discriminatorFilter, expectLayout, fieldReader } from './venue.ts'

/**
 * Meteora DAMM v1's own lock: a `LockEscrow` per owner and pool, as the program's IDL lays it
 * out, whose escrow vault holds the pool's LP tokens `totalLockedAmount` of which are locked for
 * good (the owner keeps only the right to their fees; the program has no way to withdraw them).
 * Its escrows are searched by the pool they lock (its discriminator and the pool at its offset).
 */
export const METEORA_DAMM_V1_LOCK: LockerDefinition = {
  id: 'meteora-damm-v1-lock',
  name: 'Meteora DAMM v1 lock',
  programId: L.program,
  kind: 'pool',
  amm: 'meteora-damm-v1',
  searches: (pool) => [{ memcmp: [discriminatorFilter(L), { offset: L.fields.pool.offset, bytes: pool }] }],
  decode(address, data) {
    const what = 'Meteora DAMM v1 lock escrow'
    expectLayout(L, data, what)
    const f = fieldReader(L, data, what)
    return { address, pool: f.address('pool'), holder: f.address('escrowVault'), recipient: f.address('owner'), locked: f.u64('totalLockedAmount') }
  },
}
