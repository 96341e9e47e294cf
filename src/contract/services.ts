import type { TokenReport } from './token-report.ts'

/**
 * What the routes need from the engines. The engines implement these; the routes never reach
 * past them (no chain I/O in a handler).
 */
export interface EvmReportService {
  /**
   * Throws InputError (unsupported chain), NotFoundError (no token), UpstreamError/DeadlineError.
   * `signal` abandons the report; `deadlineAt` (epoch ms) is when it must be over, for work done
   * elsewhere (worker threads) to stop on its own even before it hears of the abort.
   */
  report(chainId: number, address: string, options: { signal?: AbortSignal; deadlineAt?: number }): Promise<TokenReport>
  /** The chains served; `addressLink` is the explorer's address page, `{address}` to replace (absent when none is configured). */
  chains(): { chainId: number; name: string; addressLink?: string }[]
  /** Resolves when the chain's RPC answers; throws UpstreamError otherwise. */
  ping(chainId: number, signal?: AbortSignal): Promise<void>
  close(): Promise<void>
}

export interface SolanaReportService<Report = unknown> {
  /** Throws InputError (malformed address), NotFoundError (no mint), UpstreamError/DeadlineError. */
  report(address: string, options: { signal?: AbortSignal }): Promise<Report>
  ping(signal?: AbortSignal): Promise<void>
  close(): Promise<void>
}
