import { raceSignal } from '../abort.ts'
import { ClientGoneError, DeadlineError, isAbortError } from '../errors.ts'

/**
 * Share of a request's deadline kept for writing its answer: the work is cut off this much before
 * the deadline (at most `MAX_ANSWER_RESERVE_MS`), so that the 503 saying so, written on a busy
 * serving thread among many others due at the same moment, still reaches the client by then.
 */
export const ANSWER_RESERVE_SHARE = 0.05
export const MAX_ANSWER_RESERVE_MS = 250
/**
 * Work given our deadline may report running out of it a few milliseconds before our own timer
 * fires (the RPC layer counts a failure that close to the deadline as the deadline's): it is our
 * deadline that passed, and the answer says so in our words.
 */
const WORK_DEADLINE_SLACK_MS = 10

export interface DeadlineOptions {
  /** How long ago the request arrived: its time queued and authenticated counts against the deadline. */
  elapsedMs?: number
  /** Cut the work off `answerReserveMs(timeoutMs)` before the deadline, to write the answer in time. */
  reserveAnswer?: boolean
}

/** The time kept for writing the answer of a request with this deadline. */
export function answerReserveMs(timeoutMs: number): number {
  return Math.min(MAX_ANSWER_RESERVE_MS, timeoutMs * ANSWER_RESERVE_SHARE)
}

/** When the work of a request must be over (epoch ms): its deadline counted from its arrival, less the answer's reserve if asked. */
export function workDeadline(timeoutMs: number, options: DeadlineOptions = {}, now = Date.now()): number {
  const reserve = options.reserveAnswer ? answerReserveMs(timeoutMs) : 0
  return now + Math.max(0, Math.floor(timeoutMs - reserve - (options.elapsedMs ?? 0)))
}

/**
 * Runs `work` under a deadline: it gets a signal that aborts when the deadline passes or the
 * client goes away, and the time (epoch ms) by which it must be over, to hand to work done
 * elsewhere (worker threads) that must stop on its own. The answer is a `DeadlineError` at the
 * deadline even if `work` ignores its signal: nothing hangs past `timeoutMs`, counted from when the
 * request arrived (`options.elapsedMs` ago: time spent queued and authenticating counts), and with
 * `options.reserveAnswer` the work is cut off a little earlier, so that the answer itself is
 * written by the deadline even when many fall due at once on a busy serving thread. When
 * the client went away first, the answer is a `ClientGoneError`, whatever `work` made of its
 * cancelled signal.
 *
 * @example
 * const report = await withDeadline(15_000, clientDisconnectSignal(reply.raw), (signal, deadlineAt) => service.report(1, addr, { signal, deadlineAt }), {
 *   elapsedMs: reply.elapsedTime,
 *   reserveAnswer: true,
 * })
 */
export async function withDeadline<T>(
  timeoutMs: number,
  clientGone: AbortSignal | undefined,
  work: (signal: AbortSignal, deadlineAt: number) => Promise<T>,
  options: DeadlineOptions = {},
): Promise<T> {
  const deadlineAt = workDeadline(timeoutMs, options)
  const deadline = AbortSignal.timeout(Math.max(0, deadlineAt - Date.now()))
  const signal = clientGone ? AbortSignal.any([deadline, clientGone]) : deadline
  const message = `no answer within the ${Math.round(timeoutMs / 100) / 10} s deadline; try again`
  try {
    return await raceSignal(work(signal, deadlineAt), signal, message)
  } catch (error) {
    if (clientGone?.aborted && !deadline.aborted) {
      throw new ClientGoneError('the client closed the connection before the answer was ready', { cause: error })
    }
    // Work that gave up because of our signal or deadline reports it in its own words; say it plainly.
    if (signal.aborted && isAbortError(error)) throw new DeadlineError(message, { cause: error })
    if (error instanceof DeadlineError && Date.now() >= deadlineAt - WORK_DEADLINE_SLACK_MS) throw new DeadlineError(message, { cause: error })
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
