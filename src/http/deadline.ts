import { raceSignal } from '../abort.ts'
import { ClientGoneError, DeadlineError, isAbortError } from '../errors.ts'

/**
 * Runs `work` under a deadline: it gets a signal that aborts when the deadline passes or the
 * client goes away, and the answer is a `DeadlineError` at the deadline even if `work` ignores
 * its signal. Nothing hangs past `timeoutMs`. When the client went away first, the answer is a
 * `ClientGoneError`, whatever `work` made of its cancelled signal.
 *
 * @example
 * const report = await withDeadline(15_000, clientDisconnectSignal(reply.raw), (signal) => service.report(1, addr, { signal }))
 */
export async function withDeadline<T>(
  timeoutMs: number,
  clientGone: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = AbortSignal.timeout(timeoutMs)
  const signal = clientGone ? AbortSignal.any([deadline, clientGone]) : deadline
  const message = `no answer within the ${Math.round(timeoutMs / 100) / 10} s deadline; try again`
  try {
    return await raceSignal(work(signal), signal, message)
  } catch (error) {
    if (clientGone?.aborted && !deadline.aborted) {
      throw new ClientGoneError('the client closed the connection before the answer was ready', { cause: error })
    }
    // Work that gave up because of our signal reports it in its own words; say it plainly.
    if (signal.aborted && isAbortError(error)) throw new DeadlineError(message, { cause: error })
    throw error
  }
}

/**
 * An AbortSignal that fires when the client's connection closes before the answer is sent
 * (the response's `close` comes before it finished writing).
 */
export function clientDisconnectSignal(response: { once(event: 'close', listener: () => void): unknown; writableFinished: boolean }): AbortSignal {
  const controller = new AbortController()
  response.once('close', () => {
    if (!response.writableFinished) controller.abort()
  })
  return controller.signal
}
