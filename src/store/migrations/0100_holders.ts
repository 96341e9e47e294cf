import type { Kysely } from 'kysely'
import type { Migration } from './index.ts'

/**
 * The EVM holder index: per (chain, token) the last block whose Transfer logs are applied, every
 * non-zero balance (raw units as decimal text, plus a zero-padded copy that sorts numerically),
 * and the token's creation (creator, transaction, block, time), which never changes.
 */
export const holders: Migration = {
  name: '0100_holders',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('holder_index')
      .addColumn('chain_id', 'integer', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull())
      .addColumn('from_block', 'bigint', (c) => c.notNull())
      .addColumn('last_block', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('holder_index_pk', ['chain_id', 'token'])
      .execute()

    await db.schema
      .createTable('holder_balances')
      .addColumn('chain_id', 'integer', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('balance', 'text', (c) => c.notNull())
      .addColumn('balance_key', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('holder_balances_pk', ['chain_id', 'token', 'holder'])
      .execute()
    // Top holders of a token: the largest balances first.
    await db.schema
      .createIndex('holder_balances_top')
      .on('holder_balances')
      .columns(['chain_id', 'token', 'balance_key desc'])
      .execute()

    await db.schema
      .createTable('token_creation')
      .addColumn('chain_id', 'integer', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull())
      .addColumn('creator', 'text')
      .addColumn('deployer', 'text')
      .addColumn('tx_hash', 'text')
      .addColumn('block_number', 'bigint')
      .addColumn('timestamp', 'bigint')
      .addPrimaryKeyConstraint('token_creation_pk', ['chain_id', 'token'])
      .execute()
  },
}
