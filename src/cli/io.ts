/** What a command may touch of the outside world; tests pass their own. */
export interface Io {
  env: NodeJS.ProcessEnv
  out(line: string): void
  err(line: string): void
}

export const processIo: Io = {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}
