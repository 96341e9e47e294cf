import { solidityProject, WORLD_CONTRACTS, type Artifact } from '@tokenrisk/devworld/compile'
import { PROJECT_ROOT } from './paths.ts'

/** tokenrisk's Solidity (the probe) and the tests' contracts, compiled into artifacts/. */
export const TEST_CONTRACTS = solidityProject(PROJECT_ROOT)

/** A compiled contract of the tests' (or the probe), else of the local world (its zoo tokens). */
export function loadArtifact(contractName: string): Artifact {
  try {
    return TEST_CONTRACTS.loadArtifact(contractName)
  } catch (error) {
    try {
      return WORLD_CONTRACTS.loadArtifact(contractName)
    } catch {
      throw error
    }
  }
}
