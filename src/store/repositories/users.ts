import type { Kysely, Transaction } from 'kysely'
import type { Schema } from '../schema.ts'

/** Creates the user row when it does not exist yet (users exist through their keys and projects). */
export async function ensureUser(db: Kysely<Schema> | Transaction<Schema>, userId: string, now: string): Promise<void> {
  await db
    .insertInto('users')
    .values({ id: userId, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
}
