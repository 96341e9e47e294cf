import { DeadlineError, isAbortError } from './errors.ts'

/**
 * The error a cancelled piece of work answers with: a `DeadlineError` when the signal's time ran
 * out (`AbortSignal.timeout`) or it carries no error of its own, else the signal's own reason.
 */
export function abortReason(signal: AbortSignal, deadlineMessage = 'the request deadline passed'): Error {
  const reason: unknown = signal.reason
  if (isAbortError(reason) && (reason as Error).name === 'TimeoutError') return new DeadlineError(deadlineMessage, { cause: reason })
  if (reason instanceof Error && !isAbortError(reason)) return reason
  return new DeadlineError(deadlineMessage, { cause: reason })
}

/**
 * Settles with `work`, or rejects with `abortReason(signal)` as soon as `signal` aborts — even
 * when `work` ignores the signal (its result is then dropped).
 *
 * @example
 * const report = await raceSignal(compute(), AbortSignal.timeout(5_000), 'the report took longer than 5 s')
 */
export function raceSignal<T>(work: Promise<T>, signal: AbortSignal | undefined, deadlineMessage?: string): Promise<T> {
  if (!signal) return work
  if (signal.aborted) {
    work.catch(() => {})
    return Promise.reject(abortReason(signal, deadlineMessage))
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal, deadlineMessage))
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
