import { buildContracts, PROBE_ARTIFACT, PROBE_SOURCE, probeArtifactIsFresh } from '../scripts/build-contracts.ts'
import { buildAll } from '../scripts/build.mjs'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { startWorld } from '@tokenrisk/devworld/world'
import { PROJECT_ROOT, TEST_DEVNET_DIR } from './helpers/paths.ts'

/**
 * Before any test worker starts: builds the JavaScript that spawned `tokenrisk` processes run
 * (when the sources changed), and compiles our Solidity once. The probe's artifact is committed
 * (the service runs it without a compiler): a developer who changed the probe gets it rebuilt,
 * and told to commit it; in CI a stale one fails the run. Then the shared test world is built and
 * saved once (or found saved), so that the test files load it instead of each building its own at
 * the same time on a fresh clone. It lives under the system's temporary folder (TEST_DEVNET_DIR),
 * not in the project's `data/`, which is the service's own; the test worlds earlier versions left
 * there are removed.
 */
export default async function setup(): Promise<void> {
  await buildAll({ log: (line) => process.stderr.write(`${line}\n`) })
  if (process.env.CI && !(await probeArtifactIsFresh())) {
    throw new Error(`${PROBE_ARTIFACT} was not built from the current ${PROBE_SOURCE}: run npm run build:contracts and commit it`)
  }
  const result = await buildContracts()
  if (result.probeArtifactWritten) process.stderr.write(`\n  NOTICE: ${PROBE_SOURCE} changed: rebuilt ${PROBE_ARTIFACT}; commit it\n\n`)
  for (const old of ['test-devnet', 'test-serve']) rmSync(join(PROJECT_ROOT, 'data', old), { recursive: true, force: true })
  const world = await startWorld({ dataDir: TEST_DEVNET_DIR, log: (line) => process.stderr.write(`${line}\n`) })
  await world.stop()
}
