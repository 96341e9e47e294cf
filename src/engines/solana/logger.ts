/** The part of a pino logger the Solana engine uses; pino's `Logger` satisfies it. */
export interface SolanaLogger {
  debug(obj: object, msg?: string): void
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: SolanaLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
}
