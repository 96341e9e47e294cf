// `npm run bench:devnet`: how long the local world takes to be ready, built anew and loaded from
// its saved state, and on a new data directory (the install's world taken), against a baseline
// measured in the same run: an empty anvil started and
// stopped through the same supervisor. Prints figures; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compileContracts } from '@tokenrisk/devworld/compile'
import { startAnvil } from '@tokenrisk/devworld/anvil'
import { startWorld } from '@tokenrisk/devworld/world'

/** Runs of each measurement; the median is reported. */
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
/** The target for a ready world on the project's 2-core machines. */
const TARGET_MS = 15_000
/** The world of a new data directory, taken from the install's: part of a first start under 10 s. */
const FRESH_TARGET_MS = 5_000

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function main(): Promise<void> {
  compileContracts()
  const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-devnet-bench-'))
  try {
    const baseline: number[] = []
    const built: number[] = []
    const loaded: number[] = []
    const freshDir: number[] = []
    let tokens = 0
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
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
