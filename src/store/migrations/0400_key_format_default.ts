import type { Kysely } from 'kysely'
import type { Migration } from './index.ts'

/**
 * Keys without a report format of their own (stored as ""): they answer in the instance's
 * `DEFAULT_FORMAT`. Keys made before stored 'v1' whether or not `--format v1` was given, so the
 * two cannot be told apart: they become keys without a format of their own, which changes nothing
 * while `DEFAULT_FORMAT` is `v1` (the default), and lets an operator move every such key at once.
 * A key that must stay on `v1` is pinned again with `tokenrisk keys set-format <id> --format v1`.
 */
export const keyFormatDefault: Migration = {
  name: '0400_key_format_default',
  async up(db: Kysely<unknown>) {
    const keys = db as unknown as Kysely<{ api_keys: { report_format: string } }>
    await keys.updateTable('api_keys').set({ report_format: '' }).where('report_format', '=', 'v1').execute()
  },
}
