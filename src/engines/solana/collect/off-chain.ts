import { raceSignal } from '../../../abort.ts'
import { createTtlMap } from '../../../cache/cache.ts'
import type { SafeFetcher } from '../../../net/safe-fetch.ts'
import { decodeOffChainMetadata, type OffChainMetadata } from '../decode/offchain-metadata.ts'
import { known, unknown, type Known } from './facts.ts'
import { reasonOf } from './context.ts'

/** How long a document read from a URI is reused. */
export const OFF_CHAIN_METADATA_TTL_MS = 15 * 60_000
/** How long a URI that failed is not asked again (a dead or slow host costs one fetch a minute). */
export const OFF_CHAIN_FAILURE_TTL_MS = 60_000
export const OFF_CHAIN_CACHE_MAX_ENTRIES = 5_000
/** Fetches running at once; past it a report goes on without the document. */
export const MAX_OFF_CHAIN_FETCHES_IN_FLIGHT = 32

export interface OffChainMetadataReader {
  /**
   * The document at `uri`, decoded. Rejects (the report makes the fact unknown) when it cannot be
   * read, is refused, or `signal` aborts first; the fetch itself goes on for other reports.
   */
  read(uri: string, signal: AbortSignal | undefined): Promise<Known<OffChainMetadata>>
  /** Cancels the fetches in flight. */
  close(): void
}

export interface OffChainMetadataReaderOptions {
  ttlMs: number
  failureTtlMs: number
  maxEntries: number
  maxInFlight: number
}

/**
 * Reads off-chain metadata documents through the hardened fetcher, one fetch per URI at a time
 * (single flight), results and failures kept in an in-process TTL map. A fetch is bounded by the
 * fetcher's own time budget, not by the report that started it, so a report that stops waiting
 * still leaves the answer for the next one.
 *
 * @example
 * const reader = createOffChainMetadataReader(createSafeFetcher())
 * const doc = await reader.read('https://…/token.json', signal)
 */
export function createOffChainMetadataReader(fetcher: SafeFetcher, options: Partial<OffChainMetadataReaderOptions> = {}): OffChainMetadataReader {
  const o: OffChainMetadataReaderOptions = {
    ttlMs: OFF_CHAIN_METADATA_TTL_MS,
    failureTtlMs: OFF_CHAIN_FAILURE_TTL_MS,
    maxEntries: OFF_CHAIN_CACHE_MAX_ENTRIES,
    maxInFlight: MAX_OFF_CHAIN_FETCHES_IN_FLIGHT,
    ...options,
  }
  const cache = createTtlMap<Known<OffChainMetadata>>(o.ttlMs, o.maxEntries)
  const inFlight = new Map<string, Promise<Known<OffChainMetadata>>>()
  const closing = new AbortController()

  const fetchOnce = (uri: string): Promise<Known<OffChainMetadata>> =>
    fetcher
      .fetchJson(uri, { signal: closing.signal })
      .then(({ json }) => known(decodeOffChainMetadata(json, fetcher.gateways)))
      .catch((error: unknown) => unknown<OffChainMetadata>(reasonOf(error)))
      .then((result) => {
        cache.set(uri, result, result.ok ? o.ttlMs : o.failureTtlMs)
        return result
      })
      .finally(() => inFlight.delete(uri))

  return {
    async read(uri, signal) {
      let result = cache.get(uri)
      if (!result) {
        let pending = inFlight.get(uri)
        if (!pending) {
          if (inFlight.size >= o.maxInFlight) throw new Error(`${o.maxInFlight} metadata documents are being fetched already`)
          pending = fetchOnce(uri)
          inFlight.set(uri, pending)
        }
        result = await raceSignal(pending, signal, 'the report finished before the metadata document was read')
      }
      if (!result.ok) throw new Error(result.reason)
      return result
    },
    close() {
      closing.abort()
    },
  }
}
