import type { Kysely } from 'kysely'
import type { Migration } from './index.ts'

/**
 * The report format of an API key (`tokenrisk keys create --format`): the shape every token
 * report answered to it takes unless the request names one. Keys made before are 'v1', the
 * contract's shape.
 */
export const keyFormat: Migration = {
  name: '0300_key_format',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('api_keys').addColumn('report_format', 'text', (c) => c.notNull().defaultTo('v1')).execute()
  },
}
