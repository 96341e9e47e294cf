/**
 * The program that stands between tokenrisk and anvil, run as `node -e SUPERVISOR_SOURCE <bin>
 * <args...>`. It starts anvil and kills it as soon as its own stdin reaches end of file. Its
 * stdin is a pipe from the tokenrisk process, and the kernel closes that pipe whenever the
 * tokenrisk process ends, however it ends (return, crash, SIGTERM, even SIGKILL), so anvil never
 * outlives it. It also stops anvil on SIGTERM/SIGINT/SIGHUP and exits when anvil exits.
 *
 * Its first line on stdout is `supervisor: anvil pid <n>`; anvil's own output follows.
 */
export const SUPERVISOR_SOURCE = String.raw`
const { spawn } = require('node:child_process')
const [bin, ...args] = process.argv.slice(1)
const KILL_AFTER_MS = 3000
const child = spawn(bin, args, { stdio: ['ignore', 'inherit', 'inherit'] })
let stopping = false
function stop() {
  if (stopping) return
  stopping = true
  try { child.kill('SIGTERM') } catch {}
  setTimeout(() => { try { child.kill('SIGKILL') } catch {} ; process.exit(1) }, KILL_AFTER_MS).unref()
}
child.on('spawn', () => { try { process.stdout.write('supervisor: anvil pid ' + child.pid + '\n') } catch {} })
child.on('error', (e) => { try { process.stderr.write('supervisor: ' + e.message + '\n') } catch {} ; process.exit(127) })
child.on('exit', (code, signal) => process.exit(code === null ? (stopping ? 0 : 1) : code))
process.stdout.on('error', () => {})
process.stderr.on('error', () => {})
process.stdin.on('end', stop)
process.stdin.on('close', stop)
process.stdin.on('error', stop)
process.stdin.resume()
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, stop)
`
