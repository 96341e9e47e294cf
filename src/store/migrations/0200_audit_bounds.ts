import type { Kysely } from 'kysely'
import type { Migration } from './index.ts'

/**
 * What an audit did not cover, and where its served JSON may be cut: the files not analysed
 * (with the reason), the findings counted but not listed (per name and file), and the offsets in
 * `body_json` after its `vulnerabilities` array opens and after each vulnerability (a history
 * page that must stay small lists the first ones without parsing the audit). Audits recorded
 * before have none of these: '[]', '[]' and NULL.
 */
export const auditBounds: Migration = {
  name: '0200_audit_bounds',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('audits').addColumn('skipped_json', 'text', (c) => c.notNull().defaultTo('[]')).execute()
    await db.schema.alterTable('audits').addColumn('unlisted_json', 'text', (c) => c.notNull().defaultTo('[]')).execute()
    await db.schema.alterTable('audits').addColumn('body_cuts', 'text').execute()
  },
}
