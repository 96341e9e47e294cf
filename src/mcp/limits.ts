import { abortReason } from '../abort.ts'

// The limits of the MCP endpoint's transport, without the MCP library (the route reads them when
// the service starts; the library loads with the first request).

/** JSON-RPC messages one POST may carry: a batch beyond it is refused whole. */
export const MAX_MESSAGES_PER_POST = 16

/**
 * Tool calls one API key runs at once in a process, whatever the POSTs they came in (one POST may
 * carry many): the others wait their turn, under their own deadline.
 */
export const MAX_CONCURRENT_TOOL_CALLS_PER_KEY = 4

/** Turns of work per key: at most `perKey` run at once for a key, the others wait in order. */
export interface CallSlots {
  /** Runs `work` when a turn of `key` is free; rejects without running it when `signal` aborts first. */
  run<T>(key: string, signal: AbortSignal, work: () => Promise<T>): Promise<T>
}

/**
 * Bounded concurrency per key (the MCP endpoint's tool calls): at most `perKey` run at once for
 * one key; a waiting call whose deadline passes leaves the queue.
 *
 * @example
 * const slots = createCallSlots()
 * await slots.run(principal.keyId, signal, () => tool.run(args))
 */
export function createCallSlots(perKey = MAX_CONCURRENT_TOOL_CALLS_PER_KEY): CallSlots {
  const keys = new Map<string, { active: number; waiting: (() => void)[] }>()
  const release = (key: string) => {
    const state = keys.get(key)
    if (!state) return
    const next = state.waiting.shift()
    if (next) next()
    else if (--state.active === 0) keys.delete(key)
  }
  const acquire = (key: string, signal: AbortSignal): Promise<void> => {
    let state = keys.get(key)
    if (!state) keys.set(key, (state = { active: 0, waiting: [] }))
    if (state.active < perKey) {
      state.active++
      return Promise.resolve()
    }
    const queue = state.waiting
    return new Promise((resolve, reject) => {
      // A turn handed over keeps `active` as it is: the leaving call's turn becomes this one's.
      const go = () => {
        signal.removeEventListener('abort', onAbort)
        resolve()
      }
      const onAbort = () => {
        const i = queue.indexOf(go)
        if (i >= 0) queue.splice(i, 1)
        reject(abortReason(signal))
      }
      queue.push(go)
      signal.addEventListener('abort', onAbort, { once: true })
    })
  }
  return {
    async run(key, signal, work) {
      if (signal.aborted) throw abortReason(signal)
      await acquire(key, signal)
      try {
        return await work()
      } finally {
        release(key)
      }
    },
  }
}
