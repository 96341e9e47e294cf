import type { Kysely } from 'kysely'
import type { Migration } from './index.ts'

/** Users, API keys, projects, audits and their vulnerabilities. */
export const core: Migration = {
  name: '0001_core',
  async up(db: Kysely<unknown>, dialect) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('secret_hash', 'text', (c) => c.notNull())
      .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('rate_limit_rps', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute()
    await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute()

    await db.schema
      .createTable('projects')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('audit_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema.createIndex('projects_user').on('projects').column('user_id').execute()

    await db.schema
      .createTable('audits')
      .addColumn('id', 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
      )
      .addColumn('report_id', 'text', (c) => c.notNull().unique())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('total_lines', 'integer', (c) => c.notNull())
      .addColumn('security_score', 'double precision', (c) => c.notNull())
      .addColumn('count_high', 'integer', (c) => c.notNull())
      .addColumn('count_medium', 'integer', (c) => c.notNull())
      .addColumn('count_low', 'integer', (c) => c.notNull())
      .addColumn('count_informational', 'integer', (c) => c.notNull())
      .addColumn('count_optimization', 'integer', (c) => c.notNull())
      // The audit as the history endpoint serves it (without its link), written with its rows in
      // the same transaction: a page is read as ten strings instead of hundreds of fields.
      .addColumn('body_json', 'text', (c) => c.notNull())
      .execute()
    // The history page: a project's audits, newest first, ties broken by insertion order.
    await db.schema
      .createIndex('audits_project_newest')
      .on('audits')
      .columns(['project_id', 'created_at desc', 'id desc'])
      .execute()

    await db.schema
      .createTable('vulnerabilities')
      .addColumn('id', 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
      )
      .addColumn('audit_id', 'integer', (c) => c.notNull().references('audits.id'))
      .addColumn('ordinal', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('severity', 'text', (c) => c.notNull())
      .addColumn('confidence', 'text', (c) => c.notNull())
      .addColumn('snippet', 'text', (c) => c.notNull())
      .addColumn('line_first', 'integer', (c) => c.notNull())
      .addColumn('line_last', 'integer', (c) => c.notNull())
      .addColumn('file', 'text', (c) => c.notNull())
      .addColumn('recommendation', 'text', (c) => c.notNull())
      .addColumn('explanation', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('vulnerabilities_audit').on('vulnerabilities').columns(['audit_id', 'ordinal']).execute()
  },
}
