import type { Kysely } from 'kysely'
import { core } from './0001_core.ts'
import { holders } from './0100_holders.ts'
import { auditBounds } from './0200_audit_bounds.ts'
import { holderBackfill } from './0201_holder_backfill.ts'
import { keyFormat } from './0300_key_format.ts'
import { keyFormatDefault } from './0400_key_format_default.ts'
import { findingDetector } from './0500_finding_detector.ts'

export type Dialect = 'sqlite' | 'postgres'

/** One migration: applied once, in list order, on both SQLite and PostgreSQL. */
export interface Migration {
  name: string
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>
}

/** Every migration of the store, oldest first. Append only; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [core, holders, auditBounds, holderBackfill, keyFormat, keyFormatDefault, findingDetector]
