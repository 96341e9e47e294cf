import { sql, type Kysely } from 'kysely'
import { getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import type { Store } from '../database.ts'
import type { BackfillRequest, CreationRecord, HolderStore } from '../holder-index.ts'

/** Tables of the holder index (migration 0100_holders). */
interface HolderTables {
  holder_index: { chain_id: number; token: string; from_block: string | number | bigint; last_block: string | number | bigint; updated_at: string }
  holder_balances: { chain_id: number; token: string; holder: string; balance: string; balance_key: string }
  holder_backfill: { chain_id: number; token: string; from_block: string | number | bigint; requested_at: string }
  token_creation: {
    chain_id: number
    token: string
    creator: string | null
    deployer: string | null
    tx_hash: string | null
    block_number: string | number | bigint | null
    timestamp: string | number | bigint | null
  }
}

/** Digits of the sort key: a uint256 has at most 78 decimal digits. */
const BALANCE_KEY_DIGITS = 78
/** Holders read or written per statement (well under both engines' parameter limits). */
const CHUNK = 400

/** A balance as text that sorts numerically: zero-padded; negative balances (broken tokens) sort first. */
export function balanceKey(balance: bigint): string {
  return balance < 0n ? `-${(-balance).toString().padStart(BALANCE_KEY_DIGITS, '0')}` : balance.toString().padStart(BALANCE_KEY_DIGITS, '0')
}

const big = (v: string | number | bigint | null | undefined): bigint | undefined => (v === null || v === undefined ? undefined : BigInt(v))

/**
 * The holder index on the store (SQLite or PostgreSQL). Writes are transactional and guarded by
 * the last indexed block, so two processes indexing the same token never apply a range twice.
 *
 * @example
 * const holders = createHolderRepository(store)
 * await holders.top(1, token, 10)
 */
export function createHolderRepository(store: Store): HolderStore {
  const db = store.db as unknown as Kysely<HolderTables>
  const tokenKey = (token: Address) => token.toLowerCase()

  const toRequest = (r: HolderTables['holder_backfill']): BackfillRequest => ({ chainId: Number(r.chain_id), token: getAddress(r.token), fromBlock: BigInt(r.from_block) })

  return {
    async requestBackfill(request) {
      await db
        .insertInto('holder_backfill')
        .values({ chain_id: request.chainId, token: tokenKey(request.token), from_block: request.fromBlock.toString(), requested_at: new Date().toISOString() })
        .onConflict((oc) => oc.columns(['chain_id', 'token']).doNothing())
        .execute()
    },

    async backfill(chainId, token) {
      const row = await db.selectFrom('holder_backfill').selectAll().where('chain_id', '=', chainId).where('token', '=', tokenKey(token)).executeTakeFirst()
      return row ? toRequest(row) : undefined
    },

    async backfills() {
      return (await db.selectFrom('holder_backfill').selectAll().orderBy('requested_at').execute()).map(toRequest)
    },

    async finishBackfill(chainId, token) {
      await db.deleteFrom('holder_backfill').where('chain_id', '=', chainId).where('token', '=', tokenKey(token)).execute()
    },

    async state(chainId, token) {
      const row = await db
        .selectFrom('holder_index')
        .select(['from_block', 'last_block'])
        .where('chain_id', '=', chainId)
        .where('token', '=', tokenKey(token))
        .executeTakeFirst()
      return row ? { fromBlock: BigInt(row.from_block), lastBlock: BigInt(row.last_block) } : undefined
    },

    async apply(chainId, token, expected, next, deltas) {
      const t = tokenKey(token)
      return db.transaction().execute(async (trx) => {
        // SQLite: take the write lock first (waiting up to the busy timeout). A transaction that
        // read first cannot become a writer once another connection (a report worker) has written:
        // SQLite answers "database is locked" at once instead of waiting.
        if (store.dialect === 'sqlite') await sql`UPDATE holder_index SET last_block = last_block WHERE 0`.execute(trx)
        let query = trx.selectFrom('holder_index').select(['last_block']).where('chain_id', '=', chainId).where('token', '=', t)
        if (store.dialect === 'postgres') query = query.forUpdate()
        const row = await query.executeTakeFirst()
        const current = row ? BigInt(row.last_block) : undefined
        if (current !== expected?.lastBlock) return false
        if (!row) {
          // A concurrent first writer inserts the same key: the loser's insert fails on the key and rolls back.
          await trx
            .insertInto('holder_index')
            .values({ chain_id: chainId, token: t, from_block: next.fromBlock.toString(), last_block: next.lastBlock.toString(), updated_at: new Date().toISOString() })
            .execute()
        } else {
          const updated = await trx
            .updateTable('holder_index')
            .set({ last_block: next.lastBlock.toString(), updated_at: new Date().toISOString() })
            .where('chain_id', '=', chainId)
            .where('token', '=', t)
            .where('last_block', '=', current!.toString())
            .executeTakeFirst()
          if (Number(updated.numUpdatedRows) !== 1) return false
        }
        const byHolder = new Map<string, bigint>()
        for (const [a, d] of deltas) byHolder.set(a.toLowerCase(), (byHolder.get(a.toLowerCase()) ?? 0n) + d)
        const holders = [...byHolder.keys()]
        for (let i = 0; i < holders.length; i += CHUNK) {
          const chunk = holders.slice(i, i + CHUNK)
          const existing = await trx
            .selectFrom('holder_balances')
            .select(['holder', 'balance'])
            .where('chain_id', '=', chainId)
            .where('token', '=', t)
            .where('holder', 'in', chunk)
            .execute()
          const before = new Map(existing.map((r) => [r.holder, BigInt(r.balance)]))
          const upserts: HolderTables['holder_balances'][] = []
          const zeros: string[] = []
          for (const h of chunk) {
            const delta = byHolder.get(h) ?? 0n
            const v = (before.get(h) ?? 0n) + delta
            if (v === 0n) zeros.push(h)
            else upserts.push({ chain_id: chainId, token: t, holder: h, balance: v.toString(), balance_key: balanceKey(v) })
          }
          if (upserts.length > 0) {
            await trx
              .insertInto('holder_balances')
              .values(upserts)
              .onConflict((oc) =>
                oc.columns(['chain_id', 'token', 'holder']).doUpdateSet({
                  balance: (eb) => eb.ref('excluded.balance'),
                  balance_key: (eb) => eb.ref('excluded.balance_key'),
                }),
              )
              .execute()
          }
          if (zeros.length > 0) {
            await trx.deleteFrom('holder_balances').where('chain_id', '=', chainId).where('token', '=', t).where('holder', 'in', zeros).execute()
          }
        }
        return true
      }).catch((error: unknown) => {
        // Lost the race to create the index row: the other writer's range is the one applied.
        if (/unique|duplicate|constraint/i.test((error as Error).message)) return false
        throw error
      })
    },

    async top(chainId, token, limit) {
      const rows = await db
        .selectFrom('holder_balances')
        .select(['holder', 'balance'])
        .where('chain_id', '=', chainId)
        .where('token', '=', tokenKey(token))
        .orderBy('balance_key', 'desc')
        .orderBy('holder', 'asc')
        .limit(limit)
        .execute()
      return rows.filter((r) => !r.balance.startsWith('-')).map((r) => ({ address: getAddress(r.holder), balance: BigInt(r.balance) }))
    },

    async count(chainId, token) {
      const row = await db
        .selectFrom('holder_balances')
        .select(sql<string | number>`count(*)`.as('n'))
        .where('chain_id', '=', chainId)
        .where('token', '=', tokenKey(token))
        .where('balance', 'not like', '-%')
        .executeTakeFirst()
      return Number(row?.n ?? 0)
    },

    async balances(chainId, token, addresses) {
      const out = new Map<Address, bigint>(addresses.map((a) => [a, 0n]))
      const wanted = addresses.map((a) => a.toLowerCase())
      for (let i = 0; i < wanted.length; i += CHUNK) {
        const rows = await db
          .selectFrom('holder_balances')
          .select(['holder', 'balance'])
          .where('chain_id', '=', chainId)
          .where('token', '=', tokenKey(token))
          .where('holder', 'in', wanted.slice(i, i + CHUNK))
          .execute()
        for (const r of rows) out.set(getAddress(r.holder), BigInt(r.balance))
      }
      return out
    },

    async creation(chainId, token) {
      const row = await db
        .selectFrom('token_creation')
        .selectAll()
        .where('chain_id', '=', chainId)
        .where('token', '=', tokenKey(token))
        .executeTakeFirst()
      if (!row) return undefined
      const ts = big(row.timestamp)
      return {
        creator: row.creator ? getAddress(row.creator) : undefined,
        deployer: row.deployer ? getAddress(row.deployer) : undefined,
        txHash: (row.tx_hash ?? undefined) as Hex | undefined,
        blockNumber: big(row.block_number),
        timestamp: ts === undefined ? undefined : Number(ts),
      } satisfies CreationRecord
    },

    async saveCreation(chainId, token, record) {
      const values = {
        chain_id: chainId,
        token: tokenKey(token),
        creator: record.creator?.toLowerCase() ?? null,
        deployer: record.deployer?.toLowerCase() ?? null,
        tx_hash: record.txHash ?? null,
        block_number: record.blockNumber?.toString() ?? null,
        timestamp: record.timestamp === undefined ? null : String(record.timestamp),
      }
      await db
        .insertInto('token_creation')
        .values(values)
        .onConflict((oc) => oc.columns(['chain_id', 'token']).doNothing())
        .execute()
    },
  }
}

