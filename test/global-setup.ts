import { buildContracts, PROBE_ARTIFACT, PROBE_SOURCE } from '../scripts/build-contracts.ts'

/**
 * Compiles our Solidity once, before any test worker needs an artifact. The probe's artifact is
 * committed (the service runs it without a compiler): a developer who changed the probe gets it
 * rebuilt, and told to commit it; in CI a stale one fails the run.
 */
export default async function setup(): Promise<void> {
  if (process.env.CI) {
    const { probeArtifactIsFresh } = await import('../scripts/build-contracts.ts')
    if (!(await probeArtifactIsFresh())) {
      throw new Error(`${PROBE_ARTIFACT} was not built from the current ${PROBE_SOURCE}: run npm run build:contracts and commit it`)
    }
  }
  const result = await buildContracts()
  if (result.probeArtifactWritten) process.stderr.write(`\n  NOTICE: ${PROBE_SOURCE} changed: rebuilt ${PROBE_ARTIFACT}; commit it\n\n`)
}
