import type { Kysely } from 'kysely'
import type { Migration } from './index.ts'

/**
 * Holder indexes being brought to the head in the background: one row per (chain, token) from
 * the report that found its index incomplete until the index reaches the head. Rows left by a
 * stopped process are resumed by the next (see `src/engines/evm/holder-indexer.ts`).
 */
export const holderBackfill: Migration = {
  name: '0201_holder_backfill',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('holder_backfill')
      .addColumn('chain_id', 'integer', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull())
      .addColumn('from_block', 'bigint', (c) => c.notNull())
      .addColumn('requested_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('holder_backfill_pk', ['chain_id', 'token'])
      .execute()
  },
}
