import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { InputError, NotFoundError } from '../../errors.ts'
import { INSTANCE_DEFAULT_FORMAT, isReportFormat, reportFormatProblem, type ReportFormat } from '../../contract/report-formats.ts'
import { createTtlMap } from '../../cache/cache.ts'
import type { Store } from '../database.ts'
import { prepare } from '../prepared.ts'
import { ensureUser } from './users.ts'

/** Prefix of every key, so that a leaked key is recognisable by secret scanners. */
export const API_KEY_PREFIX = 'trk_'
const ID_BYTES = 6
const SECRET_BYTES = 32

export interface ApiKeyRecord {
  id: string
  userId: string
  name: string
  admin: boolean
  rateLimitRps: number | null
  /**
   * The view of the token reports answered to this key (docs/compat.md); undefined when the key
   * has none of its own and answers in the instance's `DEFAULT_FORMAT`.
   */
  format: ReportFormat | undefined
  createdAt: string
  revokedAt: string | null
}

export interface CreatedApiKey extends ApiKeyRecord {
  /** The key itself: shown once, never stored. */
  key: string
}

/** An authenticated caller. */
export interface Principal {
  keyId: string
  userId: string
  admin: boolean
  rateLimitRps: number | null
  /** The key's own report format (undefined: the instance's `DEFAULT_FORMAT`); a request's `?format` overrides it. */
  format: ReportFormat | undefined
}

/**
 * The format stored for a key without one of its own: it answers in the instance's
 * `DEFAULT_FORMAT` (migration 0400).
 */
const NO_OWN_FORMAT = ''

/** A stored format read back; "" or a value this version does not know: none of its own. */
function formatOf(value: string | undefined): ReportFormat | undefined {
  return isReportFormat(value) ? value : undefined
}

/** A format given to `create` or `setFormat`: a format, `default` (none of its own), or refused. */
function ownFormat(value: string): ReportFormat | undefined {
  if (value === INSTANCE_DEFAULT_FORMAT) return undefined
  if (!isReportFormat(value)) throw new InputError(reportFormatProblem(value))
  return value
}

function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest()
}

/** Splits `trk_<id>_<secret>`; undefined when the text is not shaped like one of our keys. */
function parseKey(key: string): { id: string; secret: string } | undefined {
  const m = /^trk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/.exec(key)
  return m ? { id: m[1], secret: m[2] } : undefined
}

function toRecord(row: {
  id: string
  user_id: string
  name: string
  is_admin: number
  rate_limit_rps: number | null
  report_format: string
  created_at: string
  revoked_at: string | null
}): ApiKeyRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    admin: Boolean(row.is_admin),
    rateLimitRps: row.rate_limit_rps,
    format: formatOf(row.report_format),
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  }
}

/** How long a key's row is reused without reading the database again. */
export const DEFAULT_KEY_CACHE_MS = 1_000
/** Key rows kept in memory at most. */
const KEY_CACHE_MAX_ENTRIES = 10_000

interface KeyRow {
  id: string
  user_id: string
  secret_hash: string
  is_admin: number
  rate_limit_rps: number | null
  report_format: string
  revoked_at: string | null
}

/**
 * API keys: random, shown once, stored only as a SHA-256 hash of their secret, compared in
 * constant time. A key is `trk_<id>_<secret>`: the id finds the row, the secret proves it.
 *
 * Rows read for `verify` are reused for `cacheMs` (default 1 s): every authenticated request
 * needs one, and a busy key would otherwise cost a query per request. The secret is still hashed
 * and compared on every request. A revocation in this process takes effect at once; one made by
 * another process (`tokenrisk keys revoke`) within `cacheMs`.
 */
