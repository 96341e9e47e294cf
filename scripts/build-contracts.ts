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

/** EVM versions the probe is also built for, beside Cancun (the main artifact). */
export const OLDER_EVM_VERSIONS = ['shanghai', 'paris'] as const
/** The committed build of the probe for an older EVM version. */
export const probeVariantArtifact = (evmVersion: string) => join(PROJECT_ROOT, 'src', 'engines', 'evm', 'chain', `token-probe.${evmVersion}.artifact.json`)

/** A build of the probe for an EVM version before Cancun (same ABI as the main artifact). */
export interface ProbeVariantArtifact {
  generated: string
  evmVersion: string
  sourceStamp: string
  deployedBytecode: `0x${string}`
  readerBytecode: `0x${string}`
}

/**
 * The probe's sources for `evmVersion`: before Cancun there is no transient storage, so the
 * probe's two transient-storage helpers use storage instead (the probe runs in one `eth_call`,
 * whose writes are discarded: the same lifetime). The rest of the probe is the same source.
 */
export function probeSourcesFor(evmVersion: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const source of [PROBE_SOURCE, READERS_SOURCE]) {
    let text = readFileSync(join(PROJECT_ROOT, source), 'utf8')
    if (evmVersion !== 'cancun') text = text.replace(/\btload\(/g, 'sload(').replace(/\btstore\(/g, 'sstore(')
    out[source] = text
  }
  return out
}

/** Compiles the probe for an older EVM version with solc-js (`evmVersion` setting, nothing else changed). */
async function compileProbeFor(evmVersion: string): Promise<{ deployedBytecode: `0x${string}`; readerBytecode: `0x${string}` }> {
  const { COMPILER_SETTINGS } = await devworldCompiler()
  const { createRequire } = await import('node:module')
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string }
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(probeSourcesFor(evmVersion)).map(([k, content]) => [k, { content }])),
    settings: { ...COMPILER_SETTINGS, evmVersion, outputSelection: { '*': { TokenProbe: ['evm.deployedBytecode.object'], TokenReader: ['evm.deployedBytecode.object'] } } },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[]
    contracts: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>>
  }
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(`the probe does not compile for ${evmVersion}:\n${errors.map((e) => e.formattedMessage).join('\n')}`)
  return {
    deployedBytecode: `0x${output.contracts[PROBE_SOURCE].TokenProbe.evm.deployedBytecode.object}`,
    readerBytecode: `0x${output.contracts[READERS_SOURCE].TokenReader.evm.deployedBytecode.object}`,
  }
}

/** Writes the probe's builds for older EVM versions, each unless it is up to date. */
async function writeProbeVariants(): Promise<boolean> {
  const { sourcesStamp } = await devworldCompiler()
  const stamp = sourcesStamp(PROJECT_ROOT, PROBE_SOURCES)
  let written = false
  for (const evmVersion of OLDER_EVM_VERSIONS) {
    const path = probeVariantArtifact(evmVersion)
    if (existsSync(path) && (JSON.parse(readFileSync(path, 'utf8')) as ProbeVariantArtifact).sourceStamp === stamp) continue
    const built = await compileProbeFor(evmVersion)
    const artifact: ProbeVariantArtifact = {
      generated: `by npm run build:contracts from ${PROBE_SOURCE} and ${READERS_SOURCE} for EVM ${evmVersion}; never edit by hand`,
      evmVersion,
      sourceStamp: stamp,
      ...built,
    }
    writeFileSync(path, `${JSON.stringify(artifact, null, 1)}\n`)
    written = true
  }
  return written
}

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
  const stamp = sourcesStamp(PROJECT_ROOT, PROBE_SOURCES)
  const variantsFresh = OLDER_EVM_VERSIONS.every((v) => existsSync(probeVariantArtifact(v)) && (JSON.parse(readFileSync(probeVariantArtifact(v), 'utf8')) as ProbeVariantArtifact).sourceStamp === stamp)
  return artifact.sourceStamp === stamp && !!artifact.readerBytecode && variantsFresh
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
  const main = await writeProbeArtifact(project)
  const variants = await writeProbeVariants()
  return { ...result, probeArtifactWritten: main || variants }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await buildContracts({ force: process.argv.includes('--force') })
  const say = (name: string, r: CompileResult) => console.log(r.compiled ? `${name}: compiled ${r.contracts} contracts in ${r.ms} ms` : `${name}: up to date`)
  say('contracts/', result.project)
  say('packages/devworld/contracts/', result.world)
  if (result.probeArtifactWritten) console.log(`wrote ${PROBE_ARTIFACT}: commit it with the probe's source`)
}
