import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration as KyselyMigration } from 'kysely'
import type pg from 'pg'
import { UpstreamError } from '../errors.ts'
import { MIGRATIONS, type Dialect } from './migrations/index.ts'
import type { Schema } from './schema.ts'

/** File name of the embedded database inside `DATA_DIR`. */
export const EMBEDDED_DB_FILE = 'tokenrisk.db'
/** Connections each process keeps to PostgreSQL. */
export const PG_POOL_SIZE = 10
/** How long a PostgreSQL statement may run before it is cancelled. */
export const PG_STATEMENT_TIMEOUT_MS = 10_000
/** How long SQLite waits for another process's write lock. */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000

export interface Store {
  db: Kysely<Schema>
  dialect: Dialect
  /** Where the data lives, for logs: the SQLite file or the PostgreSQL host/database. */
  location: string
  /** Round trip to the database; throws `UpstreamError` when it does not answer. */
  ping(): Promise<void>
  close(): Promise<void>
}

export interface CreateDatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded SQLite database is used. */
  databaseUrl?: string
  /** Directory of the embedded database file (created when missing). */
  dataDir: string
  /** PostgreSQL schema to use instead of `public` (created when missing); tests isolate with it. */
  pgSchema?: string
  /** Apply pending migrations (default true). */
  migrate?: boolean
}

function describePg(url: string): string {
  try {
    const u = new URL(url)
    return `postgresql://${u.hostname}:${u.port || 5432}${u.pathname}`
  } catch {
    return 'postgresql'
  }
}

/**
 * Opens the store: the embedded SQLite file under `dataDir`, or PostgreSQL when `databaseUrl`
 * is set. Migrations are applied before it returns, so every process sees the same schema.
 *
 * @example
 * const store = await createDatabase({ dataDir: './data' })
 * const store = await createDatabase({ databaseUrl: 'postgres://127.0.0.1/test', dataDir: './data' })
 */
export async function createDatabase(options: CreateDatabaseOptions): Promise<Store> {
  let db: Kysely<Schema>
  let dialect: Dialect
  let location: string
  // Each engine's driver is loaded only when it is used: a command on SQLite never loads pg.
  if (options.databaseUrl) {
    const { default: pg } = await import('pg')
    dialect = 'postgres'
    location = describePg(options.databaseUrl)
    const schema = options.pgSchema
    if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad PostgreSQL schema name ${schema}`)
    if (schema) {
      const admin = new pg.Client({ connectionString: options.databaseUrl })
      await connectOrThrow(admin, location)
      try {
        await admin.query(`create schema if not exists ${schema}`)
      } finally {
        await admin.end()
      }
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: PG_POOL_SIZE,
      statement_timeout: PG_STATEMENT_TIMEOUT_MS,
      connectionTimeoutMillis: PG_STATEMENT_TIMEOUT_MS,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    })
    // An idle client's error (server restart) must not crash the process; the next query fails
    // instead and is answered 503.
    pool.on('error', () => {})
    db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) })
  } else {
    const { default: BetterSqlite3 } = await import('better-sqlite3')
    dialect = 'sqlite'
    mkdirSync(options.dataDir, { recursive: true })
    location = join(options.dataDir, EMBEDDED_DB_FILE)
    const sqlite = new BetterSqlite3(location)
    sqlite.pragma('journal_mode = WAL')
    sqlite.pragma('synchronous = NORMAL')
    sqlite.pragma('foreign_keys = ON')
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`)
    db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) })
  }

  const store: Store = {
    db,
    dialect,
    location,
    async ping() {
      try {
        await sql`select 1`.execute(db)
      } catch (error) {
        throw new UpstreamError('the database is not reachable', { cause: error, details: location })
      }
    },
    async close() {
      await db.destroy()
    },
  }
  if (options.migrate !== false) {
    try {
      await migrate(store)
    } catch (error) {
      await db.destroy()
      throw error
    }
  }
  return store
}

/** Prepared statements kept per SQL text; the repositories issue a small, fixed set of them. */
const SQLITE_STATEMENT_CACHE_SIZE = 500

/**
 * Kysely prepares every query anew; preparing costs more than running our indexed queries, so
 * statements are reused per SQL text (bounded, oldest dropped first).
 */
function withStatementCache(sqlite: BetterSqlite3.Database) {
  const statements = new Map<string, BetterSqlite3.Statement>()
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      let statement = statements.get(sqlText)
      if (!statement) {
        statement = sqlite.prepare(sqlText)
        statements.set(sqlText, statement)
        if (statements.size > SQLITE_STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string)
      }
      return statement
    },
  }
}

async function connectOrThrow(client: pg.Client, location: string): Promise<void> {
  try {
    await client.connect()
  } catch (error) {
    throw new UpstreamError(`cannot connect to ${location}`, { cause: error })
  }
}

/** Applies every pending migration in order; safe when several processes start at once. */
export async function migrate(store: Store): Promise<string[]> {
  // Kysely's migrator looks for its own tables in any schema; pin them to the schema this
  // connection writes to (search_path may name another than `public`).
  let migrationTableSchema: string | undefined
  if (store.dialect === 'postgres') {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db)
    migrationTableSchema = rows[0]?.schema
  }
  const migrator = new Migrator({
    db: store.db,
    migrationTableSchema,
    provider: {
      async getMigrations() {
        const out: Record<string, KyselyMigration> = {}
        for (const m of MIGRATIONS) out[m.name] = { up: (db) => m.up(db, store.dialect) }
        return out
      },
    },
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message}`, { cause: error })
  }
  return (results ?? []).map((r) => r.migrationName)
}