export function createApiKeyRepository(store: Store, options: { cacheMs?: number } = {}) {
  const { db } = store
  const rows = createTtlMap<KeyRow | undefined>(options.cacheMs ?? DEFAULT_KEY_CACHE_MS, KEY_CACHE_MAX_ENTRIES)
  const rowOf = async (id: string): Promise<KeyRow | undefined> => {
    if (rows.has(id)) return rows.get(id)
    const [row] = await keyById(id)
    rows.set(id, row)
    return row
  }
  // Every authenticated request runs this lookup.
  const keyById = prepare(
    db,
    (id: string) =>
      db.selectFrom('api_keys').select(['id', 'user_id', 'secret_hash', 'is_admin', 'rate_limit_rps', 'report_format', 'revoked_at']).where('id', '=', id),
    1,
  )
  return {
    /**
     * @example
     * const { key } = await keys.create({ userId: 'alice', name: 'laptop' })
     */
    async create(input: { userId: string; name?: string; admin?: boolean; rateLimitRps?: number | null; format?: string }): Promise<CreatedApiKey> {
      if (!input.userId.trim()) throw new InputError('a key needs a user id')
      const format = input.format === undefined ? undefined : ownFormat(input.format)
      if (input.rateLimitRps != null && !(Number.isInteger(input.rateLimitRps) && input.rateLimitRps > 0)) {
        throw new InputError('rate limit must be a positive integer (requests per second)')
      }
      const id = randomBytes(ID_BYTES).toString('hex')
      const secret = randomBytes(SECRET_BYTES).toString('base64url')
      const now = new Date().toISOString()
      const record: ApiKeyRecord = {
        id,
        userId: input.userId,
        name: input.name ?? '',
        admin: input.admin ?? false,
        rateLimitRps: input.rateLimitRps ?? null,
        format,
        createdAt: now,
        revokedAt: null,
      }
      await db.transaction().execute(async (tx) => {
        await ensureUser(tx, input.userId, now)
        await tx
          .insertInto('api_keys')
          .values({
            id,
            user_id: record.userId,
            name: record.name,
            secret_hash: hashSecret(secret).toString('hex'),
            is_admin: record.admin ? 1 : 0,
            rate_limit_rps: record.rateLimitRps,
            report_format: record.format ?? NO_OWN_FORMAT,
            created_at: now,
            revoked_at: null,
          })
          .execute()
      })
      return { ...record, key: `${API_KEY_PREFIX}${id}_${secret}` }
    },

    async list(): Promise<ApiKeyRecord[]> {
      const rows = await db
        .selectFrom('api_keys')
        .select(['id', 'user_id', 'name', 'is_admin', 'rate_limit_rps', 'report_format', 'created_at', 'revoked_at'])
        .orderBy('created_at')
        .orderBy('id')
        .execute()
      return rows.map(toRecord)
    },

    /** Revokes a key; revoking twice is harmless. Throws `NotFoundError` for an unknown id. */
    async revoke(id: string): Promise<ApiKeyRecord> {
      rows.delete(id)
      const now = new Date().toISOString()
      await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute()
      const row = await db
        .selectFrom('api_keys')
        .select(['id', 'user_id', 'name', 'is_admin', 'rate_limit_rps', 'report_format', 'created_at', 'revoked_at'])
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row) throw new NotFoundError(`no API key with id ${id}`)
      return toRecord(row)
    },

    /**
     * Sets the report format of a key (revoked or not); `default` leaves it none of its own (the
     * instance's `DEFAULT_FORMAT`). Throws `NotFoundError` for an unknown id.
     */
    async setFormat(id: string, format: string): Promise<ApiKeyRecord> {
      const own = ownFormat(format)
      rows.delete(id)
      await db.updateTable('api_keys').set({ report_format: own ?? NO_OWN_FORMAT }).where('id', '=', id).execute()
      const row = await db
        .selectFrom('api_keys')
        .select(['id', 'user_id', 'name', 'is_admin', 'rate_limit_rps', 'report_format', 'created_at', 'revoked_at'])
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row) throw new NotFoundError(`no API key with id ${id}`)
      return toRecord(row)
    },

    /** The principal a key authenticates, or undefined when it is malformed, unknown or revoked. */
    async verify(key: string): Promise<Principal | undefined> {
      const parsed = parseKey(key)
      if (!parsed) return undefined
      const row = await rowOf(parsed.id)
      if (!row || row.revoked_at !== null) return undefined
      const expected = Buffer.from(row.secret_hash, 'hex')
      const actual = hashSecret(parsed.secret)
      if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined
      return { keyId: row.id, userId: row.user_id, admin: Boolean(row.is_admin), rateLimitRps: row.rate_limit_rps, format: formatOf(row.report_format) }
    },
  }
}

export type ApiKeyRepository = ReturnType<typeof createApiKeyRepository>
