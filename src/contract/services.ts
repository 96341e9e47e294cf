import type { TokenReport } from './token-report.ts'

/**
 * What the routes need from the engines. The engines implement these; the routes never reach
 * past them (no chain I/O in a handler).
 */
export interface EvmReportService {
  /** Throws InputError (unsupported chain), NotFoundError (no token), UpstreamError/DeadlineError. */
  report(chainId: number, address: string, options: { signal?: AbortSignal }): Promise<TokenReport>
  chains(): { chainId: number; name: string }[]
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
