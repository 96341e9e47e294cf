import type { Io } from '../../src/cli/io.ts'

/** An Io that records what a command prints. */
export function captureIo(env: NodeJS.ProcessEnv): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = []
  const stderr: string[] = []
  return { env, stdout, stderr, out: (l) => void stdout.push(l), err: (l) => void stderr.push(l) }
}
