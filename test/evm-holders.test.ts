// The holder index repository on both stores: balances as exact decimal text ordered numerically,
// counts, guarded writes (a range is never applied twice), the token's creation record.
import { describe, expect, it } from 'vitest'
import { getAddress, type Address } from 'viem'
import { balanceKey, createHolderRepository } from '../src/store/repositories/holders.ts'
import { createMemoryHolderStore, type HolderStore } from '../src/store/holder-index.ts'
import { storeKinds } from './helpers/services.ts'

const TOKEN: Address = '0x1111111111111111111111111111111111111111'
const A: Address = '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa'
const B: Address = '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB'
/** Given in lowercase: the stores answer checksummed addresses. */
const C_LOWER: Address = '0xcccccccccccccccccccccccccccccccccccccccc'
const C: Address = getAddress(C_LOWER)
/** Above 2^64 and 2^128: exact as text, ordered as numbers. */
const BIG = 2n ** 200n + 7n

function suite(name: string, open: () => Promise<{ holders: HolderStore; close(): Promise<void> }>) {
  describe(name, () => {
    it('applies deltas, orders balances numerically, counts non-zero holders', async () => {
      const { holders, close } = await open()
      try {
        expect(await holders.state(1, TOKEN)).toBeUndefined()
        const ok = await holders.apply(1, TOKEN, undefined, { fromBlock: 0n, lastBlock: 10n }, new Map([[A, 9n], [B, BIG], [C_LOWER, 10n]]))
        expect(ok).toBe(true)
        expect(await holders.state(1, TOKEN)).toEqual({ fromBlock: 0n, lastBlock: 10n })
        expect(await holders.top(1, TOKEN, 10)).toEqual([
          { address: B, balance: BIG },
          { address: C, balance: 10n },
          { address: A, balance: 9n },
        ])
        expect(await holders.count(1, TOKEN)).toBe(3)
        // A moves everything to C: A drops out, C grows; ties are ordered by address.
        const next = await holders.apply(1, TOKEN, { fromBlock: 0n, lastBlock: 10n }, { fromBlock: 0n, lastBlock: 12n }, new Map([[A, -9n], [C, -1n]]))
        expect(next).toBe(true)
        expect(await holders.count(1, TOKEN)).toBe(2)
        expect((await holders.balances(1, TOKEN, [A, C])).get(C)).toBe(9n)
        expect((await holders.balances(1, TOKEN, [A, C])).get(A)).toBe(0n)
        await holders.apply(1, TOKEN, { fromBlock: 0n, lastBlock: 12n }, { fromBlock: 0n, lastBlock: 13n }, new Map([[A, 9n]]))
        expect((await holders.top(1, TOKEN, 3)).map((h) => h.address)).toEqual([B, A, C])
        // Another chain's index is separate.
        expect(await holders.count(56, TOKEN)).toBe(0)
      } finally {
        await close()
      }
    })

    it('keeps one background request per token until it is finished', async () => {
      const { holders, close } = await open()
      try {
        expect(await holders.backfills()).toEqual([])
        await holders.requestBackfill({ chainId: 1, token: TOKEN, fromBlock: 5n })
        await holders.requestBackfill({ chainId: 1, token: TOKEN, fromBlock: 9n })
        await holders.requestBackfill({ chainId: 56, token: TOKEN, fromBlock: 0n })
        expect(await holders.backfill(1, TOKEN)).toEqual({ chainId: 1, token: TOKEN, fromBlock: 5n })
        expect((await holders.backfills()).map((b) => b.chainId).sort()).toEqual([1, 56])
        await holders.finishBackfill(1, TOKEN)
        expect(await holders.backfill(1, TOKEN)).toBeUndefined()
        expect(await holders.backfills()).toEqual([{ chainId: 56, token: TOKEN, fromBlock: 0n }])
      } finally {
        await close()
      }
    })

    it('refuses a write whose starting block is stale: a range is never applied twice', async () => {
      const { holders, close } = await open()
      try {
        await holders.apply(1, TOKEN, undefined, { fromBlock: 0n, lastBlock: 5n }, new Map([[A, 1n]]))
        const stale = await holders.apply(1, TOKEN, undefined, { fromBlock: 0n, lastBlock: 5n }, new Map([[A, 1n]]))
        expect(stale).toBe(false)
        const alsoStale = await holders.apply(1, TOKEN, { fromBlock: 0n, lastBlock: 4n }, { fromBlock: 0n, lastBlock: 8n }, new Map([[A, 1n]]))
        expect(alsoStale).toBe(false)
        expect((await holders.balances(1, TOKEN, [A])).get(A)).toBe(1n)
        // Concurrent writers of the same next range: exactly one wins.
        const expected = { fromBlock: 0n, lastBlock: 5n }
        const results = await Promise.all(
          [1, 2, 3].map(() => holders.apply(1, TOKEN, expected, { fromBlock: 0n, lastBlock: 9n }, new Map([[A, 1n]]))),
        )
        expect(results.filter(Boolean)).toHaveLength(1)
        expect((await holders.balances(1, TOKEN, [A])).get(A)).toBe(2n)
      } finally {
        await close()
      }
    })

    it('keeps the creation record once', async () => {
      const { holders, close } = await open()
      try {
        const record = { creator: A, deployer: B, txHash: `0x${'ab'.repeat(32)}` as const, blockNumber: 42n, timestamp: 1_700_000_000 }
        await holders.saveCreation(1, TOKEN, record)
        await holders.saveCreation(1, TOKEN, { ...record, blockNumber: 43n })
        expect(await holders.creation(1, TOKEN)).toEqual(record)
        expect(await holders.creation(1, A)).toBeUndefined()
      } finally {
        await close()
      }
    })
  })
}

suite('in memory', async () => ({ holders: createMemoryHolderStore(), close: async () => {} }))
for (const kind of storeKinds()) {
  suite(kind.name, async () => {
    const t = await kind.open()
    return { holders: createHolderRepository(t.store), close: t.cleanup }
  })
}

describe('balance keys', () => {
  it('sort as the numbers they stand for', () => {
    const values = [0n, 1n, 9n, 10n, 2n ** 64n, BIG, 2n ** 256n - 1n]
    const keys = values.map(balanceKey)
    expect([...keys].sort()).toEqual(keys)
    expect(balanceKey(-5n) < balanceKey(0n)).toBe(true)
  })
})
