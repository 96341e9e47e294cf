// `npm run build:contracts [-- --force]`: compiles tokenrisk's Solidity with solc-js (a development
// tool): the probe and the tests' contracts under contracts/ into artifacts/, the local world's
// under packages/devworld/contracts/ into packages/devworld/artifacts/ (both generated, ignored by
// git), and the probe's ABI and runtime code into src/engines/evm/chain/token-probe.artifact.json,
// which is committed: the service runs the probe without a compiler.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { CompileResult, SolidityProject } from '@tokenrisk/devworld/compile'

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url))
/** The probe's source, and the committed artifact built from it. */
export const PROBE_SOURCE = 'contracts/probe/TokenProbe.sol'
/** The readers the probe inherits, also compiled alone (TokenReader): what view calls carry. */
export const READERS_SOURCE = 'contracts/probe/ProbeReaders.sol'
const PROBE_SOURCES = [PROBE_SOURCE, READERS_SOURCE].map((s) => join(PROJECT_ROOT, s))
export const PROBE_ARTIFACT = join(PROJECT_ROOT, 'src', 'engines', 'evm', 'chain', 'token-probe.artifact.json')

/** The committed probe artifact's format (what `src/engines/evm/chain/probe.ts` reads). */
export interface ProbeArtifact {
  generated: string
  sourceName: string
  contractName: string
  /** Fingerprint of the source and the compiler settings it was built with. */
  sourceStamp: string
  abi: readonly unknown[]
  deployedBytecode: `0x${string}`
  /** Runtime code of TokenReader: the probe's view functions alone (same ABI for them). */
  readerBytecode: `0x${string}`
}

async function devworldCompiler() {
  return import('@tokenrisk/devworld/compile')
}

/** Whether the committed probe artifact was built from the probe's current source. */
export async function probeArtifactIsFresh(): Promise<boolean> {
  const { sourcesStamp } = await devworldCompiler()
  if (!existsSync(PROBE_ARTIFACT)) return false
  const artifact = JSON.parse(readFileSync(PROBE_ARTIFACT, 'utf8')) as ProbeArtifact
  return artifact.sourceStamp === sourcesStamp(PROJECT_ROOT, PROBE_SOURCES) && !!artifact.readerBytecode
}

/** Writes the probe's artifact from the compiled project, unless it is up to date. */
async function writeProbeArtifact(project: SolidityProject): Promise<boolean> {
  if (await probeArtifactIsFresh()) return false
  const { sourcesStamp } = await devworldCompiler()
  const compiled = project.loadArtifact('TokenProbe')
  const reader = project.loadArtifact('TokenReader')
  const artifact: ProbeArtifact = {
    generated: `by npm run build:contracts from ${PROBE_SOURCE} and ${READERS_SOURCE}; never edit by hand`,
    sourceName: compiled.sourceName,
    contractName: compiled.contractName,
    sourceStamp: sourcesStamp(PROJECT_ROOT, PROBE_SOURCES),
    abi: compiled.abi,
    deployedBytecode: compiled.deployedBytecode,
    readerBytecode: reader.deployedBytecode,
  }
  writeFileSync(PROBE_ARTIFACT, `${JSON.stringify(artifact, null, 1)}\n`)
  return true
}

export interface BuildContractsResult {
  project: CompileResult
  world: CompileResult
  probeArtifactWritten: boolean
}

/**
 * Compiles the repository's contracts and the local world's (each only when its sources changed)
 * and refreshes the probe's committed artifact.
 */
export async function buildContracts(options: { force?: boolean } = {}): Promise<BuildContractsResult> {
  const { solidityProject, WORLD_CONTRACTS } = await devworldCompiler()
  const project = solidityProject(PROJECT_ROOT)
  const result = { project: project.compileContracts(options), world: WORLD_CONTRACTS.compileContracts(options) }
  return { ...result, probeArtifactWritten: await writeProbeArtifact(project) }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await buildContracts({ force: process.argv.includes('--force') })
  const say = (name: string, r: CompileResult) => console.log(r.compiled ? `${name}: compiled ${r.contracts} contracts in ${r.ms} ms` : `${name}: up to date`)
  say('contracts/', result.project)
  say('packages/devworld/contracts/', result.world)
  if (result.probeArtifactWritten) console.log(`wrote ${PROBE_ARTIFACT}: commit it with the probe's source`)
}
