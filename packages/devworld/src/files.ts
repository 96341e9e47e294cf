import { renameSync, writeFileSync } from 'node:fs'

/**
 * Writes a file whole before it takes its name (a temporary file renamed over it), so that a reader
 * never sees half of it and two writers at once leave one whole file.
 */
export function writeAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}-${Date.now()}`
  writeFileSync(tmp, data)
  renameSync(tmp, path)
}
