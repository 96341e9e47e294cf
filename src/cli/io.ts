/** What a command may touch of the outside world; tests pass their own. */
export interface Io {
  env: NodeJS.ProcessEnv
  out(line: string): void
  err(line: string): void
  /** Whether standard output is a terminal (colours are written only then). */
  tty?: boolean
}

export const processIo: Io = {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  tty: process.stdout.isTTY === true,
}

/** Whether a command colours what it prints: on a terminal, unless NO_COLOR is set or `--no-color` given. */
export function useColor(io: Io, noColorOption: unknown): boolean {
  return io.tty === true && !noColorOption && !io.env.NO_COLOR
}
