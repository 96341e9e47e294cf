/**
 * The page's only I/O: calls to tokenrisk's JSON API on the page's own origin. With a key
 * (`PUBLIC_PAGES=off`) it sends the key the person pasted; with open pages it sends nothing of
 * its own — the browser adds the page session the page's HTML set.
 */

/** Where the API key is kept in the browser. */
export const KEY_STORAGE = 'tokenrisk.apiKey'

/** An answer that is not the report: the API's status, its message, and how long to wait. */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    /** HTTP status; 0 when the service could not be reached. */
    readonly status: number,
    message: string,
    /** `Retry-After` in seconds, when the answer gave one. */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message)
  }
}

export interface Api {
  get<T>(path: string, query?: Record<string, string>): Promise<T>
}

export interface ChainEntry {
  chainId: string
  name: string
  addressLink: string
}

/**
 * The API of the service the page came from. `root` is the service's root URL (the page knows it
 * from its own address), `key` the API key or undefined with open pages.
 */
export function createApi(root: URL, key: () => string | undefined): Api {
  return {
    async get<T>(path: string, query: Record<string, string> = {}): Promise<T> {
      const url = new URL(path, root)
      for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
      const apiKey = key()
      let response: Response
      try {
        response = await fetch(url, { headers: apiKey ? { 'x-api-key': apiKey, accept: 'application/json' } : { accept: 'application/json' }, credentials: 'same-origin' })
      } catch (error) {
        throw new ApiError(0, error instanceof Error ? error.message : String(error), undefined)
      }
      const text = await response.text()
      let body: unknown
      try {
        body = text ? JSON.parse(text) : undefined
      } catch {
        body = undefined
      }
      if (!response.ok) {
        const message = typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' ? body.message : `${response.status} ${response.statusText}`
        const retry = Number(response.headers.get('retry-after'))
        throw new ApiError(response.status, message, Number.isFinite(retry) && retry > 0 ? retry : undefined)
      }
      if (body === undefined) throw new ApiError(response.status, 'the answer was not JSON', undefined)
      return body as T
    },
  }
}

/** The key of this page when the browser refuses to store it (then it lasts as long as the page). */
let pageKey: string | undefined

/** The API key kept in this browser; undefined when none is. */
export function storedKey(): string | undefined {
  try {
    return localStorage.getItem(KEY_STORAGE) || pageKey
  } catch {
    return pageKey
  }
}

/** Keeps `key` in this browser (or forgets it with ""). */
export function storeKey(key: string): void {
  pageKey = key || undefined
  try {
    if (key) localStorage.setItem(KEY_STORAGE, key)
    else localStorage.removeItem(KEY_STORAGE)
  } catch {
    // Storage refused (a private window): the key lasts as long as the page.
  }
}
