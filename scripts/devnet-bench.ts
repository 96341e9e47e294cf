// `npm run bench:devnet`: how long the local world takes to be ready, built anew and loaded from
// its saved state, against a baseline measured in the same run: an empty anvil started and
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

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function main(): Promise<void> {
  compileContracts()
  const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-devnet-bench-'))
  try {
    const baseline: number[] = []
    const built: number[] = []
    const loaded: number[] = []
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
      await again.stop()
    }
    const b = median(baseline)
    const f = median(built)
    const l = median(loaded)
    console.log(`devnet bench (${RUNS} runs, medians)`)
    console.log(`  empty anvil (baseline)   ${String(b).padStart(6)} ms`)
    console.log(`  world built anew         ${String(f).padStart(6)} ms   ${(f / b).toFixed(1)}× baseline   target < ${TARGET_MS} ms: ${f < TARGET_MS ? 'met' : 'MISSED'}`)
    console.log(`  world loaded (saved)     ${String(l).padStart(6)} ms   ${(l / b).toFixed(1)}× baseline   ${(f / l).toFixed(1)}× faster than building`)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
