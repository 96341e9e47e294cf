// `npm run bench:devnet`: how long the local worlds take to be ready (EVM and Solana), built anew and loaded from
// its saved state, and on a new data directory (the install's world taken), against a baseline
// measured in the same run: an empty anvil started and
// stopped through the same supervisor. Then the whole service as `npm start` runs it: its first start
// on a new data directory (until `tokenrisk serve` answers /healthz, the EVM world and the Solana
// world ready) and its restart on the same directory. Prints figures; asserts nothing.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compileContracts } from '@tokenrisk/devworld/compile'
import { freePort, startAnvil } from '@tokenrisk/devworld/anvil'
import { startWorld } from '@tokenrisk/devworld/world'
import { startSolanaWorld } from '@tokenrisk/devworld/solana/world'

/** Runs of each measurement; the median is reported. */
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
/** The target for a ready world on the project's 2-core machines. */
const TARGET_MS = 15_000
/** The world of a new data directory, taken from the install's: part of a first start under 10 s. */
const FRESH_TARGET_MS = 5_000
/** The whole service on a new data directory, and restarted on the same one (issue 34). */
const SERVICE_FIRST_TARGET_MS = 10_000
const SERVICE_RESTART_TARGET_MS = 5_000
/** How long one service start may take before the bench gives up on it. */
const SERVICE_START_TIMEOUT_MS = 120_000
const PROJECT_ROOT = join(import.meta.dirname, '..')

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function main(): Promise<void> {
  compileContracts()
  const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-devnet-bench-'))
  try {
    const baseline: number[] = []
    const built: number[] = []
    const loaded: number[] = []
    const freshDir: number[] = []
    const solanaBuilt: number[] = []
    const solanaLoaded: number[] = []
    let tokens = 0
    let mints = 0
    for (let run = 0; run < RUNS; run++) {
      let started = Date.now()
      const anvil = await startAnvil({ args: ['--chain-id', '31337'] })
      baseline.push(Date.now() - started)
      await anvil.stop()

      started = Date.now()
      const fresh = await startWorld({ dataDir, useSavedState: false })
      built.push(fresh.readyMs)
      await fresh.stop()

      const again = await startWorld({ dataDir })
      if (!again.loaded) throw new Error('the saved world was not loaded')
      loaded.push(again.readyMs)
      tokens = again.manifest.tokens.length
      await again.stop()

      // A data directory of its own, as a new install's first start has: it takes the install's world.
      const newDir = mkdtempSync(join(tmpdir(), 'tokenrisk-devnet-bench-fresh-'))
      try {
        const first = await startWorld({ dataDir: newDir })
        if (!first.loaded) throw new Error('a new data directory built its own world instead of taking the install\'s')
        freshDir.push(first.readyMs)
        await first.stop()
      } finally {
        rmSync(newDir, { recursive: true, force: true })
      }

      // The local Solana world: built anew, then loaded from what the build saved.
      started = Date.now()
      const solana = await startSolanaWorld({ dataDir, useSaved: false })
      solanaBuilt.push(Date.now() - started)
      await solana.stop()
      started = Date.now()
      const solanaAgain = await startSolanaWorld({ dataDir })
      if (!solanaAgain.loaded) throw new Error('the saved Solana world was not loaded')
      solanaLoaded.push(Date.now() - started)
      mints = solanaAgain.manifest.mints.length
      await solanaAgain.stop()
    }
    const b = median(baseline)
    const f = median(built)
    const l = median(loaded)
    const n = median(freshDir)
    console.log(`devnet bench (${RUNS} runs, medians; ${tokens} zoo tokens)`)
    console.log(`  empty anvil (baseline)   ${String(b).padStart(6)} ms`)
    console.log(`  world built anew         ${String(f).padStart(6)} ms   ${(f / b).toFixed(1)}× baseline   target < ${TARGET_MS} ms: ${f < TARGET_MS ? 'met' : 'MISSED'}`)
    console.log(`  world loaded (saved)     ${String(l).padStart(6)} ms   ${(l / b).toFixed(1)}× baseline   ${(f / l).toFixed(1)}× faster than building`)
    console.log(`  new data directory       ${String(n).padStart(6)} ms   the install's world taken and loaded   target < ${FRESH_TARGET_MS} ms: ${n < FRESH_TARGET_MS ? 'met' : 'MISSED'}`)
    const sb = median(solanaBuilt)
    const sl = median(solanaLoaded)
    console.log(`  Solana world built       ${String(sb).padStart(6)} ms   ${mints} demo mints`)
    console.log(`  Solana world loaded      ${String(sl).padStart(6)} ms   ${(sb / Math.max(1, sl)).toFixed(1)}× faster than building`)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** The settings that would point the service elsewhere than at its local worlds. */
const OUTSIDE_SETTINGS = /^(RPC_URL_\d+|CHAINS_FILE|SOLANA_RPC_URL|DATABASE_URL|REDIS_URL|DEVNET|ONLY|PORT|DATA_DIR)$/

interface ServiceStart {
  ms: number
  /** Its readiness checks, each "ok" or why not. */
  checks: Record<string, string>
  tookInstallWorld: boolean
}

/**
 * Starts `tokenrisk serve` from its build, as `npm start` does, on `dataDir`; the time until it
 * answers /healthz (it listens once its worlds are ready), its /readyz checks; then stops it.
 */
async function startService(dataDir: string): Promise<ServiceStart> {
  const port = await freePort()
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !OUTSIDE_SETTINGS.test(name)))
  const started = Date.now()
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'tokenrisk.js'), 'serve', '--data-dir', dataDir, '--port', String(port)], {
    cwd: PROJECT_ROOT,
    env: { ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    const base = `http://127.0.0.1:${port}`
    for (;;) {
      if (child.exitCode !== null) throw new Error(`tokenrisk serve ended (${child.exitCode}): ${stderr.slice(-500)}`)
      if (Date.now() - started > SERVICE_START_TIMEOUT_MS) throw new Error('tokenrisk serve did not answer /healthz in time')
      const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false)
      if (ok) break
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    const ms = Date.now() - started
    const ready = (await (await fetch(`${base}/readyz`)).json()) as { checks?: Record<string, string> }
    return { ms, checks: ready.checks ?? {}, tookInstallWorld: stderr.includes('took the world this install built') }
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

async function serviceBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-serve-bench-'))
  try {
    const first = await startService(dataDir)
    const restart = await startService(dataDir)
    const checks = (s: ServiceStart) => Object.entries(s.checks).map(([name, value]) => `${name} ${value}`).join(', ')
    console.log('tokenrisk serve (its build, as npm start runs it; until /healthz answers, both worlds ready)')
    console.log(`  first start, new data dir ${String(first.ms).padStart(6)} ms   ${first.tookInstallWorld ? 'the install\'s world taken' : 'the world BUILT (no install world)'}   target < ${SERVICE_FIRST_TARGET_MS} ms: ${first.ms < SERVICE_FIRST_TARGET_MS ? 'met' : 'MISSED'}`)
    console.log(`    ready: ${checks(first)}`)
    console.log(`  restart, same data dir    ${String(restart.ms).padStart(6)} ms   target < ${SERVICE_RESTART_TARGET_MS} ms: ${restart.ms < SERVICE_RESTART_TARGET_MS ? 'met' : 'MISSED'}`)
    console.log(`    ready: ${checks(restart)}`)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (process.env.BENCH_ONLY !== 'serve') await main()
await serviceBench()
