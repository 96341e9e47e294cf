import type { RawAccount, SolanaRpcClient } from './client.ts'

/**
 * Reads accounts for one report: every `load` asked for while the event loop is busy with other
 * work is sent together in one `getMultipleAccounts` (split by 100), and each address is read at
 * most once. Collectors stay simple (`await loader.load(x)`) while the report costs few round trips.
 */
export interface AccountLoader {
  load(address: string): Promise<RawAccount | null>
  loadMany(addresses: readonly string[]): Promise<(RawAccount | null)[]>
  /** An account another call read whole (a program-account search): a later load of it is not sent again. */
  remember(account: RawAccount): void
}

export function createAccountLoader(client: SolanaRpcClient, signal: AbortSignal | undefined): AccountLoader {
  const known = new Map<string, Promise<RawAccount | null>>()
  let queue: { address: string; resolve: (a: RawAccount | null) => void; reject: (e: unknown) => void }[] = []
  let scheduled = false

  const flush = () => {
    scheduled = false
    const batch = queue
    queue = []
    if (batch.length === 0) return
    client.getAccounts(
      batch.map((b) => b.address),
      signal,
    ).then(
      (accounts) => batch.forEach((b, i) => b.resolve(accounts[i])),
      (error) => batch.forEach((b) => b.reject(error)),
    )
  }

  const load = (address: string): Promise<RawAccount | null> => {
    const existing = known.get(address)
    if (existing) return existing
    const promise = new Promise<RawAccount | null>((resolve, reject) => {
      queue.push({ address, resolve, reject })
      if (!scheduled) {
        scheduled = true
        // After the current microtasks: collectors that start together share the call.
        setImmediate(flush)
      }
    })
    // A failed read must not surface as an unhandled rejection when no one awaits it twice.
    promise.catch(() => undefined)
    known.set(address, promise)
    return promise
  }

  return {
    load,
    loadMany: (addresses) => Promise.all(addresses.map(load)),
    remember: (account) => {
      if (!known.has(account.address)) known.set(account.address, Promise.resolve(account))
    },
  }
}
